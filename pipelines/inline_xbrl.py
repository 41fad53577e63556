"""Every fact of an inline-XBRL document (ix:nonFraction, ix:nonNumeric) with its context, unit and place.

The document is parsed once, streaming, by expat over its bytes (inline XBRL is well-formed XHTML by
EDGAR's rules), with the defences defusedxml applies: an entity declaration or an external entity
reference rejects the document (no billion laughs, no file or network reads), a DTD is never read.
Each fact keeps its place: the element's ``id`` and the byte offset of its start tag in the document.

Values are exact ``Decimal`` (never float): the displayed text read by its ``ixt``/``ixt-sec`` format,
times 10**scale, negated when ``sign="-"``; ``xsi:nil`` gives ``value=None`` with ``nil=True``. A text
fact's value is its text content (ix:exclude left out, ix:continuation chains followed), its format
applied where the format is known here. A fact whose text cannot be read by its format is kept with
its ``problem`` said, never dropped, never 0.

Duplicates (same concept, context content and unit) that agree are kept once with ``occurrences``, as
the most precise of them (1,114 million beside "1.1 billion" in the text: 1,114 million, as
companyfacts has it; values that agree once rounded to the coarser ``decimals`` agree, as XBRL 2.1
says); duplicates that do not agree are each kept, flagged ``inconsistent``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import PurePosixPath
from xml.parsers import expat

from pipelines.errors import RejectedDocument
from pipelines.html_tables import Table, TableReader

IX = "http://www.xbrl.org/2013/inlineXBRL"
XBRLI = "http://www.xbrl.org/2003/instance"
XBRLDI = "http://xbrl.org/2006/xbrldi"
XSI_NIL = "http://www.w3.org/2001/XMLSchema-instance nil"
SEC_CIK_SCHEME = "http://www.sec.gov/CIK"
_SEP = " "  # expat's namespace separator: "uri local"
_ACCESSION = re.compile(r"(\d{10})-?(\d{2})-?(\d{6})")


@dataclass(frozen=True, slots=True)
class Context:
    """One xbrli:context: entity, period and dimensions (axis -> member, explicit and typed)."""

    id: str
    entity_scheme: str | None
    entity: str | None
    period_type: str  # duration, instant or forever
    period_start: str | None
    period_end: str | None
    dimensions: tuple[tuple[str, str], ...]
    typed_axes: tuple[str, ...] = ()

    def key(self) -> tuple:
        return (self.entity_scheme, self.entity, self.period_type, self.period_start, self.period_end,
                self.dimensions)


@dataclass(frozen=True, slots=True)
class InlineFact:
    """One fact of the filing (kept once per concept, context content and unit unless inconsistent)."""

    kind: str  # numeric (ix:nonFraction) or text (ix:nonNumeric)
    concept: str  # prefixed QName as the document writes it, e.g. us-gaap:Revenues
    value: Decimal | None  # numeric facts: the exact value; None when nil or unreadable (see problem)
    text: str | None  # text facts: the value (format applied); numeric facts: None
    displayed: str  # the text as displayed (whitespace collapsed), before the format
    nil: bool
    unit: str | None  # USD, shares, USD/shares, pure, ... (measures' local names, as companyfacts)
    context_id: str
    period_type: str | None
    period_start: str | None  # ISO date; None for an instant
    period_end: str | None  # ISO date (the instant for an instant); None for forever
    dimensions: tuple[tuple[str, str], ...]  # (axis, member) sorted by axis; typed: member's text
    decimals: str | None  # as written: an integer or INF
    scale: int | None
    sign: str | None  # "-" when the fact is negated
    format: str | None
    element_id: str | None
    byte_offset: int  # of the kept occurrence's start tag
    occurrences: int = 1
    inconsistent: bool = False
    problem: str | None = None
    cik: int | None = None  # the context's entity when its scheme is SEC's CIK

    def key(self) -> tuple:
        return (self.kind, self.concept, self.context_key, self.unit)

    @property
    def context_key(self) -> tuple:
        return (self.cik, self.period_type, self.period_start, self.period_end, self.dimensions)


@dataclass(frozen=True)
class InlineXbrlDocument:
    """The facts of one inline-XBRL document, in document order of their first occurrence."""

    document: str
    accession: str | None
    cik: int | None
    form: str | None  # dei:DocumentType
    period_end: str | None  # dei:DocumentPeriodEndDate as displayed
    facts: list[InlineFact] = field(default_factory=list)
    elements: int = 0  # fact elements read (before duplicates were merged)
    tables: list[Table] = field(default_factory=list)  # the HTML tables that hold numeric facts, as printed
    element_facts: dict[int, InlineFact] = field(default_factory=dict)  # byte offset -> the fact of each element
    # in those tables (before duplicates were merged: each cell's own value and decimals)
    statements: list = field(default_factory=list)  # pipelines.statements.Statement, when derived


def accession_from_name(name: str) -> str | None:
    """``0000320193-25-000079`` from a file name or URL that carries one (dashed or not)."""
    m = _ACCESSION.search(PurePosixPath(name).name) or _ACCESSION.search(name)
    return f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else None


# ---------------------------------------------------------------------------------------------
# transformation formats (ixt 2020-02-12 / 2022-02-16 names, older ixt names, ixt-sec 2015-08-31)

_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_WORDS.update({"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
               "eighty": 80, "ninety": 90, "no": 0, "none": 0, "a": 1, "an": 1, "single": 1})
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_DASHES = {"-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212", "\u2e3a", "\u2e3b", ""}


class FormatError(ValueError):
    """The displayed text does not read under the fact's format."""


def _words_to_int(text: str) -> int:
    words = [w for w in re.split(r"[\s\-,]+", text.lower().strip().rstrip(".")) if w and w != "and"]
    if not words:
        raise FormatError("no number words")
    total = current = 0
    for w in words:
        if w in _WORDS:
            current += _WORDS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _SCALES:
            total += max(current, 1) * _SCALES[w]
            current = 0
        elif w.isdigit():
            current += int(w)
        else:
            raise FormatError(f"{w!r} is not a number word")
    return total + current


def _decimal_text(digits: str) -> str:
    if not re.fullmatch(r"\d+(\.\d+)?|\.\d+", digits):
        raise FormatError(f"{digits!r} is not a number")
    return digits


def numeric_text(displayed: str, fmt: str | None) -> str:
    """The xs:decimal lexical form of a numeric fact's displayed text under ``fmt``."""
    text = displayed.strip()
    local = fmt.rpartition(":")[2].lower() if fmt else None
    if local is None:
        return _decimal_text(text)
    if local in ("fixed-zero", "zerodash", "numdash", "fixedzero"):
        return "0"
    if local in ("num-dot-decimal", "numdotdecimal", "numcommadot", "numspacedot", "num-dot-decimal-apos"):
        if text in _DASHES:
            raise FormatError(f"{text!r} is a dash, not a number (fixed-zero reads dashes)")
        return _decimal_text(re.sub(r"[,\s\u00a0\u202f'\u2019]", "", text))
    if local in ("num-comma-decimal", "numcommadecimal", "numdotcomma", "numspacecomma"):
        return _decimal_text(re.sub(r"[.\s\u00a0\u202f'\u2019]", "", text).replace(",", "."))
    if local in ("numwordsen", "num-word-en", "numwordsen-legacy"):
        return str(_words_to_int(text))
    raise FormatError(f"format {fmt} is not read here")


_MONTHS = {m: n for n, ms in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
    ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"),
    ("nov", "november"), ("dec", "december")), start=1) for m in ms}
_STATES = dict(zip(
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho "
    "illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota "
    "mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah "
    "vermont virginia washington wisconsin wyoming".split(),
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV OH OK OR PA TN TX UT "
    "VT VA WA WI WY".split(), strict=True))
_STATES.update({"new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY",
                "north carolina": "NC", "north dakota": "ND", "rhode island": "RI", "south carolina": "SC",
                "south dakota": "SD", "west virginia": "WV", "district of columbia": "DC",
                "puerto rico": "PR"})
_EXCHANGES = (("nasdaq", "NASDAQ"), ("new york stock exchange", "NYSE"), ("nyse american", "NYSEAMER"),
              ("nyse arca", "NYSEArca"), ("cboe", "CboeBZX"), ("bats", "BATS"), ("boston", "BOX"),
              ("chicago", "CHX"))
_FILER_CATEGORIES = {"large accelerated filer": "Large Accelerated Filer", "accelerated filer": "Accelerated Filer",
                     "non-accelerated filer": "Non-accelerated Filer"}


_MONTH_NAME, _NUM = r"(?P<m>[A-Za-z]+\.?)", r"(?P<m>\d{1,2})"
# date formats: (the shape of the displayed text, what it is called in the error); groups y, m, d
_DATE_SHAPES = {
    ("date-monthname-day-year-en", "datemonthnamedayyearen", "datemonthdayyearen"):
        (_MONTH_NAME + r"\s*(?P<d>\d{1,2}),?\s*(?P<y>\d{4})", "month-name day, year"),
    ("date-day-monthname-year-en", "datedaymonthyearen"):
        (r"(?P<d>\d{1,2})\s*" + _MONTH_NAME + r",?\s*(?P<y>\d{4})", "day month-name year"),
    ("date-monthname-year-en", "datemonthnameyearen", "datemonthyearen"):
        (_MONTH_NAME + r",?\s*(?P<y>\d{4})", "month-name year"),
    ("date-monthname-day-en", "datemonthnamedayen", "datemonthdayen"):
        (_MONTH_NAME + r"\s*(?P<d>\d{1,2})", "month-name day"),
    ("date-month-day", "datemonthday"): (_NUM + r"\D+(?P<d>\d{1,2})", "month/day"),
    ("date-month-day-year", "datemonthdayyear", "dateslashus"):
        (_NUM + r"\D+(?P<d>\d{1,2})\D+(?P<y>\d{2,4})", "month/day/year"),
    ("date-year-month-day", "dateyearmonthday"): (r"(?P<y>\d{4})\D+" + _NUM + r"\D+(?P<d>\d{1,2})", "year-month-day"),
}
_DATES = {name: (re.compile(shape), what) for names, (shape, what) in _DATE_SHAPES.items() for name in names}


def _date(text: str, local: str) -> str:
    """xs:date (2025-09-27), xs:gYearMonth (2025-09) or xs:gMonthDay (--09-27) of a displayed date."""
    shape, what = _DATES[local]
    m = shape.fullmatch(text)
    if not m:
        raise FormatError(f"{text!r} is not {what}")
    parts = m.groupdict()
    month = int(parts["m"]) if parts["m"].isdigit() else _month(parts["m"])
    year = parts.get("y")
    if year is None:
        return f"--{month:02d}-{int(parts['d']):02d}"
    y = int(year) + (2000 if len(year) == 2 else 0)
    return f"{y:04d}-{month:02d}" + (f"-{int(parts['d']):02d}" if parts.get("d") else "")


def _month(word: str) -> int:
    m = _MONTHS.get(word.lower().rstrip("."))
    if m is None:
        raise FormatError(f"{word!r} is not a month")
    return m


def _duration(number: str, unit: str) -> str:
    """xs:duration of a decimal count of years/months/days (integer parts carried down)."""
    try:
        n = Decimal(number.replace(",", ""))
    except InvalidOperation as exc:
        raise FormatError(f"{number!r} is not a number") from exc
    parts: list[str] = []
    if unit == "Y":
        years = int(n)
        n = (n - years) * 12
        parts.append(f"{years}Y")
        unit = "M"
    if unit == "M":
        months = int(n)
        n = (n - months) * Decimal("30.4375")
        parts.append(f"{months}M")
        unit = "D"
    parts.append(f"{int(n)}D")
    return "P" + "".join(p for p in parts if not p.startswith("0")) if any(
        not p.startswith("0") for p in parts) else "P0D"


def text_value(displayed: str, fmt: str | None) -> str:
    """A text fact's value under ``fmt`` (the displayed text when no format)."""
    if fmt is None:
        return displayed
    text = " ".join(displayed.replace("\u00a0", " ").split())
    local = fmt.rpartition(":")[2].lower()
    try:
        if local in ("fixed-true", "booleantrue"):
            return "true"
        if local in ("fixed-false", "booleanfalse"):
            return "false"
        if local == "fixed-empty":
            return ""
        if local == "boolballotbox":
            if text in ("\u2612", "\u2611"):
                return "true"
            if text == "\u2610":
                return "false"
            raise FormatError(f"{text!r} is not a ballot box")
        if local in _DATES:
            return _date(text, local)
        if local in ("duryear", "durmonth", "durday"):
            return _duration(text, {"duryear": "Y", "durmonth": "M", "durday": "D"}[local])
        if local == "durwordsen":
            parts = []
            for n, u in re.findall(r"([a-z0-9 \-]+?)[\s\-]+(year|month|day)s?\b", text.lower()):
                parts.append(f"{_words_to_int(n)}{u[0].upper()}")
            if not parts:
                raise FormatError(f"{text!r} is not a duration in words")
            return "P" + "".join(parts)
        if local == "stateprovnameen":
            code = _STATES.get(text.lower())
            if code is None:
                raise FormatError(f"{text!r} is not a US state name known here")
            return code
        if local == "exchnameen":
            for needle, code in _EXCHANGES:
                if needle in text.lower():
                    return code
            raise FormatError(f"{text!r} is not an exchange name known here")
        if local == "entityfilercategoryen":
            category = _FILER_CATEGORIES.get(text.lower())
            if category is None:
                raise FormatError(f"{text!r} is not a filer category")
            return category
        if local in ("numwordsen", "num-dot-decimal", "numdotdecimal", "num-comma-decimal", "fixed-zero"):
            return numeric_text(text, fmt)
    except ValueError as exc:
        raise FormatError(str(exc)) from exc
    raise FormatError(f"format {fmt} is not read here")


# ---------------------------------------------------------------------------------------------
# the streaming reader


class _Open:
    """A fact or continuation element being read: its attributes, text parts and exclude level."""

    __slots__ = ("tag", "attrs", "offset", "parts", "exclude_level")

    def __init__(self, tag: str, attrs: dict[str, str], offset: int, exclude_level: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.offset = offset
        self.parts: list[str] = []
        self.exclude_level = exclude_level


def _refuse(document: str, what: str):
    def handler(*_args) -> None:
        raise RejectedDocument(document, f"{what}: refused (no DTDs or entities are read)")
    return handler


class _Reader:
    def __init__(self, document: str) -> None:
        self.document = document
        self.open: list[_Open] = []
        self.exclude = 0
        self.raw: list[_Open] = []  # closed nonFraction/nonNumeric in document order
        self.continuations: dict[str, _Open] = {}
        self.contexts: dict[str, Context] = {}
        self.units: dict[str, str] = {}
        # context / unit under construction
        self.ctx: dict | None = None
        self.unit: dict | None = None
        self.text: list[str] | None = None  # text of the xbrli/xbrldi leaf being read
        self.leaf: tuple[str, dict[str, str]] | None = None
        self.typed_depth = 0
        self.tables = TableReader()

    # -- expat callbacks
    def start(self, name: str, attrs: dict[str, str]) -> None:
        ns, _, local = name.rpartition(_SEP)
        if ns == IX:
            if local in ("nonFraction", "nonNumeric", "continuation"):
                item = _Open(local, attrs, self.parser.CurrentByteIndex, self.exclude)
                self.open.append(item)
                if local == "nonFraction":
                    self.tables.fact(item.offset)
            elif local == "exclude":
                self.exclude += 1
            return
        if ns == XBRLI:
            if local == "context":
                self.ctx = {"id": attrs.get("id", ""), "dims": [], "typed": [], "period": {}}
            elif local == "unit":
                self.unit = {"id": attrs.get("id", ""), "num": [], "den": [], "part": "num"}
            elif local == "unitDenominator" and self.unit is not None:
                self.unit["part"] = "den"
            elif local in ("identifier", "startDate", "endDate", "instant", "measure"):
                self.leaf, self.text = (local, attrs), []
            elif local == "forever" and self.ctx is not None:
                self.ctx["period"]["forever"] = True
            return
        if ns == XBRLDI and self.ctx is not None:
            if local == "explicitMember":
                self.leaf, self.text = ("explicitMember", attrs), []
            elif local == "typedMember":
                self.leaf, self.text = ("typedMember", attrs), []
                self.typed_depth = 1
            return
        if self.typed_depth:
            self.typed_depth += 1
            return
        self.tables.start(ns, local, attrs, self.parser.CurrentByteIndex)

    def end(self, name: str) -> None:
        ns, _, local = name.rpartition(_SEP)
        self.tables.end(ns, local)
        if ns == IX:
            if local in ("nonFraction", "nonNumeric", "continuation"):
                item = self.open.pop()
                if local == "continuation":
                    self.continuations[item.attrs.get("id", "")] = item
                else:
                    self.raw.append(item)
            elif local == "exclude":
                self.exclude -= 1
            return
        if self.typed_depth > 1:
            self.typed_depth -= 1
            return
        if ns == XBRLI or ns == XBRLDI:
            if self.leaf is not None and self.leaf[0] == local:
                self._leaf_done(local, self.leaf[1], "".join(self.text or []).strip())
                self.leaf, self.text, self.typed_depth = None, None, 0
            elif local == "context" and self.ctx is not None:
                self._context_done()
            elif local == "unit" and self.unit is not None:
                num = "*".join(self.unit["num"])
                den = "*".join(self.unit["den"])
                self.units[self.unit["id"]] = f"{num}/{den}" if den else num
                self.unit = None

    def chars(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)
        elif self.exclude == 0:
            self.tables.chars(data)
        for item in self.open:
            if item.exclude_level == self.exclude:
                item.parts.append(data)

    def _leaf_done(self, local: str, attrs: dict[str, str], text: str) -> None:
        if local == "measure" and self.unit is not None:
            self.unit[self.unit["part"]].append(text.rpartition(":")[2])
        elif self.ctx is None:
            return
        elif local == "identifier":
            self.ctx["scheme"], self.ctx["entity"] = attrs.get("scheme"), text
        elif local in ("startDate", "endDate", "instant"):
            self.ctx["period"][local] = text[:10]
        elif local == "explicitMember":
            self.ctx["dims"].append((attrs.get("dimension", ""), text))
        elif local == "typedMember":
            axis = attrs.get("dimension", "")
            self.ctx["dims"].append((axis, text))
            self.ctx["typed"].append(axis)

    def _context_done(self) -> None:
        c, p = self.ctx, self.ctx["period"]
        if "instant" in p:
            ptype, start, end = "instant", None, p["instant"]
        elif "forever" in p:
            ptype, start, end = "forever", None, None
        else:
            ptype, start, end = "duration", p.get("startDate"), p.get("endDate")
        self.contexts[c["id"]] = Context(c["id"], c.get("scheme"), c.get("entity"), ptype, start, end,
                                         tuple(sorted(c["dims"])), tuple(sorted(c["typed"])))
        self.ctx = None


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _continued_text(item: _Open, continuations: dict[str, _Open]) -> tuple[str, str | None]:
    parts = ["".join(item.parts)]
    seen: set[str] = set()
    nxt = item.attrs.get("continuedAt")
    while nxt:
        if nxt in seen:
            return "".join(parts), f"continuation chain loops at {nxt!r}"
        seen.add(nxt)
        cont = continuations.get(nxt)
        if cont is None:
            return "".join(parts), f"continuation {nxt!r} is missing"
        parts.append("".join(cont.parts))
        nxt = cont.attrs.get("continuedAt")
    return "".join(parts), None


def _fact(item: _Open, reader: _Reader) -> InlineFact:
    a = item.attrs
    concept = a.get("name", "")
    ctx_id = a.get("contextRef", "")
    ctx = reader.contexts.get(ctx_id)
    nil = a.get(XSI_NIL, "false").strip() in ("true", "1")
    fmt = a.get("format")
    problem = None if ctx is not None else f"context {ctx_id!r} is not defined"
    cik = int(ctx.entity) if ctx is not None and ctx.entity_scheme == SEC_CIK_SCHEME and \
        (ctx.entity or "").isdigit() else None
    common = {
        "concept": concept, "context_id": ctx_id, "nil": nil, "format": fmt, "element_id": a.get("id"),
        "byte_offset": item.offset, "cik": cik,
        "period_type": ctx.period_type if ctx else None, "period_start": ctx.period_start if ctx else None,
        "period_end": ctx.period_end if ctx else None, "dimensions": ctx.dimensions if ctx else (),
    }
    if item.tag == "nonFraction":
        displayed = _collapse("".join(item.parts))
        unit_ref = a.get("unitRef")
        unit = reader.units.get(unit_ref or "")
        if unit is None and problem is None:
            problem = f"unit {unit_ref!r} is not defined"
        scale_attr = a.get("scale")
        value = None
        scale = None
        try:
            scale = int(scale_attr) if scale_attr not in (None, "") else None
        except ValueError:
            problem = problem or f"scale {scale_attr!r} is not an integer"
        if not nil and problem is None:
            try:
                value = Decimal(numeric_text(displayed, fmt)).scaleb(scale or 0)
                if value.as_tuple().exponent > 0:  # 3.07003E+11 -> 307003000000, the same number
                    value = Decimal(int(value))
                if a.get("sign") == "-":
                    value = -value
            except FormatError as exc:
                problem = f"value {displayed!r} does not read as {fmt or 'a number'}: {exc}"
        return InlineFact(kind="numeric", value=value, text=None, displayed=displayed, unit=unit,
                          decimals=a.get("decimals"), scale=scale, sign=a.get("sign"), problem=problem, **common)
    raw, chain_problem = _continued_text(item, reader.continuations)
    problem = problem or chain_problem
    text = None
    if not nil:
        try:
            text = text_value(raw if fmt is None else _collapse(raw), fmt)
        except FormatError as exc:
            problem = problem or f"text {_collapse(raw)[:80]!r} does not read as {fmt}: {exc}"
    return InlineFact(kind="text", value=None, text=text, displayed=_collapse(raw)[:2000], unit=None,
                      decimals=None, scale=None, sign=None, problem=problem, **common)


def _rounded(value: Decimal, decimals: str | None) -> Decimal:
    if decimals in (None, "", "INF"):
        return value
    return value.quantize(Decimal(1).scaleb(-int(decimals)))


def _precision(f: InlineFact) -> float:
    return float("inf") if f.decimals in (None, "", "INF") else int(f.decimals)


def _merge(facts: list[InlineFact]) -> list[InlineFact]:
    """One row per fact: duplicates (same concept, context content and unit) that agree are kept once,
    as the most precise of them (the highest decimals; the first of equals), with their count; when
    they do not agree (values that differ once rounded to the coarser decimals, a nil beside a value,
    two texts) each distinct value is a row with its count, flagged inconsistent."""
    by_key: dict[tuple, list[InlineFact]] = {}
    for f in facts:
        by_key.setdefault(f.key(), []).append(f)
    merged: list[InlineFact] = []
    for same in by_key.values():
        if len(same) == 1:
            merged.append(same[0])
            continue
        values = {f.value if f.kind == "numeric" else f.text for f in same}
        consistent = len(values) == 1
        if not consistent and same[0].kind == "numeric" and None not in values:
            coarsest = min(_precision(f) for f in same)
            decimals = None if coarsest == float("inf") else str(int(coarsest))
            consistent = len({_rounded(f.value, decimals) for f in same}) == 1
        if consistent:
            best = max(same, key=_precision)  # max keeps the first of equals
            merged.append(replace(best, occurrences=len(same)))
            continue
        distinct: dict[object, list[InlineFact]] = {}
        for f in same:
            distinct.setdefault(f.value if f.kind == "numeric" else f.text, []).append(f)
        merged.extend(replace(fs[0], occurrences=len(fs), inconsistent=True) for fs in distinct.values())
    merged.sort(key=lambda f: f.byte_offset)
    return merged


def parse_inline_xbrl(body: bytes, *, document: str, accession: str | None = None) -> InlineXbrlDocument:
    """Every fact of the inline-XBRL document ``body``; RejectedDocument naming ``document`` when it is
    not well-formed XML, declares entities, or carries no inline XBRL."""
    reader = _Reader(document)
    parser = expat.ParserCreate(namespace_separator=_SEP)
    reader.parser = parser
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = _refuse(document, "an entity declaration")
    parser.UnparsedEntityDeclHandler = _refuse(document, "an unparsed entity declaration")
    parser.ExternalEntityRefHandler = _refuse(document, "an external entity reference")
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.chars
    try:
        parser.Parse(body, True)
    except expat.ExpatError as exc:
        raise RejectedDocument(document, f"not well-formed XHTML, so not inline XBRL as EDGAR accepts it: {exc}") \
            from exc
    if not reader.contexts and not reader.raw:
        raise RejectedDocument(document, "no inline-XBRL facts or contexts (not an inline-XBRL document)")
    facts = [_fact(item, reader) for item in reader.raw]
    merged = _merge(facts)
    dei = {f.concept: f for f in merged if f.kind == "text" and f.concept.startswith("dei:") and not f.dimensions}
    cik_fact = dei.get("dei:EntityCentralIndexKey")
    cik = int(cik_fact.text) if cik_fact is not None and (cik_fact.text or "").strip().isdigit() else None
    if cik is None:
        cik = next((f.cik for f in merged if f.cik is not None), None)
    form = dei.get("dei:DocumentType")
    period = dei.get("dei:DocumentPeriodEndDate")
    return InlineXbrlDocument(
        document=document, accession=accession or accession_from_name(document), cik=cik,
        form=form.text if form is not None else None, period_end=period.text if period is not None else None,
        facts=merged, elements=len(facts), tables=reader.tables.tables,
        element_facts={f.byte_offset: f for f in facts if f.kind == "numeric"})
