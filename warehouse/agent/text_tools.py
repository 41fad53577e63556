"""Agent tools over filing text: one item of a filing (get_filing_section) and full-text search (search_filings).

Results are pydantic models with receipts (accession, form, company, filed, the document's URL, the
item's byte range in the raw document, character offsets); failures come back in ``error`` as data:
an unknown item lists the items the filing has (``closest``), a filing not held says how to load it.
"""

from __future__ import annotations

from datetime import date

import duckdb
from pydantic import BaseModel, Field

from warehouse.agent.models import ToolError
from warehouse.read.filing_text import (
    FilingTextError,
    Filters,
    search_keywords,
    search_phrase,
    section,
    sections,
)

DEFAULT_MAX_CHARS = 20_000
MAX_HITS = 50


class SectionReceipt(BaseModel):
    accession: str
    cik: int
    company_name: str | None
    form: str
    filed: date | None
    document_url: str
    sha256: str = Field(description="SHA-256 of the raw document the offsets are into.")
    byte_start: int
    byte_end: int
    text_start: int = Field(description="Characters into the document's text where the item's heading starts.")


class SectionResult(BaseModel):
    item: str | None = None
    heading: str | None = None
    text: str = ""
    flags: list[str] = Field(default_factory=list, description="incorporated_by_reference, not_applicable, "
                                                                 "none, reserved, omitted")
    covers: list[str] = Field(default_factory=list)
    confidence: float | None = None
    confidence_reason: str | None = None
    chars: int = Field(0, description="Length of the item's whole text.")
    truncated: bool = Field(False, description="text is the first max_chars characters of the item.")
    receipt: SectionReceipt | None = None
    error: ToolError | None = None


class SearchHit(BaseModel):
    accession: str
    item: str
    heading: str
    cik: int
    company_name: str | None
    form: str
    filed: date | None
    snippet: str = Field(description="The words around the match, the match in [brackets].")
    match_start: int = Field(description="Characters into the item's text.")
    match_end: int
    document_url: str
    byte_start: int = Field(description="The item's byte range in the raw document.")
    byte_end: int
    score: float | None = Field(None, description="BM25 (keyword search only).")


class SearchFilingsResult(BaseModel):
    mode: str
    hits: list[SearchHit] = Field(default_factory=list)
    error: ToolError | None = None


def get_filing_section(con: duckdb.DuckDBPyConnection, accession: str, item: str,
                       max_chars: int = DEFAULT_MAX_CHARS) -> SectionResult:
    """One item of a held filing, its text cut at ``max_chars`` (said so in ``truncated``)."""
    if max_chars < 1:
        return SectionResult(error=ToolError(kind="bad_argument", message="max_chars must be at least 1",
                                             suggestion="Ask for 20000 characters, then more if truncated."))
    try:
        r = section(con, accession, item)
    except FilingTextError as exc:
        try:
            have = [s["item"] for s in sections(con, accession)]
        except FilingTextError:
            have = []
        return SectionResult(error=ToolError(
            kind="no_data", message=str(exc), closest=have,
            suggestion="Ask for one of the items listed in closest." if have else
                       "Load the filing's primary document (edgar-warehouse load FILE) or search_filings."))
    text = r["text"]
    return SectionResult(
        item=r["item"], heading=r["heading"], text=text[:max_chars], flags=list(r["flags"]), covers=list(r["covers"]),
        confidence=r["confidence"], confidence_reason=r["confidence_reason"], chars=len(text),
        truncated=len(text) > max_chars,
        receipt=SectionReceipt(accession=r["accession"], cik=r["cik"], company_name=r["company_name"], form=r["form"],
                               filed=r["filed"], document_url=r["document_url"], sha256=r["sha256"],
                               byte_start=r["byte_start"], byte_end=r["byte_end"], text_start=r["text_start"]))


def search_filings(con: duckdb.DuckDBPyConnection, query: str | None = None, phrase: str | None = None,
                   cik: int | None = None, form: str | None = None, item: str | None = None,
                   filed_from: date | None = None, filed_to: date | None = None, limit: int = 10) -> SearchFilingsResult:
    """Ranked keywords or an exact phrase over the held filings' items."""
    mode = "phrase" if phrase is not None else "keywords"
    if (query is None) == (phrase is None) or not 1 <= limit <= MAX_HITS:
        return SearchFilingsResult(mode=mode, error=ToolError(
            kind="bad_argument", message=f"give query (keywords) or phrase, not both; limit 1 to {MAX_HITS}",
            suggestion='search_filings(query="export controls") or search_filings(phrase="going concern")'))
    filters = Filters(cik, form, item, filed_from, filed_to)
    try:
        hits = search_phrase(con, phrase, filters, limit) if phrase is not None \
            else search_keywords(con, query, filters, limit)
    except FilingTextError as exc:
        return SearchFilingsResult(mode=mode, error=ToolError(kind="bad_argument", message=str(exc),
                                                              suggestion="Use words that say something."))
    fields = SearchHit.model_fields
    return SearchFilingsResult(mode=mode, hits=[SearchHit(**{k: v for k, v in h.__dict__.items() if k in fields})
                                                for h in hits])
