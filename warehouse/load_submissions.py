"""Store parsed submissions (main files and pages) and ticker files: filings, companies, pages, registry."""

from __future__ import annotations

import duckdb
import pyarrow as pa

from pipelines.errors import RejectedDocument
from pipelines.submissions import Submissions, SubmissionsPage
from pipelines.tickers import CompanyTickers
from warehouse.db import fetch_value
from warehouse.load import LoadContext
from warehouse.sqlfiles import sql


def _insert_filings(con: duckdb.DuckDBPyConnection, ctx: LoadContext, cik: int, table: pa.Table,
                    page: str | None) -> int:
    con.register("sub_arrow", table)
    try:
        inserted = fetch_value(con, sql("submissions/insert_filings"), {
            "cik": cik, "page": page, "source_document_id": ctx.source_document_id, "load_id": ctx.load_id})
        con.execute(sql("submissions/accession_acceptance"))  # the one place it is maintained
    finally:
        con.unregister("sub_arrow")
    return int(inserted or 0)


def _link_amendments(con: duckdb.DuckDBPyConnection, cik: int) -> int:
    return int(fetch_value(con, sql("submissions/link_amendments"), {"cik": cik}) or 0)


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
        con.execute(
            "INSERT INTO companies (cik, name, source_document_id, load_id, tickers, exchanges, fiscal_year_end,"
            " entity_type, sic, sic_description, category, state_of_incorporation,"
            " state_of_incorporation_description, ein, lei, owner_org, phone, website, flags,"
            " insider_transaction_for_owner_exists, insider_transaction_for_issuer_exists, addresses,"
            " former_names, submissions_observed_at, submissions_source_document_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?::STRUCT(name VARCHAR, from_date DATE, to_date DATE)[], ?, ?)"
            " ON CONFLICT (cik) DO UPDATE SET name = excluded.name, source_document_id = excluded.source_document_id,"
            " load_id = excluded.load_id, tickers = excluded.tickers, exchanges = excluded.exchanges,"
            " fiscal_year_end = excluded.fiscal_year_end, entity_type = excluded.entity_type, sic = excluded.sic,"
            " sic_description = excluded.sic_description, category = excluded.category,"
            " state_of_incorporation = excluded.state_of_incorporation,"
            " state_of_incorporation_description = excluded.state_of_incorporation_description,"
            " ein = excluded.ein, lei = excluded.lei, owner_org = excluded.owner_org, phone = excluded.phone,"
            " website = excluded.website, flags = excluded.flags,"
            " insider_transaction_for_owner_exists = excluded.insider_transaction_for_owner_exists,"
            " insider_transaction_for_issuer_exists = excluded.insider_transaction_for_issuer_exists,"
            " addresses = excluded.addresses, former_names = excluded.former_names,"
            " submissions_observed_at = excluded.submissions_observed_at,"
            " submissions_source_document_id = excluded.submissions_source_document_id",
            [cik, record.name, ctx.source_document_id, ctx.load_id, record.tickers, record.exchanges,
             record.fiscal_year_end, record.entity_type, record.sic, record.sic_description, record.category,
             record.state_of_incorporation, record.state_of_incorporation_description, record.ein, record.lei,
             record.owner_org, record.phone, record.website, record.flags,
             record.insider_transaction_for_owner_exists, record.insider_transaction_for_issuer_exists,
             record.addresses_json, former, observed_at, ctx.source_document_id])
        companies = 1
        pages = _declare_pages(con, ctx, record)
    linked = _link_amendments(con, cik)
    return {"filings": filings, "companies": companies, "company_observations": 1, "submission_pages": pages,
            "filings_links_updated": linked}


def _declare_pages(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: Submissions) -> int:
    con.execute("UPDATE submission_pages SET declared = false, load_id = ? WHERE cik = ? AND declared",
                [ctx.load_id, record.cik])
    for p in record.pages:
        con.execute(
            "INSERT INTO submission_pages (cik, page_name, declared, filing_count, filing_from, filing_to,"
            " declared_by_source_document_id, loaded, loaded_rows, page_source_document_id, load_id)"
            " VALUES (?, ?, true, ?, ?, ?, ?, false, NULL, NULL, ?)"
            " ON CONFLICT (cik, page_name) DO UPDATE SET declared = true, filing_count = excluded.filing_count,"
            " filing_from = excluded.filing_from, filing_to = excluded.filing_to,"
            " declared_by_source_document_id = excluded.declared_by_source_document_id, load_id = excluded.load_id",
            [record.cik, p.name, p.filing_count, p.filing_from, p.filing_to, ctx.source_document_id, ctx.load_id])
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
    if not declared:
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


def load_company_tickers(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: CompanyTickers) -> dict[str, int]:
    """Append one ticker-file snapshot to company_tickers (tickers_current shows the newest)."""
    con.register("tick_arrow", record.tickers)
    try:
        n = fetch_value(con, "INSERT INTO company_tickers (cik, ticker, title, exchange, source_kind,"
                             " source_document_id, load_id) SELECT cik, ticker, title, exchange, ?, ?, ?"
                             " FROM tick_arrow", [record.source_kind, ctx.source_document_id, ctx.load_id])
    finally:
        con.unregister("tick_arrow")
    return {"company_tickers": int(n or 0)}
