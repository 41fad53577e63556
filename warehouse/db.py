"""DuckDB connections: where the warehouse file and its raw-payload store live, opened safely."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from pipelines.errors import TerminalError

DEFAULT_DB = "edgar.duckdb"


class WarehouseError(TerminalError):
    """The warehouse file cannot be used as asked (missing, locked, changed migrations...)."""


def default_db_path() -> Path:
    """`EDGAR_WAREHOUSE_DB` when set, else ./edgar.duckdb."""
    return Path(os.environ.get("EDGAR_WAREHOUSE_DB") or DEFAULT_DB)


def raw_dir_for(db_path: str | Path) -> Path:
    """Content-addressed raw payloads live beside the database: edgar.duckdb -> edgar.raw/."""
    p = Path(db_path)
    return p.with_name(p.stem + ".raw")


def connect(db_path: str | Path, *, read_only: bool = False, migrate: bool = True,
            external_access: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the warehouse. Writers get pending migrations applied; readers get a read-only handle
    that is also sandboxed (no file or network access: COPY TO, read_csv, ATTACH are refused, and
    the setting is locked) unless ``external_access`` is asked for, as `export` does."""
    p = Path(db_path)
    if read_only and not p.exists():
        raise WarehouseError(f"{p}: no warehouse here (run `edgar-warehouse --db {p} init` first)")
    try:
        con = duckdb.connect(str(p), read_only=read_only)
    except duckdb.IOException as exc:
        raise WarehouseError(f"{p}: cannot open ({exc}); another process may hold the file") from exc
    con.execute("SET TimeZone = 'UTC'")
    if read_only and not external_access:
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    if not read_only and migrate:
        from warehouse.migrate import apply_migrations

        apply_migrations(con)
    return con


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """BEGIN ... COMMIT, or ROLLBACK on any error so the warehouse is left exactly as before."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def fetch_all(con: duckdb.DuckDBPyConnection, sql: str, params: list | tuple | None = None) -> list[tuple]:
    """Run a query and fetch every row (closes the result, idiom valid on DuckDB 1.5 and 2.x)."""
    return con.execute(sql, params or []).fetchall()


def fetch_value(con: duckdb.DuckDBPyConnection, sql: str, params: list | tuple | None = None):
    """First column of the first row, or None."""
    rows = fetch_all(con, sql, params)
    return rows[0][0] if rows else None
