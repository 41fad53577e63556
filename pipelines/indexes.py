"""EDGAR daily (and quarterly full-index) form.idx / master.idx / company.idx: parse, find Forms 3/4/5.

Three layouts, all ending in ``... CIK  Date Filed  File Name``:

* ``master.idx``: ``CIK|Company Name|Form Type|Date Filed|File Name`` (pipe separated);
* ``form.idx``: fixed-width columns, form type first;
* ``company.idx``: fixed-width columns, company name first.

A filing is listed once per CIK associated with it (a Form 4 under its issuer and under each
reporting owner), so ``ownership_accessions`` de-duplicates by accession.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from datetime import date, datetime

from pipelines.errors import RejectedDocument
from pipelines.ownership import ownership_archive_path
from pipelines.sec_formats import OWNERSHIP_FORMS, accession_from_filename

__all__ = [
    "IndexEntry",
    "OwnershipIndexFiling",
    "ownership_accessions",
    "ownership_archive_path",
    "ownership_filings",
    "parse_daily_index",
]

# Right-hand part common to form.idx and company.idx rows: CIK, date filed, file name.
_TAIL = re.compile(r"\s(\d{1,10})\s+(\d{8}|\d{4}-\d{2}-\d{2})\s+(edgar/\S+)\s*$")


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
    try:
        if "-" in raw:
            return date.fromisoformat(raw)
        return datetime.strptime(raw, "%Y%m%d").date()
    except ValueError:
        raise RejectedDocument(document, f"line {line_no}: {raw!r} is not a date") from None


def _decode(body: bytes, document: str) -> str:
    if body[:2] == b"\x1f\x8b":
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError) as exc:
            raise RejectedDocument(document, f"corrupt gzip: {exc}") from exc
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
        if not cik_raw.isdigit():
            raise RejectedDocument(document, f"line {n}: CIK {cik_raw!r} is not a number")
        entries.append(IndexEntry(
            cik=int(cik_raw), company_name=name, form_type=form, date_filed=_date(filed, document, n),
            filename=filename, accession=accession_from_filename(filename),
        ))
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
