"""Which loader stores which record type, and in which order within a batch (said once, here).

``pipelines.parse.KINDS`` maps each kind of document to its parser and record type; this table maps
each record type to the loader that stores it. A test checks that every record type a parser can
return has exactly one loader here.
"""

from __future__ import annotations

from dataclasses import dataclass

from warehouse.load.companyfacts import load_companyfacts, load_companyfacts_many
from warehouse.load.context import Loader, ManyLoader
from warehouse.load.filing_documents import load_filing_document
from warehouse.load.ownership import load_ownership
from warehouse.load.submissions import load_company_tickers, load_submissions, load_submissions_page


@dataclass(frozen=True)
class RecordLoader:
    """``loader`` stores one record of ``record_type``; within a batch records load by ``order``
    (the registry first, then a company's main submissions file before its pages, because a page
    needs its main file; everything else after, in the order given). ``many``, when given, stores
    consecutive records of different companies in one call, as ``loader`` would one by one."""

    record_type: str
    loader: Loader
    order: int
    many: ManyLoader | None = None


LOADERS: dict[str, RecordLoader] = {r.record_type: r for r in (
    RecordLoader("CompanyTickers", load_company_tickers, 0),
    RecordLoader("Submissions", load_submissions, 1),
    RecordLoader("SubmissionsPage", load_submissions_page, 2),
    RecordLoader("CompanyFacts", load_companyfacts, 3, load_companyfacts_many),
    RecordLoader("OwnershipFiling", load_ownership, 3),
    RecordLoader("FilingDocument", load_filing_document, 3),
)}
