"""Ownership containers: accession numbers, the SEC header of a full .txt submission, the <XML> block.

A Form 3/4/5 reaches us in one of three shapes:

* a bare ``ownershipDocument`` XML (the primary document of the filing);
* a full submission ``<accession>.txt`` (``<SEC-DOCUMENT>``/``<SEC-HEADER>`` with ``ACCESSION NUMBER``,
  ``ACCEPTANCE-DATETIME``, ``FILED AS OF DATE``, then ``<DOCUMENT>``s whose ``<TEXT><XML>`` holds it);
* an EDGAR dissemination-feed ``.nc`` file (``<SUBMISSION><ACCESSION-NUMBER>...<FILING-DATE>``).

This module finds the XML payload and the header facts; it does not interpret the XML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from pipelines.errors import RejectedDocument
from pipelines.sec_formats import (
    accession_from_filename,
    accession_no_dashes,
    date_problem,
    eastern_to_utc,
    normalize_accession,
    parse_yyyymmdd,
)

__all__ = [
    "Container",
    "SecHeader",
    "accession_from_filename",
    "accession_no_dashes",
    "find_container",
    "normalize_accession",
    "parse_sec_header",
]


@dataclass(frozen=True)
class SecHeader:
    """What the SEC header of a full submission says about the filing (None when absent)."""

    accession: str | None = None
    submission_type: str | None = None
    filed: date | None = None
    acceptance_time_utc: datetime | None = None
    acceptance_time_raw: str | None = None
    period: date | None = None


@dataclass(frozen=True)
class Container:
    """The ownership XML found in a payload, and the shape it came in."""

    container: str  # 'xml', 'sec_txt' or 'feed_nc'
    xml: bytes
    header: SecHeader


def _header_field(text: str, label: str) -> str | None:
    m = re.search(rf"^\s*{re.escape(label)}:\s*(\S[^\r\n]*?)\s*$", text, re.MULTILINE)
    return m.group(1) if m else None


def _sgml_field(text: str, tag: str) -> str | None:
    m = re.search(rf"<{re.escape(tag)}>([^<\r\n]*)", text)
    return m.group(1).strip() or None if m else None


def parse_sec_header(body: bytes, *, document: str) -> SecHeader:
    """Read accession, submission type, filing date and acceptance time from a .txt/.nc header."""
    end = body.find(b"</SEC-HEADER>")
    if end < 0:
        end = body.find(b"<DOCUMENT>")
    head = body[: end if end > 0 else 20_000].decode("latin-1")
    accession = _header_field(head, "ACCESSION NUMBER") or _sgml_field(head, "ACCESSION-NUMBER")
    if accession is not None:
        norm = normalize_accession(accession)
        if norm is None:
            raise RejectedDocument(document, f"SEC header carries a malformed accession number {accession!r}")
        accession = norm
    who = f"accession {accession}" if accession else "SEC header"
    raw_accept = _sgml_field(head, "ACCEPTANCE-DATETIME")
    accepted = None
    if raw_accept:
        try:
            accepted = eastern_to_utc(raw_accept)
        except ValueError:
            raise RejectedDocument(document, f"{who}: ACCEPTANCE-DATETIME {raw_accept!r} is not YYYYMMDDHHMMSS") from None
        problem = date_problem(accepted.date())
        if problem:
            raise RejectedDocument(document, f"{who}: ACCEPTANCE-DATETIME {raw_accept!r} {problem}")
    filed_raw = _header_field(head, "FILED AS OF DATE") or _sgml_field(head, "FILING-DATE")
    filed = parse_yyyymmdd(filed_raw, document=document, what=f"{who}: FILED AS OF DATE") if filed_raw else None
    period_raw = _header_field(head, "CONFORMED PERIOD OF REPORT") or _sgml_field(head, "PERIOD")
    period = parse_yyyymmdd(period_raw, document=document, what=f"{who}: PERIOD OF REPORT") if period_raw else None
    return SecHeader(
        accession=accession,
        submission_type=_header_field(head, "CONFORMED SUBMISSION TYPE") or _sgml_field(head, "TYPE"),
        filed=filed,
        acceptance_time_utc=accepted,
        acceptance_time_raw=raw_accept,
        period=period,
    )


_XML_BLOCK = re.compile(rb"<XML>\s*(.*?)\s*</XML>", re.DOTALL | re.IGNORECASE)


def find_container(body: bytes, *, document: str) -> Container:
    """Locate the ownership XML in ``body`` (bare XML, full .txt submission or feed .nc)."""
    head = body[:4096].lstrip()
    is_txt = b"<SEC-DOCUMENT>" in body[:4096] or b"<SEC-HEADER>" in body[:4096]
    is_nc = head.startswith(b"<SUBMISSION>")
    if not (is_txt or is_nc):
        return Container("xml", body, SecHeader())
    header = parse_sec_header(body, document=document)
    who = f"accession {header.accession}" if header.accession else "submission"
    blocks = _XML_BLOCK.findall(body)
    if not blocks:
        raise RejectedDocument(
            document,
            f"{who}: full submission has no <XML> block (a pre-2003 text-only Form "
            f"{header.submission_type or '3/4/5'} with no ownershipDocument: legacy_text)",
        )
    for block in blocks:
        if b"<ownershipDocument" in block[:2000]:
            return Container("sec_txt" if is_txt else "feed_nc", block, header)
    raise RejectedDocument(document, f"{who}: none of its {len(blocks)} <XML> block(s) is an ownershipDocument")
