"""EDGAR full-text search (efts.sec.gov/LATEST/search-index) for filings the warehouse does not hold.

``efts_url(q, ...)`` builds the request (parameters in one fixed order, so a replay folder holds it
under one name); EDGAR's full-text search covers filings from 2001 on, so a range that starts
earlier is refused with the reason (``EftsRangeRefused``). ``parse_efts(body)`` reads the JSON
answer into hits: accession, form, the document that matched, CIKs and names, filed date, 8-K items.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlencode

from pipelines.errors import RejectedDocument, TerminalError
from pipelines.sec_formats import normalize_cik

EFTS_URL = "https://efts.sec.gov/LATEST/search-index"
EFTS_FIRST_DAY = date(2001, 1, 1)


class EftsRangeRefused(TerminalError):
    """A full-text search before 2001: EDGAR's full-text search does not cover it."""


@dataclass(frozen=True)
class EftsHit:
    accession: str
    form: str | None
    file_name: str | None  # the document of the filing that matched (the primary one or an exhibit)
    file_type: str | None  # 10-K, EX-99.1, ...
    ciks: tuple[int, ...]
    names: tuple[str, ...]
    filed: date | None
    period_ending: date | None
    items: tuple[str, ...]  # 8-K items the filing reports


@dataclass(frozen=True)
class EftsResult:
    total: int
    total_is_lower_bound: bool  # EDGAR stops counting at 10,000 ("gte")
    hits: tuple[EftsHit, ...]


def efts_url(q: str, *, forms: list[str] | None = None, start: date | None = None, end: date | None = None,
             offset: int = 0) -> str:
    """The search request for ``q`` (a phrase in double quotes is matched as a phrase by EDGAR)."""
    if start is not None and start < EFTS_FIRST_DAY or end is not None and end < EFTS_FIRST_DAY:
        raise EftsRangeRefused(f"EDGAR full-text search covers filings from {EFTS_FIRST_DAY} on; "
                               f"{start or end} is earlier: search the held filings instead (search --phrase)")
    if not q.strip():
        raise TerminalError("an empty full-text search")
    params: list[tuple[str, str]] = []
    if start or end:
        params.append(("dateRange", "custom"))
        if end:
            params.append(("enddt", end.isoformat()))
    if forms:
        params.append(("forms", ",".join(forms)))
    params.append(("from", str(offset)))
    params.append(("q", q))
    if start:
        params.append(("startdt", start.isoformat()))
    return f"{EFTS_URL}?{urlencode(params)}"


def _date(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def parse_efts(body: bytes, *, document: str) -> EftsResult:
    """The hits of one full-text-search answer, or RejectedDocument naming ``document``."""
    try:
        data = json.loads(body)
        hits = data["hits"]
        total = hits.get("total") or {}
        out = []
        for h in hits["hits"]:
            src = h.get("_source") or {}
            acc, _, name = str(h.get("_id", "")).partition(":")
            out.append(EftsHit(
                accession=src.get("adsh") or acc, form=src.get("form"), file_name=name or None,
                file_type=src.get("file_type"),
                ciks=tuple(c for c in (normalize_cik(x) for x in src.get("ciks") or []) if c is not None),
                names=tuple(src.get("display_names") or []), filed=_date(src.get("file_date")),
                period_ending=_date(src.get("period_ending")), items=tuple(src.get("items") or [])))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RejectedDocument(document, f"not an EDGAR full-text search answer ({type(exc).__name__}: {exc})") from exc
    return EftsResult(int(total.get("value", len(out))), total.get("relation") == "gte", tuple(out))
