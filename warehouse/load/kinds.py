"""The document kinds the warehouse loads, one row each, keyed by record type: loader, load order, tables written.

A row joins the kind's two halves, each said once. pipelines/ (which never imports warehouse/) has
its detection rule (``pipelines.detect.detect_kind``) and its parser (the ``pipelines.parse.KINDS``
rows named in ``documents``); this row names the record type those parsers return (the class
itself), the loader that stores it, its place in a batch and the tables it writes. Each of those
tables has a row in ``warehouse.schema.tables`` saying whether it is exported and what `status`
counts in it. tests/warehouse/load/test_ingest_path.py checks the rows against the parsers (each
kind parses to its row's record type) and against what the loaders write.

Adding a kind: its parser and detection rule in pipelines/ (one ``DocumentKind`` row), a migration
for its tables (and their columns in schema/columns.toml), a row per table in
``warehouse.schema.tables``, ``warehouse/load/<kind>.py`` with its loader, then ONE row below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from pipelines.companyfacts import CompanyFacts
from pipelines.filing_documents import FilingDocument
from pipelines.fsds import FsdsFiling
from pipelines.ownership import OwnershipFiling
from pipelines.submissions import Submissions, SubmissionsPage
from pipelines.tickers import CompanyTickers
from warehouse.load import filing_documents, inline_xbrl, ownership
from warehouse.load.companyfacts import claim_concepts, load_companyfacts, load_companyfacts_many
from warehouse.load.context import Loader, ManyLoader
from warehouse.load.filing_documents import load_filing_document
from warehouse.load.inline_xbrl import load_inline_xbrl
from warehouse.load.ownership import load_ownership
from warehouse.load.submissions import load_company_tickers, load_submissions, load_submissions_page


@dataclass(frozen=True)
class Kind:
    """``loader`` stores one record of ``record_type`` (what the parsers of the pipelines kinds
    ``documents`` return) into ``tables``; within a batch records load by ``order`` (the registry
    first, then a company's main submissions file before its pages, because a page needs its main
    file; everything else after, in the order given). ``many``, when given, stores consecutive
    records of different companies in one call, as ``loader`` would one by one.

    ``shared``, when given, says the loader writes rows of its record's company only, except the shared
    rows ``shared(con, records)`` inserts beforehand (returning how many each record added, counted as
    the loader's ``shared_count`` row count): on the lake such a batch claims its companies and commits
    beside other writers (``warehouse.store.lake_writers``); every other kind's batch takes the lake alone."""

    record_type: type
    documents: tuple[str, ...]
    loader: Loader
    order: int
    tables: tuple[str, ...]
    many: ManyLoader | None = None
    shared: Callable[[duckdb.DuckDBPyConnection, Sequence[Any]], list[int]] | None = None
    shared_count: str = ""


KINDS: tuple[Kind, ...] = (
    Kind(CompanyTickers, ("company_tickers", "company_tickers_exchange"), load_company_tickers, 0,
         ("company_tickers",)),
    Kind(Submissions, ("submissions",), load_submissions, 1,
         ("filings", "companies", "company_observations", "submission_pages", "accession_acceptance")),
    Kind(SubmissionsPage, ("submissions_page",), load_submissions_page, 2,
         ("filings", "submission_pages", "accession_acceptance")),
    Kind(CompanyFacts, ("companyfacts",), load_companyfacts, 3,
         ("facts", "concepts", "fiscal_calendar", "companies", "fact_repeated_keys"), load_companyfacts_many,
         claim_concepts, "concepts"),
    Kind(OwnershipFiling, ("ownership",), load_ownership, 3, ownership.TABLES),
    Kind(FilingDocument, ("filing_document",), load_filing_document, 3,
         filing_documents.TABLES + inline_xbrl.TABLES),
    Kind(FsdsFiling, ("fsds_filing",), load_inline_xbrl, 3, inline_xbrl.TABLES),  # a Financial Statement Data Set's filing
)
LOADERS: dict[type, Kind] = {k.record_type: k for k in KINDS}  # a record's kind: LOADERS[type(record)]
BY_DOCUMENT: dict[str, Kind] = {d: k for k in KINDS for d in k.documents}  # by pipelines' kind name
