"""The claim verifier: which numbers of an agent's brief hold against the warehouse, and why the others do not.

A brief is ``{"ticker", "summary", "claims": [...]}``; each claim is one of

* ``reported`` ``{id, text, field, fiscalYear, fiscalPeriod, value, accession}``: passes only when
  ``value`` is exactly what filing ``accession`` reported for ``field`` (a standard concept such
  as ``revenue``, or ``taxonomy:Concept``) in that fiscal period. FY reads annual durations or
  year-end instants, Qn discrete quarters or quarter-end instants. A value some other filing
  reported fails naming the filings that did; a value the warehouse computed (a quarter derived as
  FY minus nine months, or a derived metric such as free_cash_flow) fails as "derived cited as
  reported".
* ``derived`` ``{id, text, formula, value}``: the formula (+ - * / and parentheses over numbers and
  other claims' ids, parsed safely by :mod:`warehouse.agent.arith`) is recomputed from the other
  claims' values and rounded (half up) to the decimals ``value`` is written with. A percentage is
  written in percent (17.8 means 17.8 %): when the claim's text says % or percent, the formula may
  give the fraction (0.178) or the percentage. A claim that uses a failed claim fails.
* ``insider`` ``{id, text, accession, transactionDate, transactionCode, shares}``: passes when
  one line of that Form 3/4/5 with that date and code has those shares, or when the filing's
  lines of that date and code add up to them. The filing's issuer must be the brief's company.
* ``quote`` ``{id, text, accession, item}``: passes only when ``text`` is verbatim (case,
  whitespace, quotes and dashes normalised, as phrase search) in that item of that filing
  (:mod:`warehouse.agent.quotes`); a failure says where the text really is (another item, another
  filing held) or what differs (a changed number, a swapped word). Its numbers are the filing's own.

A claim's sentence may assert only what its cited evidence contains: every number of its text must
be backed by its evidence's values (the rule of :mod:`warehouse.agent.numbers`: formats normalised,
years, dates, form names, accessions and claim ids are not numbers) and every period it names
(FY2024, Q1, 2024, May 4, 2022: :mod:`warehouse.agent.periods`) must be one of its evidence's. The
evidence of a reported claim is its value, the fiscal year and period it cites, the cited fact's
period and the filing's date and fiscal year; of an insider claim its shares (and the lines that
make them up) and the transaction date; of a derived claim its value and the evidence of every
claim its formula uses. A passing claim whose text asserts anything else fails. A quote's numbers
and periods are the filing's own (the quote is checked verbatim). Every number of the summary must
be backed by some claim's value: unbacked ones are listed in ``orphan_numbers``. ``passed`` is true
only when nothing failed.

The verifier is total: a brief too large (:data:`MAX_BRIEF_CHARS`), nested too deep
(:data:`MAX_DEPTH`, checked before JSON parsing), with too many claims or a value out of range
(at most 40 significant digits, between 1e-40 and 1e40) is refused with one line naming why;
arithmetic runs in :data:`warehouse.agent.arith.ARITH` and rounding is decided exactly, so no
number gives an exception; the work is linear in the brief (claims are resolved without recursion,
each text is read once, each number is looked up among the sorted claim values).
"""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal, DecimalException
from functools import cached_property
from typing import Annotated, Any, Literal

import duckdb
from pydantic import AfterValidator, BaseModel, Field, ValidationError, model_validator

from warehouse.agent.arith import ARITH, FormulaError, evaluate, references
from warehouse.agent.models import Exact, ToolError, normalized
from warehouse.agent.numbers import Backing, mentions, rounded, rounds_to
from warehouse.agent.periods import Evidence
from warehouse.agent.receipts import (
    FISCAL_PERIODS,
    closest,
    company_concepts,
    newest_first,
    resolution_error,
    rows,
)
from warehouse.read.resolve import resolve
from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import concept_names, metric_names

_PERIOD_DURATIONS = {"FY": ("annual", "instant")} | {q: ("quarter", "instant") for q in FISCAL_PERIODS[1:]}

MAX_BRIEF_CHARS = 1_000_000
MAX_DEPTH = 16  # a brief is 3 deep: {claims: [{...}]}
MAX_CLAIMS = 1_000
MAX_WAREHOUSE_CLAIMS = 100  # reported and insider claims: each asks the warehouse (~0.1-0.4 s on a loaded box)
MAX_SUMMARY_CHARS = 200_000
MAX_TEXT_CHARS = 2_000
MAX_DIGITS = 40  # significant digits of a claim's value; it lies between 1e-40 and 1e40


def _in_range(value: Decimal) -> Decimal:
    """A claim's value: finite, at most MAX_DIGITS significant digits, no digit beyond 1e40 or below 1e-40."""
    if not value.is_finite():
        raise ValueError(f"{value} is not a number")
    n = normalized(value)
    if value != 0 and (len(n.as_tuple().digits) > MAX_DIGITS or n.adjusted() >= MAX_DIGITS
                       or value.as_tuple().exponent < -MAX_DIGITS):  # type: ignore[operator]
        raise ValueError(f"{str(value)[:60]} is out of range: at most {MAX_DIGITS} significant digits, "
                         f"below 1e{MAX_DIGITS} and no digit under 1e-{MAX_DIGITS}")
    return value


Value = Annotated[Exact, AfterValidator(_in_range)]
ClaimId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^\w+$",
                               description="A word (letters, digits, _), as formulas use it.")]
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Short = Annotated[str, Field(max_length=200)]


class ReportedClaim(BaseModel):
    id: ClaimId
    text: Text = ""
    kind: Literal["reported"]
    field: Short
    fiscalYear: int = Field(ge=1, le=9999)
    fiscalPeriod: Short
    value: Value
    accession: Short


class DerivedClaim(BaseModel):
    id: ClaimId
    text: Text = ""
    kind: Literal["derived"]
    formula: Text
    value: Value


class InsiderClaim(BaseModel):
    id: ClaimId
    text: Text = ""
    kind: Literal["insider"]
    accession: Short
    transactionDate: date
    transactionCode: Short
    shares: Value


class QuoteClaim(BaseModel):
    id: ClaimId
    text: Text = Field(min_length=1)
    kind: Literal["quote"]
    accession: Short
    item: Short


Claim = Annotated[ReportedClaim | DerivedClaim | InsiderClaim | QuoteClaim, Field(discriminator="kind")]


class Brief(BaseModel):
    """An agent's brief: the company, a prose summary, and the claims that back its numbers."""

    ticker: Short
    summary: str = Field(default="", max_length=MAX_SUMMARY_CHARS)
    claims: list[Claim] = Field(max_length=MAX_CLAIMS)

    @model_validator(mode="after")
    def _bounded(self) -> Brief:
        asking = sum(c.kind != "derived" for c in self.claims)
        if asking > MAX_WAREHOUSE_CLAIMS:
            raise ValueError(f"{asking:,} reported and insider claims; at most {MAX_WAREHOUSE_CLAIMS}")
        return self


class ClaimResult(BaseModel):
    id: str
    kind: str
    status: Literal["PASS", "FAIL"]
    reason: str


class OrphanNumber(BaseModel):
    text: str = Field(description="The number as written.")
    value: Exact = Field(description="Its value, normalised (331.8B -> 331800000000).")
    percent: bool


class VerifyReport(BaseModel):
    ticker: str | None
    cik: int | None = None
    company_name: str | None = None
    passed: bool
    claims: list[ClaimResult] = Field(default_factory=list)
    orphan_numbers: list[OrphanNumber] = Field(default_factory=list)
    error: ToolError | None = None


def fmt(value: Decimal | None) -> str:
    """A readable exact number: 391035000000.0000000000 -> 391,035,000,000."""
    if value is None:
        return "NULL"
    return f"{normalized(value):,f}"


def _shown(value: Decimal) -> str:
    """A computed value for a reason: to six decimals, or in scientific notation beyond 1e30 / below 1e-6."""
    if value != 0 and not -6 <= value.adjusted() <= 30:
        return f"{value:.6E}"
    return fmt(rounded(value, Decimal("1e-6")))


def _rounded_shown(value: Decimal, quantum: Decimal) -> str:
    """``value`` rounded to ``quantum`` as a reason shows it (scientific when that is more than 60 digits)."""
    if value.adjusted() - quantum.as_tuple().exponent > 60:  # type: ignore[operator]
        return f"{value:.6E}"
    return str(rounded(value, quantum))


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """How deep JSON text nests (strings skipped), in one pass and without parsing it."""
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parse_brief(data: str | bytes | dict | Brief) -> Brief:
    """A Brief from JSON text (numbers kept as written, as Decimals), a dict or a Brief; ValueError if invalid."""
    if isinstance(data, Brief):
        return data
    if isinstance(data, str | bytes):
        if len(data) > MAX_BRIEF_CHARS:
            raise ValueError(f"brief of {len(data):,} characters; at most {MAX_BRIEF_CHARS:,}")
        try:
            text = data if isinstance(data, str) else data.decode(json.detect_encoding(data))
        except UnicodeDecodeError as exc:
            raise ValueError(f"not JSON: {exc}") from None
        if (depth := json_depth(text)) > MAX_DEPTH:
            raise ValueError(f"brief nested {depth:,} deep; at most {MAX_DEPTH}")
        try:  # every number as a Decimal: no float rounding, no limit on an integer's digits
            data = json.loads(text, parse_float=Decimal, parse_int=Decimal)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not JSON: {exc}") from None
    try:
        return Brief.model_validate(data)
    except ValidationError as exc:
        raise ValueError("not a brief: " + "; ".join(
            ": ".join(filter(None, (".".join(map(str, e["loc"])), e["msg"]))) for e in exc.errors()[:5])) from None


def verify_brief(con: duckdb.DuckDBPyConnection, data: str | bytes | dict | Brief) -> VerifyReport:
    """Check every claim of a brief and the numbers of its prose; see the module docstring for the rules."""
    try:
        brief = parse_brief(data)
    except ValueError as exc:
        return VerifyReport(ticker=data.get("ticker") if isinstance(data, dict) else None, passed=False,
                            error=ToolError(kind="bad_argument", message=str(exc),
                                            suggestion='Send {"ticker", "summary", "claims": [...]} with kinds '
                                                       "reported, derived, insider or quote."))
    r = resolve(con, brief.ticker)
    if not r.resolved:
        return VerifyReport(ticker=brief.ticker, passed=False, error=resolution_error(r),
                            claims=[ClaimResult(id=c.id, kind=c.kind, status="FAIL",
                                                reason=f"company {brief.ticker!r} not resolved: {r.message}")
                                    for c in brief.claims])
    checker = _Checker(con, r.cik, brief)
    results = [checker.result(c.id) for c in brief.claims]
    ids = {c.id for c in brief.claims}
    backing = Backing(checker.value(c) for c in brief.claims)
    final = []
    for c, res in zip(brief.claims, results, strict=True):
        if c.id in checker.duplicated:
            res = ClaimResult(id=c.id, kind=c.kind, status="FAIL", reason=f"claim id {c.id!r} is used by more than one claim")
        if res.status == "PASS" and c.kind != "quote":
            res = checker.asserts_only_its_evidence(c, res, ids)
        final.append(res)
    orphan_numbers = [OrphanNumber(text=m.text, value=m.value, percent=m.percent)
                      for m in mentions(brief.summary, ids) if not backing.backs(m)]
    return VerifyReport(ticker=brief.ticker, cik=r.cik, company_name=r.name, claims=final,
                        orphan_numbers=orphan_numbers,
                        passed=all(x.status == "PASS" for x in final) and not orphan_numbers and bool(final))


class _Checker:
    """Verifies the claims of one brief, memoising results (derived claims use other claims)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, cik: int, brief: Brief):
        self.con, self.cik = con, cik
        self.claims: dict[str, Any] = {}
        self.duplicated: set[str] = set()
        for c in brief.claims:
            if c.id in self.claims:
                self.duplicated.add(c.id)
            self.claims.setdefault(c.id, c)
        self.done: dict[str, ClaimResult] = {}
        self.evidence: dict[str, tuple[list[Decimal], Evidence]] = {}  # of the claims that passed
        self.active: set[str] = set()
        self.answers: dict[tuple, list[dict[str, Any]]] = {}  # the warehouse asked once per question

    def _rows(self, query: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        key = (query, *((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(params.items())))
        if key not in self.answers:
            self.answers[key] = rows(self.con, query, params)
        return self.answers[key]

    @cached_property
    def concepts(self) -> list[str]:
        return concept_names(self.con)

    @cached_property
    def company_concepts(self) -> list[str]:
        return company_concepts(self.con, self.cik)

    def asserts_only_its_evidence(self, c: Any, res: ClaimResult, ids: set[str]) -> ClaimResult:
        """``res`` (a PASS), or a FAIL when the claim's text names a number or a period its evidence
        does not contain."""
        values, when = self.evidence.get(c.id, ([], Evidence()))
        backing = Backing(values)
        numbers = [m.text for m in mentions(c.text, ids) if not backing.backs(m)]
        times = [p.text for p in when.lacks(c.text)]
        if not numbers and not times:
            return res
        said = ", ".join(numbers + times)
        has = "; ".join(filter(None, [
            ", ".join(fmt(v) for v in sorted(set(values))),
            ", ".join(f"FY{y}" for y in sorted(when.fiscal_years)),
            ", ".join(f"FY{y} Q{q}" for y, q in sorted(when.quarters)),
            ", ".join(str(d) for d in sorted(when.days))]))
        return ClaimResult(id=c.id, kind=c.kind, status="FAIL",
                           reason=f"its text says {said}, which its cited evidence does not contain "
                                  f"(it has: {has or 'nothing'}); {res.reason}")

    @staticmethod
    def value(claim: Any) -> Decimal | None:
        return claim.shares if claim.kind == "insider" else None if claim.kind == "quote" else claim.value

    def result(self, claim_id: str) -> ClaimResult:
        """The claim's result, the claims its formula uses checked first: depth first with a stack of
        its own (a chain of thousands of claims needs no recursion); ``active`` holds the path, so a
        formula that uses a claim on it refers back to itself."""
        stack = [(claim_id, False)]
        while stack:
            cid, expanded = stack.pop()
            if cid in self.done:
                continue
            if expanded:
                self.done[cid] = self._check(cid)
                self.active.discard(cid)
                continue
            if cid in self.active:
                continue
            self.active.add(cid)
            stack.append((cid, True))
            stack.extend((ref, False) for ref in reversed(self._uses(cid))
                         if ref not in self.done and ref not in self.active)
        return self.done[claim_id]

    def _uses(self, claim_id: str) -> list[str]:
        """The claim ids a derived claim's formula uses (none when it is not derived or not a formula)."""
        claim = self.claims[claim_id]
        if claim.kind != "derived" or claim_id in self.duplicated:
            return []
        try:
            return [r for r in references(claim.formula) if r in self.claims]
        except FormulaError:
            return []

    def _check(self, claim_id: str) -> ClaimResult:
        claim = self.claims[claim_id]
        if claim_id in self.duplicated:  # which of them would a formula mean? refuse to pick one
            return ClaimResult(id=claim_id, kind=claim.kind, status="FAIL",
                               reason=f"claim id {claim_id!r} is used by more than one claim")
        try:
            ok, reason = {"reported": self._reported, "derived": self._derived,
                          "insider": self._insider, "quote": self._quote}[claim.kind](claim)
        except duckdb.Error as exc:
            ok, reason = False, f"the warehouse could not check it: {exc}"
        except DecimalException as exc:  # a guard: arithmetic is bounded and exact, so this is a bug to report
            ok, reason = False, f"its numbers could not be compared: {type(exc).__name__}"
        return ClaimResult(id=claim_id, kind=claim.kind, status="PASS" if ok else "FAIL", reason=reason)

    # -- quote ------------------------------------------------------------------------------------
    def _quote(self, c: QuoteClaim) -> tuple[bool, str]:
        from warehouse.agent.quotes import check_quote

        return check_quote(self.con, c.text, c.accession, c.item)

    # -- reported ---------------------------------------------------------------------------------
    def _reported(self, c: ReportedClaim) -> tuple[bool, str]:
        fp = c.fiscalPeriod.strip().upper()
        if fp not in _PERIOD_DURATIONS:
            return False, f"fiscalPeriod {c.fiscalPeriod!r} is not one of {', '.join(FISCAL_PERIODS)}"
        period = f"FY{c.fiscalYear} {fp}" if fp != "FY" else f"FY{c.fiscalYear}"
        if c.field in metric_names():
            return False, (f"{c.field} is a derived metric the warehouse computes, not a value any filing "
                           f"reports: a derived value cited as reported; write it as a derived claim with its formula")
        standard = c.field in self.concepts
        if standard:
            tags = [r["tag"] for r in self._rows(sql("agent/reported_tags"),
                                           {"cik": self.cik, "concept": c.field, "fy": c.fiscalYear, "fp": fp})]
        elif ":" in c.field and c.field in self.company_concepts:
            tags = [c.field]
        else:
            near = closest(c.field, [*self.concepts, *self.company_concepts])
            return False, f"unknown field {c.field!r}" + (f"; closest: {', '.join(near)}" if near else "")
        versions = [v for v in newest_first(self._rows(sql("read/api/fact_versions"), {
                        "cik": self.cik, "tags": tags, "fiscal_year": c.fiscalYear, "fiscal_period": fp, "as_of": None}))
                    if v["duration_class"] in _PERIOD_DURATIONS[fp]]
        cited = [v for v in versions if v["accession"] == c.accession]
        if any(v["value"] == c.value for v in cited):
            v = next(v for v in cited if v["value"] == c.value)
            later = [w for w in versions if w["concept"] == v["concept"] and w["unit"] == v["unit"]
                     and w["period_end"] == v["period_end"] and w["is_latest"] and w["value"] != c.value]
            note = f" (later restated to {fmt(later[0]['value'])} by {later[0]['accession']})" if later else ""
            when = Evidence(fiscal_years={c.fiscalYear}, quarters={(c.fiscalYear, int(fp[1]))} if fp != "FY" else set())
            when.add_days(v["period_start"], v["period_end"], v["filed"])
            filing_fy = self._rows(sql("agent/filing_fiscal_year"), {"cik": self.cik, "accession": c.accession})
            if filing_fy and filing_fy[0]["filing_fy"] is not None:
                when.fiscal_years.add(filing_fy[0]["filing_fy"])
            self.evidence[c.id] = ([c.value], when)
            return True, (f"{c.accession} ({v['form']} filed {v['filed']}) reported {fmt(c.value)} {v['unit']} for "
                          f"{v['taxonomy']}:{v['concept']} {period} ({v['period_start'] or 'instant'} to "
                          f"{v['period_end']}){note}")
        matching = [v for v in versions if v["value"] == c.value]
        if matching:
            who = ", ".join(sorted({f"{v['accession']} ({v['form']} filed {v['filed']})" for v in matching}))
            said = (f"; {c.accession} reported {fmt(cited[0]['value'])} for that period" if cited else
                    f"; {c.accession} did not report {c.field} for {period} at all")
            return False, f"wrong filing: {fmt(c.value)} for {c.field} {period} was reported by {who}{said}"
        if standard:
            computed = [r for r in self._rows(sql("agent/computed_values"),
                                        {"cik": self.cik, "concept": c.field, "fy": c.fiscalYear, "fp": fp})
                        if r["value"] == c.value]
            if computed:
                return False, (f"{fmt(c.value)} is computed by the warehouse ({computed[0]['derivation']}: the year "
                               f"minus the year-to-date periods), no filing reported it: a derived value cited as "
                               f"reported; write it as a derived claim over the reported values")
        if not versions:
            return False, f"no filing reported {c.field} for {period}"
        reported = sorted({(v["value"], v["accession"]) for v in versions if v["is_latest"]}, key=str)
        listed = "; ".join(f"{fmt(val)} ({acc})" for val, acc in reported[:4])
        return False, f"value {fmt(c.value)} does not match what filings reported for {c.field} {period}: {listed}"

    # -- derived ----------------------------------------------------------------------------------
    def _derived(self, c: DerivedClaim) -> tuple[bool, str]:
        try:
            refs = references(c.formula)
        except FormulaError as exc:
            return False, f"formula {c.formula!r} rejected: {exc}"
        unknown = [r for r in refs if r not in self.claims]
        if unknown:
            return False, f"formula uses {', '.join(unknown)}, which are not claim ids of this brief"
        for ref in refs:
            if ref in self.active:
                return False, f"formula refers back to itself through {ref}"
            dep = self.result(ref)
            if dep.status == "FAIL":
                return False, f"formula uses claim {ref}, which failed"
        try:
            exact = evaluate(c.formula, lambda ref: self.value(self.claims[ref]))
        except FormulaError as exc:
            return False, f"formula {c.formula!r} cannot be computed: {exc}"
        quantum = Decimal((0, (1,), c.value.as_tuple().exponent))  # type: ignore[arg-type]
        candidates = [exact]
        text = c.text.lower()
        if "%" in text or "percent" in text:
            candidates.append(ARITH.multiply(exact, 100))
        for cand in candidates:
            if rounds_to(cand, quantum, c.value):
                values, when = [c.value], Evidence()
                for ref in dict.fromkeys(refs):
                    ref_values, ref_when = self.evidence.get(ref, ([], Evidence()))
                    values += ref_values
                    when.merge(ref_when)
                self.evidence[c.id] = (values, when)
                return True, f"{c.formula} = {_shown(cand)}, which rounds to {c.value}"
        shown = min(candidates, key=lambda cand: abs(ARITH.subtract(cand, c.value)))  # the reading nearest the claim
        return False, (f"{c.formula} = {_shown(shown)}, which rounds to {_rounded_shown(shown, quantum)} "
                       f"at the claim's precision, not {c.value}")

    # -- insider ----------------------------------------------------------------------------------
    def _insider(self, c: InsiderClaim) -> tuple[bool, str]:
        lines = self._rows(sql("agent/insider_lines"), {"accession": c.accession})
        if not lines:
            return False, f"{c.accession} is not a Form 3/4/5 the warehouse holds"
        head = lines[0]
        if head["issuer_cik"] != self.cik:
            return False, f"{c.accession} is about {head['issuer_name']} (CIK {head['issuer_cik']}), not this company"
        code = c.transactionCode.strip().upper()
        same = [ln for ln in lines if ln["transaction_date"] == c.transactionDate and ln["transaction_code"] == code]
        if not same:
            have = sorted({f"{ln['transaction_date']} {ln['transaction_code']}" for ln in lines
                           if ln["transaction_code"]})
            return False, (f"Form {head['document_type']} {c.accession} has no line dated {c.transactionDate} with "
                           f"code {code}; it has: {', '.join(have) or 'no transaction lines'}")
        when = Evidence()
        when.add_days(c.transactionDate)
        for ln in same:
            if ln["shares"] == c.shares:
                self.evidence[c.id] = ([c.shares], when)
                return True, (f"Form {head['document_type']} {c.accession} {ln['table_kind']} line {ln['line_number']}: "
                              f"{fmt(c.shares)} shares, code {code}, {c.transactionDate}")
        total = sum((ln["shares"] or Decimal(0) for ln in same), Decimal(0))
        if total == c.shares:
            self.evidence[c.id] = ([c.shares, *(ln["shares"] for ln in same if ln["shares"] is not None)], when)
            return True, (f"Form {head['document_type']} {c.accession}: {len(same)} lines coded {code} on "
                          f"{c.transactionDate} total {fmt(total)} shares")
        return False, (f"{fmt(c.shares)} shares matches neither a line of {c.accession} coded {code} on "
                       f"{c.transactionDate} ({', '.join(fmt(ln['shares']) for ln in same)}) nor their total "
                       f"{fmt(total)}")
