"""Hostile SQL through every read surface (issue 27): the CLI's `sql`, the MCP `query` tool and the
notebook API's Warehouse.sql run one sandbox. The corpus (tests/fixtures/hostile_sql/corpus.toml,
escapes and bombs) runs in-process on all three; the destroying COPY and the logging call that
killed the MCP server also run through a real CLI process (here) and a real MCP stdio session
(tests/agent/test_agent_mcp.py)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from flows.cli import app
from warehouse.agent import schema_tools
from warehouse.agent.server import build_server
from warehouse.read.api import open_warehouse
from warehouse.read.queries import QueryError, QueryRefused, QueryTimeout, run_query
from warehouse.store.db import reader, writer
from warehouse.store.publish import wal_of

ROOT = Path(__file__).resolve().parents[3]
CORPUS = tomllib.loads((ROOT / "tests/fixtures/hostile_sql/corpus.toml").read_text())["case"]
TIMEOUT = 1.0  # seconds every surface gives a statement here
#: the corpus's expect_duckdb2 applies (its header says where 2.x answers differently, and why)
DUCKDB_2 = int(duckdb.__version__.split(".")[0]) >= 2


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """A migrated warehouse (its table macros included) with a small table t."""
    path = tmp_path_factory.mktemp("hostile") / "w.duckdb"
    with writer(path, command="test") as con:
        con.execute("CREATE TABLE t AS SELECT range AS i FROM range(10)")
    return path


@pytest.fixture(scope="module")
def keeper(db):
    """A reader held open for the module: DuckDB then shares its instance with every connection the
    surfaces open (as in a long MCP session), instead of loading the catalogue at each case."""
    with reader(db) as con:
        yield con


@pytest.fixture(scope="module")
def wh(db, keeper):
    with open_warehouse(db) as handle:
        yield handle


@pytest.fixture(scope="module")
def server(db, keeper):
    return build_server(db)


def expand(sql: str, db: Path) -> str:
    sql = sql.replace("{db}", str(db)).replace("{wal}", str(wal_of(db))).replace("{dir}", str(db.parent))
    pieces = {"pad": " ", "open": "(", "close": ")", "abs": "abs(", "sub": "(SELECT ", "not": "NOT ", "plus": " + 1"}
    return re.sub(r"\{(\w+):(\d+)\}", lambda m: pieces[m[1]] * int(m[2]), sql)


def state(db: Path) -> tuple[str, list[str]]:
    """The warehouse file's digest and every file name beside it."""
    return hashlib.sha256(db.read_bytes()).hexdigest(), sorted(p.name for p in db.parent.iterdir())


def via_api(wh, sql: str) -> str:
    try:
        wh.sql(sql, timeout=TIMEOUT)
    except QueryRefused:
        return "refused"
    except QueryTimeout:
        return "timeout"
    except QueryError:
        return "failed"
    finally:
        assert wh.sql("SELECT count(*) AS n FROM t")["n"].to_list() == [10]  # the handle still works
    return "ok"


def via_cli(db: Path, sql: str) -> str:
    r = CliRunner().invoke(app, ["--db", str(db), "sql", "--timeout", str(TIMEOUT), "-f", "csv", "--", sql])
    if r.exit_code == 0:
        return "ok"
    assert r.exit_code == 1 and r.output.startswith("error: ") and "Traceback" not in r.output, r.output
    if "refused: " in r.output:
        return "refused"
    return "timeout" if "time limit" in r.output else "failed"


def via_mcp(server, sql: str, monkeypatch) -> str:
    monkeypatch.setattr(schema_tools, "QUERY_SECONDS", TIMEOUT)
    result = asyncio.run(server.call_tool("query", {"sql": sql}))
    assert not result.is_error, result.content
    error = result.structured_content["error"]
    if error is None:
        return "ok"
    if error["kind"] == "bad_argument":  # refused by the sandbox, or an argument past its bound
        return "refused"
    return "timeout" if "time limit" in error["message"] else "failed"


@pytest.mark.parametrize("surface", ["api", "cli", "mcp"])
@pytest.mark.parametrize("case", CORPUS, ids=[c["name"] for c in CORPUS])
def test_hostile_sql_corpus(db, keeper, wh, server, case, surface, monkeypatch):
    before = state(db)
    sql = expand(case["sql"], db)
    t0 = time.monotonic()
    got = {"api": lambda: via_api(wh, sql), "cli": lambda: via_cli(db, sql),
           "mcp": lambda: via_mcp(server, sql, monkeypatch)}[surface]()
    expected = case.get("expect_duckdb2", case["expect"]) if DUCKDB_2 else case["expect"]
    assert got == expected, (case["name"], surface, got)
    assert time.monotonic() - t0 < 15
    assert state(db) == before, "the warehouse file changed or a file appeared beside it"
    assert run_query(keeper, "SELECT count(*) FROM t").rows == [(10,)]  # the next statement works


def test_corpus_size():
    assert len(CORPUS) >= 100 and len({c["name"] for c in CORPUS}) == len(CORPUS)
    answers = {"refused", "failed", "timeout", "ok"}
    assert all(c["expect"] in answers and c.get("expect_duckdb2", "refused") in answers for c in CORPUS)
    assert not [c["name"] for c in CORPUS if c.get("expect_duckdb2") == "ok"]  # 2.x never runs what 1.5 stops


def cli(db: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)


@pytest.mark.slow  # runs the CLI as a process (5.8 s CPU of make check's fast set)
def test_the_destroying_copy_and_the_logging_call_through_a_real_cli(tmp_path):
    """`sql "COPY (SELECT 'pwned' AS x) TO 'edgar.duckdb' (FORMAT csv, USE_TMP_FILE false)"` truncated the
    published file to 8 bytes and exited 0; `COPY ... TO '<db>.wal'` created the WAL."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        con.execute("CREATE TABLE t AS SELECT range AS i FROM range(10)")
    before = state(db)
    for query in (f"CALL enable_logging(storage='file', storage_path='{tmp_path}/logs')",
                  f"COPY (SELECT 'pwned' AS x) TO '{wal_of(db)}' (FORMAT csv, USE_TMP_FILE false)",
                  f"COPY (SELECT 'pwned' AS x) TO '{db}' (FORMAT csv, USE_TMP_FILE false)"):
        r = cli(db, "sql", query)
        assert r.returncode == 1 and r.stderr.startswith("error: refused: ") and r.stdout == "", (query, r)
        assert state(db) == before
    assert cli(db, "status").returncode == 0
    assert cli(db, "sql", "SELECT count(*) AS n FROM t", "-f", "csv").stdout.split() == ["n", "10"]


def test_the_destroying_copy_and_the_logging_call_through_the_notebook_api(tmp_path):
    """The same COPY through Warehouse.sql; enable_logging there made every later query fail."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        con.execute("CREATE TABLE t AS SELECT range AS i FROM range(10)")
    before = state(db)
    with open_warehouse(db) as wh:
        for query in (f"CALL enable_logging(storage='file', storage_path='{tmp_path}/logs')",
                      f"COPY (SELECT 'pwned' AS x) TO '{db}' (FORMAT csv, USE_TMP_FILE false)"):
            with pytest.raises(QueryRefused):
                wh.sql(query)
            assert wh.sql("SELECT count(*) AS n FROM t")["n"].to_list() == [10]
    assert state(db) == before


def test_the_notebook_api_has_the_one_statement_time_and_row_limits(db):
    """Warehouse.sql ran `SELECT 1; SELECT 2` and had no time or row limit."""
    with open_warehouse(db) as wh:
        with pytest.raises(QueryRefused, match="one SQL statement per call, got 2"):
            wh.sql("SELECT 1; SELECT 2")
        t0 = time.monotonic()
        with pytest.raises(QueryTimeout, match="1 s statement time limit"):
            wh.sql("SELECT sum(hash(i)) FROM range(1000000000000) t(i)", timeout=1)
        assert time.monotonic() - t0 < 5
        with pytest.raises(QueryError, match="more than 5 rows"):
            wh.sql("SELECT * FROM range(100)", max_rows=5)
        assert wh.sql("SELECT * FROM range(5)", max_rows=5).height == 5
        assert wh.sql("SELECT * FROM range(200000)", max_rows=None).height == 200000


def test_a_statement_duckdb_cannot_interrupt_is_answered_at_the_limit(db):
    """`SELECT length(repeat('x', 2000000000))` builds one value in one call, which DuckDB's interrupt
    does not stop: it ran 29.5 s against a 10 s limit. The caller is answered at the limit (plus the
    1 s grace), the statement ends in the background and the connection closes without waiting."""
    t0 = time.monotonic()
    with reader(db) as con:
        with pytest.raises(QueryTimeout):
            run_query(con, "SELECT length(repeat('x', 500000000))", timeout=0.5)
        assert run_query(con, "SELECT count(*) FROM t").rows == [(10,)]  # another statement meanwhile
    assert time.monotonic() - t0 < 5
    # let it end before the test process does: tearing DuckDB down under it aborts the interpreter
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and any(t.name.startswith("edgar-sql") for t in threading.enumerate()):
        time.sleep(0.2)
