"""The readers' sandbox: no file or network access from SQL, memory bounded, settings locked (the DuckDB
file's readers and the lake's). What statements may run is ``warehouse.read.queries.admit``'s to decide:
DuckDB keeps the database file and its WAL writable from SQL even with external access off."""

from __future__ import annotations

import duckdb

from warehouse.memory import bound_memory

READER_MEMORY_LIMIT_ENV = "EDGAR_WAREHOUSE_READER_MEMORY_LIMIT"
# A sandboxed reader's DuckDB memory (it has no spill folder: a statement needing more fails with
# DuckDB's out-of-memory error instead of taking the machine's, DuckDB's default being 80 % of RAM).
DEFAULT_READER_MEMORY_LIMIT = "1GB"


def sandbox(con: duckdb.DuckDBPyConnection) -> None:
    """No file or network access from SQL at all: no spill folder (DuckDB lets SQL read and write
    its temp directory even with external access off), external access off, no scans of the calling
    Python code's variables, memory bounded (``EDGAR_WAREHOUSE_READER_MEMORY_LIMIT``, else 1GB),
    settings locked. Every setting here is the instance's, so every cursor of ``con`` and every other
    connection of the process to this file has them: ``python_enable_replacements`` is a session
    setting, set GLOBAL (a cursor starts with the default, true, and cannot change it once locked)."""
    con.execute("SET temp_directory = ''")
    con.execute("SET enable_external_access = false")
    con.execute("SET GLOBAL python_enable_replacements = false")
    bound_memory(con, READER_MEMORY_LIMIT_ENV, DEFAULT_READER_MEMORY_LIMIT)
    con.execute("SET lock_configuration = true")
