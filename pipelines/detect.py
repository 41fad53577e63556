"""Tell what kind of SEC payload a body is, from its content (file names lie)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pipelines.errors import RejectedDocument

FSDS_MAGIC = b"FSDS-FILING\t1\t"  # pipelines.fsds: one filing of a Financial Statement Data Sets zip

_HTML = re.compile(rb"^\s*(<!doctype html|<html)", re.IGNORECASE)
_SUBMISSION_TYPE = re.compile(rb"CONFORMED SUBMISSION TYPE:\s*(\S+)")
_COVER_FORM = re.compile(rb"FORM\s*(?:<[^>]*>\s*|&nbsp;|&#160;|\s)*(10-K|10-Q|8-K)", re.IGNORECASE)
_HTML_HEAD = re.compile(rb"^(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*(?:<!doctype\s+html|<html|<head|<title)",
                        re.IGNORECASE | re.DOTALL)
HTML_PAGE = "an HTML page, not an SEC data payload (throttle or error page?)"


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


def _fsds_filing(body: bytes, head: bytes) -> bool:
    return body.startswith(FSDS_MAGIC)


def _companyfacts(body: bytes, head: bytes) -> bool:
    return b'"facts"' in body[:200_000] and b'"entityName"' in body[:200_000]


def _submissions(body: bytes, head: bytes) -> bool:
    return b'"filings"' in head or (b'"cik"' in head and b'"name"' in head and b'"tickers"' in head)


def _submissions_page(body: bytes, head: bytes) -> bool:
    return head.startswith(b'{"accessionNumber"') or b'"accessionNumber"' in head[:200]


def _company_tickers_exchange(body: bytes, head: bytes) -> bool:
    return b'"fields"' in head and b'"data"' in head


def _company_tickers(body: bytes, head: bytes) -> bool:
    return b'"cik_str"' in head


def _ownership(body: bytes, head: bytes) -> bool:
    return (b"<ownershipDocument" in body or b"<SEC-DOCUMENT>" in head or b"<SEC-HEADER>" in head
            or b"<SUBMISSION>" in head or head.startswith(b"<?xml"))


def _daily_index(body: bytes, head: bytes) -> bool:
    return (re.search(rb"^(Form Type|Company Name|CIK\|Company Name)\s", body[:20_000], re.MULTILINE) is not None
            or b"Last Data Received" in head)


@dataclass(frozen=True)
class Detection:
    """How one kind of payload is told from its content: ``rule(body, head)`` (head: the first 4 KiB,
    leading white space stripped). ``web_page``: its documents are (X)HTML pages themselves (tried
    before an HTML page is refused as a throttle or error page); ``json``: a JSON document (a body
    that does not end like JSON was cut short)."""

    kind: str
    rule: Callable[[bytes, bytes], bool]
    web_page: bool = False
    json: bool = False


# Every kind, ONCE, in the order the rules are tried (the first that holds names the kind): a filing
# document may be a web page; the JSON kinds from the most to the least specific shape.
DETECTIONS = (
    Detection("fsds_filing", _fsds_filing),
    Detection("filing_document", _filing_document, web_page=True),
    Detection("companyfacts", _companyfacts, json=True),
    Detection("submissions", _submissions, json=True),
    Detection("submissions_page", _submissions_page, json=True),
    Detection("company_tickers_exchange", _company_tickers_exchange, json=True),
    Detection("company_tickers", _company_tickers, json=True),
    Detection("ownership", _ownership),
    Detection("daily_index", _daily_index),
)
KINDS = tuple(d.kind for d in DETECTIONS)
WEB_PAGE_KINDS = frozenset(d.kind for d in DETECTIONS if d.web_page)
JSON_KINDS = frozenset(d.kind for d in DETECTIONS if d.json)
_AFTER_JSON = max(i for i, d in enumerate(DETECTIONS) if d.json) + 1  # a JSON body is tried by the rows before


def detect_kind(body: bytes, *, document: str) -> str:
    """Return one of KINDS for ``body`` or raise RejectedDocument naming ``document``."""
    head = body[:4096].lstrip()
    if not head:
        raise RejectedDocument(document, "empty body")
    if b"Request Rate Threshold Exceeded" in body[:20_000]:
        raise RejectedDocument(document, "an HTML page: SEC's throttle page (Request Rate Threshold Exceeded), "
                                         "not a payload; fetch it again later")
    page = is_html_page(body)  # only a kind whose documents are web pages can be one
    is_json = head[:1] in (b"{", b"[")  # then no rule after the JSON kinds' is tried
    for d in DETECTIONS[:_AFTER_JSON] if is_json else DETECTIONS:
        if (page and not d.web_page) or (d.json and not is_json):
            continue
        if d.rule(body, head):
            return d.kind
    if page:
        raise RejectedDocument(document, HTML_PAGE)
    if is_json:
        raise RejectedDocument(document, "JSON of an unknown shape (not companyfacts, submissions or tickers)")
    raise RejectedDocument(document, "unrecognised content (not JSON, ownership XML or an EDGAR index)")

