"""The lake's security (issue 25 item 6): a sandboxed reader reaches nothing of the catalog's PostgreSQL,
a read-only role for readers refuses what the gate would miss, and a catalog password is never printed.

Real PostgreSQL on loopback (the session fixture ``postgres_loopback``), real DuckLake, the real CLI.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from helpers import backend_env, lake_extensions_missing_off_the_pin
from scripts import pg_loopback
from warehouse.read.queries import QueryRefused, run_query
from warehouse.store import lake
from warehouse.store.db import connect
from warehouse.store.secrets import redact, redact_logs

REPO = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
META = "__ducklake_metadata_lake"
READ_FILE = f"SELECT * FROM postgres_query('{META}', 'SELECT pg_read_file(''PG_VERSION'')')"

# Every way a statement that passes as a SELECT could reach the catalog's PostgreSQL or its connection string
ESCAPES = [
    READ_FILE,
    f"SELECT * FROM (SELECT * FROM postgres_query('{META}', 'SELECT 1')) t",
    f"WITH x AS (SELECT * FROM postgres_query('{META}', 'SELECT 1')) SELECT * FROM x",
    "SELECT * FROM postgres_scan('dbname=lake host=127.0.0.1', 'public', 'ducklake_snapshot')",
    f"SELECT * FROM postgres_execute('{META}', 'DROP TABLE ducklake_snapshot')",
    f"SELECT * FROM postgres_attach('{META}')",
    f"SELECT rolname, rolpassword FROM {META}.pg_catalog.pg_authid",
    f"SELECT * FROM {META}.public.ducklake_metadata",
    "SELECT * FROM \"__DuckLake_Metadata_lake\".public.ducklake_snapshot",
    f"SELECT * FROM {META}.ducklake_snapshot",
    f"SELECT 1 FROM companies WHERE EXISTS (SELECT 1 FROM {META}.public.ducklake_table)",
    "SELECT path FROM duckdb_databases()",
    "SELECT * FROM ducklake_snapshots('lake')",
]


def _reader(env: dict[str, str]):
    with backend_env(env):
        return connect("unused", read_only=True)


@pytest.fixture(scope="module")
def lake_env(backend_of) -> dict[str, str]:
    env = backend_of("ducklake")
    with backend_env(env):
        connect("unused").close()  # the schema
    return env


@pytest.mark.parametrize("query", ESCAPES)
def test_a_sandboxed_reader_reaches_nothing_of_the_catalogs_postgresql(lake_env, query):
    """The sandbox's gate (what CLI sql, the agents' tools and the notebook's sql run through) refuses
    each escape on a real lake; before, the catalog database's tables (pg_authid included, for the
    documented superuser) and duckdb_databases()' connection string were read."""
    con = _reader(lake_env)
    try:
        with pytest.raises(QueryRefused):
            run_query(con, query)
        assert run_query(con, "SELECT count(*) FROM standard_concepts").rows[0][0] > 0  # the warehouse reads
        assert ("lake",) in run_query(con, "SHOW DATABASES").rows
    finally:
        con.close()


def test_a_read_only_role_for_readers_refuses_files_and_writes_on_the_database_host(lake_env, postgres_loopback):
    """The documented production setup: readers attach with a role that may only SELECT the catalog's
    tables (EDGAR_WAREHOUSE_LAKE_READ_CATALOG). Even a raw connection of that reader, the gate
    bypassed, can neither read a file on the database host nor change the catalog."""
    dbname = lake_env[lake.CATALOG_ENV].split("dbname=")[1].split()[0]
    import psycopg

    with psycopg.connect(host="127.0.0.1", port=postgres_loopback.port, user=pg_loopback.USER, dbname=dbname,
                         autocommit=True) as pg:
        pg.execute("DROP ROLE IF EXISTS edgar_reader_t")
        pg.execute("CREATE ROLE edgar_reader_t LOGIN")
        for grant in (f"GRANT CONNECT ON DATABASE {dbname}", "GRANT USAGE ON SCHEMA public",
                      "GRANT SELECT ON ALL TABLES IN SCHEMA public"):
            pg.execute(f"{grant} TO edgar_reader_t")
    reader_catalog = lake_env[lake.CATALOG_ENV].replace(f"user={pg_loopback.USER}", "user=edgar_reader_t")
    con = _reader({**lake_env, lake.READ_CATALOG_ENV: reader_catalog})
    try:
        assert con.execute("SELECT count(*) FROM standard_concepts").fetchone()[0] > 0
        with pytest.raises(duckdb.Error, match="permission denied for function pg_read_file"):
            con.execute(READ_FILE).fetchall()
        with pytest.raises(duckdb.Error, match="read-only transaction"):
            con.execute(f"CALL postgres_execute('{META}', 'DELETE FROM ducklake_snapshot')").fetchall()
    finally:
        con.close()
    writer = _reader(lake_env)  # without the read catalog, the same raw read goes through: the role is the fix
    try:
        assert writer.execute(READ_FILE).fetchall()
    finally:
        writer.close()


@pytest.mark.slow  # the CLI in a process of its own
def test_a_catalog_password_is_never_printed(tmp_path):
    """A password in the catalog string: the CLI's error line and its logs mask it (before, the whole
    connection string was printed twice, in our line and in DuckDB's own text)."""
    if missing := lake_extensions_missing_off_the_pin():
        pytest.skip(missing)
    secret = "s3cr3t-Pa55word"
    catalog = f"postgres:dbname=lake host=127.0.0.1 port={pg_loopback.free_port()} user=edgar password={secret}"
    plain = {k: v for k, v in os.environ.items() if not k.startswith("EDGAR_WAREHOUSE_")}
    proc = subprocess.run([str(BIN / "edgar-warehouse"), "-v", "--lake-catalog", catalog, "--lake-data",
                           str(tmp_path / "data"), "init"], env=plain, cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode != 0
    assert "cannot attach the lake" in proc.stderr and "password=***" in proc.stderr
    assert secret not in proc.stdout + proc.stderr


def test_redaction_masks_passwords_keys_and_known_secrets(monkeypatch, caplog):
    """Every form a secret takes in a line; a log record is masked before any handler formats it."""
    assert redact("dbname=lake password=hunter22 user=x") == "dbname=lake password=*** user=x"
    assert redact("password = 'two words' host=h") == "password = *** host=h"
    assert redact("postgresql://edgar:pw%40x@db:5432/lake") == "postgresql://edgar:***@db:5432/lake"
    assert redact("CREATE SECRET (TYPE s3, KEY_ID 'AKIA1', SECRET 'abc/def')") == \
        "CREATE SECRET (TYPE s3, KEY_ID '***', SECRET '***')"
    assert redact("SET s3_secret_access_key='abc'") == "SET s3_secret_access_key='***'"
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI-example")
    assert redact("signature from wJalrXUtnFEMI-example failed") == "signature from *** failed"
    assert redact("no secret here: SELECT 1") == "no secret here: SELECT 1"
    old = logging.getLogRecordFactory()
    try:
        redact_logs()
        redact_logs()  # idempotent
        with caplog.at_level(logging.INFO):
            logging.getLogger("edgar.test").info("attaching %s", "dbname=lake password=hunter22")
        assert caplog.records[-1].getMessage() == "attaching dbname=lake password=***"
    finally:
        logging.setLogRecordFactory(old)


@pytest.mark.slow  # a Python process of its own
def test_a_traceback_is_masked_in_a_log_record_and_when_nothing_caught_it(tmp_path):
    """A logged exception's traceback (``log.exception``, Prefect's task failures) and an exception no
    code caught, in the main thread or another, print the message of DuckDB or libpq, which echoes the
    connection string: masked like every line (was: only the record's message was)."""
    script = tmp_path / "boom.py"
    script.write_text(
        "import io, logging, sys, threading\n"
        "from warehouse.store.secrets import redact_logs\n"
        "redact_logs()\n"
        "out = io.StringIO()\n"
        "handler = logging.StreamHandler(out)\n"
        "logging.getLogger('x').addHandler(handler)\n"
        "try:\n"
        "    raise RuntimeError('cannot attach dbname=lake password=hunter22 host=db')\n"
        "except RuntimeError:\n"
        "    logging.getLogger('x').exception('attach failed')\n"
        "sys.stderr.write(out.getvalue())\n"
        "t = threading.Thread(target=lambda: (_ for _ in ()).throw(ValueError('password=hunter22 in a thread')))\n"
        "t.start(); t.join()\n"
        "raise RuntimeError('uncaught: postgresql://edgar:hunter22@db/lake')\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[3])
    assert proc.returncode == 1
    err = proc.stderr
    assert "hunter22" not in err, err
    assert "attach failed" in err and "Traceback" in err and "password=***" in err
    assert "in a thread" in err and "uncaught: postgresql://edgar:***@db/lake" in err
