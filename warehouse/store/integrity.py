"""Integrity checks of a warehouse and per-table content checksums (crash harness, order law, status).

* ``integrity_problems(con, raw_dir)``: every table declares its grain (the ``(grain: a, b)`` of its
  COMMENT, a list of its columns) and it is unique; every row's source document and load run
  exist; every raw payload named by source_documents exists and hashes to its sha256 and its name.
* ``table_checksums(con)``: per table, the row count and an order-independent hash of the rows'
  content, leaving out what must differ between two loads of the same documents (VOLATILE).
"""

from __future__ import annotations

import hashlib
import re

import duckdb

from warehouse.store.db import fetch_all, fetch_value, quote_ident
from warehouse.store.raw_payloads import RawDir, raw_exists, raw_relpath, read_raw

_GRAIN = re.compile(r"\(grain: ([^);]+)[);]")
MAIN = "database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary"

# What differs between two loads of the same documents in another order or batching, by design:
# surrogate ids (source_document_id and the columns naming one), load ids, the clock of the load
# (check_results.checked_at, derived_metrics.computed_at), and load_runs (one row per run) / check_results and
# check_company_results (per run: documents loaded in other runs are checked in other runs) as a whole.
VOLATILE_COLUMNS = {"load_id", "checked_at", "applied_at", "computed_at"}
VOLATILE_TABLES = {"load_runs", "check_results", "check_company_results", "schema_migrations"}


def _tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [t for (t,) in fetch_all(con, f"SELECT table_name FROM duckdb_tables() WHERE {MAIN} ORDER BY 1")]


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [c for (c,) in fetch_all(con, "SELECT column_name FROM duckdb_columns() WHERE table_name = ?"
                                         " AND schema_name = 'main' ORDER BY column_index", [table])]


def declared_grains(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """table -> grain columns, from each table's COMMENT '(grain: a, b, c)' (schema/columns.toml);
    a table whose comment declares none, or names a column it lacks, is left out (``grain_problems``)."""
    grains = {}
    for table, comment in fetch_all(con, f"SELECT table_name, comment FROM duckdb_tables() WHERE {MAIN}"):
        m = _GRAIN.search(comment or "")
        if not m:
            continue
        cols = {c.lower(): c for c in _columns(con, table)}
        names = [part.strip().lower() for part in m.group(1).split(",")]
        if names and all(n in cols for n in names):
            grains[table] = [cols[n] for n in names]
    return grains


def grain_problems(con: duckdb.DuckDBPyConnection, grains: dict[str, list[str]]) -> list[str]:
    """One sentence per table whose grain is not declared as a list of its columns."""
    return [f"{t}: no grain declared (its description in schema/columns.toml needs '(grain: a, b)', naming its "
            "columns)" for t in _tables(con) if t not in grains]


def integrity_problems(con: duckdb.DuckDBPyConnection, raw_dir: RawDir | None = None) -> list[str]:
    """Every broken promise found, one sentence each (empty when the warehouse is sound)."""
    grains = declared_grains(con)
    problems = grain_problems(con, grains)
    for table, grain in sorted(grains.items()):
        cols = ", ".join(map(quote_ident, grain))
        dupes = fetch_value(con, f"SELECT count(*) FROM (SELECT {cols} FROM {quote_ident(table)} GROUP BY ALL"
                                 " HAVING count(*) > 1)")
        if dupes:
            problems.append(f"{table}: {dupes} values of its grain ({', '.join(grain)}) occur more than once")
    for table in _tables(con):
        cols = _columns(con, table)
        for col in cols:
            if col.endswith("source_document_id") and table != "source_documents":
                n = fetch_value(con, f"SELECT count(*) FROM {quote_ident(table)} t WHERE t.{quote_ident(col)} IS NOT NULL AND NOT EXISTS"
                                     f" (SELECT 1 FROM source_documents d WHERE d.source_document_id = t.{quote_ident(col)})")
                if n:
                    problems.append(f"{table}.{col}: {n} rows name a source document that does not exist")
        if "load_id" in cols and table != "load_runs":
            n = fetch_value(con, f"SELECT count(*) FROM {quote_ident(table)} t WHERE t.load_id IS NOT NULL AND NOT EXISTS"
                                 " (SELECT 1 FROM load_runs r WHERE r.load_id = t.load_id)")
            if n:
                problems.append(f"{table}.load_id: {n} rows name a load run that does not exist")
    if raw_dir is not None:
        for sha, raw_path in fetch_all(con, "SELECT DISTINCT sha256, raw_path FROM source_documents"
                                            " WHERE raw_path IS NOT NULL ORDER BY 1"):
            if raw_path != raw_relpath(sha):
                problems.append(f"raw payload {raw_path}: not named after its sha256 {sha}")
            elif not raw_exists(raw_dir, raw_path):
                problems.append(f"raw payload {raw_path}: missing from {raw_dir}")
            elif hashlib.sha256(read_raw(raw_dir, raw_path)).hexdigest() != sha:
                problems.append(f"raw payload {raw_path}: content does not match its sha256")
    return problems


# Columns that also differ between two fetches or reads of the same payloads (when the documents
# are fetched or read again rather than replayed as the same Document objects).
FETCH_CLOCK_COLUMNS = {"fetched_at", "observed_at", "submissions_observed_at"}


def table_checksums(con: duckdb.DuckDBPyConnection, *, exclude: set[str] | frozenset[str] = frozenset()
                    ) -> dict[str, tuple[int, int]]:
    """table -> (rows, order-independent hash of the rows without VOLATILE_COLUMNS, ``exclude`` and
    columns holding a source_document_id), for every table but VOLATILE_TABLES."""
    sums = {}
    for table in _tables(con):
        if table in VOLATILE_TABLES:
            continue
        cols = [c for c in _columns(con, table)
                if c not in VOLATILE_COLUMNS and c not in exclude and not c.endswith("source_document_id")]
        packed = ", ".join(f"{quote_ident(c)} := {quote_ident(c)}" for c in cols)
        n, h = fetch_all(con, f"SELECT count(*), coalesce(sum(hash(struct_pack({packed}))), 0)"
                              f" FROM {quote_ident(table)}")[0]
        sums[table] = (int(n), int(h))
    return sums
