"""Prefect's DaskTaskRunner for the parse fan-out (flows/scale.py): a local two-worker Dask cluster
(processes) against a real Prefect server on loopback, started and stopped by this module.

* ``load --task-runner dask --dask-workers 2`` builds the same warehouse as the plain ``load``, the
  Prefect server records the flow run and its parse tasks, and their logs show two worker processes.
* Two Dask workers fetching from SEC (a loopback server) share the machine's rate limit: together
  never more than 10 requests in any second (8/s by default), measured at the server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import prefect_server as prefect_servers
import pytest
from compare_warehouses import VOLATILE, compare
from sec_loopback import LoopbackSEC, max_in_any_window

from helpers import COMPANYFACTS_FILES

pytestmark = pytest.mark.slow  # a Prefect server and Dask workers (make check leaves it out)

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def prefect_server(tmp_path_factory):
    """Its own loopback Prefect server (the flow runs it records are this module's only); its API URL."""
    home = tmp_path_factory.mktemp("prefect-server")
    proc, url = prefect_servers.start(home)
    try:
        try:
            prefect_servers.wait_healthy(proc, url, home)
        except prefect_servers.PrefectServerFailed as exc:
            pytest.fail(str(exc))
        yield url
    finally:
        prefect_servers.stop(proc)


def client_env(api_url: str, tmp_path: Path) -> dict[str, str]:
    """A process that talks to the loopback Prefect server (INFO logs, so task logs reach it)."""
    return {**os.environ, "PREFECT_API_URL": api_url, "PREFECT_HOME": str(tmp_path / "prefect-client"),
            "PREFECT_LOGGING_LEVEL": "INFO", "EDGAR_WAREHOUSE_BACKEND": "duckdb",
            "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "tests")])}


def api(url: str, path: str, body: dict | None = None) -> list[dict]:
    return httpx.post(f"{url}{path}", json=body or {}, timeout=30).raise_for_status().json()


def test_load_on_two_dask_workers_equals_the_plain_load(prefect_server, loaded_warehouse, tmp_path):
    db = tmp_path / "w.duckdb"
    proc = subprocess.run(
        [str(BIN / "edgar-warehouse"), "--db", str(db), "load", "--task-runner", "dask", "--dask-workers", "2",
         *map(str, COMPANYFACTS_FILES)],
        env=client_env(prefect_server, tmp_path), capture_output=True, text=True, timeout=900, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"{len(COMPANYFACTS_FILES)} loaded, 0 unchanged, 0 rejected" in proc.stdout

    # the same warehouse as the plain load of the same files in one batch (session fixture), row for row
    diffs = [d.line() for d in compare(loaded_warehouse, db, VOLATILE + ("pid", "host")) if not d.same]
    assert diffs == []

    # the server recorded the flow run, its parse tasks (two chunks per worker), and two processes
    runs = api(prefect_server, "/flow_runs/filter")
    flows = {f["id"]: f["name"] for f in api(prefect_server, "/flows/filter")}
    load_runs = [r for r in runs if flows.get(r["flow_id"]) == "edgar-load"]
    assert len(load_runs) == 1 and load_runs[0]["state_type"] == "COMPLETED"
    tasks = api(prefect_server, "/task_runs/filter",
                {"flow_runs": {"id": {"any_": [load_runs[0]["id"]]}}})
    parse = [t for t in tasks if t["name"].startswith("parse ")]
    assert len(parse) == 4 and all(t["state_type"] == "COMPLETED" for t in parse)
    logs = api(prefect_server, "/logs/filter", {"logs": {"flow_run_id": {"any_": [load_runs[0]["id"]]}}})
    pids = {m.split(" in process ")[1].split()[0] for m in (entry["message"] for entry in logs)
            if m.startswith("parsed ") and " in process " in m}
    assert len(pids) == 2, pids  # two Dask worker processes did the parsing
    assert str(os.getpid()) not in pids


_FETCH = """
import functools, json, os, sys
from flows.scale import fetch_flow, task_runner_for
from sec_loopback import loopback_client
port, n = int(sys.argv[1]), int(sys.argv[2])
requests = [("fetch_submissions", (1000 + k,)) for k in range(n)]
runner = task_runner_for("dask", workers=2)
out = fetch_flow.with_options(task_runner=runner)(functools.partial(loopback_client, port, max_retries=0),
                                                  requests, chunk_size=n // 4)
print(json.dumps({"results": len(out), "failed": sum(isinstance(r, tuple) for r in out)}))
"""


def test_two_dask_workers_share_one_sec_rate_limit(prefect_server, tmp_path):
    """SEC counts requests per organisation: two Dask worker processes fetching at once take their turns
    through the machine's rate limit (pipelines/sec_ratelimit.py) and stay within 10/s together."""
    n = 32
    with LoopbackSEC(None) as sec:  # unknown paths: quick 404s; only arrival times and senders matter
        env = {**client_env(prefect_server, tmp_path), "SEC_USER_AGENT": "Dask Test ops@example.org",
               "EDGAR_WAREHOUSE_STATE_DIR": str(tmp_path / "sec-state")}
        proc = subprocess.run([sys.executable, "-c", _FETCH, str(sec.port), str(n)], env=env, cwd=REPO,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        hits = [h for h in sec.hits if "/submissions/" in h.path]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result == {"results": n, "failed": n}  # every request answered (404: reported, not lost)
    senders = {h.headers.get("X-Loopback-Pid") for h in hits}
    assert len(hits) == n and len(senders) == 2, senders  # both workers fetched
    worst = max_in_any_window([h.at for h in hits])
    span = max(h.at for h in hits) - min(h.at for h in hits)
    print(f"\n2 Dask workers x {n // 2} requests, shared limit (default 8/s): max {worst} in any 1-second window,"
          f" {n} requests in {span:.1f} s")
    assert worst <= 10
    assert span >= (n - 1) / 8 - 0.2  # evenly spaced at the default 8/s across both workers
