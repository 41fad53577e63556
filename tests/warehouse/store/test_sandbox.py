"""The agent/analyst read path (`sql`, queries.run_query): no file access at all (spill folder
included), a statement time limit, a row limit, one statement per call (issue 8, bullet 8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from flows.cli import EXIT_TRUNCATED
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


def test_no_cursor_reads_the_callers_python_variables(db):
    """``python_enable_replacements`` is a session setting: the sandbox set it on the reader's own
    connection only, so its cursors (every sandboxed statement runs on one: queries._execute) and a
    second reader of the same file in the process (DuckDB shares the instance) read a DataFrame or Arrow
    table of the calling Python frame by its name (1.5.5 and 2.0.1 alike)."""
    import pyarrow as pa

    secret_rows = pa.table({"x": [1, 2]})
    assert secret_rows.num_rows == 2
    with reader(db) as con, reader(db) as second:
        for c in (con.cursor(), second, second.cursor()):
            assert c.execute("SELECT current_setting('python_enable_replacements')").fetchone()[0] is False
            with pytest.raises(duckdb.CatalogException, match="secret_rows"):
                c.execute("SELECT * FROM secret_rows")
            with pytest.raises(duckdb.CatalogException, match="secret_rows"):  # a relation (2.x streams from one)
                c.sql("SELECT * FROM secret_rows").fetchall()


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
    assert cli.returncode == EXIT_TRUNCATED and cli.stdout.split() == ["i", "0", "1", "2"]
    assert "truncated" in cli.stderr
    table = sql(db, "SELECT * FROM t ORDER BY i", "--max-rows", "3")
    assert table.returncode == 0 and "truncated" in table.stderr  # a table is for reading: it says so


def test_a_page_and_a_frame_of_a_huge_result_fetch_only_what_they_return(db):
    """On DuckDB 2.x an executed cursor's Arrow reader copied the whole result first: the MCP tool's
    pages (an offset, a byte limit) and the notebook's frames (max_rows) of this statement ran into the
    time limit instead of answering (pyarrow loaded: the columnar path)."""
    import pyarrow  # noqa: F401  (the MCP server and a notebook hold it: results are fetched as Arrow)

    from warehouse.read.queries import run_arrow

    huge = "SELECT * FROM range(10000000000)"
    with reader(db) as con:
        t0 = time.monotonic()
        page = run_query(con, huge, max_rows=3, offset=5)
        assert page.rows == [(5,), (6,), (7,)] and page.truncated and page.next_offset == 8
        cut = run_query(con, huge, max_bytes=20)
        assert cut.truncated and cut.cut_by == "bytes" and cut.rows[0] == (0,)
        with pytest.raises(QueryError, match="more than 5 rows"):
            run_arrow(con, huge, max_rows=5)
        assert time.monotonic() - t0 < 10


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
    assert r.returncode == 1 and "refused: only statements that read" in r.stderr, r.stderr


def test_csv_and_json_stream_every_row_or_exit_non_zero(tmp_path):
    """`sql "SELECT * FROM facts" -f csv > all.csv` wrote 100,001 of 495,493 rows and exited 0 (only
    stderr said `truncated`): CSV and JSON now stream every row, and a cut one exits EXIT_TRUNCATED."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        con.execute("CREATE TABLE big AS SELECT range AS i, 'row ' || range AS s FROM range(150000)")
    csv_out = sql(db, "SELECT * FROM big ORDER BY i", "-f", "csv")
    assert csv_out.returncode == 0, csv_out.stderr
    lines = csv_out.stdout.splitlines()
    assert len(lines) == 150001 and lines[0] == "i,s" and lines[-1] == "149999,row 149999"
    json_out = sql(db, "SELECT * FROM big ORDER BY i", "-f", "json")
    assert json_out.returncode == 0, json_out.stderr
    rows = json.loads(json_out.stdout)
    assert len(rows) == 150000 and rows[-1] == {"i": 149999, "s": "row 149999"}
    assert json.loads(sql(db, "SELECT * FROM big WHERE false", "-f", "json").stdout) == []
    cut = sql(db, "SELECT * FROM big ORDER BY i", "-f", "json", "--max-rows", "2")
    assert cut.returncode == EXIT_TRUNCATED and "truncated" in cut.stderr
    assert json.loads(cut.stdout) == [{"i": 0, "s": "row 0"}, {"i": 1, "s": "row 1"}]


def test_readers_memory_is_bounded_and_cannot_be_raised(db, monkeypatch):
    """Readers had DuckDB's default memory limit (80 % of RAM: 18.8 GiB here)."""
    with reader(db) as con:
        assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == "953.6 MiB"  # 1GB
        with pytest.raises(QueryError, match="refused"):
            run_query(con, "SET memory_limit = '100GB'")
        with pytest.raises(QueryError, match="refused"):
            run_query(con, "PRAGMA memory_limit = '100GB'")
    monkeypatch.setenv("EDGAR_WAREHOUSE_READER_MEMORY_LIMIT", "256MB")
    with reader(db) as con:
        assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == "244.1 MiB"


def test_a_query_runs_in_the_connections_default_catalog():
    """run_query executes on a cursor, which starts in the database's own default catalog: on the lake
    (``USE lake``) unqualified table names found nothing ('Table with name companies does not exist')."""
    con = duckdb.connect()
    con.execute("ATTACH ':memory:' AS lake")
    con.execute("USE lake")
    con.execute("CREATE TABLE companies AS SELECT 320193 AS cik")
    assert run_query(con, "SELECT cik FROM companies").rows == [(320193,)]
    con.close()
