"""Store an OwnershipFiling (Forms 3/4/5) in the insider_* tables, and find the filings still to fetch.

``load_ownership`` runs inside the batch transaction of ``warehouse.load.batch.load_batch``: it builds
every Arrow table first (so a bad value rejects the document before anything is inserted), then
inserts them, then recomputes the amendment links of the issuer so the link does not depend on
the order in which originals and amendments arrive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, fields
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from pipelines.errors import RejectedDocument
from warehouse.load.context import LoadContext, insert_arrow
from warehouse.schema.sql_files import sql
from warehouse.store.db import fetch_all, fetch_value

if TYPE_CHECKING:  # the parser (XML, defusedxml) is imported where a filing is stored, not by every load
    from pipelines.ownership import OwnershipFiling

DEC = pa.decimal128(38, 10)
_PROV = [("source_document_id", pa.int64()), ("load_id", pa.string())]

_OWNERS = pa.schema([
    ("accession", pa.string()), ("owner_number", pa.int32()), ("owner_cik", pa.int32()),
    ("owner_name", pa.string()), ("street1", pa.string()), ("street2", pa.string()), ("city", pa.string()),
    ("state", pa.string()), ("zip_code", pa.string()), ("state_description", pa.string()),
    ("non_us_address", pa.bool_()), ("is_director", pa.bool_()), ("is_officer", pa.bool_()),
    ("officer_title", pa.string()), ("is_ten_percent_owner", pa.bool_()), ("is_other", pa.bool_()),
    ("other_text", pa.string()), *_PROV,
])
_LINE_COMMON = [
    ("accession", pa.string()), ("table_kind", pa.string()), ("line_number", pa.int32()),
    ("security_title", pa.string()),
]
_DERIV = [
    ("shares_owned_following", DEC), ("value_owned_following", DEC), ("direct_indirect", pa.string()),
    ("nature_of_ownership", pa.string()), ("conversion_or_exercise_price", DEC), ("exercise_date", pa.date32()),
    ("expiration_date", pa.date32()), ("underlying_security_title", pa.string()), ("underlying_shares", DEC),
    ("underlying_value", DEC),
]
_TRANSACTIONS = pa.schema([
    *_LINE_COMMON,
    ("transaction_date", pa.date32()), ("deemed_execution_date", pa.date32()),
    ("transaction_form_type", pa.string()), ("transaction_code", pa.string()),
    ("equity_swap_involved", pa.bool_()), ("transaction_timeliness", pa.string()), ("shares", DEC),
    ("total_value", DEC), ("price_per_share", DEC), ("acquired_disposed", pa.string()),
    *_DERIV,
    ("price_is_weighted_average", pa.bool_()), ("price_range_low", DEC), ("price_range_high", DEC),
    ("footnote_ids", pa.list_(pa.string())), *_PROV,
])
_HOLDINGS = pa.schema([
    *_LINE_COMMON, ("transaction_form_type", pa.string()), *_DERIV,
    ("footnote_ids", pa.list_(pa.string())), *_PROV,
])
_FOOTNOTES = pa.schema([
    ("accession", pa.string()), ("footnote_id", pa.string()), ("text", pa.string()),
    ("footnote_number", pa.int32()), *_PROV,
])
_REFS = pa.schema([
    ("accession", pa.string()), ("table_name", pa.string()), ("table_kind", pa.string()),
    ("line_number", pa.int32()), ("field", pa.string()), ("xml_element", pa.string()),
    ("footnote_id", pa.string()), *_PROV,
])
_FILINGS = pa.schema([
    ("accession", pa.string()), ("accession_is_derived", pa.bool_()), ("accession_source", pa.string()),
    ("container", pa.string()), ("document_type", pa.string()), ("submission_type", pa.string()),
    ("schema_version", pa.string()), ("period_of_report", pa.date32()),
    ("date_of_original_submission", pa.date32()), ("no_securities_owned", pa.bool_()),
    ("not_subject_to_section16", pa.bool_()), ("form3_holdings_reported", pa.bool_()),
    ("form4_transactions_reported", pa.bool_()), ("aff10b5one", pa.bool_()), ("issuer_cik", pa.int32()),
    ("issuer_name", pa.string()), ("issuer_ticker", pa.string()), ("issuer_foreign_ticker", pa.string()),
    ("remarks", pa.string()),
    ("signatures", pa.list_(pa.struct([("signature_name", pa.string()), ("signature_date", pa.date32())]))),
    ("filed", pa.date32()), ("acceptance_time", pa.timestamp("us")), ("acceptance_time_eastern", pa.string()),
    ("header_source_document_id", pa.int64()), ("xml_sha256", pa.string()), ("owner_count", pa.int32()), ("transaction_count", pa.int32()),
    ("holding_count", pa.int32()), ("footnote_count", pa.int32()), ("amends_accession", pa.string()),
    ("amendment_rule", pa.string()), ("amendment_candidates", pa.int32()), *_PROV,
])

HEADERLESS = "xml"  # container of a bare ownershipDocument: no SEC header (no filed, no acceptance time)
HEADER_FILLED = "insider_filings_header_filled"
TABLES = ("insider_filings", "insider_owners", "insider_transactions", "insider_holdings",
          "insider_footnotes", "insider_footnote_refs")
UNLINKED = "unlinked: no loaded original with this issuer, an owner in common and a matching date"


def _rows(items: Iterable, accession: str, ctx: LoadContext, **extra) -> list[dict]:
    out = []
    for it in items:
        d = asdict(it)
        if "footnote_ids" in d:
            d["footnote_ids"] = list(d["footnote_ids"])
        out.append({"accession": accession, **d, **extra,
                    "source_document_id": ctx.source_document_id, "load_id": ctx.load_id})
    return out


def _table(rows: list[dict], schema: pa.Schema, *, document: str, accession: str, name: str) -> pa.Table:
    try:
        return pa.Table.from_pylist([{k: r.get(k) for k in schema.names} for r in rows], schema=schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
        raise RejectedDocument(document, f"accession {accession}: a value does not fit {name} ({exc})") from exc


def build_tables(ctx: LoadContext, record: OwnershipFiling) -> dict[str, pa.Table]:
    """Every insider_* table of one filing as Arrow tables (validates; inserts nothing)."""
    from pipelines.ownership import OWNERSHIP_FORMS

    doc, acc = ctx.doc.uri, record.accession
    if record.document_type not in OWNERSHIP_FORMS:
        raise RejectedDocument(doc, f"accession {acc}: documentType {record.document_type!r} is not 3/4/5")
    for kind, items in (("transaction", record.transactions), ("holding", record.holdings)):
        keys = [(x.table_kind, x.line_number) for x in items]
        if len(set(keys)) != len(keys):
            raise RejectedDocument(doc, f"accession {acc}: two {kind} lines share a table kind and line number")
    filing = {
        **{f.name: getattr(record, f.name) for f in fields(record)
           if f.name not in ("owners", "transactions", "holdings", "footnotes", "footnote_refs")},
        "signatures": [{"signature_name": n, "signature_date": d} for n, d in record.signatures],
        "acceptance_time_eastern": record.acceptance_time_raw,
        "header_source_document_id": None if record.container == HEADERLESS else ctx.source_document_id,
        "owner_count": len(record.owners), "transaction_count": len(record.transactions),
        "holding_count": len(record.holdings), "footnote_count": len(record.footnotes),
        "amends_accession": None, "amendment_rule": UNLINKED if record.is_amendment else None,
        "amendment_candidates": 0 if record.is_amendment else None,
        "source_document_id": ctx.source_document_id, "load_id": ctx.load_id,
    }
    footnotes = [{**r, "footnote_number": i} for i, r in enumerate(_rows(record.footnotes, acc, ctx), start=1)]
    spec: list[tuple[str, list[dict], pa.Schema]] = [
        ("insider_filings", [filing], _FILINGS),
        ("insider_owners", _rows(record.owners, acc, ctx), _OWNERS),
        ("insider_transactions", _rows(record.transactions, acc, ctx), _TRANSACTIONS),
        ("insider_holdings", _rows(record.holdings, acc, ctx), _HOLDINGS),
        ("insider_footnotes", footnotes, _FOOTNOTES),
        ("insider_footnote_refs", _rows(record.footnote_refs, acc, ctx), _REFS),
    ]
    return {name: _table(rows, schema, document=doc, accession=acc, name=name) for name, rows, schema in spec}


def relink_amendments(con: duckdb.DuckDBPyConnection, issuer_cik: int) -> int:
    """Recompute amends_accession/amendment_rule for every /A of one issuer; returns rows changed."""
    before = fetch_value(con, "SELECT count(*) FROM insider_filings WHERE issuer_cik = ? AND document_type LIKE '%/A'",
                         [issuer_cik])
    if not before:
        return 0
    changed = fetch_value(con, sql("load/ownership/relink_amendments"),
                          {"unlinked": UNLINKED, "issuer_cik": issuer_cik})
    return int(changed or 0)


def load_ownership(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: OwnershipFiling) -> dict[str, int]:
    """Insert one filing's rows (table -> rows inserted). An accession already loaded adds no rows;
    if its rows came from a bare XML and this document is the full SEC submission (with its
    header), the submission's rows replace them (counted as ``insider_filings_header_filled``): a
    filing's rows are those of its full submission whichever arrived first, so the tables do not
    depend on the order of arrival."""
    counts = {**dict.fromkeys(TABLES, 0), HEADER_FILLED: 0}
    existing = fetch_all(con, "SELECT container, document_type, issuer_cik FROM insider_filings WHERE accession = ?",
                         [record.accession])
    if existing:
        container, document_type, issuer_cik = existing[0]
        if container == HEADERLESS and record.container != HEADERLESS:
            counts[HEADER_FILLED] = _replace_bare_xml(con, ctx, record, document_type, issuer_cik)
        return counts
    tables = build_tables(ctx, record)
    for name in TABLES:
        counts[name] = insert_arrow(con, name, tables[name])
    relink_amendments(con, record.issuer_cik)
    return counts



def _replace_bare_xml(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: OwnershipFiling,
                      document_type: str, issuer_cik: int) -> int:
    """Replace the rows of a filing loaded from a bare XML by those of its full SEC submission (the
    same ownership document, plus the header: filed, acceptance time)."""
    if (document_type, issuer_cik) != (record.document_type, record.issuer_cik):
        raise RejectedDocument(
            ctx.doc.uri,
            f"accession {record.accession}: the loaded bare XML is a Form {document_type} of issuer {issuer_cik}, "
            f"this submission a Form {record.document_type} of issuer {record.issuer_cik}")
    tables = build_tables(ctx, record)  # validates before anything is deleted
    for name in TABLES:
        con.execute(f"DELETE FROM {name} WHERE accession = ?", [record.accession])
    for name in TABLES:
        insert_arrow(con, name, tables[name])
    relink_amendments(con, record.issuer_cik)  # the amendment rules read filed and acceptance_time
    return 1


# ------------------------------------------------------------------------------------------------
# Discovery helpers for the refresh flow (pure SQL reads; no HTTP here).


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(fetch_value(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [name]))


def loaded_accessions(con: duckdb.DuckDBPyConnection, accessions: Sequence[str], *,
                      include_rejected: bool = True) -> set[str]:
    """Those of ``accessions`` already in insider_filings with their SEC header (and, by default,
    already rejected as ownership documents: Archives never change, so fetching them again cannot
    help). A filing loaded only from a bare XML is not counted: its full .txt still has to be
    fetched for the filing date and acceptance time."""
    if not accessions:
        return set()
    acc = list(accessions)
    sql = "SELECT accession FROM insider_filings WHERE list_contains(?, accession) AND container <> ?"
    params: list = [acc, HEADERLESS]
    if include_rejected:
        sql += (" UNION SELECT accession FROM source_documents WHERE kind = 'ownership'"
                " AND status = 'rejected' AND list_contains(?, accession)")
        params.append(acc)
    return {r[0] for r in fetch_all(con, sql, params)}


def pending_ownership_filings(con: duckdb.DuckDBPyConnection, ciks: Sequence[int] | None = None
                              ) -> list[tuple[str, int, str]]:
    """(accession, cik, form) of Form 3/4/5 (and /A) filings listed in ``filings`` and not yet loaded
    (or loaded only from a bare XML, without the SEC header: see ``loaded_accessions``).

    Reads the submissions engineer's ``filings`` table (migration 0002) when it exists; returns []
    before that. ``ciks`` restricts to those companies (issuers or reporting owners).
    """
    from pipelines.ownership import OWNERSHIP_FORMS

    if not _has_table(con, "filings"):
        return []
    params = {"forms": sorted(OWNERSHIP_FORMS), "headerless": HEADERLESS,
              "ciks": None if ciks is None else [int(c) for c in ciks]}
    return [(a, int(c), f) for a, c, f in fetch_all(con, sql("load/ownership/unloaded_accessions"), params)]
