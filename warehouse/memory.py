"""The writer's DuckDB memory bound (EDGAR_WAREHOUSE_MEMORY_LIMIT), shared by every writer: loads, schema upgrades."""

from __future__ import annotations

import os

import duckdb

from warehouse.errors import WarehouseError

MEMORY_LIMIT_ENV = "EDGAR_WAREHOUSE_MEMORY_LIMIT"
# The writer's DuckDB memory by default: the bootstrap keeps the whole process under 2 GB (issue 13;
# the 100x bootstrap peaked at 4.26 GB with DuckDB's default of 80 % of RAM, the universe at 2.19 GB
# with 1GB). A batch's statements work on its own companies (a few hundred thousand rows), and blocks
# of the file beyond the limit are evicted, not kept: the limit bounds the cache, never what a batch
# can do (it spills). 512MB against 1GB, 37x bootstrap in batches of 25: peak RSS 1,550 vs 2,003 MB,
# 157.9 vs 155.0 s CPU (within the noise of the shared box). Schema upgrades run under it too
# (warehouse.schema.migrate.upgrade): their refills of stored tables go company by company.
DEFAULT_MEMORY_LIMIT = "512MB"


def writer_memory_limit(env: str = MEMORY_LIMIT_ENV, default: str = DEFAULT_MEMORY_LIMIT) -> str:
    """``EDGAR_WAREHOUSE_MEMORY_LIMIT`` (a DuckDB size such as ``4GB``, or ``60%`` of RAM), else 512MB
    (``env``/``default``: another limit read the same way, the readers' one)."""
    limit = os.environ.get(env, "").strip() or default
    if limit.endswith("%"):  # a share of this machine's RAM
        try:
            share = float(limit[:-1]) / 100
        except ValueError:
            share = 0.0
        if not 0 < share <= 1:
            raise WarehouseError(f"{env}={limit!r}: a percentage must be above 0 and at most 100")
        limit = f"{int(share * os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**20)}MiB"
    return limit


def bound_memory(con: duckdb.DuckDBPyConnection, env: str = MEMORY_LIMIT_ENV,
                 default: str = DEFAULT_MEMORY_LIMIT) -> None:
    """Bound the connection's DuckDB memory by the writer's limit (``writer_memory_limit``; ``env`` and
    ``default`` as there); beyond it DuckDB evicts cached blocks and spills."""
    limit = writer_memory_limit(env, default)
    try:
        con.execute("SET memory_limit = ?", [limit])
    except duckdb.Error as exc:
        raise WarehouseError(f"{env}={limit!r} is not a memory size DuckDB accepts: {exc}") from exc
