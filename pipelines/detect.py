"""Tell what kind of SEC payload a body is, from its content (file names lie)."""

from __future__ import annotations

import re

from pipelines.errors import RejectedDocument

KINDS = (
    "companyfacts",
    "submissions",
    "submissions_page",
    "company_tickers",
    "company_tickers_exchange",
    "ownership",
    "inline_xbrl",
    "daily_index",
)

_INLINE_XBRL = b"http://www.xbrl.org/2013/inlineXBRL"  # the ix namespace, declared on the root
_IX_HEADER = re.compile(rb"<[A-Za-z0-9_.-]+:header[\s>]")
_HTML = re.compile(rb"^\s*(<!doctype html|<html)", re.IGNORECASE)


def detect_kind(body: bytes, *, document: str) -> str:
    """Return one of KINDS for ``body`` or raise RejectedDocument naming ``document``."""
    head = body[:4096].lstrip()
    if not head:
        raise RejectedDocument(document, "empty body")
    if _INLINE_XBRL in body[:20_000] and _IX_HEADER.search(body):
        return "inline_xbrl"
    if _HTML.match(head):
        raise RejectedDocument(document, "an HTML page, not an SEC data payload (throttle or error page?)")
    if head[:1] in (b"{", b"["):
        if b'"facts"' in body[:200_000] and b'"entityName"' in body[:200_000]:
            return "companyfacts"
        if b'"filings"' in head or (b'"cik"' in head and b'"name"' in head and b'"tickers"' in head):
            return "submissions"
        if head.startswith(b'{"accessionNumber"') or b'"accessionNumber"' in head[:200]:
            return "submissions_page"
        if b'"fields"' in head and b'"data"' in head:
            return "company_tickers_exchange"
        if b'"cik_str"' in head:
            return "company_tickers"
        raise RejectedDocument(document, "JSON of an unknown shape (not companyfacts, submissions or tickers)")
    if b"<ownershipDocument" in body or b"<SEC-DOCUMENT>" in head or b"<SEC-HEADER>" in head \
            or b"<SUBMISSION>" in head or head.startswith(b"<?xml"):
        return "ownership"
    if re.search(rb"^(Form Type|Company Name|CIK\|Company Name)\s", body[:20_000], re.MULTILINE) \
            or b"Last Data Received" in head:
        return "daily_index"
    raise RejectedDocument(document, "unrecognised content (not JSON, ownership XML or an EDGAR index)")
