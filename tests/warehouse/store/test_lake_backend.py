"""The DuckLake backend (warehouse/store/lake.py): the same public tables and views as the DuckDB file, built from
the same migrations, several writer processes at once, readers pinned to a snapshot.

PostgreSQL (the catalog) is started by the session fixture ``postgres_loopback`` on a free loopback port
and stopped at the end; the tests skip, saying why, only where PostgreSQL is not installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from compare_warehouses import VOLATILE, compare

from helpers import FIXTURES, backend_env, lake_extensions_missing_off_the_pin
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.schema.migrate import discover
from warehouse.store import lake
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for

pytestmark = pytest.mark.slow  # PostgreSQL and writer processes (make check leaves it out)

REPO = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
SEC = FIXTURES / "sec" / "data.sec.gov"
# two companies with small companyfacts (the whole module stays within a few minutes)
TSMC = [SEC / "api/xbrl/companyfacts/CIK0001046179.json.gz", SEC / "submissions/CIK0001046179.json.gz"]
OTHER = [SEC / "api/xbrl/companyfacts/CIK0001835632.json.gz", SEC / "submissions/CIK0001835632.json.gz"]
MAIN = "database_name = current_database() AND schema_name = 'main' AND NOT internal"


def columns(con) -> dict[str, list[tuple]]:
    """Every table and view of the main schema: (column, type, nullable) in order."""
    out: dict[str, list[tuple]] = {}
    for table, column, dtype, nullable in fetch_all(
            con, f"SELECT table_name, column_name, data_type, is_nullable FROM duckdb_columns() WHERE {MAIN}"
                 " ORDER BY table_name, column_index"):
        out.setdefault(table, []).append((column, dtype, nullable))
    return out


def kinds(con) -> dict[str, str]:
    return dict(fetch_all(con, f"SELECT table_name, 'table' FROM duckdb_tables() WHERE {MAIN} UNION ALL"
                               f" SELECT view_name, 'view' FROM duckdb_views() WHERE {MAIN}"))


def lake_reader(env: dict[str, str], **kw):
    """A function opening the lake of ``env`` read-only (for compare_warehouses)."""
    def open_it():
        with backend_env(env):
            return connect("unused", read_only=True, **kw)
    return open_it


def ignored_ids(*cons) -> tuple[str, ...]:
    """Columns holding source document ids: assigned in commit order, which concurrent writers vary."""
    names = {c for con in cons for cols in columns(con).values() for c, _, _ in cols}
    return tuple(sorted(n for n in names if n.endswith("source_document_id")))


# ------------------------------------------------------------------------------------- offline setup


def test_pinned_duckdb_and_the_extension_wheels_load_offline(tmp_path, monkeypatch):
    """The exact DuckDB version the ducklake/postgres wheels are built for, and both extensions load
    from the wheels (no INSTALL, no network: the sandbox-free connection never downloads)."""
    from importlib.metadata import version

    if missing := lake_extensions_missing_off_the_pin():
        pytest.skip(missing)
    assert duckdb.__version__ == "1.5.5"
    assert version("duckdb-extension-ducklake") == version("duckdb-extension-postgres") == \
        version("duckdb-extension-httpfs") == duckdb.__version__
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    con = duckdb.connect()
    try:
        con.execute("SET autoinstall_known_extensions = false")
        lake.load_extensions(con)
        loaded = dict(fetch_all(con, "SELECT extension_name, loaded FROM duckdb_extensions()"
                                     " WHERE extension_name IN ('ducklake', 'postgres_scanner')"))
        assert loaded == {"ducklake": True, "postgres_scanner": True}
    finally:
        con.close()
    assert (tmp_path / "cache/edgar-warehouse/duckdb/v1.5.5/postgres_scanner.duckdb_extension").exists()


def test_backend_configuration_errors_name_what_is_missing(monkeypatch):
    monkeypatch.setenv(lake.BACKEND_ENV, "ducklake")
    monkeypatch.delenv(lake.CATALOG_ENV, raising=False)
    with pytest.raises(lake.LakeError, match="EDGAR_WAREHOUSE_LAKE_CATALOG"):
        lake.lake_config()
    monkeypatch.setenv(lake.BACKEND_ENV, "sqlite")
    with pytest.raises(lake.LakeError, match="expected one of duckdb, ducklake"):
        lake.backend()
    if missing := lake_extensions_missing_off_the_pin():
        pytest.skip(missing)
    monkeypatch.setenv(lake.BACKEND_ENV, "ducklake")
    monkeypatch.setenv(lake.CATALOG_ENV, "postgres:dbname=nowhere host=127.0.0.1 port=1 user=edgar")
    monkeypatch.setenv(lake.DATA_ENV, "/tmp/nowhere")
    with pytest.raises(lake.LakeError, match="cannot attach the lake"):
        connect("unused")


def test_lake_ddl_strips_constraints_and_keeps_everything_else():
    sql = """-- a comment; with a semicolon
CREATE SEQUENCE s START 1;
CREATE TABLE t (
    id BIGINT PRIMARY KEY DEFAULT nextval('s'),
    name VARCHAR NOT NULL DEFAULT 'a;b',
    n INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (id, name)
);
CREATE UNIQUE INDEX t_name ON t (name);
ALTER TABLE t ADD COLUMN x VARCHAR;
INSERT INTO t (id, name) SELECT 1, 'x' WHERE NOT EXISTS (SELECT 1 FROM t);
"""
    out = lake.lake_ddl(sql)
    assert "SEQUENCE" not in out and "INDEX" not in out and "PRIMARY" not in out and "nextval" not in out
    assert "name VARCHAR NOT NULL DEFAULT 'a;b'" in out and "n INTEGER NOT NULL DEFAULT 0\n)" in out
    assert "ALTER TABLE t ADD COLUMN x VARCHAR;" in out and "WHERE NOT EXISTS" in out
    for mig in discover():  # every real migration: nothing DuckLake refuses is left
        ddl = lake.lake_ddl(mig.sql).upper()
        assert "PRIMARY KEY" not in ddl and "NEXTVAL" not in ddl and "CREATE SEQUENCE" not in ddl, mig.path.name


def test_fresh_lake_has_the_files_tables_views_columns_and_types(tmp_path, backend_of):
    """Generated from the same migrations and definitions: same relations, columns, types, NOT NULLs."""
    file_con = connect(tmp_path / "w.duckdb")
    with backend_env(backend_of("ducklake")):
        lake_con = connect("unused")
    try:
        assert kinds(lake_con) == kinds(file_con)
        assert columns(lake_con) == columns(file_con)
        assert fetch_all(lake_con, "SELECT version, name, sha256 FROM schema_migrations ORDER BY 1") == \
            fetch_all(file_con, "SELECT version, name, sha256 FROM schema_migrations ORDER BY 1")
        assert fetch_value(lake_con, "SELECT count(*) FROM standard_concepts") == \
            fetch_value(file_con, "SELECT count(*) FROM standard_concepts") > 0
    finally:
        file_con.close()
        lake_con.close()


# ------------------------------------------------------------------------------------------ contract


def test_same_documents_give_the_same_rows_in_every_table_and_view(company_warehouse, company_loader,
                                                                   backend_of, tmp_path):
    """The company warehouse's documents (companyfacts, submissions, tickers, a Form 4) loaded into a lake
    give every table and view of the DuckDB file, row for row."""
    env = backend_of("ducklake")
    with backend_env(env):
        company_loader(tmp_path / "unused.duckdb")
    diffs = compare(company_warehouse, lake_reader(env, external_access=True), VOLATILE + ("pid", "host"))
    assert len(diffs) >= 35
    assert [d.line() for d in diffs if not d.same] == []


def _load_process(env: dict[str, str], files: list[Path], *extra: str) -> subprocess.Popen:
    return subprocess.Popen([str(BIN / "edgar-warehouse"), "load", *extra, *map(str, files)],
                            env={**os.environ, **env}, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_two_processes_creating_the_same_fresh_lake_both_succeed(backend_of):
    """Two workers started at once on an empty lake race on the migrations: one applies them, the other
    retries and finds them applied (was: "Table with name insider_filings already exists")."""
    env = backend_of("ducklake")
    procs = [subprocess.Popen([str(BIN / "edgar-warehouse"), "init"], env={**os.environ, **env}, cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-2000:]
    with backend_env(env):
        con = connect("unused", read_only=True)
    try:
        assert fetch_value(con, "SELECT count(*) FROM schema_migrations") == len(discover())
        assert fetch_value(con, f"SELECT count(*) FROM {lake.GUARD}") == 1
    finally:
        con.close()


def test_two_processes_load_different_companies_concurrently_and_both_land(backend_of, tmp_path):
    env = backend_of("ducklake")
    with backend_env(env):
        connect("unused").close()  # schema in place: the two loads race on data, not on migrations
    procs = [_load_process(env, TSMC), _load_process(env, OTHER)]
    for p in procs:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err[-3000:]
        assert "2 loaded, 0 unchanged, 0 rejected" in out
    with backend_env(env):
        con = connect("unused", read_only=True)
    try:
        runs = fetch_all(con, "SELECT status, started_at, finished_at FROM load_runs ORDER BY started_at")
        assert [r[0] for r in runs] == ["succeeded", "succeeded"]
        assert runs[1][1] < runs[0][2], "the two loads did not overlap in time"
        assert fetch_value(con, "SELECT count(DISTINCT source_document_id) = count(*) FROM source_documents")
        assert fetch_all(con, "SELECT cik FROM companies ORDER BY cik") == [(1046179,), (1835632,)]
        # no retry storm: a batch with submissions claims the whole lake (store/lake_writers.py), so the
        # second waits for the first instead of redoing its batch after a commit conflict (was: up to 25)
        assert fetch_all(con, f"SELECT count(*), sum(conflicts) FROM {lake.RUN_BATCHES}") == [(2, 0)]
    finally:
        con.close()
    # the CLI's storage options select the same lake without the environment variables
    plain = {k: v for k, v in os.environ.items() if not k.startswith("EDGAR_WAREHOUSE_")}
    sql = subprocess.run([str(BIN / "edgar-warehouse"), "--lake-catalog", env[lake.CATALOG_ENV], "--lake-data",
                          env[lake.DATA_ENV], "sql", "SELECT count(*) AS n FROM companies", "--format", "csv"],
                         env=plain, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert sql.returncode == 0 and sql.stdout.split() == ["n", "2"], sql.stderr
    # ...and the lake equals a DuckDB file that loaded the same two runs one after the other
    ref = tmp_path / "ref.duckdb"
    file_con = connect(ref)
    try:
        for files in (TSMC, OTHER):
            ingest(file_con, [read_local_document(f) for f in files], raw_dir=raw_dir_for(ref), command="load")
        # row_counts: what each run added depends on which committed first (shared concepts...)
        ignore = VOLATILE + ("pid", "host", "row_counts") + ignored_ids(file_con)
    finally:
        file_con.close()
    diffs = compare(ref, lake_reader(env, external_access=True), ignore)
    assert [d.line() for d in diffs if not d.same] == []


def _state(con) -> tuple:
    return fetch_all(con, "SELECT (SELECT count(*) FROM facts), (SELECT count(*) FROM source_documents),"
                          " (SELECT count(*) FROM derived_metrics), (SELECT count(*) FROM filings)")[0]


def test_a_reader_during_a_load_sees_the_state_before_or_after_never_half(backend_of):
    """Readers open, pinned to a snapshot, while another process loads two companies in one transaction:
    every answer is the state before or the state after, and one reader's answers never move."""
    env = backend_of("ducklake")
    with backend_env(env):
        connect("unused").close()
        con = connect("unused", read_only=True)
        before = _state(con)
        con.close()
        loader = _load_process(env, TSMC + OTHER)
        seen: list[tuple] = []
        while loader.poll() is None:
            con = connect("unused", read_only=True)
            try:
                first = _state(con)
                time.sleep(0.2)
                assert _state(con) == first  # pinned: a commit meanwhile does not show up in this reader
            finally:
                con.close()
            seen.append(first)
        assert loader.returncode == 0, loader.stderr.read()[-3000:]
        con = connect("unused", read_only=True)
        after = _state(con)
        con.close()
    assert after != before and after[0] > 0
    print(f"\n{len(seen)} pinned reads during the load: {seen.count(before)} before, {seen.count(after)} after")
    assert len(seen) >= 3 and set(seen) <= {before, after}
    assert seen.count(before) >= 1
