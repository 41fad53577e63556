"""Store one parsed companyfacts payload: new fact versions, concepts, the company's fiscal calendar."""

from __future__ import annotations

import re

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from pipelines.companyfacts import CompanyFacts
from pipelines.errors import RejectedDocument
from warehouse.db import fetch_all, fetch_value
from warehouse.fiscal import FiscalYear, build_calendar, fiscal_year_columns
from warehouse.load import LoadContext
from warehouse.sqlfiles import sql

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def rebuild_calendar(con: duckdb.DuckDBPyConnection, cik: int, load_id: str, *,
                     with_stage: bool = True) -> list[FiscalYear]:
    """Recompute the company's fiscal_calendar from its facts (and the staged payload, cf_stage)."""
    rows = fetch_all(con, sql("companyfacts/calendar_inputs"), {"cik": cik, "with_stage": with_stage})
    candidates = [(d, n) for what, d, n, _ in rows if what == "candidate"]
    own = [(d, fy) for what, d, _, fy in rows if what == "own"]
    spans = sorted(d for what, d, _, _ in rows if what == "span" and d is not None)
    years = build_calendar(candidates, own, (spans[0], spans[-1]) if spans else None)
    con.execute("DELETE FROM fiscal_calendar WHERE cik = ?", [cik])
    if years:
        tbl = pa.table({
            "cik": pa.array([cik] * len(years), pa.int32()),
            "fiscal_year": [y.fiscal_year for y in years],
            "fy_start": [y.fy_start for y in years],
            "fy_end": [y.fy_end for y in years],
            "weeks_53": [y.weeks_53 for y in years],
            "basis": [y.basis for y in years],
        })
        con.register("cal_arrow", tbl)
        con.execute("INSERT INTO fiscal_calendar SELECT cik, fiscal_year, fy_start, fy_end, weeks_53, basis, ?"
                    " FROM cal_arrow", [load_id])
        con.unregister("cal_arrow")
    return years


def _with_fiscal(facts: pa.Table, years: list[FiscalYear]) -> pa.Table:
    for name, column in fiscal_year_columns(facts.column("period_end"), years).items():
        facts = facts.append_column(name, column)
    return facts


# A fact version's key and accession: a payload lists each at most once, save rare repeats.
_KEY_ACCESSION = ["taxonomy", "concept", "unit", "period_start", "period_end", "accession"]


def _record_repeated_keys(con: duckdb.DuckDBPyConnection, cik: int, facts: pa.Table) -> int:
    """Add to fact_repeated_keys the keys this payload lists twice (or more) under one accession, so
    facts_current_of ranks them version by version (migration 0013); returns how many were new."""
    counts = facts.select(_KEY_ACCESSION).group_by(_KEY_ACCESSION, use_threads=False).aggregate([([], "count_all")])
    if counts.num_rows == facts.num_rows:
        return 0
    con.register("repeated_arrow", counts.filter(pc.greater(counts.column("count_all"), 1)))
    try:
        return int(fetch_value(con, sql("companyfacts/repeated_keys"), {"cik": cik}) or 0)
    finally:
        con.unregister("repeated_arrow")


def load_companyfacts(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: CompanyFacts) -> dict[str, int]:
    """Append the versions of ``record`` not yet stored; never replace a stored version."""
    con.register("cf_arrow", _with_fiscal(record.facts, []))
    try:
        vintage = pc.max(record.facts.column("filed")).as_py()
        if not _ISO_DATE.fullmatch(vintage or ""):
            raise RejectedDocument(ctx.doc.uri, f"filed date {vintage!r} is not a date")
        con.execute(sql("companyfacts/stage").replace("$cik", str(int(record.cik)))
                    .replace("$payload_vintage", vintage))
        counts = _load_staged(con, ctx, record)
        con.execute("DROP VIEW cf_stage")
        return counts
    finally:
        # On error the batch transaction rolls back, taking the temp view with it.
        con.unregister("cf_arrow")


def _reassign_fiscal(con: duckdb.DuckDBPyConnection, cik: int, source_document_id: int,
                     years: list[FiscalYear]) -> int:
    """Apply a rebuilt calendar to the company's rows from other payloads (derived columns only;
    by payload, not by load id: an earlier batch of the same run has the same load id)."""
    older = con.execute("SELECT rowid AS rid, CAST(period_end AS VARCHAR) AS period_end FROM facts"
                        " WHERE cik = ? AND source_document_id <> ?", [cik, source_document_id]).arrow()
    if isinstance(older, pa.RecordBatchReader):  # DuckDB 2.x returns a reader
        older = older.read_all()
    if older.num_rows == 0:
        return 0
    con.register("cf_refiscal", _with_fiscal(older, years))
    try:
        return int(fetch_value(con, sql("companyfacts/reassign_fiscal"), {"cik": cik}) or 0)
    finally:
        con.unregister("cf_refiscal")


def _load_staged(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: CompanyFacts) -> dict[str, int]:
    cik = record.cik
    had_rows = bool(fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [cik]))
    years = rebuild_calendar(con, cik, ctx.load_id)
    con.register("cf_arrow", _with_fiscal(record.facts, years))  # the stage view now sees the years
    inserted = fetch_value(con, sql("companyfacts/insert_facts"),
                           {"cik": cik, "source_document_id": ctx.source_document_id, "load_id": ctx.load_id})
    repeated = _record_repeated_keys(con, cik, record.facts)
    reassigned = relabelled = 0
    if had_rows:
        # Rows this payload carried earlier than the payload that stored them take its metadata;
        # the calendar is then computed again from the stored facts alone (a function of the set of
        # versions, whatever the order of arrival) and applied to every row of the company.
        prov = {"cik": cik, "source_document_id": ctx.source_document_id, "load_id": ctx.load_id}
        relabelled = int(fetch_value(con, sql("companyfacts/earliest_payload"), prov) or 0)
        years = rebuild_calendar(con, cik, ctx.load_id, with_stage=False)
        reassigned = _reassign_fiscal(con, cik, -1, years)
    con.register("concepts_arrow", record.concepts)
    try:
        new_concepts = fetch_value(
            con, "INSERT INTO concepts SELECT DISTINCT ON (taxonomy, concept) * FROM concepts_arrow c"
                 " WHERE NOT EXISTS (SELECT 1 FROM concepts k WHERE k.taxonomy = c.taxonomy"
                 " AND k.concept = c.concept)")
    finally:
        con.unregister("concepts_arrow")
    con.execute(
        "INSERT INTO companies (cik, name, source_document_id, load_id) SELECT $cik, $name, $doc, $load"
        " WHERE NOT EXISTS (SELECT 1 FROM companies WHERE cik = $cik)",
        {"cik": cik, "name": record.entity_name, "doc": ctx.source_document_id, "load": ctx.load_id})
    return {"facts": int(inserted or 0), "fiscal_calendar": len(years), "facts_fiscal_reassigned": reassigned,
            "facts_earliest_payload": relabelled, "fact_repeated_keys": repeated,
            "concepts": int(new_concepts or 0)}
