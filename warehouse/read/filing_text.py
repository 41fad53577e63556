"""Read filing text: one filing's items, phrase search and ranked keyword search over the stored items.

Every hit is a receipt: accession, item, company, form, filed date, the document's URL, the item's
byte range in the raw document, and the match's place (characters into the item's text and into
the document's text, ``filing_documents.text``). Phrases are matched as ``pipelines.filing_search``
normalises them (case, whitespace, quotes, dashes), the same rule quote verification uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

import duckdb

from pipelines.filing_search import phrase_pattern, phrase_terms, query_terms, snippet
from warehouse.errors import WarehouseError
from warehouse.schema.sql_files import sql
from warehouse.store.db import fetch_all

MAX_LIMIT = 1000


class FilingTextError(WarehouseError):
    """A filing or item that is not held, or a search that cannot be run (named, with what is held)."""


@dataclass(frozen=True)
class Hit:
    """One item of one filing that matches, with where."""

    accession: str
    item: str
    heading: str
    cik: int
    form: str
    filed: date | None
    company_name: str | None
    document_url: str
    snippet: str
    match_start: int  # characters into the item's text (filing_sections.text)
    match_end: int
    text_start: int  # the same place, characters into filing_documents.text
    byte_start: int  # the item's byte range in the raw document
    byte_end: int
    score: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: (v.isoformat() if isinstance(v, date) else v) for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class Filters:
    cik: int | None = None
    form: str | None = None
    item: str | None = None
    filed_from: date | None = None
    filed_to: date | None = None

    def params(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _rows(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur = con.execute(sql(name), params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def sections(con: duckdb.DuckDBPyConnection, accession: str) -> list[dict[str, Any]]:
    """Every item of the filing ``accession`` in document order, or FilingTextError when not held."""
    rows = _rows(con, "read/filing_text/sections", {"accession": accession})
    if not rows and not fetch_all(con, "SELECT 1 FROM filing_documents WHERE accession = ?", [accession]):
        raise FilingTextError(f"filing {accession} is not held: load its primary document (edgar-warehouse load "
                              "FILE, or track the company --with-text)")
    return rows


def section(con: duckdb.DuckDBPyConnection, accession: str, item: str) -> dict[str, Any]:
    """One item (also one printed together with others, "Items 1 and 2"), or FilingTextError listing
    the items the filing has."""
    rows = sections(con, accession)
    want = item.strip().upper().removeprefix("ITEM").strip().rstrip(".")
    for r in rows:
        if r["item"].upper() == want:
            return r
    for r in rows:
        if want in [c.upper() for c in r["covers"]]:
            return r
    have = ", ".join(r["item"] for r in rows) or "none found"
    raise FilingTextError(f"filing {accession} has no item {item!r}; its items: {have}")


def _limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise FilingTextError(f"limit must be 1 to {MAX_LIMIT}")
    return limit


def _hit(r: dict[str, Any], start: int, end: int, score: float | None = None) -> Hit:
    return Hit(r["accession"], r["item"], r["heading"], r["cik"], r["form"], r["filed"], r["company_name"],
               r["document_url"], snippet(r["text"], start, end), start, end, r["body_start"] + start,
               r["byte_start"], r["byte_end"], score)


def _with_texts(con: duckdb.DuckDBPyConnection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` (items) with their ``text``, read for those items only."""
    texts = {(r["accession"], r["item"]): r["text"] for r in _rows(
        con, "read/filing_text/item_texts_of", {"accessions": [r["accession"] for r in rows],
                                                "items": [r["item"] for r in rows]})}
    return [{**r, "text": texts[(r["accession"], r["item"])]} for r in rows]


def search_phrase(con: duckdb.DuckDBPyConnection, phrase: str, filters: Filters = Filters(),
                  limit: int = 20) -> list[Hit]:
    """Items saying ``phrase`` (normalised), newest filings first; the first place in each.

    The index gives the candidates (items where the phrase's terms stand at its distances), newest
    first; their texts are read a few at a time and the phrase's regular expression decides, until
    ``limit`` hits (a candidate can still differ in a stop word or in punctuation)."""
    try:
        pattern = re.compile(phrase_pattern(phrase))
    except ValueError as exc:
        raise FilingTextError(str(exc)) from exc
    step, k = max(_limit(limit), 20), 0
    pairs = phrase_terms(phrase)
    candidates = _rows(con, "read/filing_text/search_phrase", {
        "terms": [t for t, _ in pairs], "places": [p for _, p in pairs], **filters.params()})
    hits: list[Hit] = []
    while k < len(candidates) and len(hits) < limit:
        for r in _with_texts(con, candidates[k:k + step]):
            m = pattern.search(r["text"])
            if m and len(hits) < limit:
                hits.append(_hit(r, m.start(), m.end()))
        k, step = k + step, step * 2
    return hits


def search_keywords(con: duckdb.DuckDBPyConnection, query: str, filters: Filters = Filters(),
                    limit: int = 20) -> list[Hit]:
    """Items ranked by BM25 for the words of ``query``; the snippet shows the first query word found."""
    words = query_terms(query)
    if not words:
        raise FilingTextError(f"{query!r} has no words to search for (only stop words or punctuation)")
    rows = _rows(con, "read/filing_text/search_keywords", {"terms": words, "limit": _limit(limit), **filters.params()})
    hits = []
    for r in _with_texts(con, rows):
        found = [(len(re.findall(rf"(?i)\b{re.escape(w)}", r["text"])), w) for w in words]
        rarest = min((f for f in found if f[0]), default=None)  # the snippet shows the item's rarest query word
        m = re.search(rf"(?i)\b{re.escape(rarest[1])}\w*", r["text"]) if rarest else None
        start, end = (m.start(), m.end()) if m else (0, 0)
        hits.append(_hit(r, start, end, round(float(r["score"]), 4)))
    return hits
