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
from datetime import UTC, date, datetime

from pipelines.errors import RejectedDocument
from pipelines.sec_formats import EASTERN

ACCESSION_RE = re.compile(r"^\d{10}-\d{2}-\d{6}$")
_ACC_DASHED = re.compile(r"(?<!\d)(\d{10}-\d{2}-\d{6})(?!\d)")
_ACC_PLAIN = re.compile(r"(?<!\d)(\d{18})(?!\d)")


def normalize_accession(value: str) -> str | None:
    """``0001209191-22-024550`` or ``000120919122024550`` -> the dashed form; anything else -> None."""
    v = value.strip()
    if ACCESSION_RE.match(v):
        return v
    if re.fullmatch(r"\d{18}", v):
        return f"{v[:10]}-{v[10:12]}-{v[12:]}"
    return None


def accession_from_filename(name: str) -> str | None:
    """The accession a file name carries, or None.

    ``0001209191-22-024550_doc4.xml`` -> ``0001209191-22-024550``;
    ``000120919123029527_form4.xml`` -> ``0001209191-23-029527``; ``aapl-4-20201013.xml`` -> None.
    Only the last path component is looked at (folders named after accessions are not trusted).
    """
    base = re.split(r"[\\/]", name)[-1]
    m = _ACC_DASHED.search(base)
    if m:
        return m.group(1)
    m = _ACC_PLAIN.search(base)
    if m:
        return normalize_accession(m.group(1))
    return None


def accession_no_dashes(accession: str) -> str:
    """``0001209191-22-024550`` -> ``000120919122024550`` (the Archives folder name)."""
    acc = normalize_accession(accession)
    if acc is None:
        raise ValueError(f"not an accession number: {accession!r}")
    return acc.replace("-", "")


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


def eastern_to_utc(stamp: str) -> datetime:
    """``YYYYMMDDHHMMSS`` in New York time (EDGAR's clock) -> naive UTC."""
    local = datetime.strptime(stamp, "%Y%m%d%H%M%S").replace(tzinfo=EASTERN)
    return local.astimezone(UTC).replace(tzinfo=None)


def _yyyymmdd(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return datetime.strptime(value.strip(), "%Y%m%d").date()
    except ValueError:
        return None


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
    raw_accept = _sgml_field(head, "ACCEPTANCE-DATETIME")
    accepted = None
    if raw_accept:
        try:
            accepted = eastern_to_utc(raw_accept)
        except ValueError:
            raise RejectedDocument(
                document, f"accession {accession}: ACCEPTANCE-DATETIME {raw_accept!r} is not YYYYMMDDHHMMSS"
            ) from None
    filed = _yyyymmdd(_header_field(head, "FILED AS OF DATE") or _sgml_field(head, "FILING-DATE"))
    return SecHeader(
        accession=accession,
        submission_type=_header_field(head, "CONFORMED SUBMISSION TYPE") or _sgml_field(head, "TYPE"),
        filed=filed,
        acceptance_time_utc=accepted,
        acceptance_time_raw=raw_accept,
        period=_yyyymmdd(_header_field(head, "CONFORMED PERIOD OF REPORT") or _sgml_field(head, "PERIOD")),
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
