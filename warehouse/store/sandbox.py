"""The readers' sandbox: no file or network access from SQL, settings locked (the DuckDB file's readers and the lake's)."""

from __future__ import annotations

import duckdb


def sandbox(con: duckdb.DuckDBPyConnection) -> None:
    """No file or network access from SQL at all: no spill folder (DuckDB lets SQL read and write
    its temp directory even with external access off), external access off, settings locked."""
    con.execute("SET temp_directory = ''")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
