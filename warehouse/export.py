"""Parquet exports of the public tables and views, for everything downstream of the warehouse."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import duckdb

from warehouse.db import WarehouseError, fetch_all

# The public data contract, in export order; names missing from an older warehouse are skipped.
PUBLIC = (
    "companies", "company_tickers", "filings", "concepts", "fiscal_calendar", "facts", "facts_current",
    "fact_restatements", "insider_filings", "insider_owners", "insider_transactions", "insider_holdings",
    "insider_footnotes", "insider_footnote_refs", "standard_facts", "derived_metrics", "metric_lineage",
    "source_documents", "load_runs",
)


def export_parquet(con: duckdb.DuckDBPyConnection, target: str | Path, names: list[str] | None = None
                   ) -> dict[str, int]:
    """Write ``<target>/<name>.parquet`` for each public table/view (zstd); returns rows per file.

    Files are written in a temporary folder beside ``target`` and moved in place one by one, so a
    reader never sees a half-written file.
    """
    present = {r[0] for r in fetch_all(
        con, "SELECT table_name FROM duckdb_tables() WHERE NOT internal"
             " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal")}
    wanted = list(names) if names else [n for n in PUBLIC if n in present]
    unknown = [n for n in wanted if n not in present]
    if unknown:
        raise WarehouseError(f"no such table or view: {', '.join(unknown)}")
    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".export-", dir=target))
    counts: dict[str, int] = {}
    try:
        for name in wanted:
            tmp = staging / f"{name}.parquet"
            escaped = str(tmp).replace("'", "''")
            con.execute(f"COPY (SELECT * FROM \"{name}\") TO '{escaped}' (FORMAT parquet, COMPRESSION zstd)")
            counts[name] = fetch_all(con, f"SELECT count(*) FROM read_parquet('{escaped}')")[0][0]
            os.replace(tmp, target / f"{name}.parquet")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return counts
