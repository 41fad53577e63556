"""Parse an XBRL companyfacts payload (data.sec.gov/api/xbrl/companyfacts) into columnar records."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import msgspec
import pyarrow as pa

from pipelines.errors import RejectedDocument


class _Fact(msgspec.Struct, gc=False):
    end: str
    val: int | float
    accn: str
    filed: str
    form: str | None = None
    fy: int | None = None
    fp: str | None = None
    frame: str | None = None
    start: str | None = None


class _Concept(msgspec.Struct, gc=False):
    units: dict[str, list[_Fact]]
    label: str | None = None
    description: str | None = None


class _CompanyFacts(msgspec.Struct, gc=False):
    cik: int | str
    facts: dict[str, dict[str, _Concept]]
    entityName: str | None = None  # noqa: N815 (SEC's field name)


_DECODER = msgspec.json.Decoder(_CompanyFacts)

FACT_SCHEMA = pa.schema([
    ("taxonomy", pa.string()),
    ("concept", pa.string()),
    ("unit", pa.string()),
    ("period_start", pa.string()),
    ("period_end", pa.string()),
    ("val_int", pa.int64()),
    ("val_float", pa.float64()),
    ("accession", pa.string()),
    ("form", pa.string()),
    ("filed", pa.string()),
    ("frame", pa.string()),
    ("filing_fy", pa.int32()),
    ("filing_fp", pa.string()),
])

CONCEPT_SCHEMA = pa.schema([
    ("taxonomy", pa.string()),
    ("concept", pa.string()),
    ("label", pa.string()),
    ("description", pa.string()),
])

_INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class CompanyFacts:
    """One company's facts: ``facts`` has one row per reported (concept, unit, period, accession).

    Values come in two columns so none is rounded on the way: ``val_int`` for integers, exact, and
    ``val_float`` for decimals (the shortest float that prints back as SEC's literal).
    """

    cik: int
    entity_name: str | None
    facts: pa.Table
    concepts: pa.Table
    kind: str = "companyfacts"

    @property
    def fact_count(self) -> int:
        return self.facts.num_rows


def parse_cik(value: int | str | None, *, document: str) -> int:
    """CIKs drift between 320193, "320193" and "0000320193": normalise to one integer."""
    if isinstance(value, bool) or value is None:
        raise RejectedDocument(document, f"missing or invalid cik {value!r}")
    if isinstance(value, int):
        cik = value
    else:
        text = str(value).strip()
        if text.upper().startswith("CIK"):
            text = text[3:]
        if not text.isdigit():
            raise RejectedDocument(document, f"cik {value!r} is not a number")
        cik = int(text)
    if not 0 < cik < 10**10:
        raise RejectedDocument(document, f"cik {value!r} out of range")
    return cik


_ACCESSION = re.compile(r"\d{10}-\d{2}-\d{6}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _check_distinct(document: str, accessions: list[str], *dates: list[str | None]) -> None:
    """Accessions and dates repeat thousands of times: check each distinct one once."""
    bad = sorted(a for a in set(accessions) if not _ACCESSION.fullmatch(a))
    if bad:
        raise RejectedDocument(document, f"{len(bad)} malformed accession numbers, e.g. {bad[0]!r}")
    for column in dates:
        for d in set(column) - {None}:
            try:
                ok = bool(_DATE.fullmatch(d)) and date.fromisoformat(d) is not None
            except ValueError:
                ok = False
            if not ok:
                raise RejectedDocument(document, f"impossible date {d!r}")


# facts.value is DECIMAL(38, 10): 28 integer digits, 10 decimals.
_MAX_DECIMALS = 10
_MAX_ABS = Decimal(10) ** 28


def _check_storable(document: str, floats: list[float | None], start: list[str | None], end: list[str]) -> None:
    """Reject values the warehouse could not store exactly, and periods that end before they start."""
    for v in floats:
        if v is None:
            continue
        if not math.isfinite(v):
            raise RejectedDocument(document, f"value {v!r} is not a number")
        exact = Decimal(repr(v))  # the shortest decimal that is this float: SEC's literal
        if -exact.as_tuple().exponent > _MAX_DECIMALS or abs(exact) >= _MAX_ABS:
            raise RejectedDocument(document, f"value {v!r} cannot be stored exactly in DECIMAL(38,10)")
    for s, e in zip(start, end, strict=True):
        if s is not None and s > e:  # ISO dates compare as text
            raise RejectedDocument(document, f"a period starts ({s}) after it ends ({e})")


def parse_companyfacts(body: bytes, *, document: str, expected_cik: int | None = None) -> CompanyFacts:
    """Bytes of a companyfacts JSON -> CompanyFacts. Raises RejectedDocument naming ``document``."""
    stripped = body.lstrip()[:64].lower()
    if stripped.startswith((b"<!doctype", b"<html")):
        raise RejectedDocument(document, "an HTML page where companyfacts JSON was expected")
    try:
        cf = _DECODER.decode(body)
    except msgspec.ValidationError as exc:
        raise RejectedDocument(document, f"not a companyfacts document: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise RejectedDocument(document, f"invalid or truncated JSON: {exc}") from exc
    cik = parse_cik(cf.cik, document=document)
    if expected_cik is not None and cik != expected_cik:
        raise RejectedDocument(document, f"body is about CIK {cik}, but CIK {expected_cik} was requested")

    tax_col: list[str] = []
    concept_col: list[str] = []
    unit_col: list[str] = []
    start: list[str | None] = []
    end: list[str] = []
    vint: list[int | None] = []
    vflt: list[float | None] = []
    accn: list[str] = []
    form: list[str | None] = []
    filed: list[str] = []
    frame: list[str | None] = []
    fy: list[int | None] = []
    fp: list[str | None] = []
    c_tax: list[str] = []
    c_name: list[str] = []
    c_label: list[str | None] = []
    c_desc: list[str | None] = []

    for taxonomy, concepts in cf.facts.items():
        for name, concept in concepts.items():
            c_tax.append(taxonomy)
            c_name.append(name)
            c_label.append(concept.label)
            c_desc.append(concept.description)
            for unit, rows in concept.units.items():
                n = len(rows)
                tax_col.extend([taxonomy] * n)
                concept_col.extend([name] * n)
                unit_col.extend([unit] * n)
                start.extend([r.start for r in rows])
                end.extend([r.end for r in rows])
                vals = [r.val for r in rows]
                vint.extend([v if type(v) is int else None for v in vals])
                vflt.extend([v if type(v) is float else None for v in vals])
                accn.extend([r.accn for r in rows])
                form.extend([r.form for r in rows])
                filed.extend([r.filed for r in rows])
                frame.extend([r.frame for r in rows])
                fy.extend([r.fy for r in rows])
                fp.extend([r.fp for r in rows])

    if not tax_col:
        raise RejectedDocument(document, "companyfacts has no facts")
    _check_distinct(document, accn, end, start, filed)
    _check_storable(document, vflt, start, end)
    if any(v is not None and not -_INT64_MAX <= v <= _INT64_MAX for v in vint):
        raise RejectedDocument(document, "an integer value does not fit in 64 bits")

    facts = pa.Table.from_arrays(
        [pa.array(tax_col, pa.string()), pa.array(concept_col, pa.string()), pa.array(unit_col, pa.string()),
         pa.array(start, pa.string()), pa.array(end, pa.string()), pa.array(vint, pa.int64()),
         pa.array(vflt, pa.float64()), pa.array(accn, pa.string()), pa.array(form, pa.string()),
         pa.array(filed, pa.string()), pa.array(frame, pa.string()), pa.array(fy, pa.int32()),
         pa.array(fp, pa.string())],
        schema=FACT_SCHEMA,
    )
    concepts_tbl = pa.Table.from_arrays(
        [pa.array(c_tax, pa.string()), pa.array(c_name, pa.string()), pa.array(c_label, pa.string()),
         pa.array(c_desc, pa.string())],
        schema=CONCEPT_SCHEMA,
    )
    return CompanyFacts(cik=cik, entity_name=cf.entityName, facts=facts, concepts=concepts_tbl)
