"""One HTTP request as the SEC client sent it, and what it asked for: the record of a run's cost."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class RequestLog:
    """One HTTP request as it went out: what ``SecClient.on_request`` receives (each attempt,
    retries and redirect hops included; a cache hit without a request is not one)."""

    url: str
    status: int | None  # None: no response (network error, deadline)
    bytes: int | None
    started_at: datetime  # UTC
    elapsed_ms: float
    error: str | None = None


def request_kind(url: str) -> str:
    """What a request asked for, told from its URL (for run logs)."""
    import httpx  # here: warehouse/load/tracking.py imports this module for readers that send no request

    path = httpx.URL(url).path
    if "/edgar/daily-index/" in path:
        return "daily_index"
    if "/api/xbrl/companyfacts/" in path:
        return "companyfacts"
    if path.startswith("/submissions/"):
        return "submissions_page" if "-submissions-" in path else "submissions"
    if path.endswith("/company_tickers.json"):
        return "company_tickers"
    if path.endswith("/company_tickers_exchange.json"):
        return "company_tickers_exchange"
    if httpx.URL(url).host == "efts.sec.gov":
        return "full_text_search"
    return "archive" if path.startswith("/Archives/") else "other"
