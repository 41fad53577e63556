"""Parse a 10-K, 10-Q or 8-K primary document (any era) into a FilingDocument record with its sections.

Accepted: a full submission ``.txt`` (``<SEC-DOCUMENT>``/``<SEC-HEADER>``, the 1990s ones inside
``-----BEGIN PRIVACY-ENHANCED MESSAGE-----``: the form's own ``<DOCUMENT>`` is read, exhibits are
listed apart), a primary document in the SGML wrapper (``<DOCUMENT>``/``<TYPE>``/``<TEXT>``) holding
HTML or text, an inline-XBRL ``.htm`` and a plain HTML primary document. Forms: 10-K (10-K405,
10-KT, 10-KSB, /A), 10-Q (/A), 8-K (/A).

The accession comes from the SEC header, else the file name (``<accession>_name.htm``,
``<accession>.txt``), else what the fetcher asked for; the CIK from the SEC header, else the inline
XBRL cover (``dei:EntityCentralIndexKey``), else the caller's ``expected_cik``; neither may be
missing silently: the record says where each came from (None when nowhere).

Rejected by name (RejectedDocument): more than ``MAX_FILING_BYTES``, an exhibit, another form,
truncated HTML or submissions, SEC's throttle page. Byte offsets are into ``body`` as given (the
whole submission for a ``.txt``), character offsets into the record's ``text``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, ClassVar

from pipelines.errors import RejectedDocument
from pipelines.filing_sections import find_sections
from pipelines.filing_text import extract_text
from pipelines.sec_formats import accession_from_filename, eastern_to_utc, normalize_accession, normalize_cik

MAX_FILING_BYTES = 32 * 1024 * 1024  # the largest 10-K primary documents are ~15 MB; a 50 MB one is refused

_FAMILIES = {
    "10-K": ("10-K", "10-K405", "10-KT", "10-KSB", "10-KSB40", "10-KT405", "10-K405T"),
    "10-Q": ("10-Q", "10-QT", "10-QSB"),
    "8-K": ("8-K", "8-K12B", "8-K12G3", "8-K15D5"),
}
_FAMILY_OF = {f: fam for fam, forms in _FAMILIES.items() for f in forms}
_THROTTLE = re.compile(rb"Request Rate Threshold Exceeded|Undeclared Automated Tool", re.I)


def form_family(form: str) -> str | None:
    """``10-K405/A`` -> ``10-K``; ``8-K`` -> ``8-K``; ``S-1`` -> None."""
    f = form.strip().upper()
    return _FAMILY_OF.get(f[:-2] if f.endswith("/A") else f)


@dataclass(frozen=True)
class Exhibit:
    """Another ``<DOCUMENT>`` of a full submission, kept apart (not parsed into sections)."""

    type: str
    sequence: str | None
    file_name: str | None
    description: str | None
    byte_start: int
    byte_end: int


@dataclass(frozen=True)
class FilingSection:
    """One item of the document with byte offsets into the raw document."""

    ordinal: int
    item: str
    part: str | None
    heading: str
    text: str
    text_start: int
    text_end: int
    body_start: int  # where ``text`` starts in the document text (after the heading)
    byte_start: int
    byte_end: int
    flags: tuple[str, ...]
    covers: tuple[str, ...]
    confidence: float
    confidence_reason: str


@dataclass(frozen=True)
class FilingDocument:
    """A 10-K/10-Q/8-K primary document: who filed it, what form, its text and its items."""

    document: str
    sha256: str
    size: int
    envelope: str  # full_submission | sgml_wrapper | inline_xbrl | html
    form: str  # as the document says: 10-K405, 10-Q/A, 8-K
    form_family: str  # 10-K | 10-Q | 8-K
    accession: str | None
    accession_source: str | None  # sec_header | file_name | fetcher
    cik: int | None
    cik_source: str | None  # sec_header | inline_xbrl | expected
    company_name: str | None
    filed: date | None
    period: date | None
    accepted: datetime | None  # ACCEPTANCE-DATETIME, naive UTC
    file_name: str | None  # the primary document's <FILENAME>
    text_byte_start: int  # where the primary document's content starts in the raw bytes
    text_byte_end: int
    text: str
    has_table_of_contents: bool
    sections: tuple[FilingSection, ...]
    exhibits: tuple[Exhibit, ...]
    inline_xbrl: Any = None  # an inline-XBRL document's facts (pipelines.inline_xbrl.InlineXbrlDocument)
    kind: ClassVar[str] = "filing_document"  # source_documents.kind of the payload it was parsed from

    def section(self, item: str) -> FilingSection | None:
        """The section of ``item`` (also when printed together with another, "Items 1 and 2")."""
        for s in self.sections:
            if s.item == item:
                return s
        for s in self.sections:
            if item in s.covers:
                return s
        return None


def _decode(body: bytes) -> tuple[str, bool]:
    """(text, one byte per character?)."""
    try:
        s = body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace"), True
    return s, len(s) == len(body)


class _ByteOffsets:
    """Character offsets of the decoded document -> byte offsets of the raw one."""

    def __init__(self, doc: str, identity: bool) -> None:
        self._doc, self._identity = doc, identity
        self._cache: dict[int, int] = {0: 0}

    def __call__(self, pos: int) -> int:
        if self._identity:
            return pos
        near = max(k for k in self._cache if k <= pos)  # few calls (a few per section): fine
        b = self._cache[near] + len(self._doc[near:pos].encode("utf-8"))
        self._cache[pos] = b
        return b


_HEADER_FIELD = re.compile(r"^\s*([A-Z][A-Z0-9 -]+?):[ \t]*(.*?)\s*$", re.M)
_TAG_LINE = re.compile(r"^<(TYPE|SEQUENCE|FILENAME|DESCRIPTION)>[ \t]*(.*?)\s*$", re.M)


def _header(doc: str, end: int) -> dict[str, str]:
    fields: dict[str, str] = {}
    for m in _HEADER_FIELD.finditer(doc, 0, end):
        fields.setdefault(m.group(1).strip(), m.group(2))
    acc = re.search(r"<ACCEPTANCE-DATETIME>\s*(\d{14})", doc[:end])
    if acc:
        fields["ACCEPTANCE-DATETIME"] = acc.group(1)
    return fields


def _date(raw: str | None) -> date | None:
    if raw and re.fullmatch(r"\d{8}", raw):
        try:
            return date(int(raw[:4]), int(raw[4:6]), int(raw[6:]))
        except ValueError:
            return None
    return None


@dataclass(frozen=True)
class _Part:
    """One <DOCUMENT> of an SGML envelope: its tags and where its <TEXT> is."""

    tags: dict[str, str]
    start: int
    end: int
    text_start: int
    text_end: int
    complete: bool


def _documents(doc: str, start: int = 0) -> list[_Part]:
    parts = []
    for m in re.finditer(r"<DOCUMENT>", doc[start:]):
        s = start + m.start()
        close = doc.find("</DOCUMENT>", s)
        e = close + len("</DOCUMENT>") if close >= 0 else len(doc)
        t = doc.find("<TEXT>", s, e)
        head_end = t if t >= 0 else min(e, s + 2000)
        tags = {k: v for k, v in _TAG_LINE.findall(doc[s:head_end])}
        te = doc.rfind("</TEXT>", s, e)
        parts.append(_Part(tags, s, e, (t + len("<TEXT>")) if t >= 0 else head_end,
                           te if te >= 0 else e, close >= 0 and te >= 0))
    return parts


def _is_html(doc: str, start: int, end: int) -> bool:
    return re.search(r"<(?:html|body|div|p|font|table\s+[a-z])\b", doc[start:min(end, start + 20_000)],
                     re.I) is not None


_IX_FACT = r'<ix:nonNumeric[^>]*name="dei:{}"[^>]*>(.*?)</ix:nonNumeric>'


def _ix_value(doc: str, concept: str) -> str | None:
    m = re.search(_IX_FACT.format(concept), doc, re.S | re.I)
    if not m:
        return None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(1))).strip() or None


_COVER_FORM = re.compile(r"\bFORM\s+(10-K405|10-KT|10-KSB|10-K|10-QSB|10-Q|8-K)(\s*/\s*A)?\b", re.I)


def parse_filing_document(body: bytes, *, document: str, accession: str | None = None,
                          expected_cik: int | None = None) -> FilingDocument:
    """Parse ``body`` (named ``document``: its URL or path) or raise RejectedDocument naming it."""
    if len(body) > MAX_FILING_BYTES:
        raise RejectedDocument(document, f"{len(body):,} bytes is over the {MAX_FILING_BYTES:,}-byte cap of a "
                                         "filing document (refused unread)")
    head = body[:20_000]
    if _THROTTLE.search(head):
        raise RejectedDocument(document, "SEC's throttle page (Request Rate Threshold Exceeded), not a filing "
                                         "document: fetch it again later")
    doc, identity = _decode(body)
    stripped = doc[:4096].lstrip()
    fields: dict[str, str] = {}
    exhibits: list[Exhibit] = []
    file_name = None
    to_bytes = _ByteOffsets(doc, identity)
    if stripped.startswith("-----BEGIN PRIVACY") or "<SEC-DOCUMENT>" in stripped[:2000] \
            or "<SEC-HEADER>" in stripped[:2000] or "<IMS-HEADER>" in stripped[:2000]:
        envelope = "full_submission"
        hend = doc.find("</SEC-HEADER>")
        if hend < 0:
            hend = doc.find("</IMS-HEADER>")
        if hend < 0:
            raise RejectedDocument(document, "a submission without the end of its SEC header (truncated?)")
        if "</SEC-DOCUMENT>" not in doc[-4096:]:
            raise RejectedDocument(document, "a submission that stops before </SEC-DOCUMENT>: truncated")
        fields = _header(doc, hend)
        form = fields.get("CONFORMED SUBMISSION TYPE") or fields.get("FORM TYPE") or ""
        parts = _documents(doc, hend)
        if not parts:
            raise RejectedDocument(document, "a submission with no <DOCUMENT> (truncated?)")
        primary = next((p for p in parts if p.tags.get("TYPE", "").upper() == form.upper()), parts[0])
        if form_family(form) is None:
            raise RejectedDocument(document, f"a full submission of form {form or '(none given)'}, not a 10-K, "
                                             "10-Q or 8-K")
        if not primary.complete:
            raise RejectedDocument(document, "the form's <DOCUMENT> has no end (</TEXT>, </DOCUMENT>): truncated")
        for p in parts:
            if p is not primary:
                exhibits.append(Exhibit(p.tags.get("TYPE", ""), p.tags.get("SEQUENCE"), p.tags.get("FILENAME"),
                                        p.tags.get("DESCRIPTION"), to_bytes(p.start), to_bytes(p.end)))
        start, end = primary.text_start, primary.text_end
        file_name = primary.tags.get("FILENAME")
    elif stripped.startswith("<DOCUMENT>"):
        envelope = "sgml_wrapper"
        parts = _documents(doc)
        primary = parts[0]
        form = primary.tags.get("TYPE", "")
        if form.upper().startswith("EX-"):
            raise RejectedDocument(document, f"an exhibit ({form}), not a 10-K, 10-Q or 8-K primary document")
        if not primary.complete:
            raise RejectedDocument(document, "the <DOCUMENT> has no end (</TEXT>, </DOCUMENT>): truncated")
        start, end = primary.text_start, primary.text_end
        file_name = primary.tags.get("FILENAME")
    elif stripped[:1] == "<":
        start, end = 0, len(doc)
        if not re.search(r"</html\s*>\s*$", doc[-4096:], re.I):
            raise RejectedDocument(document, "HTML that stops before </html>: truncated")
        inline = re.search(r"<ix:header\b|xmlns:ix=", doc[:200_000]) is not None
        envelope = "inline_xbrl" if inline else "html"
        form = (_ix_value(doc, "DocumentType") or "") if inline else ""
    else:
        raise RejectedDocument(document, "neither an SEC submission, an SGML-wrapped document nor HTML")

    html = _is_html(doc, start, end)
    dt = extract_text(doc, start, end, html=html)
    if not form:
        m = _COVER_FORM.search(dt.text[:6000])
        form = (m.group(1) + ("/A" if m.group(2) else "")).upper() if m else ""
    family = form_family(form)
    if family is None:
        what = f"a {form} document" if form else "a document that names no form"
        raise RejectedDocument(document, f"{what}, not a 10-K, 10-Q or 8-K primary document")

    acc, acc_source = normalize_accession(fields.get("ACCESSION NUMBER", "")), "sec_header"
    if acc is None:
        acc, acc_source = accession_from_filename(document), "file_name"
    if acc is None and accession:
        acc, acc_source = normalize_accession(accession), "fetcher"
    cik, cik_source = normalize_cik(fields.get("CENTRAL INDEX KEY")), "sec_header"
    if cik is None and envelope == "inline_xbrl":
        cik, cik_source = normalize_cik(_ix_value(doc, "EntityCentralIndexKey") or ""), "inline_xbrl"
    if cik is None and expected_cik is not None:
        cik, cik_source = expected_cik, "expected"
    if cik is not None and expected_cik is not None and cik != expected_cik:
        raise RejectedDocument(document, f"the document is CIK {cik}'s, not CIK {expected_cik}'s as expected")
    company = fields.get("COMPANY CONFORMED NAME") or (_ix_value(doc, "EntityRegistrantName") if envelope ==
                                                       "inline_xbrl" else None)
    accepted = None
    if fields.get("ACCEPTANCE-DATETIME"):
        try:
            accepted = eastern_to_utc(fields["ACCEPTANCE-DATETIME"])
        except ValueError:
            accepted = None

    found, toc = find_sections(dt, family)
    sections = []
    for n, s in enumerate(found):
        b0 = to_bytes(dt.source_offset(s.text_start))
        b1 = to_bytes(dt.source_offset(s.text_end + 1)) if s.text_end + 1 < len(dt.text) else to_bytes(end)
        sections.append(FilingSection(n + 1, s.item, s.part, s.heading, s.text, s.text_start, s.text_end,
                                      s.body_start, b0, max(b1, b0), s.flags, s.covers, s.confidence, s.confidence_reason))
    return FilingDocument(
        document=document, sha256=hashlib.sha256(body).hexdigest(), size=len(body), envelope=envelope,
        form=form.upper(), form_family=family, accession=acc, accession_source=acc_source if acc else None,
        cik=cik, cik_source=cik_source if cik is not None else None, company_name=company,
        filed=_date(fields.get("FILED AS OF DATE")), period=_date(fields.get("CONFORMED PERIOD OF REPORT")),
        accepted=accepted, file_name=file_name, text_byte_start=to_bytes(start), text_byte_end=to_bytes(end),
        text=dt.text, has_table_of_contents=toc, sections=tuple(sections), exhibits=tuple(exhibits))
