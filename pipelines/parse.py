"""Dispatch a Document to the parser of its kind (detected from content when not given)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from pipelines.detect import detect_kind
from pipelines.documents import Document
from pipelines.errors import RejectedDocument

_PAGE_NAME = re.compile(r"CIK(\d{10})-submissions-\d{3}\.json", re.IGNORECASE)


def document_kind(doc: Document) -> str:
    return doc.kind or detect_kind(doc.body, document=doc.uri)


def parse_document(doc: Document) -> tuple[str, Any]:
    """Return (kind, record) for ``doc``; raise RejectedDocument naming it when it cannot be parsed."""
    kind = document_kind(doc)
    name = PurePosixPath(doc.uri.split("?")[0]).name
    if name.endswith(".gz"):
        name = name[:-3]
    if kind == "companyfacts":
        from pipelines.companyfacts import parse_companyfacts

        return kind, parse_companyfacts(doc.body, document=doc.uri, expected_cik=doc.expected_cik)
    if kind == "submissions":
        from pipelines.submissions import parse_submissions

        return kind, parse_submissions(doc.body, document=doc.uri, expected_cik=doc.expected_cik)
    if kind == "submissions_page":
        from pipelines.submissions import parse_submissions_page

        m = _PAGE_NAME.search(name)
        cik = doc.expected_cik or (int(m.group(1)) if m else None)
        if cik is None:
            raise RejectedDocument(doc.uri, "a submissions page file must be named CIK##########-submissions-NNN.json")
        return kind, parse_submissions_page(doc.body, document=doc.uri, cik=cik, page_name=name)
    if kind == "company_tickers":
        from pipelines.tickers import parse_company_tickers

        return kind, parse_company_tickers(doc.body, document=doc.uri)
    if kind == "company_tickers_exchange":
        from pipelines.tickers import parse_company_tickers_exchange

        return kind, parse_company_tickers_exchange(doc.body, document=doc.uri)
    if kind == "ownership":
        from pipelines.ownership import accession_from_filename, parse_ownership

        accession = doc.accession or accession_from_filename(name)
        return kind, parse_ownership(doc.body, document=doc.uri, accession=accession)
    raise RejectedDocument(doc.uri, f"documents of kind {kind!r} are not loadable")
