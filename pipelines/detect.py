"""Tell what kind of SEC payload a body is, from its content (file names lie)."""

from __future__ import annotations

import re

from pipelines.errors import RejectedDocument

FSDS_MAGIC = b"FSDS-FILING\t1\t"  # pipelines.fsds: one filing of a Financial Statement Data Sets zip

KINDS = (
    "companyfacts",
    "submissions",
    "submissions_page",
    "company_tickers",
    "company_tickers_exchange",
    "ownership",
    "daily_index",
    "filing_document",
    "fsds_filing",
)

_HTML = re.compile(rb"^\s*(<!doctype html|<html)", re.IGNORECASE)
_SUBMISSION_TYPE = re.compile(rb"CONFORMED SUBMISSION TYPE:\s*(\S+)")
_COVER_FORM = re.compile(rb"FORM\s*(?:<[^>]*>\s*|&nbsp;|&#160;|\s)*(10-K|10-Q|8-K)", re.IGNORECASE)
_HTML_HEAD = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*(?:<!doctype\s+html|<html|<head|<title)",
                        re.IGNORECASE | re.DOTALL)
HTML_PAGE = "an HTML page, not an SEC data payload (throttle or error page?)"
WEB_PAGE_KINDS = frozenset({"filing_document"})  # kinds whose documents are (X)HTML pages themselves


def is_html_page(body: bytes) -> bool:
    """True when ``body`` starts like an HTML page (doctype, <html>, <head> or <title>)."""
    return bool(_HTML_HEAD.match(body[:4096]))


def _filing_document(body: bytes, head: bytes) -> bool:
    """A 10-K/10-Q/8-K primary document (or a submission of one), told from its first bytes."""
    from pipelines.filing_documents import form_family

    m = _SUBMISSION_TYPE.search(body[:8192])
    if m:
        return form_family(m.group(1).decode("ascii", "replace")) is not None
    if head.startswith(b"<DOCUMENT>"):
        return True  # an SGML-wrapped document: its parser tells a form from an exhibit
    if _HTML.match(head) or (head.startswith(b"<?xml") and re.search(rb"<html", head, re.I)):
        return b"inlineXBRL" in body[:20_000] or _COVER_FORM.search(body[:200_000]) is not None
    return False


def detect_kind(body: bytes, *, document: str) -> str:
    """Return one of KINDS for ``body`` or raise RejectedDocument naming ``document``."""
    head = body[:4096].lstrip()
    if not head:
        raise RejectedDocument(document, "empty body")
    if b"Request Rate Threshold Exceeded" in body[:20_000]:
        raise RejectedDocument(document, "an HTML page: SEC's throttle page (Request Rate Threshold Exceeded), "
                                         "not a payload; fetch it again later")
    if body.startswith(FSDS_MAGIC):
        return "fsds_filing"
    if _filing_document(body, head):
        return "filing_document"
    if is_html_page(body):
        raise RejectedDocument(document, HTML_PAGE)
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
