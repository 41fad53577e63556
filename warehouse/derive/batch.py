"""Derive step of a batch: the current standard facts, derived metrics and checks of the companies
it changed, inside its transaction (called by ``warehouse.load.batch._derive``; the SQL is in
``warehouse/sql/derive/``).

The current standard facts are kept as data (``standard_facts_rows``, what the view
``standard_facts`` and every "now" reader reads): recomputed for every company whose current facts
the batch recomputed, by the one definition of the rules (``company_standard_facts_as_of`` now).

A company that got filings for accessions its facts already cite (their known_from moved from the
filed-day fallback to the acceptance time), or whose stored facts got another fiscal year or filing
date (a rebuilt calendar, an earlier payload), has its metrics computed again from scratch: they are
what they would have been had the documents arrived in any other order.

The derive steps run on ONE DuckDB thread: they are many small statements (tens of thousands of
rows per batch), for which a second thread costs more CPU in coordination than it saves in wall
time (bench_companyfacts: derive 1.6 s CPU multi-threaded against about 1.1 s on one thread).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager

import duckdb

from warehouse.derive.steps import load_step, run_step, setting
from warehouse.schema.sql_files import sql
from warehouse.schema.stored_tables import keep
from warehouse.store.db import fetch_all

DERIVE_THREADS = 1


def threads(con: duckdb.DuckDBPyConnection, n: int) -> AbstractContextManager[None]:
    """Run the block with DuckDB's ``threads`` set to ``n`` (``warehouse.derive.steps.setting``)."""
    return setting(con, "threads", int(n))


def moved_companies(con: duckdb.DuckDBPyConnection, ciks: Iterable[int], document_ids: Iterable[int]) -> list[int]:
    """Companies of ``ciks`` whose stored facts cite an accession of a filing that the documents
    ``document_ids`` inserted (warehouse/sql/derive/moved_companies.sql)."""
    docs = sorted(document_ids)
    if not docs:
        return []
    return [c for (c,) in fetch_all(con, sql("derive/moved_companies"), {"docs": docs, "ciks": sorted(ciks)})]


def forget_metrics(con: duckdb.DuckDBPyConnection, ciks: Iterable[int]) -> None:
    """Delete the stored metric versions of ``ciks`` and their lineage (computed again from scratch)."""
    params = {"ciks": sorted(ciks)}
    for name in ("derive/forget_lineage", "derive/forget_metrics"):
        run_step(con, load_step(name), params)


def store_standard_facts(con: duckdb.DuckDBPyConnection, ciks: Iterable[int]) -> None:
    """Recompute the stored current standard facts (standard_facts_rows) of ``ciks`` from their
    current facts: delete, then insert what company_standard_facts_as_of computes now
    (schema/stored/standard_facts_rows.sql)."""
    keep(con, ("standard_facts_rows",), ciks)


def derive_batch(con: duckdb.DuckDBPyConnection, *, load_id: str, ciks: Iterable[int],
                 document_ids: Iterable[int], restated: Iterable[int], check: bool,
                 current: Iterable[int] | None = None, check_totals: bool = True) -> dict[str, int]:
    """Metrics (and, when ``check``, the checks) of ``ciks`` for the batch ``load_id`` that loaded
    ``document_ids``; ``restated``: companies whose stored facts changed fiscal year or filing date;
    ``current``: companies whose current facts the batch recomputed (default ``ciks``), whose stored
    standard facts are recomputed; ``check_totals``: see ``run_checks(totals=...)``. Returns the counts
    of new rows: derived_metrics, metric_lineage, check_results (failing checks)."""
    from warehouse.derive.checks import run_checks
    from warehouse.derive.metrics import refresh_metrics

    cik_list = sorted(set(ciks))
    counts = {"derived_metrics": 0, "metric_lineage": 0, "check_results": 0}
    if not cik_list:
        return counts
    with threads(con, DERIVE_THREADS):
        store_standard_facts(con, cik_list if current is None else current)
        moved = sorted(set(moved_companies(con, cik_list, document_ids)) | set(restated))
        if moved:
            forget_metrics(con, moved)
        refreshed = refresh_metrics(con, load_id, ciks=cik_list, stage_checks=check)
        counts.update({k: refreshed[k] for k in ("derived_metrics", "metric_lineage")})
        if check:
            counts["check_results"] = len(run_checks(con, load_id, ciks=cik_list, staged=True, totals=check_totals))
    return counts
