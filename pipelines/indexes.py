"""EDGAR daily (and quarterly full-index) form.idx / master.idx / company.idx: parse, find Forms 3/4/5.

Three layouts, all ending in ``... CIK  Date Filed  File Name``:

* ``master.idx``: ``CIK|Company Name|Form Type|Date Filed|File Name`` (pipe separated);
* ``form.idx``: fixed-width columns, form type first;
* ``company.idx``: fixed-width columns, company name first.

A filing is listed once per CIK associated with it (a Form 4 under its issuer and under each
reporting owner), so ``ownership_accessions`` de-duplicates by accession.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from pipelines.documents import GZIP_MAGIC, inflate_gzip
from pipelines.errors import RejectedDocument
from pipelines.ownership import ownership_archive_path
from pipelines.sec_formats import OWNERSHIP_FORMS, accession_from_filename, normalize_cik, parse_date

__all__ = [
    "IndexEntry",
    "business_days",
    "OwnershipIndexFiling",
    "ownership_accessions",
    "ownership_archive_path",
    "ownership_filings",
    "parse_daily_index",
]

# Right-hand part common to form.idx and company.idx rows: CIK, date filed, file name.
_TAIL = re.compile(r"\s(\d{1,10})\s+(\d{8}|\d{4}-\d{2}-\d{2})\s+(edgar/\S+)\s*$")
# Every row names a whole submission: edgar/data/<cik>/<accession>.txt. A row cut short is not one.
_FILE_NAME = re.compile(r"^edgar/data/(\d{1,10})/(\d{10}-\d{2}-\d{6})\.txt$")


@dataclass(frozen=True)
class IndexEntry:
    """One row of an EDGAR index file."""

    cik: int
    company_name: str
    form_type: str
    date_filed: date
    filename: str
    accession: str | None


@dataclass(frozen=True)
class OwnershipIndexFiling:
    """One Form 3/4/5 filing found in an index, with every CIK it was listed under."""

    accession: str
    form_type: str
    date_filed: date
    ciks: tuple[int, ...]
    filename: str

    @property
    def archive_path(self) -> str:
        """Archives path of the full submission .txt (under the first CIK listed)."""
        return ownership_archive_path(self.ciks[0], self.accession)


def _date(raw: str, document: str, line_no: int) -> date:
    iso = raw if "-" in raw else f"{raw[:4]}-{raw[4:6]}-{raw[6:]}"
    return parse_date(iso, document=document, what=f"line {line_no}: date filed")


def _decode(body: bytes, document: str) -> str:
    if body[:2] == GZIP_MAGIC:
        body = inflate_gzip(body, document=document)
    if body and not body.endswith(b"\n"):
        raise RejectedDocument(document, "the last line is incomplete (no final newline): a truncated index "
                                         "is refused, never half loaded")
    return body.decode("latin-1")


def parse_daily_index(body: bytes, *, document: str) -> list[IndexEntry]:
    """Parse a form.idx, master.idx or company.idx (gzip accepted) into entries, file order kept."""
    text = _decode(body, document)
    lines = text.splitlines()
    layout = None
    header_at = -1
    col = 0
    for i, line in enumerate(lines[:40]):
        if line.startswith("CIK|Company Name|Form Type|Date Filed|File"):
            layout, header_at = "master", i
            break
        if line.startswith("Form Type") and "Company Name" in line:
            layout, header_at, col = "form", i, line.index("Company Name")
            break
        if line.startswith("Company Name") and "Form Type" in line:
            layout, header_at, col = "company", i, line.index("Form Type")
            break
    if layout is None:
        raise RejectedDocument(document, "not an EDGAR form/master/company index (no column header found)")
    start = header_at + 1
    while start < len(lines) and not lines[start].startswith("---"):
        start += 1  # company.idx wraps its header onto a second line
    entries: list[IndexEntry] = []
    for n, line in enumerate(lines[start + 1:], start=start + 2):
        if not line.strip():
            continue
        if layout == "master":
            parts = line.split("|")
            if len(parts) != 5:
                raise RejectedDocument(document, f"line {n}: expected 5 '|'-separated fields, got {len(parts)}")
            cik_raw, name, form, filed, filename = (p.strip() for p in parts)
        else:
            m = _TAIL.search(line)
            if not m:
                raise RejectedDocument(document, f"line {n}: no 'CIK  date  edgar/...' columns: {line[:80]!r}")
            cik_raw, filed, filename = m.groups()
            left = line[: m.start()]
            first, second = left[:col].strip(), left[col:].strip()
            form, name = (first, second) if layout == "form" else (second, first)
        cik = normalize_cik(cik_raw)
        if cik is None:
            raise RejectedDocument(document, f"line {n}: CIK {cik_raw!r} is not a CIK")
        whole = _FILE_NAME.match(filename)
        if not whole:
            raise RejectedDocument(document, f"line {n}: file name {filename!r} is not edgar/data/<cik>/"
                                             "<accession>.txt (a row cut short?)")
        if int(whole.group(1)) != cik:
            raise RejectedDocument(document, f"line {n}: CIK {cik} but file name {filename!r}")
        if not form:
            raise RejectedDocument(document, f"line {n}: no form type")
        entries.append(IndexEntry(
            cik=cik, company_name=name, form_type=form, date_filed=_date(filed, document, n),
            filename=filename, accession=accession_from_filename(filename),
        ))
    if not entries:
        raise RejectedDocument(document, "the index lists no filings (truncated after its header?)")
    return entries


def ownership_filings(entries: list[IndexEntry]) -> list[OwnershipIndexFiling]:
    """Form 3/4/5 (and /A) filings, once per accession, with all their CIKs, in first-seen order."""
    found: dict[str, OwnershipIndexFiling] = {}
    for e in entries:
        if e.form_type.upper() not in OWNERSHIP_FORMS or e.accession is None:
            continue
        prev = found.get(e.accession)
        if prev is None:
            found[e.accession] = OwnershipIndexFiling(e.accession, e.form_type.upper(), e.date_filed,
                                                      (e.cik,), e.filename)
        elif e.cik not in prev.ciks:
            found[e.accession] = OwnershipIndexFiling(prev.accession, prev.form_type, prev.date_filed,
                                                      (*prev.ciks, e.cik), prev.filename)
    return list(found.values())


def ownership_accessions(entries: list[IndexEntry]) -> list[str]:
    """Accessions of the Form 3/4/5 (and /A) filings in ``entries``, each once, first-seen order."""
    return [f.accession for f in ownership_filings(entries)]


def business_days(after: date, through: date) -> list[date]:
    """Monday-to-Friday days in (after, through]: the days EDGAR can publish a daily index for
    (a holiday's index is simply missing: 404 or 403)."""
    days, d = [], after + timedelta(days=1)
    while d <= through:
        if d.weekday() < 5:
            days.append(d)
        d += timedelta(days=1)
    return days

