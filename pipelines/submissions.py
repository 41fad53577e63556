"""Parse data.sec.gov submissions payloads (main CIK##########.json and its -submissions-NNN pages)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

import msgspec
import pyarrow as pa

from pipelines.errors import RejectedDocument
from pipelines.sec_formats import (
    EASTERN,
    OWNERSHIP_FORMS,
    base_form,
    date_problem,
    decode_json_body,
    is_accession,
    json_text,
    json_type,
    parse_cik,
    parse_date,
)
from pipelines.sec_formats import text_or_none as _text

ARCHIVES = "https://www.sec.gov/Archives/edgar/data"

_PAGE_NAME = re.compile(r"^CIK(\d{10})-submissions-(\d{3,})\.json$")
_XSL_FOLDER = re.compile(r"^xsl[^/]*/", re.IGNORECASE)
_REQUIRED = ("accessionNumber", "filingDate", "form")

# SEC's column name -> ours. Every other column is tolerated and reported in ``extra_columns``.
_KNOWN = {
    "accessionNumber", "filingDate", "reportDate", "acceptanceDateTime", "act", "form", "fileNumber",
    "filmNumber", "items", "core_type", "size", "isXBRL", "isInlineXBRL", "isXBRLNumeric",
    "primaryDocument", "primaryDocDescription",
}

FILING_SCHEMA = pa.schema([
    ("accession", pa.string()),
    ("form", pa.string()),
    ("base_form", pa.string()),
    ("is_amendment", pa.bool_()),
    ("filing_date", pa.date32()),
    ("acceptance_time", pa.timestamp("us")),
    ("acceptance_time_raw", pa.string()),
    ("acceptance_time_basis", pa.string()),
    ("report_date", pa.date32()),
    ("act", pa.string()),
    ("file_number", pa.string()),
    ("film_number", pa.string()),
    ("items", pa.string()),
    ("core_type", pa.string()),
    ("size", pa.int64()),
    ("is_xbrl", pa.bool_()),
    ("is_inline_xbrl", pa.bool_()),
    ("is_xbrl_numeric", pa.bool_()),
    ("primary_document", pa.string()),
    ("primary_doc_description", pa.string()),
    ("index_url", pa.string()),
    ("document_url", pa.string()),
])


@dataclass(frozen=True)
class FormerName:
    name: str
    from_date: date | None
    to_date: date | None


@dataclass(frozen=True)
class PageRef:
    """One entry of ``filings.files``: a page the main file declares."""

    name: str
    filing_count: int | None
    filing_from: date | None
    filing_to: date | None


@dataclass(frozen=True)
class Submissions:
    """A company's main submissions file: identity plus its most recent filings (``filings``)."""

    cik: int
    name: str | None
    tickers: list[str]
    exchanges: list[str]
    fiscal_year_end: str | None
    entity_type: str | None
    sic: str | None
    sic_description: str | None
    category: str | None
    state_of_incorporation: str | None
    state_of_incorporation_description: str | None
    ein: str | None
    lei: str | None
    owner_org: str | None
    phone: str | None
    website: str | None
    flags: str | None
    insider_transaction_for_owner_exists: bool | None
    insider_transaction_for_issuer_exists: bool | None
    addresses_json: str | None
    former_names: list[FormerName]
    filings: pa.Table
    pages: list[PageRef]
    acceptance_clock: str
    extra_columns: list[str] = field(default_factory=list)
    kind: str = "submissions"

    @property
    def page_names(self) -> list[str]:
        return [p.name for p in self.pages]

    @property
    def observed_at(self) -> datetime | None:
        """Newest acceptance time in the payload: the payload is at least this recent."""
        col = self.filings.column("acceptance_time")
        return pa.compute.max(col).as_py() if len(col) else None


@dataclass(frozen=True)
class SubmissionsPage:
    """One ``CIK##########-submissions-NNN.json`` page: older filings of ``cik`` (given by the caller)."""

    cik: int
    page_name: str
    filings: pa.Table
    acceptance_clock: str
    extra_columns: list[str] = field(default_factory=list)
    kind: str = "submissions_page"


def page_cik_and_name(path_or_url: str) -> tuple[int, str]:
    """'…/CIK0001318605-submissions-001.json(.gz)' -> (1318605, 'CIK0001318605-submissions-001.json')."""
    base = path_or_url.rstrip("/").rsplit("/", 1)[-1]
    if base.endswith(".gz"):
        base = base[:-3]
    m = _PAGE_NAME.match(base)
    if not m:
        raise RejectedDocument(path_or_url, "not a submissions page name (CIK##########-submissions-NNN.json)")
    return parse_cik(m.group(1), document=path_or_url, what="the page name's CIK"), base


def _flag(v: object) -> bool | None:
    if v is None or v == "":
        return None
    if isinstance(v, dict | list):
        raise TypeError(json_type(v))
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float):
        return bool(v)
    return str(v).strip().lower() in ("1", "true", "y", "yes")


def _texts(cols: dict, name: str, n: int, document: str) -> list[str | None]:
    """A filings column of text: every value a string or null, else the document is rejected naming the
    column and row."""
    values = cols.get(name) or [None] * n
    if not all(v is None or type(v) is str for v in values):
        row = next(i for i, v in enumerate(values) if v is not None and type(v) is not str)
        json_text(values[row], document=document, what=f"filings column {name} (row {row + 1})")
    return [_text(v) for v in values]


def _flags(cols: dict, name: str, n: int, document: str) -> list[bool | None]:
    """A filings column of 0/1 flags; an object or array in it rejects the document naming the column and row."""
    values = cols.get(name) or [None] * n
    try:
        return [_flag(v) for v in values]
    except TypeError:
        row = next(i for i, v in enumerate(values) if isinstance(v, dict | list))
        raise RejectedDocument(document, f"filings column {name} (row {row + 1}) is {json_type(values[row])} "
                                         "where a flag was expected") from None


def _date(v: object, document: str, what: str) -> date | None:
    s = json_text(v, document=document, what=what)
    return None if s is None else parse_date(s, document=document, what=what)


# ---------------------------------------------------------------------------------------------
# Acceptance time. EDGAR accepts filings from 06:00 to 22:00 US Eastern. SEC's acceptanceDateTime
# always ends in "Z", but older payloads (seen in copies fetched in 2022 and 2023) carry Eastern
# wall-clock time under that "Z", while recent payloads (2025-2026 copies) carry true UTC: the same
# accession differs by exactly 4 h (EDT) or 5 h (EST) between the two. A payload's clock is told
# from its own times: as-given times 06:00-09:59 are impossible in UTC (01:00-05:59 Eastern, EDGAR
# closed) and times 00:00-03:59 (other than a bare 00:00:00 date placeholder) or after 22:15 are
# impossible as Eastern; the clock with more evidence wins. With no evidence either way the Eastern reading is assumed: it is the later of the two,
# so a point-in-time query can never show a value before it was public.
# ---------------------------------------------------------------------------------------------

CLOCK_UTC = "utc"
CLOCK_EASTERN = "eastern"
CLOCK_ASSUMED_EASTERN = "assumed_eastern"

BASIS = {CLOCK_UTC: "sec_utc", CLOCK_EASTERN: "eastern_converted", CLOCK_ASSUMED_EASTERN: "eastern_assumed"}


def _parse_sec_timestamp(raw: str) -> datetime:
    s = raw.strip()
    if s.endswith("Z"):
        s = s[:-1]
    return datetime.fromisoformat(s).replace(tzinfo=None, microsecond=0)


def detect_acceptance_clock(raw_times: list[str | None]) -> tuple[str, Counter]:
    """Tell whether a payload's acceptanceDateTime values are true UTC or Eastern labelled 'Z'."""
    evidence: Counter = Counter()
    for raw in raw_times:
        if not raw or len(raw) < 19:
            continue
        hms = raw[11:19]
        if hms in ("00:00:00", "04:00:00", "05:00:00"):
            continue  # date-only placeholders (midnight Eastern in either clock)
        hour = int(raw[11:13])
        if 6 <= hour <= 9:
            evidence[CLOCK_EASTERN] += 1
        elif hour <= 3 or hms >= "22:15:00":
            evidence[CLOCK_UTC] += 1
    if evidence[CLOCK_UTC] > evidence[CLOCK_EASTERN]:
        return CLOCK_UTC, evidence
    if evidence[CLOCK_EASTERN] > evidence[CLOCK_UTC]:
        return CLOCK_EASTERN, evidence
    return CLOCK_ASSUMED_EASTERN, evidence


def to_utc(raw: str, clock: str) -> tuple[datetime | None, str]:
    """One acceptanceDateTime -> (naive UTC timestamp or None, basis)."""
    ts = _parse_sec_timestamp(raw)
    if clock == CLOCK_UTC:
        utc = ts
        eastern = ts.replace(tzinfo=UTC).astimezone(EASTERN)
    else:
        eastern = ts.replace(tzinfo=EASTERN)
        utc = eastern.astimezone(UTC).replace(tzinfo=None)
    if (eastern.hour, eastern.minute, eastern.second) == (0, 0, 0):
        return None, "date_only"  # SEC gave a date with no time of day: unknown moment that day
    return utc, BASIS[clock]


def _filings_table(cols: dict, *, cik: int, document: str) -> tuple[pa.Table, str, list[str]]:
    if not isinstance(cols, dict):
        raise RejectedDocument(document, "filings are not an object of columns")
    missing = [c for c in _REQUIRED if c not in cols]
    if missing:
        raise RejectedDocument(document, f"filings lack required column(s) {', '.join(missing)}")
    lengths = {k: len(v) for k, v in cols.items() if isinstance(v, list)}
    not_lists = [k for k, v in cols.items() if not isinstance(v, list)]
    if not_lists:
        raise RejectedDocument(document, f"filings column(s) {', '.join(sorted(not_lists))} are not arrays")
    n = lengths["accessionNumber"]
    uneven = sorted(k for k, m in lengths.items() if m != n)
    if uneven:
        raise RejectedDocument(document, f"filings columns have different lengths ({', '.join(uneven)} vs "
                                         f"accessionNumber={n})")
    extra = sorted(set(cols) - _KNOWN)

    def col(name: str) -> list:
        return cols.get(name) or [None] * n

    accs = _texts(cols, "accessionNumber", n, document)
    bad = [a for a in accs if not is_accession(a)]
    if bad:
        raise RejectedDocument(document, f"{len(bad)} malformed accession number(s), e.g. {bad[0]!r}")
    if len(set(accs)) != n:
        dup = next(a for a, k in Counter(accs).items() if k > 1)
        raise RejectedDocument(document, f"accession {dup} is listed twice")
    forms = _texts(cols, "form", n, document)
    if any(f is None for f in forms):
        raise RejectedDocument(document, "a filing has no form type")
    filing_dates = [_date(d, document, "filingDate") for d in cols["filingDate"]]
    if any(d is None for d in filing_dates):
        raise RejectedDocument(document, "a filing has no filingDate")
    report_dates = [_date(d, document, "reportDate") for d in col("reportDate")]

    raw_acc = _texts(cols, "acceptanceDateTime", n, document)
    clock, _evidence = detect_acceptance_clock(raw_acc)
    acc_time: list[datetime | None] = []
    acc_basis: list[str | None] = []
    for raw in raw_acc:
        if raw is None:
            acc_time.append(None)
            acc_basis.append(None)
            continue
        try:
            t, basis = to_utc(raw, clock)
        except (ValueError, OverflowError) as exc:
            raise RejectedDocument(document, f"acceptanceDateTime {raw!r} is not a timestamp") from exc
        problem = date_problem(t.date()) if t is not None else None
        if problem:
            raise RejectedDocument(document, f"acceptanceDateTime {raw!r} {problem}")
        acc_time.append(t)
        acc_basis.append(basis)

    base, is_amend = (list(c) for c in zip(*map(base_form, forms), strict=True)) if forms else ([], [])
    prim = _texts(cols, "primaryDocument", n, document)
    sizes = []
    for s in col("size"):
        if s in (None, ""):
            sizes.append(None)
        elif isinstance(s, int) and not isinstance(s, bool):
            sizes.append(s)
        else:
            try:
                sizes.append(int(str(s)))
            except ValueError as exc:
                raise RejectedDocument(document, f"size {s!r} is not an integer") from exc
    folder = [f"{ARCHIVES}/{cik}/{a.replace('-', '')}" for a in accs]
    index_url = [f"{d}/{a}-index.htm" for d, a in zip(folder, accs, strict=True)]
    doc_url = [f"{d}/{_XSL_FOLDER.sub('', p)}" if p else None for d, p in zip(folder, prim, strict=True)]

    try:
        table = _build_table(accs, forms, base, is_amend, filing_dates, acc_time, raw_acc, acc_basis, report_dates,
                             lambda name: _texts(cols, name, n, document), lambda name: _flags(cols, name, n, document),
                             sizes, prim, index_url, doc_url)
    except (pa.ArrowInvalid, OverflowError) as exc:
        raise RejectedDocument(document, f"a filings value cannot be stored: {exc}") from exc
    return table, clock, extra


def _build_table(accs, forms, base, is_amend, filing_dates, acc_time, raw_acc, acc_basis, report_dates,
                 texts, flags, sizes, prim, index_url, doc_url) -> pa.Table:
    return pa.Table.from_arrays([
        pa.array(accs, pa.string()),
        pa.array(forms, pa.string()),
        pa.array(base, pa.string()),
        pa.array(is_amend, pa.bool_()),
        pa.array(filing_dates, pa.date32()),
        pa.array(acc_time, pa.timestamp("us")),
        pa.array(raw_acc, pa.string()),
        pa.array(acc_basis, pa.string()),
        pa.array(report_dates, pa.date32()),
        pa.array(texts("act"), pa.string()),
        pa.array(texts("fileNumber"), pa.string()),
        pa.array(texts("filmNumber"), pa.string()),
        pa.array(texts("items"), pa.string()),
        pa.array(texts("core_type"), pa.string()),
        pa.array(sizes, pa.int64()),
        pa.array(flags("isXBRL"), pa.bool_()),
        pa.array(flags("isInlineXBRL"), pa.bool_()),
        pa.array(flags("isXBRLNumeric"), pa.bool_()),
        pa.array(prim, pa.string()),
        pa.array(texts("primaryDocDescription"), pa.string()),
        pa.array(index_url, pa.string()),
        pa.array(doc_url, pa.string()),
    ], schema=FILING_SCHEMA)


# Submissions' text fields -> SEC's keys (each must be text or null).
_TEXT_FIELDS = {
    "name": "name", "fiscal_year_end": "fiscalYearEnd", "entity_type": "entityType", "sic": "sic",
    "sic_description": "sicDescription", "category": "category", "state_of_incorporation": "stateOfIncorporation",
    "state_of_incorporation_description": "stateOfIncorporationDescription", "ein": "ein", "lei": "lei",
    "owner_org": "ownerOrg", "phone": "phone", "website": "website", "flags": "flags",
}


def _top_flag(data: dict, key: str, document: str) -> bool | None:
    try:
        return _flag(data.get(key))
    except TypeError:
        raise RejectedDocument(document, f"{key} is {json_type(data[key])} where a flag was expected") from None


def _str_list(v: object, document: str, what: str) -> list[str]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise RejectedDocument(document, f"{what} is not a list")
    return [s for s in (json_text(x, document=document, what=f"{what}[{i}]") for i, x in enumerate(v)) if s]


def parse_submissions(body: bytes, *, document: str, expected_cik: int | None = None) -> Submissions:
    """Bytes of a main submissions JSON -> Submissions. Raises RejectedDocument naming ``document``."""
    data = decode_json_body(body, document=document, what="submissions")
    if not isinstance(data, dict) or "filings" not in data or "cik" not in data:
        raise RejectedDocument(document, "not a submissions document (no cik/filings)")
    cik = parse_cik(data["cik"], document=document)
    if expected_cik is not None and cik != expected_cik:
        raise RejectedDocument(document, f"body is about CIK {cik}, but CIK {expected_cik} was requested")
    filings = data["filings"]
    if not isinstance(filings, dict) or not filings.get("recent"):
        raise RejectedDocument(document, "submissions has an empty filings section (no 'recent' columns)")
    table, clock, extra = _filings_table(filings["recent"], cik=cik, document=document)

    pages: list[PageRef] = []
    files = filings.get("files") or []
    if not isinstance(files, list):
        raise RejectedDocument(document, "filings.files is not a list")
    for f in files:
        if not isinstance(f, dict) or not json_text(f.get("name"), document=document, what="filings.files name"):
            raise RejectedDocument(document, f"filings.files entry without a name: {f!r}")
        name = _text(f["name"])
        page_cik, _ = page_cik_and_name(name)
        if page_cik != cik:
            raise RejectedDocument(document, f"declares page {name} of another CIK")
        count = f.get("filingCount")
        if count is not None and not (isinstance(count, int) or str(count).isdigit()):
            raise RejectedDocument(document, f"filings.files {name}: filingCount {count!r} is not a number")
        pages.append(PageRef(name, int(count) if count is not None else None,
                             _date(f.get("filingFrom"), document, "filingFrom"),
                             _date(f.get("filingTo"), document, "filingTo")))

    former = []
    for fn in data.get("formerNames") or []:
        if isinstance(fn, dict) and json_text(fn.get("name"), document=document, what="formerNames name"):
            # formerNames dates are midnight Eastern (true UTC 04:00/05:00Z, or 00:00Z): the date part
            # is the calendar day either way.
            former.append(FormerName(_text(fn["name"]), _date(fn.get("from"), document, "formerNames.from"),
                                     _date(fn.get("to"), document, "formerNames.to")))
    addresses = data.get("addresses")

    return Submissions(
        cik=cik,
        **{ours: json_text(data.get(theirs), document=document, what=theirs) for ours, theirs in _TEXT_FIELDS.items()},
        tickers=_str_list(data.get("tickers"), document, "tickers"),
        exchanges=_str_list(data.get("exchanges"), document, "exchanges"),
        insider_transaction_for_owner_exists=_top_flag(data, "insiderTransactionForOwnerExists", document),
        insider_transaction_for_issuer_exists=_top_flag(data, "insiderTransactionForIssuerExists", document),
        addresses_json=msgspec.json.encode(addresses).decode() if addresses else None,
        former_names=former,
        filings=table,
        pages=pages,
        acceptance_clock=clock,
        extra_columns=extra,
    )


def parse_submissions_page(body: bytes, *, document: str, cik: int, page_name: str) -> SubmissionsPage:
    """Bytes of a ``-submissions-NNN.json`` page -> SubmissionsPage (the page itself names no CIK)."""
    page_cik, name = page_cik_and_name(page_name)
    if page_cik != cik:
        raise RejectedDocument(document, f"page {name} belongs to CIK {page_cik}, not CIK {cik}")
    data = decode_json_body(body, document=document, what="submissions page")
    if not isinstance(data, dict):
        raise RejectedDocument(document, "a submissions page is a JSON object of columns")
    if "filings" in data or "cik" in data:
        raise RejectedDocument(document, "this is a main submissions file, not a page")
    table, clock, extra = _filings_table(data, cik=cik, document=document)
    if table.num_rows == 0:
        raise RejectedDocument(document, f"page {name} lists no filings")
    return SubmissionsPage(cik=cik, page_name=name, filings=table, acceptance_clock=clock, extra_columns=extra)


def ownership_filings(record: Submissions | SubmissionsPage) -> list[tuple[int, str, date]]:
    """(cik, accession, filing_date) of the Forms 3/4/5 (and their /A) a submissions payload lists."""
    t = record.filings
    return [(record.cik, acc, fd) for acc, base, fd in zip(
        t.column("accession").to_pylist(), t.column("base_form").to_pylist(),
        t.column("filing_date").to_pylist(), strict=True) if base in OWNERSHIP_FORMS]  # base: no /A


def text_filings(record: Submissions | SubmissionsPage, since: date) -> list[tuple[str, date, str]]:
    """(accession, filing_date, URL of its primary document) of the 10-K/10-Q/8-K filings (and /A)
    a submissions payload lists filed on or after ``since``: what a company tracked with text gets
    fetched (a filing that names no primary document, 2000 and before: its full submission .txt)."""
    from pipelines.filing_documents import form_family

    t = record.filings
    return [(acc, fd, url or f"{ARCHIVES}/{record.cik}/{acc}.txt") for acc, form, fd, url in zip(
        t.column("accession").to_pylist(), t.column("form").to_pylist(), t.column("filing_date").to_pylist(),
        t.column("document_url").to_pylist(), strict=True) if fd >= since and form_family(form)]
