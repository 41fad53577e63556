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
        from pipelines.ownership import parse_ownership

        # The parser takes the accession from the SEC header, else from the file name in
        # ``document`` (and records which); ``doc.accession`` is what the fetcher asked for.
        return kind, parse_ownership(doc.body, document=doc.uri, accession=doc.accession)
    raise RejectedDocument(doc.uri, f"documents of kind {kind!r} are not loadable")


def _parse_one(doc: Document) -> tuple[Document, Any]:
    try:
        return doc, parse_document(doc)[1]
    except RejectedDocument as exc:
        return doc, exc


def parse_many(docs: list[Document], *, workers: int | None = None) -> list[tuple[Document, Any]]:
    """Parse documents, in a process per core when there are several big ones.

    Returns (doc, record) pairs in input order; a bad document gives (doc, RejectedDocument).
    Workers are forked (Linux's default): they run only this pure parser and return its records.
    forkserver/spawn were measured and rejected: each worker re-imports the caller's __main__ (the
    whole CLI), which made the bench 30% slower and breaks callers without a main file.
    """
    import os
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    workers = workers or min(len(docs), os.cpu_count() or 1)
    if workers <= 1 or sum(d.size for d in docs) < 4_000_000:
        return [_parse_one(d) for d in docs]
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
        return list(pool.map(_parse_one, docs))
