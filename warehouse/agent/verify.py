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

Every number in a claim's text and in the summary must be backed by some claim's value (the rule
of :mod:`warehouse.agent.numbers`: formats normalised, years, dates, form names, accessions and
claim ids are not numbers). A claim whose text has an unbacked number fails; unbacked numbers in
the summary are listed in ``orphan_numbers``. ``passed`` is true only when nothing failed.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal

import duckdb
from pydantic import BaseModel, Field, ValidationError

from warehouse.agent.arith import FormulaError, evaluate, references
from warehouse.agent.models import Exact, ToolError
from warehouse.agent.numbers import backed_by, mentions
from warehouse.agent.receipts import (
    FISCAL_PERIODS,
    closest,
    company_concepts,
    resolution_error,
    rows,
)
from warehouse.registry_resolve import resolve
from warehouse.sqlfiles import sql
from warehouse.vocabulary import concept_names, metric_names

_PERIOD_DURATIONS = {"FY": ("annual", "instant")} | {q: ("quarter", "instant") for q in FISCAL_PERIODS[1:]}


class ReportedClaim(BaseModel):
    id: str
    text: str = ""
    kind: Literal["reported"]
    field: str
    fiscalYear: int
    fiscalPeriod: str
    value: Exact
    accession: str


class DerivedClaim(BaseModel):
    id: str
    text: str = ""
    kind: Literal["derived"]
    formula: str
    value: Exact


class InsiderClaim(BaseModel):
    id: str
    text: str = ""
    kind: Literal["insider"]
    accession: str
    transactionDate: date
    transactionCode: str
    shares: Exact


Claim = Annotated[ReportedClaim | DerivedClaim | InsiderClaim, Field(discriminator="kind")]


class Brief(BaseModel):
    """An agent's brief: the company, a prose summary, and the claims that back its numbers."""

    ticker: str
    summary: str = ""
    claims: list[Claim]


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
    return f"{value.normalize():,f}"


def parse_brief(data: str | bytes | dict | Brief) -> Brief:
    """A Brief from JSON text (numbers kept as written, as Decimals), a dict or a Brief; ValueError if invalid."""
    if isinstance(data, Brief):
        return data
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data, parse_float=Decimal)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not JSON: {exc}") from None
    try:
        return Brief.model_validate(data)
    except ValidationError as exc:
        raise ValueError("not a brief: " + "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])) from None


def verify_brief(con: duckdb.DuckDBPyConnection, data: str | bytes | dict | Brief) -> VerifyReport:
    """Check every claim of a brief and the numbers of its prose; see the module docstring for the rules."""
    try:
        brief = parse_brief(data)
    except ValueError as exc:
        return VerifyReport(ticker=data.get("ticker") if isinstance(data, dict) else None, passed=False,
                            error=ToolError(kind="bad_argument", message=str(exc),
                                            suggestion='Send {"ticker", "summary", "claims": [...]} with kinds '
                                                       "reported, derived or insider."))
    r = resolve(con, brief.ticker)
    if not r.resolved:
        return VerifyReport(ticker=brief.ticker, passed=False, error=resolution_error(r),
                            claims=[ClaimResult(id=c.id, kind=c.kind, status="FAIL",
                                                reason=f"company {brief.ticker!r} not resolved: {r.message}")
                                    for c in brief.claims])
    checker = _Checker(con, r.cik, brief)
    results = [checker.result(c.id) for c in brief.claims]
    ids = [c.id for c in brief.claims]
    values = [v for c in brief.claims if (v := checker.value(c)) is not None]
    final = []
    for c, res in zip(brief.claims, results, strict=True):
        if c.id in checker.duplicated:
            res = ClaimResult(id=c.id, kind=c.kind, status="FAIL", reason=f"claim id {c.id!r} is used by more than one claim")
        orphans = [m.text for m in mentions(c.text, ids) if not any(backed_by(m, v) for v in values)]
        if orphans and res.status == "PASS":
            res = ClaimResult(id=c.id, kind=c.kind, status="FAIL",
                              reason=f"its text mentions {', '.join(orphans)}, which no claim backs")
        final.append(res)
    orphan_numbers = [OrphanNumber(text=m.text, value=m.value, percent=m.percent)
                      for m in mentions(brief.summary, ids) if not any(backed_by(m, v) for v in values)]
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
        self.active: set[str] = set()

    @staticmethod
    def value(claim: Any) -> Decimal | None:
        return claim.shares if claim.kind == "insider" else claim.value

    def result(self, claim_id: str) -> ClaimResult:
        if claim_id in self.done:
            return self.done[claim_id]
        claim = self.claims[claim_id]
        if claim_id in self.duplicated:  # which of them would a formula mean? refuse to pick one
            self.done[claim_id] = ClaimResult(id=claim_id, kind=claim.kind, status="FAIL",
                                              reason=f"claim id {claim_id!r} is used by more than one claim")
            return self.done[claim_id]
        self.active.add(claim_id)
        try:
            ok, reason = {"reported": self._reported, "derived": self._derived,
                          "insider": self._insider}[claim.kind](claim)
        except duckdb.Error as exc:
            ok, reason = False, f"the warehouse could not check it: {exc}"
        finally:
            self.active.discard(claim_id)
        res = ClaimResult(id=claim_id, kind=claim.kind, status="PASS" if ok else "FAIL", reason=reason)
        self.done[claim_id] = res
        return res

    # -- reported ---------------------------------------------------------------------------------
    def _reported(self, c: ReportedClaim) -> tuple[bool, str]:
        fp = c.fiscalPeriod.strip().upper()
        if fp not in _PERIOD_DURATIONS:
            return False, f"fiscalPeriod {c.fiscalPeriod!r} is not one of {', '.join(FISCAL_PERIODS)}"
        period = f"FY{c.fiscalYear} {fp}" if fp != "FY" else f"FY{c.fiscalYear}"
        if c.field in metric_names():
            return False, (f"{c.field} is a derived metric the warehouse computes, not a value any filing "
                           f"reports: a derived value cited as reported; write it as a derived claim with its formula")
        standard = c.field in concept_names(self.con)
        if standard:
            tags = [r["tag"] for r in rows(self.con, sql("agent/reported_tags"),
                                           {"cik": self.cik, "concept": c.field, "fy": c.fiscalYear, "fp": fp})]
        elif ":" in c.field and c.field in company_concepts(self.con, self.cik):
            tags = [c.field]
        else:
            near = closest(c.field, [*concept_names(self.con), *company_concepts(self.con, self.cik)])
            return False, f"unknown field {c.field!r}" + (f"; closest: {', '.join(near)}" if near else "")
        versions = [v for v in rows(self.con, sql("agent/fact_versions"),
                                    {"cik": self.cik, "tags": tags, "fy": c.fiscalYear, "fp": fp, "as_of": None})
                    if v["duration_class"] in _PERIOD_DURATIONS[fp]]
        cited = [v for v in versions if v["accession"] == c.accession]
        if any(v["value"] == c.value for v in cited):
            v = next(v for v in cited if v["value"] == c.value)
            later = [w for w in versions if w["concept"] == v["concept"] and w["unit"] == v["unit"]
                     and w["period_end"] == v["period_end"] and w["is_latest"] and w["value"] != c.value]
            note = f" (later restated to {fmt(later[0]['value'])} by {later[0]['accession']})" if later else ""
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
            computed = [r for r in rows(self.con, sql("agent/computed_values"),
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
        quantum = Decimal(1).scaleb(c.value.as_tuple().exponent)  # type: ignore[arg-type]
        candidates = [exact]
        text = c.text.lower()
        if "%" in text or "percent" in text:
            candidates.append(exact * 100)
        for cand in candidates:
            rounded = (cand / quantum).quantize(Decimal(1), rounding=ROUND_HALF_UP) * quantum
            if rounded == c.value:
                return True, f"{c.formula} = {fmt(cand.quantize(Decimal('1e-6')))}, which rounds to {c.value}"
        shown = min(candidates, key=lambda cand: abs(cand - c.value))  # the reading nearest the claim
        rounded = (shown / quantum).quantize(Decimal(1), rounding=ROUND_HALF_UP) * quantum
        return False, (f"{c.formula} = {fmt(shown.quantize(Decimal('1e-6')))}, which rounds to {rounded} "
                       f"at the claim's precision, not {c.value}")

    # -- insider ----------------------------------------------------------------------------------
    def _insider(self, c: InsiderClaim) -> tuple[bool, str]:
        lines = rows(self.con, sql("agent/insider_lines"), {"accession": c.accession})
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
        for ln in same:
            if ln["shares"] == c.shares:
                return True, (f"Form {head['document_type']} {c.accession} {ln['table_kind']} line {ln['line_number']}: "
                              f"{fmt(c.shares)} shares, code {code}, {c.transactionDate}")
        total = sum((ln["shares"] or Decimal(0) for ln in same), Decimal(0))
        if total == c.shares:
            return True, (f"Form {head['document_type']} {c.accession}: {len(same)} lines coded {code} on "
                          f"{c.transactionDate} total {fmt(total)} shares")
        return False, (f"{fmt(c.shares)} shares matches neither a line of {c.accession} coded {code} on "
                       f"{c.transactionDate} ({', '.join(fmt(ln['shares']) for ln in same)}) nor their total "
                       f"{fmt(total)}")
