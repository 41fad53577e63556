"""`prefect server start` on a free loopback port with its own home and database, for tests.

tests/conftest.py starts one for the whole run, so each CLI process a test starts talks to it
instead of starting Prefect's ephemeral server (~15 s CPU each: a refresh took 18.2 s CPU
ephemeral, 3.5 s against a running server); tests/flows/test_dask_runner.py starts its own (it
counts the flow runs its server recorded).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from scripts.pg_loopback import free_port

BIN = Path(sys.executable).parent


class PrefectServerFailed(RuntimeError):
    """The server exited or did not answer in time (the log's tail says why)."""


def start(home: Path) -> tuple[subprocess.Popen, str]:
    """Start a server keeping its database in ``home``; (process, API URL). Call ``wait_healthy``."""
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "PREFECT_UI_ENABLED": "false", "PREFECT_API_URL": ""}
    with open(home / "server.log", "w") as log:  # the child keeps its own descriptor
        proc = subprocess.Popen([str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, f"http://127.0.0.1:{port}/api"


def wait_healthy(proc: subprocess.Popen, url: str, home: Path, timeout: float = 150) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise PrefectServerFailed(f"prefect server exited ({proc.returncode}): "
                                      f"{(home / 'server.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise PrefectServerFailed(f"prefect server not healthy after {timeout:g} s: "
                                      f"{(home / 'server.log').read_text()[-2000:]}")
        time.sleep(0.5)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
