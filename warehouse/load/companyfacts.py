"""Store parsed companyfacts payloads: new fact versions, concepts, the companies' fiscal calendars.

Several payloads of DIFFERENT companies load together (``load_companyfacts_many``: one statement per
step for all of them, as a bootstrap batch needs); a payload alone is the same path with one entry."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipelines.companyfacts import CompanyFacts
from pipelines.errors import RejectedDocument
from warehouse.load.context import LoadContext
from warehouse.load.fiscal import FiscalYear, build_calendar, fiscal_year_columns
from warehouse.schema.sql_files import sql
from warehouse.store.db import fetch_all, fetch_value, unregister

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def rebuild_calendars(con: duckdb.DuckDBPyConnection, ciks: Sequence[int], load_id: str, *,
                      with_stage: bool = True) -> dict[int, list[FiscalYear]]:
    """Recompute the fiscal_calendar of each company of ``ciks`` from its facts (and the staged
    payloads, cf_stage); returns each company's years."""
    rows = fetch_all(con, sql("load/companyfacts/calendar_inputs"), {"ciks": sorted(ciks), "with_stage": with_stage})
    by_cik = {cik: list(group) for cik, group in groupby(rows, key=lambda r: r[0])}
    calendars: dict[int, list[FiscalYear]] = {}
    for cik in ciks:
        inputs = by_cik.get(cik, [])
        candidates = [(d, n) for _, what, d, n, _ in inputs if what == "candidate"]
        own = [(d, fy) for _, what, d, _, fy in inputs if what == "own"]
        spans = sorted(d for _, what, d, _, _ in inputs if what == "span" and d is not None)
        calendars[cik] = build_calendar(candidates, own, (spans[0], spans[-1]) if spans else None)
    con.execute("DELETE FROM fiscal_calendar WHERE cik BETWEEN list_min($ciks) AND list_max($ciks)"
                " AND list_contains($ciks, cik)", {"ciks": sorted(ciks)})
    years = [(cik, y) for cik in ciks for y in calendars[cik]]
    if years:
        tbl = pa.table({
            "cik": pa.array([cik for cik, _ in years], pa.int32()),
            "fiscal_year": [y.fiscal_year for _, y in years],
            "fy_start": [y.fy_start for _, y in years],
            "fy_end": [y.fy_end for _, y in years],
            "weeks_53": [y.weeks_53 for _, y in years],
            "basis": [y.basis for _, y in years],
        })
        con.register("cal_arrow", tbl)
        try:
            con.execute("INSERT INTO fiscal_calendar SELECT cik, fiscal_year, fy_start, fy_end, weeks_53, basis, ?"
                        " FROM cal_arrow", [load_id])
        finally:
            unregister(con, "cal_arrow")
    return calendars


def _with_fiscal(facts: pa.Table, years: list[FiscalYear]) -> pa.Table:
    for name, column in fiscal_year_columns(facts.column("period_end"), years).items():
        facts = facts.append_column(name, column)
    return facts


def _constant(value, n: int, type_: pa.DataType) -> pa.Array:
    return pa.repeat(pa.scalar(value, type_), n)


def _staged(entries: Sequence[tuple[LoadContext, CompanyFacts, str]],
            calendars: dict[int, list[FiscalYear]]) -> pa.Table:
    """The payloads as one Arrow table: each row with its payload's cik, vintage, source document and
    the fiscal year of its period end in its company's calendar (none yet: empty calendars)."""
    parts = []
    for ctx, record, vintage in entries:
        n = record.facts.num_rows
        part = _with_fiscal(record.facts, calendars.get(record.cik, []))
        part = (part.append_column("cik", _constant(record.cik, n, pa.int64()))
                .append_column("payload_vintage", _constant(vintage, n, pa.string()))
                .append_column("source_document_id", _constant(ctx.source_document_id, n, pa.int64())))
        parts.append(part)
    return pa.concat_tables(parts)


# A fact version's key and accession: a payload lists each at most once, save rare repeats.
_KEY_ACCESSION = ["taxonomy", "concept", "unit", "period_start", "period_end", "accession"]


def _repeated_rows(facts: pa.Table) -> pa.Table:
    """The rows of ``facts`` whose key and accession another row repeats (none, nearly always).

    Each row's six columns become one int64, column by column: the code so far times the column's
    dictionary size plus its dictionary index. Before a product could pass 2**62 (never for one
    payload: ~10**14) the codes are renumbered densely (numpy's unique), below the row count, so the
    code stays exact. An Arrow group_by over the six strings cost 40-50 ms for the 8 samples, plus
    ~90 ms the first time a process calls Arrow's query engine (acero), which nothing else of a load uses."""
    codes = np.zeros(facts.num_rows, dtype=np.int64)
    span = 1  # codes are below it
    for name in _KEY_ACCESSION:
        encoded = pc.dictionary_encode(facts.column(name)).combine_chunks()
        size = len(encoded.dictionary) + 1  # the last code: null (an instant's period_start)
        if span * size >= 2**62:
            codes = np.unique(codes, return_inverse=True)[1].astype(np.int64).reshape(-1)
            span = int(codes.max()) + 1
        codes = codes * size + encoded.indices.fill_null(size - 1).to_numpy(zero_copy_only=False)
        span *= size
    _, inverse, counts = np.unique(codes, return_inverse=True, return_counts=True)
    return facts.select(_KEY_ACCESSION).filter(pa.array(counts[inverse.reshape(-1)] > 1))


def _record_repeated_keys(con: duckdb.DuckDBPyConnection, cik: int, facts: pa.Table) -> int:
    """Add to fact_repeated_keys the keys this payload lists twice (or more) under one accession, so
    facts_current_of ranks them version by version (migration 0013); returns how many were new."""
    repeated = _repeated_rows(facts)
    if repeated.num_rows == 0:
        return 0
    con.register("repeated_arrow", repeated)
    try:
        return int(fetch_value(con, sql("load/companyfacts/repeated_keys"), {"cik": cik}) or 0)
    finally:
        unregister(con, "repeated_arrow")


def load_companyfacts(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: CompanyFacts) -> dict[str, int]:
    """Append the versions of ``record`` not yet stored; never replace a stored version."""
    return load_companyfacts_many(con, [(ctx, record)])[0]


def load_companyfacts_many(con: duckdb.DuckDBPyConnection,
                           entries: Sequence[tuple[LoadContext, CompanyFacts]]) -> list[dict[str, int]]:
    """Load several payloads of different companies (each cik at most once; the caller keeps a
    company's payloads in order in separate calls) as ``load_companyfacts`` would one after the
    other: the same rows, the same counts per payload. Raises RejectedDocument naming the payload
    whose filed dates are not dates before anything is written."""
    ciks = [record.cik for _, record in entries]
    if len(set(ciks)) != len(ciks):
        raise ValueError("load_companyfacts_many: one payload per company (load a company's payloads in turn)")
    staged = []
    for ctx, record in entries:
        vintage = pc.max(record.facts.column("filed")).as_py()
        if not _ISO_DATE.fullmatch(vintage or ""):
            raise RejectedDocument(ctx.doc.uri, f"filed date {vintage!r} is not a date")
        staged.append((ctx, record, vintage))
    load_id = entries[0][0].load_id
    con.register("cf_arrow", _staged(staged, {}))
    try:
        con.execute(sql("load/companyfacts/stage"))
        counts = _load_staged(con, load_id, staged)
        con.execute("DROP VIEW cf_stage")
        return counts
    finally:
        # On error the batch transaction rolls back, taking the temp view with it.
        unregister(con, "cf_arrow")


def _reassign_fiscal(con: duckdb.DuckDBPyConnection, cik: int, source_document_id: int,
                     years: list[FiscalYear]) -> int:
    """Apply a rebuilt calendar to the company's rows from other payloads (derived columns only;
    by payload, not by load id: an earlier batch of the same run has the same load id)."""
    older = con.execute("SELECT rowid AS rid, CAST(period_end AS VARCHAR) AS period_end FROM facts"
                        " WHERE cik = ? AND source_document_id <> ?", [cik, source_document_id]).to_arrow_table()
    if older.num_rows == 0:
        return 0
    con.register("cf_refiscal", _with_fiscal(older, years))
    try:
        return int(fetch_value(con, sql("load/companyfacts/reassign_fiscal"), {"cik": cik}) or 0)
    finally:
        unregister(con, "cf_refiscal")


def _load_staged(con: duckdb.DuckDBPyConnection, load_id: str,
                 staged: Sequence[tuple[LoadContext, CompanyFacts, str]]) -> list[dict[str, int]]:
    ciks = [record.cik for _, record, _ in staged]
    had_rows = {c for (c,) in fetch_all(
        con, "SELECT DISTINCT cik FROM facts WHERE cik BETWEEN list_min($ciks) AND list_max($ciks)"
             " AND list_contains($ciks, cik)", {"ciks": sorted(ciks)})}
    calendars = rebuild_calendars(con, ciks, load_id)
    con.register("cf_arrow", _staged(staged, calendars))  # the stage view now sees the years
    fetch_value(con, sql("load/companyfacts/insert_facts"), {"ciks": sorted(ciks), "load_id": load_id})
    # rows stored per payload: all of a new company's; a stored company's counted by its document
    inserted = {ctx.source_document_id: record.facts.num_rows for ctx, record, _ in staged if record.cik not in had_rows}
    if had_rows:
        inserted.update(fetch_all(
            con, sql("load/companyfacts/rows_per_document"), {"ciks": sorted(had_rows),
                                   "docs": [ctx.source_document_id for ctx, r, _ in staged if r.cik in had_rows]}))
    counts = []
    for ctx, record, _ in staged:
        cik, doc_id = record.cik, ctx.source_document_id
        years = calendars[cik]
        reassigned = relabelled = 0
        if cik in had_rows:
            # Rows this payload carried earlier than the payload that stored them take its metadata;
            # the calendar is then computed again from the stored facts alone (a function of the set of
            # versions, whatever the order of arrival) and applied to every row of the company.
            relabelled = int(fetch_value(con, sql("load/companyfacts/earliest_payload"), {"cik": cik, "load_id": load_id})
                             or 0)
            years = rebuild_calendars(con, [cik], load_id, with_stage=False)[cik]
            reassigned = _reassign_fiscal(con, cik, -1, years)
        counts.append({"facts": int(inserted.get(doc_id, 0)), "fiscal_calendar": len(years),
                       "facts_fiscal_reassigned": reassigned, "facts_earliest_payload": relabelled,
                       "fact_repeated_keys": _record_repeated_keys(con, cik, record.facts), "concepts": 0})
    for i, n in _new_concepts(con, [record for _, record, _ in staged]):
        counts[i]["concepts"] = n
    companies = pa.table({"cik": pa.array(ciks, pa.int32()),
                          "name": pa.array([r.entity_name for _, r, _ in staged], pa.string()),
                          "source_document_id": pa.array([c.source_document_id for c, _, _ in staged], pa.int64())})
    con.register("companies_arrow", companies)
    try:
        con.execute(sql("load/companyfacts/insert_companies"), {"load": load_id})
    finally:
        unregister(con, "companies_arrow")
    return counts


def claim_concepts(con: duckdb.DuckDBPyConnection, records: Sequence[CompanyFacts]) -> list[int]:
    """Insert the concepts of ``records`` not yet known (as ``_new_concepts``, in a batch's order);
    returns how many each record added. On the lake, before a batch, in a guarded transaction of its
    own (``warehouse.load.batch``), so that the batch then writes rows of its companies only."""
    added = dict(_new_concepts(con, records))
    return [int(added.get(i, 0)) for i in range(len(records))]


def _new_concepts(con: duckdb.DuckDBPyConnection, records: Sequence[CompanyFacts]) -> list[tuple[int, int]]:
    """Insert the concepts not yet known, each as the first payload (in load order) described it;
    returns (payload index, concepts it added)."""
    tables = [record.concepts.append_column("pos", _constant(i, record.concepts.num_rows, pa.int32()))
              for i, record in enumerate(records)]
    con.register("concepts_arrow", pa.concat_tables(tables))
    try:
        con.execute(sql("load/companyfacts/new_concepts"))
        con.execute("INSERT INTO concepts SELECT * EXCLUDE (pos) FROM concepts_new")
        added = fetch_all(con, "SELECT pos, count(*) FROM concepts_new GROUP BY pos")
        con.execute("DROP TABLE concepts_new")
        return added
    finally:
        unregister(con, "concepts_arrow")
