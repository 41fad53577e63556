"""Parse an XBRL companyfacts payload (data.sec.gov/api/xbrl/companyfacts) into columnar records.

The payload is decoded in two steps so memory stays bounded for any size: the outer document
(taxonomies, concepts, labels) with each unit's fact list left as raw JSON, then the fact lists in
order, flushed to Arrow every ``CHUNK_ROWS`` facts. Every check runs on whole Arrow columns (and
on distinct values only), so the per-fact Python work is one attribute read per field.

A value the warehouse cannot hold rejects the whole document, naming the first offending fact
(taxonomy:concept [unit], accession, period end) and the field: a date outside 1900..2100, a
fiscal year outside it, a number that does not fit DECIMAL(38,10) exactly, a decimal with more
digits than the double that carries it (val_float) keeps, a period that ends before it starts, a
malformed accession, a CIK outside INTEGER. Decimals are checked as SEC wrote them: the fact lists
that hold any are decoded a second time with the values as exact Decimals.

A key written twice is rejected too (a decoder keeps the last silently: a fact's first ``val``, a
concept, taxonomy or facts object named twice, a concept's first units): the body's ``"val"`` keys
must be as many as its facts, its ``"units"`` keys as its concepts and ``"cik"`` must appear once
(a ``bytes.count`` each; a key spelled with unicode escapes is not counted).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter

import msgspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipelines.errors import RejectedDocument
from pipelines.sec_formats import (
    fiscal_year_problem,
    is_accession,
    iso_date_problem,
    looks_like_html,
)
from pipelines.sec_formats import parse_cik as parse_cik  # re-exported: callers used to import it here


class _Fact(msgspec.Struct, gc=False):
    end: str
    val: int | float
    accn: str
    filed: str
    form: str  # every fact of SEC's carries its form (560,842 in /work/shared/edgar-samples): missing is an error
    fy: int | None = None
    fp: str | None = None
    frame: str | None = None
    start: str | None = None


class _Literal(msgspec.Struct, gc=False):
    val: int | Decimal  # exactly as written (the types were checked by the int | float decode)


class _Concept(msgspec.Struct, gc=False):
    units: dict[str, msgspec.Raw]
    label: str | None = None
    description: str | None = None


class _CompanyFacts(msgspec.Struct, gc=False):
    cik: int | str
    facts: dict[str, dict[str, _Concept]]
    entityName: str | None = None  # noqa: N815 (SEC's field name)


_DECODER = msgspec.json.Decoder(_CompanyFacts)
_FACTS_DECODER = msgspec.json.Decoder(list[_Fact])
_LITERALS_DECODER = msgspec.json.Decoder(list[_Literal])
_VALUE = attrgetter("val")
_IS_DECIMAL = Decimal.__instancecheck__

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

_KEY = {key: re.compile(rb'"' + key.encode() + rb'"[ \t\r\n]*:') for key in ("val", "units", "cik")}


def _check_keys_once(body: bytes, document: str, concepts: int, facts: int) -> None:
    """Reject a body with a key written twice: the decoder kept only the last, without a word. Each
    key was decoded at least ``expected`` times, so when ``"key"`` occurs only that often in the body
    (one ``bytes.count``) it is exact; else the keys are counted by a regex (a string can hold the text)."""
    for key, expected, lost in (("cik", 1, "a second cik replaced the first"),
                                ("units", concepts, "a concept or taxonomy named twice, or a second units "
                                                    "object: all but the last were dropped"),
                                ("val", facts, "a fact with two values: the first was dropped")):
        if body.count(b'"' + key.encode() + b'"') == expected:
            continue
        found = len(_KEY[key].findall(body))
        if found != expected:
            what = {"cik": "document", "units": "concepts", "val": "facts"}[key]
            raise RejectedDocument(document, f"duplicate JSON keys: {found:,} {key!r} keys for {expected:,} "
                                             f"{what} ({lost})")


CHUNK_ROWS = 131_072  # facts per Arrow record batch: bounds the Python objects alive at once

# facts.value is DECIMAL(38, 10): 28 integer digits, 10 decimals.
_MAX_DECIMALS = 10
_MAX_ABS = Decimal(10) ** 28


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


class _Text(str):
    """A value shown in a reason as it was written (no quotes)."""

    def __repr__(self) -> str:
        return str(self)


def _as_written(d: Decimal) -> object:
    """How a reason shows decimal ``d``: as a float when the float is exactly it, else its text."""
    f = float(d)
    return f if math.isfinite(f) and Decimal(repr(f)) == d else _Text(str(d))


def _decimal_problem(d: Decimal) -> str | None:
    """Why decimal ``d`` (SEC's literal) cannot be stored exactly in DECIMAL(38,10) through
    val_float (whose shortest text the load casts to DECIMAL), or None."""
    if not d.is_finite():
        return "is not a finite number"
    as_double = float(d)
    shortest = repr(as_double)
    if "e" not in shortest and str(d) == shortest:  # the usual case: SEC wrote the double's shortest form
        if len(shortest) - shortest.index(".") - 1 > _MAX_DECIMALS:  # below 1e16, no exponent: not too large
            return f"has more than {_MAX_DECIMALS} decimal places (DECIMAL(38,10))"
        return None
    _, digits, exponent = d.as_tuple()
    significant = "".join(map(str, digits)).rstrip("0")  # 0.50 has the decimal places of 0.5
    decimals = -(exponent + len(digits) - len(significant)) if significant else 0
    if decimals > _MAX_DECIMALS:
        return f"has more than {_MAX_DECIMALS} decimal places (DECIMAL(38,10))"
    if d.copy_abs() >= _MAX_ABS:
        return "is too large for DECIMAL(38,10)"
    if Decimal(shortest) != d:
        return f"has more digits than a 64-bit float keeps (it would be stored as {as_double!r})"
    return None


class _Chunks:
    """Accumulates decoded facts and turns them into checked Arrow record batches."""

    def __init__(self, document: str):
        self.document = document
        self.keys: list[tuple[str, str, str]] = []  # (taxonomy, concept, unit) per fact list
        self.key_of: list[int] = []  # key index per pending fact list
        self.pending: list[list[_Fact]] = []
        self.pending_raw: list[msgspec.Raw] = []  # each pending fact list as it was written
        self.pending_rows = 0
        self.batches: list[pa.RecordBatch] = []
        self.good_text: set[str] = set()  # accessions and dates already checked
        self.good_decimals: set[Decimal] = set()

    def add(self, key: tuple[str, str, str], rows: list[_Fact], raw: msgspec.Raw) -> None:
        if not rows:
            return
        self.keys.append(key)
        self.key_of.append(len(self.keys) - 1)
        self.pending.append(rows)
        self.pending_raw.append(raw)
        self.pending_rows += len(rows)
        if self.pending_rows >= CHUNK_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        rows = [r for part in self.pending for r in part]
        counts = np.fromiter((len(p) for p in self.pending), dtype=np.int64, count=len(self.pending))
        key_idx = pa.array(np.repeat(np.asarray(self.key_of, dtype=np.int32), counts))
        parts = list(zip(self.pending_raw, counts.tolist(), strict=True))
        self.pending, self.pending_raw, self.key_of, self.pending_rows = [], [], [], 0
        self.batches.append(self._batch(rows, key_idx, parts))

    def _reject(self, rows: list[_Fact], key_idx: pa.Array, i: int, field: str, value: object, problem: str):
        taxonomy, concept, unit = self.keys[key_idx[i].as_py()]
        r = rows[i]
        raise RejectedDocument(self.document, f"fact {taxonomy}:{concept} [{unit}] (accession {r.accn}, "
                                              f"end {r.end}): {field} {value!r} {problem}")

    def _check_text(self, rows, key_idx, column: pa.Array, field: str, values: list, problem_of) -> None:
        """Check the distinct values of a text column (accessions, dates repeat thousands of times)."""
        for v in pc.unique(column).to_pylist():
            if v is None or v in self.good_text:
                continue
            problem = problem_of(v)
            if problem:
                self._reject(rows, key_idx, values.index(v), field, v, problem)
            self.good_text.add(v)

    def _check_decimals(self, rows: list[_Fact], key_idx: pa.Array, parts: list[tuple[msgspec.Raw, int]],
                        decimal_rows: pa.Array) -> None:
        """Check each decimal as SEC wrote it: the fact lists holding any are decoded again with the
        values as exact Decimals (the float decode has already rounded them to doubles)."""
        sizes = np.fromiter((n for _, n in parts), dtype=np.int64, count=len(parts))
        starts = np.cumsum(sizes) - sizes
        decimals_in = np.add.reduceat(decimal_rows.to_numpy(zero_copy_only=False), starts)  # per fact list
        for p in np.flatnonzero(decimals_in).tolist():
            literals = list(map(_VALUE, _LITERALS_DECODER.decode(parts[p][0])))
            for d in dict.fromkeys(filter(_IS_DECIMAL, literals)):  # distinct, in order of appearance
                if d in self.good_decimals:
                    continue
                problem = _decimal_problem(d)
                if problem:
                    j = next(j for j, x in enumerate(literals) if type(x) is Decimal and x == d)
                    self._reject(rows, key_idx, int(starts[p]) + j, "value", _as_written(d), problem)
                self.good_decimals.add(d)

    def _batch(self, rows: list[_Fact], key_idx: pa.Array, parts: list[tuple[msgspec.Raw, int]]) -> pa.RecordBatch:
        keys = self.keys
        start = [r.start for r in rows]
        end = [r.end for r in rows]
        accn = [r.accn for r in rows]
        filed = [r.filed for r in rows]
        vals = [r.val for r in rows]
        fy = [r.fy for r in rows]
        a_start, a_end = pa.array(start, pa.string()), pa.array(end, pa.string())
        a_accn, a_filed = pa.array(accn, pa.string()), pa.array(filed, pa.string())

        self._check_text(rows, key_idx, a_accn, "accession", accn,
                         lambda v: None if is_accession(v) else "is not an accession number")
        self._check_text(rows, key_idx, a_end, "period end", end, iso_date_problem)
        self._check_text(rows, key_idx, a_start, "period start", start, iso_date_problem)
        self._check_text(rows, key_idx, a_filed, "filed date", filed, iso_date_problem)
        backwards = pc.less(a_end, a_start)  # ISO dates compare as text
        if pc.any(backwards).as_py():
            i = pc.index(backwards, True).as_py()
            self._reject(rows, key_idx, i, "period", f"{start[i]}..{end[i]}", "ends before it starts")

        is_int = [type(v) is int for v in vals]
        vint = [v if k else None for v, k in zip(vals, is_int, strict=True)]
        vflt = [None if k else v for v, k in zip(vals, is_int, strict=True)]
        try:
            a_vint = pa.array(vint, pa.int64())
        except (OverflowError, pa.ArrowInvalid):
            i = next(i for i, v in enumerate(vint) if v is not None and not -2**63 < v < 2**63)
            self._reject(rows, key_idx, i, "value", vint[i], "does not fit in 64 bits")
        a_vflt = pa.array(vflt, pa.float64())
        if a_vflt.null_count < len(a_vflt):
            self._check_decimals(rows, key_idx, parts, a_vflt.is_valid())

        try:
            a_fy = pa.array(fy, pa.int64())
        except (OverflowError, pa.ArrowInvalid):
            i = next(i for i, v in enumerate(fy) if v is not None and fiscal_year_problem(v))
            self._reject(rows, key_idx, i, "fy", fy[i], fiscal_year_problem(fy[i]))
        if a_fy.null_count < len(a_fy):
            lo, hi = pc.min_max(a_fy).values()
            for bound in (lo.as_py(), hi.as_py()):
                problem = fiscal_year_problem(bound)
                if problem:
                    self._reject(rows, key_idx, fy.index(bound), "fy", bound, problem)

        taxonomy = pa.array([k[0] for k in keys], pa.string()).take(key_idx)
        concept = pa.array([k[1] for k in keys], pa.string()).take(key_idx)
        unit = pa.array([k[2] for k in keys], pa.string()).take(key_idx)
        return pa.RecordBatch.from_arrays([
            taxonomy, concept, unit, a_start, a_end, a_vint, a_vflt, a_accn,
            pa.array([r.form for r in rows], pa.string()), a_filed,
            pa.array([r.frame for r in rows], pa.string()), a_fy.cast(pa.int32()),
            pa.array([r.fp for r in rows], pa.string()),
        ], schema=FACT_SCHEMA)


def parse_companyfacts(body: bytes, *, document: str, expected_cik: int | None = None) -> CompanyFacts:
    """Bytes of a companyfacts JSON -> CompanyFacts. Raises RejectedDocument naming ``document``."""
    if looks_like_html(body):
        raise RejectedDocument(document, "an HTML page where companyfacts JSON was expected")
    try:
        cf = _DECODER.decode(body)
    except msgspec.ValidationError as exc:
        raise RejectedDocument(document, f"not a companyfacts document: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise RejectedDocument(document, f"invalid or truncated JSON: {exc}") from exc
    except RecursionError:
        raise RejectedDocument(document, "JSON nested too deeply to be a companyfacts document") from None
    cik = parse_cik(cf.cik, document=document)
    if expected_cik is not None and cik != expected_cik:
        raise RejectedDocument(document, f"body is about CIK {cik}, but CIK {expected_cik} was requested")

    chunks = _Chunks(document)
    n_facts = 0
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
            for unit, raw in concept.units.items():
                try:
                    rows = _FACTS_DECODER.decode(raw)
                except msgspec.DecodeError as exc:
                    raise RejectedDocument(document, f"facts of {taxonomy}:{name} [{unit}]: {exc}") from exc
                except RecursionError:
                    raise RejectedDocument(document, f"facts of {taxonomy}:{name} [{unit}] are nested too "
                                                     "deeply") from None
                n_facts += len(rows)
                chunks.add((taxonomy, name, unit), rows, raw)
    _check_keys_once(body, document, len(c_name), n_facts)
    chunks.flush()
    if not chunks.batches:
        raise RejectedDocument(document, "companyfacts has no facts")

    facts = pa.Table.from_batches(chunks.batches, schema=FACT_SCHEMA)
    concepts_tbl = pa.Table.from_arrays(
        [pa.array(c_tax, pa.string()), pa.array(c_name, pa.string()), pa.array(c_label, pa.string()),
         pa.array(c_desc, pa.string())],
        schema=CONCEPT_SCHEMA,
    )
    return CompanyFacts(cik=cik, entity_name=cf.entityName, facts=facts, concepts=concepts_tbl)
