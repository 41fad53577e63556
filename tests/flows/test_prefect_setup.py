"""Issue #27.7 and #27.8: Prefect's environment lives in the CLI (not only in the Makefile), and
Prefect failing to start is one line naming what to do.

Run in fresh interpreters, as the console script is: Prefect reads its settings when first imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "tests" / "fixtures" / "sec"
SETTINGS = """
import json, sys
sys.argv = ["edgar-warehouse", "--help"]
from flows.cli import main
try:
    main()
except SystemExit:
    pass
from prefect.settings import get_current_settings
s = get_current_settings()
print(json.dumps([s.server.ephemeral.startup_timeout_seconds, s.server.analytics_enabled, s.logging.level]))
"""
PREFECT_VARS = ("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "PREFECT_SERVER_ANALYTICS_ENABLED",
                "PREFECT_LOGGING_LEVEL", "PREFECT_API_URL")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PREFECT_VARS}
    return {**env, "PREFECT_HOME": str(tmp_path / "prefect"), **extra}


def _settings(tmp_path: Path, **extra: str) -> list:
    got = subprocess.run([sys.executable, "-c", SETTINGS], env=_env(tmp_path, **extra), capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return json.loads(got.stdout.strip().splitlines()[-1])


def test_the_cli_gives_prefect_its_defaults_and_keeps_what_the_user_set(tmp_path):
    # Prefect's own defaults are a 20 s start-up timeout and analytics on: a busy machine's first
    # run failed to start its ephemeral server, and the server sent usage telemetry.
    assert _settings(tmp_path) == [90, False, "WARNING"]
    assert _settings(tmp_path, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="300",
                     PREFECT_LOGGING_LEVEL="INFO") == [300, False, "INFO"]


def test_prefect_failing_to_start_is_one_line_and_leaves_nothing_behind(tmp_path):
    """Prefect's ephemeral server not answering in time was a 130-line RuntimeError traceback."""
    db = tmp_path / "w.duckdb"
    ran = subprocess.run(
        [str(Path(sys.executable).with_name("edgar-warehouse")), "--db", str(db), "refresh", "--cik", "1835632",
         "--replay", str(REPLAY), "--no-insiders"],
        env=_env(tmp_path, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="0"), capture_output=True, text=True,
        cwd=tmp_path, timeout=300)
    assert ran.returncode == 1, (ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1, ran.stderr
    assert lines[0].startswith("error: Prefect's ephemeral API server did not answer within 0 s"), lines[0]
    assert "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS" in lines[0] and "prefect server start" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prefect"]  # no warehouse, build or lock file
