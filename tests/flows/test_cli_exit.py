"""A CLI process ends without the interpreter's teardown (flows.cli._exit_without_teardown), and still
says everything it printed and the exit code scripts rely on, whatever the size of its output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flows.cli import EXIT_ERROR, EXIT_USAGE

pytestmark = pytest.mark.slow  # CLI processes (make check leaves it out)
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_output_and_exit_codes_survive_the_fast_exit(tmp_path):
    db = str(tmp_path / "w.duckdb")
    assert cli("--db", db, "init").returncode == 0
    big = cli("--db", db, "sql", "SELECT range AS n, repeat('x', 50) AS pad FROM range(20000)", "--format", "json")
    assert big.returncode == 0, big.stderr
    rows = json.loads(big.stdout)  # all of it, flushed through the pipe
    assert len(rows) == 20000 and rows[-1]["n"] == 19999
    missing = cli("--db", str(tmp_path / "none.duckdb"), "sql", "SELECT 1")
    assert missing.returncode == EXIT_ERROR and "no warehouse here" in missing.stderr
    assert cli("--db", db, "load").returncode == EXIT_USAGE  # typer's own usage error
