"""SEC formats every parser shares, each said once: CIKs, accession numbers, form names, dates, JSON bodies.

The ranges here are what the warehouse can hold: a CIK is an INTEGER column, dates and fiscal years
outside 1900..2100 are typing errors (9999-12-31, 0001-12-31) that would break the fiscal calendar,
and a number must fit DECIMAL(38,10). A value outside them rejects its document with a reason.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import msgspec

from pipelines.errors import RejectedDocument

EASTERN = ZoneInfo("America/New_York")  # EDGAR's clock (acceptance times, filing days)

# --------------------------------------------------------------------------------------------- CIK

CIK_MAX = 2**31 - 1  # every cik column is INTEGER; real CIKs are far below (about 2.1 million in 2026)
_CIK_IN_NAME = re.compile(r"^CIK(\d{10})(?!\d)", re.IGNORECASE)


def normalize_cik(value: object) -> int | None:
    """320193, "320193", "0000320193", "CIK0000320193" -> 320193; anything else (or out of range) -> None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        cik = value
    else:
        text = str(value).strip()
        if text[:3].upper() == "CIK":
            text = text[3:]
        if not (text.isascii() and text.isdigit()) or len(text) > 10:
            return None
        cik = int(text)
    return cik if 0 < cik <= CIK_MAX else None


def parse_cik(value: object, *, document: str, what: str = "cik") -> int:
    """``normalize_cik`` or raise RejectedDocument naming ``document`` and the bad value."""
    cik = normalize_cik(value)
    if cik is None:
        text = str(value).strip()
        digits = text[3:] if text[:3].upper() == "CIK" else text
        why = (f"is out of range (a CIK is 1 to {CIK_MAX})" if digits.isascii() and digits.isdigit()
               or isinstance(value, int) and not isinstance(value, bool) else "is not a number")
        raise RejectedDocument(document, f"{what} {value!r} {why}")
    return cik


def cik_from_file_name(name: str) -> int | None:
    """The CIK a data.sec.gov-style file name starts with (``CIK0000320193.json``,
    ``CIK0000320193-submissions-001.json``, ``CIK0000320193__vintage.json.gz``), else None."""
    base = re.split(r"[\\/]", name.split("?")[0])[-1]
    m = _CIK_IN_NAME.match(base)
    return normalize_cik(m.group(1)) if m else None


# -------------------------------------------------------------------------------------- accessions

ACCESSION_RE = re.compile(r"^\d{10}-\d{2}-\d{6}$")
_ACC_DASHED = re.compile(r"(?<!\d)(\d{10}-\d{2}-\d{6})(?!\d)")
_ACC_PLAIN = re.compile(r"(?<!\d)(\d{18})(?!\d)")


def is_accession(value: object) -> bool:
    """True for the dashed form ``0001209191-22-024550``."""
    return isinstance(value, str) and ACCESSION_RE.match(value) is not None


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


# ------------------------------------------------------------------------------------------- forms

OWNERSHIP_BASE_FORMS = frozenset({"3", "4", "5"})
OWNERSHIP_FORMS = frozenset({"3", "3/A", "4", "4/A", "5", "5/A"})


def base_form(form: str) -> tuple[str, bool]:
    """``10-K/A`` -> (``10-K``, True); ``4`` -> (``4``, False)."""
    if form.upper().endswith("/A"):
        return form[:-2], True
    return form, False


# ------------------------------------------------------------------------------------------- dates

EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2100, 12, 31)
EARLIEST_YEAR, LATEST_YEAR = EARLIEST_DATE.year, LATEST_DATE.year
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def date_problem(d: date) -> str | None:
    """Why ``d`` cannot be a real SEC date (outside 1900..2100), or None."""
    if d < EARLIEST_DATE:
        return f"is before {EARLIEST_DATE.isoformat()}"
    if d > LATEST_DATE:
        return f"is after {LATEST_DATE.isoformat()}"
    return None


def iso_date_problem(text: str) -> str | None:
    """Why ``text`` is not a YYYY-MM-DD date within 1900..2100, or None."""
    if not ISO_DATE_RE.match(text):
        return "is not a YYYY-MM-DD date"
    try:
        d = date.fromisoformat(text)
    except ValueError:
        return "is not a calendar date"
    return date_problem(d)


def parse_date(raw: str, *, document: str, what: str) -> date:
    """A ``YYYY-MM-DD`` (or ``YYYY-MM-DDThh:mm...``: the date part) within 1900..2100, else RejectedDocument."""
    text = raw.strip()[:10]
    problem = iso_date_problem(text)
    if problem:
        raise RejectedDocument(document, f"{what} {raw!r} {problem}")
    return date.fromisoformat(text)


def parse_yyyymmdd(raw: str, *, document: str, what: str) -> date:
    """An SEC header date ``YYYYMMDD`` within 1900..2100, else RejectedDocument."""
    text = raw.strip()
    iso = f"{text[:4]}-{text[4:6]}-{text[6:]}"
    problem = "is not a YYYYMMDD date" if not re.fullmatch(r"\d{8}", text) else iso_date_problem(iso)
    if problem:
        raise RejectedDocument(document, f"{what} {raw!r} {problem}")
    return date.fromisoformat(iso)


def fiscal_year_problem(fy: int) -> str | None:
    """Why ``fy`` cannot be a fiscal year, or None."""
    if not EARLIEST_YEAR <= fy <= LATEST_YEAR:
        return f"is not a year within {EARLIEST_YEAR}..{LATEST_YEAR}"
    return None


def eastern_to_utc(stamp: str) -> datetime:
    """``YYYYMMDDHHMMSS`` in New York time (EDGAR's clock) -> naive UTC."""
    local = datetime.strptime(stamp, "%Y%m%d%H%M%S").replace(tzinfo=EASTERN)
    return local.astimezone(UTC).replace(tzinfo=None)


# ------------------------------------------------------------------------------------ JSON bodies

def looks_like_html(body: bytes) -> bool:
    """An HTML/XML page (SEC answers throttling and errors with HTML) where data was expected."""
    return body.lstrip()[:1] == b"<"


def decode_json_body(body: bytes, *, document: str, what: str) -> object:
    """Decode a JSON payload or raise RejectedDocument naming ``document``.

    An empty body, an HTML/XML page (SEC answers throttling and errors with HTML), invalid or
    truncated JSON, numbers out of range and absurd nesting are each rejected with their own
    reason; ``what`` names the expected payload ("submissions", "a ticker file", ...).
    """
    head = body.lstrip()[:64]
    if not head:
        raise RejectedDocument(document, f"empty body where {what} JSON was expected")
    if head.startswith(b"<"):
        raise RejectedDocument(document, f"an HTML/XML page where {what} JSON was expected "
                                         "(SEC throttle or error page?)")
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError as exc:
        raise RejectedDocument(document, f"invalid or truncated JSON: {exc}") from exc
    except RecursionError:
        raise RejectedDocument(document, "JSON nested too deeply to be an SEC payload") from None


_JSON_TYPES = {dict: "an object", list: "an array", bool: "a boolean", int: "a number", float: "a number"}


def json_type(value: object) -> str:
    """The JSON type of a decoded value, as a reason says it: an object, an array, a number, ..."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def json_text(value: object, *, document: str, what: str) -> str | None:
    """A JSON field that holds text: stripped, None for null or blank. Any other JSON type rejects
    the document naming ``what`` (``str()`` of an object stored it as the text ``{'x': 1}``)."""
    if value is None:
        return None
    if type(value) is not str:
        shown = repr(value)
        raise RejectedDocument(document, f"{what} is {json_type(value)} where text was expected: "
                                         f"{shown if len(shown) <= 60 else shown[:57] + '...'}")
    return value.strip() or None


def text_or_none(v: object) -> str | None:
    """A JSON cell as stripped text; None for null or blank."""
    if v is None:
        return None
    s = str(v).strip()
    return s or None


def ticker_key(ticker: str) -> str:
    """Normalise a ticker for matching: upper case, '.' and '/' as '-' (BRK.B, brk/b -> BRK-B)."""
    return ticker.strip().upper().replace(".", "-").replace("/", "-")
