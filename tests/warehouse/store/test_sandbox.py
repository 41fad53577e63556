"""The agent/analyst read path (`sql`, queries.run_query): no file access at all (spill folder
included), a statement time limit, a row limit, one statement per call (issue 8, bullet 8)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from warehouse.read.queries import QueryError, QueryTimeout, run_query
from warehouse.store.db import reader, writer

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "w.duckdb"
    with writer(path, command="test") as con:
        con.execute("CREATE TABLE t AS SELECT range AS i FROM range(10)")
    return path


def sql(db: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), "sql", *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)


def test_no_file_access_even_in_the_spill_folder(db):
    """Once <db>.tmp/ existed, COPY TO and read_csv there worked from the 'no file access' sql."""
    spill = Path(str(db) + ".tmp")
    spill.mkdir()
    (spill / "secret.csv").write_text("a\n1\n")
    for query in (f"COPY (SELECT 1) TO '{spill}/x.csv'", f"SELECT * FROM read_csv('{spill}/secret.csv')",
                  "SELECT * FROM read_csv('/etc/passwd')", "ATTACH '/tmp/other.duckdb' AS o",
                  "SET temp_directory = '/tmp'", "SET enable_external_access = true"):
        r = sql(db, query)
        assert r.returncode == 1 and r.stderr.startswith("error:") and "Traceback" not in r.stderr, (query, r)
    assert not (spill / "x.csv").exists()
    with reader(db) as con:
        assert con.execute("SELECT current_setting('temp_directory')").fetchone()[0] == ""


def test_time_limit_stops_a_long_statement(db):
    with reader(db) as con:
        t0 = time.monotonic()
        with pytest.raises(QueryTimeout, match="1 s statement time limit"):
            run_query(con, "SELECT sum(hash(i)) FROM range(1000000000000) t(i)", timeout=1)
        assert time.monotonic() - t0 < 10
        assert run_query(con, "SELECT count(*) FROM t").rows == [(10,)]  # the connection still works
    t0 = time.monotonic()
    r = sql(db, "SELECT sum(hash(i)) FROM range(1000000000000) t(i)", "--timeout", "1")
    assert r.returncode == 1 and "time limit" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert time.monotonic() - t0 < 30


def test_row_limit_fetches_at_most_n_and_says_so(db):
    with reader(db) as con:
        r = run_query(con, "SELECT * FROM range(10000000000)", max_rows=5)
        assert r.rows == [(0,), (1,), (2,), (3,), (4,)] and r.truncated
        whole = run_query(con, "SELECT * FROM t", max_rows=10)
        assert len(whole.rows) == 10 and not whole.truncated
    cli = sql(db, "SELECT * FROM t ORDER BY i", "--max-rows", "3", "-f", "csv")
    assert cli.returncode == 0 and cli.stdout.split() == ["i", "0", "1", "2"]
    assert "truncated" in cli.stderr


def test_one_statement_per_call(db):
    with reader(db) as con:
        with pytest.raises(QueryError, match="one SQL statement per call, got 2"):
            run_query(con, "select 1; select 2")
        with pytest.raises(QueryError, match="got 0"):
            run_query(con, "   ")
        assert run_query(con, "select 1 AS a;").rows == [(1,)]
    r = sql(db, "select 1; select 2")
    assert r.returncode == 1 and "one SQL statement per call" in r.stderr and r.stdout == ""


def test_read_only_even_through_sql(db):
    r = sql(db, "DELETE FROM t")
    assert r.returncode == 1 and "read-only" in r.stderr.lower(), r.stderr
