"""Store parsed submissions (main files and pages) and ticker files: filings, companies, pages, registry."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from pipelines.errors import RejectedDocument
from warehouse.load.context import LoadContext
from warehouse.load.upsert import upsert_row
from warehouse.schema.sql_files import sql
from warehouse.store.db import fetch_all, fetch_value, unregister

if TYPE_CHECKING:  # record types of annotations only: their parsers are not imported by every load
    from pipelines.submissions import Submissions, SubmissionsPage
    from pipelines.tickers import CompanyTickers


def _insert_filings(con: duckdb.DuckDBPyConnection, ctx: LoadContext, cik: int, table: pa.Table,
                    page: str | None) -> int:
    con.register("sub_arrow", table)
    try:
        inserted = fetch_value(con, sql("load/submissions/insert_filings"), {
            "cik": cik, "page": page, "source_document_id": ctx.source_document_id, "load_id": ctx.load_id})
        con.execute(sql("load/submissions/accession_acceptance"))  # the one place it is maintained
    finally:
        unregister(con, "sub_arrow")
    return int(inserted or 0)


def _link_amendments(con: duckdb.DuckDBPyConnection, cik: int) -> int:
    return int(fetch_value(con, sql("load/submissions/link_amendments"), {"cik": cik}) or 0)


def load_submissions(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: Submissions) -> dict[str, int]:
    """Store a main submissions file: new filings, the company's identity, the pages it declares."""
    cik = record.cik
    observed_at = record.observed_at or ctx.doc.fetched_at
    current = fetch_value(con, "SELECT submissions_observed_at FROM companies WHERE cik = ?", [cik])
    is_latest = current is None or observed_at >= current

    filings = _insert_filings(con, ctx, cik, record.filings, None)
    con.execute(
        "INSERT INTO company_observations VALUES (?, ?, ?, ?, ?, ?, ?)",
        [cik, observed_at, record.name, record.tickers, record.exchanges, ctx.source_document_id, ctx.load_id])
    companies = 0
    pages = 0
    if is_latest:
        former = [{"name": f.name, "from_date": f.from_date, "to_date": f.to_date} for f in record.former_names]
        upsert_row(con, "companies", ["cik"], {
            "cik": cik, "name": record.name, "source_document_id": ctx.source_document_id, "load_id": ctx.load_id,
            "tickers": record.tickers, "exchanges": record.exchanges, "fiscal_year_end": record.fiscal_year_end,
            "entity_type": record.entity_type, "sic": record.sic, "sic_description": record.sic_description,
            "category": record.category, "state_of_incorporation": record.state_of_incorporation,
            "state_of_incorporation_description": record.state_of_incorporation_description,
            "ein": record.ein, "lei": record.lei, "owner_org": record.owner_org, "phone": record.phone,
            "website": record.website, "flags": record.flags,
            "insider_transaction_for_owner_exists": record.insider_transaction_for_owner_exists,
            "insider_transaction_for_issuer_exists": record.insider_transaction_for_issuer_exists,
            "addresses": record.addresses_json, "former_names": former, "submissions_observed_at": observed_at,
            "submissions_source_document_id": ctx.source_document_id,
        }, casts={"tickers": "VARCHAR[]", "exchanges": "VARCHAR[]", "addresses": "JSON",
                  "former_names": "STRUCT(name VARCHAR, from_date DATE, to_date DATE)[]"})
        companies = 1
        pages = _declare_pages(con, ctx, record)
    linked = _link_amendments(con, cik)
    return {"filings": filings, "companies": companies, "company_observations": 1, "submission_pages": pages,
            "filings_links_updated": linked}


def _declare_pages(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: Submissions) -> int:
    con.execute("UPDATE submission_pages SET declared = false, load_id = ? WHERE cik = ? AND declared",
                [ctx.load_id, record.cik])
    for p in record.pages:
        upsert_row(con, "submission_pages", ["cik", "page_name"], {
            "cik": record.cik, "page_name": p.name, "declared": True, "filing_count": p.filing_count,
            "filing_from": p.filing_from, "filing_to": p.filing_to,
            "declared_by_source_document_id": ctx.source_document_id, "load_id": ctx.load_id,
            "loaded": False, "loaded_rows": None, "page_source_document_id": None,
        }, update=["declared", "filing_count", "filing_from", "filing_to", "declared_by_source_document_id",
                   "load_id"])
    return len(record.pages)


def load_submissions_page(con: duckdb.DuckDBPyConnection, ctx: LoadContext,
                          record: SubmissionsPage) -> dict[str, int]:
    """Store one page of older filings. A page that arrives before its company's main file is
    stored and marked loaded but not (yet) declared: the main file declares it when it loads, so
    the result does not depend on the order of arrival. A page the loaded main file does not
    declare is rejected."""
    cik, name = record.cik, record.page_name
    declared = fetch_value(con, "SELECT count(*) FROM submission_pages WHERE cik = ? AND page_name = ?",
                           [cik, name])
    if declared:
        _check_declaration(con, ctx, record)
    else:
        main = fetch_value(con, "SELECT count(*) FROM companies WHERE cik = ? AND submissions_observed_at IS NOT NULL",
                           [cik])
        if main:
            raise RejectedDocument(ctx.doc.uri, f"page {name}: the loaded main submissions file of CIK {cik} "
                                                "does not declare this page in filings.files")
        con.execute("INSERT INTO submission_pages (cik, page_name, declared, loaded, load_id)"
                    " VALUES (?, ?, false, false, ?)", [cik, name, ctx.load_id])
    filings = _insert_filings(con, ctx, cik, record.filings, name)
    con.execute("UPDATE submission_pages SET loaded = true, loaded_rows = ?, page_source_document_id = ?,"
                " load_id = ? WHERE cik = ? AND page_name = ?",
                [record.filings.num_rows, ctx.source_document_id, ctx.load_id, cik, name])
    linked = _link_amendments(con, cik)
    return {"filings": filings, "submission_pages_loaded": 1, "filings_links_updated": linked}


PAGE_DATE_SLACK_DAYS = 31  # SEC's filingTo can be a few days off the page's last filing date (Tesla's: 1 day)


def _check_declaration(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: SubmissionsPage) -> None:
    """A page names no company: only its declaration in the main file tells another company's page
    renamed as this one's. A page starts at the company's oldest filing and grows forward as
    filings leave the main file (Apple's page 001: 988 filings to 2013-02-07 in 2023, 1,223 to
    2015-04-25 in 2026), so an older or newer copy of the page is still this company's when its first
    filing date is the declared filingFrom and, when it ends within the declared range, it holds at
    most filingCount filings. Rejected otherwise."""
    row = fetch_all(con, "SELECT filing_count, filing_from, filing_to FROM submission_pages "
                         "WHERE cik = ? AND page_name = ? AND declared", [record.cik, record.page_name])
    if not row:
        return
    count, first, last = row[0]
    dates = record.filings.column("filing_date")
    rows, low, high = record.filings.num_rows, pc.min(dates).as_py(), pc.max(dates).as_py()
    wrong = []
    if first is not None and low != first:
        wrong.append(f"its first filing is dated {low} where the declared page starts {first}")
    if count is not None and last is not None and high <= last + timedelta(days=PAGE_DATE_SLACK_DAYS) \
            and rows > count:
        wrong.append(f"{rows:,} filings to {high} where it declares {count:,} to {last}")
    if wrong:
        raise RejectedDocument(ctx.doc.uri, f"page {record.page_name} disagrees with the main submissions file of "
                                            f"CIK {record.cik}: {'; '.join(wrong)} (another company's page?)")


def load_company_tickers(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: CompanyTickers) -> dict[str, int]:
    """Append one ticker-file snapshot to company_tickers (tickers_current shows the newest)."""
    con.register("tick_arrow", record.tickers)
    try:
        n = fetch_value(con, sql("load/submissions/insert_tickers"),
                        [record.source_kind, ctx.source_document_id, ctx.load_id])
    finally:
        unregister(con, "tick_arrow")
    return {"company_tickers": int(n or 0)}
