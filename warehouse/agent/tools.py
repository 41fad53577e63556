"""The agent tools as plain typed functions over a read-only, sandboxed connection.

Each takes the connection first and returns a pydantic model; every number carries its
:class:`~warehouse.agent.models.Receipt`. Nothing raises across the boundary: a wrong name, an
ambiguous company or a missing year comes back in ``error`` with a suggestion the caller can act on.
The MCP server (:mod:`warehouse.agent.server`) exposes exactly these functions.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import duckdb

from warehouse.agent.models import (
    BreakdownMember,
    BreakdownPeriod,
    BreakdownResult,
    Company,
    CompareResult,
    CompareRow,
    DerivedMetric,
    DerivedMetricResult,
    FactHistoryResult,
    FactsResult,
    FactValue,
    FactVersion,
    Filing,
    FilingsResult,
    InsiderResult,
    InsiderTransaction,
    LineageEdge,
    ResolveResult,
    SegmentResult,
    SegmentValue,
    StatementLine,
    StatementResult,
    StatementValue,
    ToolError,
)
from warehouse.agent.receipts import (
    ToolFailure,
    as_of_time,
    closest,
    company,
    concept_kind,
    fiscal_period,
    newest_first,
    receipt,
    resolution_error,
    rows,
    sec_url,
    years_available,
)
from warehouse.read.queries import lineage_params
from warehouse.read.resolve import resolve
from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import UnknownMetricError, metric_names, resolve_name

#: Most rows a list-returning tool gives back (``truncated`` says when there were more).
MAX_ROWS = 200


def _failed(exc: Exception) -> ToolError:
    if isinstance(exc, ToolFailure):
        return exc.error
    return ToolError(kind="query_failed", message=f"{type(exc).__name__}: {exc}",
                     suggestion="The warehouse could not answer this; check the arguments or try describe_schema.")


def resolve_company(con: duckdb.DuckDBPyConnection, query: str) -> ResolveResult:
    """Ticker, CIK or name -> one company, or the candidates and no guess."""
    r = resolve(con, query)
    if r.resolved:
        found = con.execute("SELECT name, tickers FROM companies WHERE cik = ?", [r.cik]).fetchall()
        name, tickers = found[0] if found else (r.name, [])
        return ResolveResult(query=query, status="resolved", matched_by=r.matched_by, message=r.message,
                             company=Company(cik=r.cik, name=name or r.name, tickers=list(tickers or [])))
    return ResolveResult(query=query, status=r.status, matched_by=r.matched_by, message=r.message,  # type: ignore[arg-type]
                         error=resolution_error(r))


def get_facts(con: duckdb.DuckDBPyConnection, company_query: str, concept: str, fiscal_year: int | None = None,
              fiscal_period: str | None = None, as_of: str | datetime | None = None) -> FactsResult:
    """Values of a standard concept (``revenue``) or a tag (``us-gaap:Revenues``), latest or as of a time."""
    try:
        co = company(con, company_query)
        kind, name = concept_kind(con, concept, co.cik)
        fp, ts = _fp(fiscal_period), as_of_time(as_of)
        if kind == "standard":
            found = _standard_facts(con, co.cik, name, fiscal_year, fp, ts, MAX_ROWS + 1)
            facts = [FactValue(value=r["value"], receipt=receipt(
                r, standard_concept=name, matched_tag=f"{r['taxonomy']}:{r['matched_tag']}",
                tags_tried=list(r["tags_tried"] or []))) for r in found]
        else:
            found = newest_first(rows(con, sql("read/api/facts"), {  # the notebook's facts()
                "cik": co.cik, "tags": [name], "fiscal_year": fiscal_year, "fiscal_period": fp, "as_of": ts}))
            facts = [FactValue(value=r["value"], receipt=receipt(r)) for r in found]
        if not facts:
            raise ToolFailure(_no_data(con, co.cik, kind, name, fiscal_year, fp, ts))
        return FactsResult(company=co, concept=name, as_of=ts, facts=facts[:MAX_ROWS],
                           truncated=len(facts) > MAX_ROWS)
    except (ToolFailure, duckdb.Error) as exc:
        return FactsResult(concept=concept, error=_failed(exc))


def _standard_facts(con: duckdb.DuckDBPyConnection, cik: int, concept: str, fy: int | None, fp: str | None,
                    ts: datetime | None, limit: int) -> list[dict[str, Any]]:
    """A standard concept's values with receipts, the notebook's standard_facts() rows: now from the
    current rows (read/api/standard_facts_now.sql), at an earlier instant by ranking the versions
    public then (read/api/standard_facts.sql); newest period first, at most ``limit``."""
    params: dict[str, Any] = {"cik": cik, "concept": concept, "fiscal_year": fy, "fiscal_period": fp,
                              "chain_concepts": _chain_concepts(con, concept)}
    found = rows(con, sql("read/api/standard_facts_now"), params) if ts is None \
        else rows(con, sql("read/api/standard_facts"), {**params, "as_of": ts})
    found.sort(key=lambda r: (r["duration_class"], r["unit"]))
    found.sort(key=lambda r: r["period_end"], reverse=True)  # stable: by period end, then class and unit
    return found[:limit]


def _chain_concepts(con: duckdb.DuckDBPyConnection, standard_concept: str) -> list[str]:
    """The concepts a standard concept's chain reads (the standard-facts files filter on them)."""
    return rows(con, sql("read/api/chain_concepts"), {"concept": standard_concept})[0]["concepts"]


def _fp(value: str | None) -> str | None:
    return fiscal_period(value)


def _no_data(con: duckdb.DuckDBPyConnection, cik: int, kind: str, name: str, fy: int | None, fp: str | None,
             ts: datetime | None) -> ToolError:
    if kind == "standard":
        years = years_available(con, "SELECT DISTINCT fiscal_year FROM company_standard_facts_as_of_only([$1], TIMESTAMP "
                                     "'9999-12-31', [$2], NULL::VARCHAR[]) ORDER BY 1", [cik, name])
    else:
        taxonomy, _, concept = name.partition(":")
        years = years_available(con, "SELECT DISTINCT fiscal_year FROM facts WHERE cik = ? AND taxonomy = ? "
                                     "AND concept = ? ORDER BY 1", [cik, taxonomy, concept])
    when = f" as of {ts.isoformat()}" if ts else ""
    return ToolError(kind="no_data", fiscal_years_available=years,
                     message=f"no {name} for fiscal year {fy if fy is not None else 'any'} "
                             f"{fp or 'any period'}{when}",
                     suggestion="Pick one of fiscal_years_available" + (" or a later as_of" if ts else "") + ".")


def get_fact_history(con: duckdb.DuckDBPyConnection, company_query: str, concept: str, fiscal_year: int,
                     fiscal_period: str) -> FactHistoryResult:
    """Every published version of the fact(s) for one fiscal period, in publication order."""
    try:
        co = company(con, company_query)
        kind, name = concept_kind(con, concept, co.cik)
        fp = _fp(fiscal_period)
        keys: set[tuple] | None = None
        tags = [name]
        if kind == "standard":
            current = _standard_facts(con, co.cik, name, fiscal_year, fp, None, MAX_ROWS)
            reported = [r for r in current if r["derivation"] == "reported"]
            if current and not reported:
                raise ToolFailure(ToolError(
                    kind="no_data", message=f"{name} FY{fiscal_year} {fp} is computed by the warehouse "
                    f"({current[0]['derivation']}: year-to-date subtraction), no filing reported it",
                    suggestion="Ask get_facts for its receipt, or get_fact_history for the year-to-date periods."))
            tags = sorted({f"{r['taxonomy']}:{r['matched_tag']}" for r in reported})
            keys = {(f"{r['taxonomy']}:{r['matched_tag']}", r["unit"], r["period_start"], r["period_end"])
                    for r in reported}
        found = newest_first(rows(con, sql("read/api/fact_versions"), {
            "cik": co.cik, "tags": tags, "fiscal_year": fiscal_year, "fiscal_period": fp, "as_of": None}))
        if keys is not None:
            found = [r for r in found if (f"{r['taxonomy']}:{r['concept']}", r["unit"], r["period_start"],
                                          r["period_end"]) in keys]
        if not found:
            raise ToolFailure(_no_data(con, co.cik, kind, name, fiscal_year, fp, None))
        versions = []
        before: dict[tuple, Any] = {}  # fact key -> the value of the version just before (0 = a confirmation)
        for r in sorted(found, key=lambda r: (r["unit"], str(r["period_start"]), r["period_end"], r["version_number"])):
            key = (r["taxonomy"], r["concept"], r["unit"], r["period_start"], r["period_end"])
            previous = before.get(key)
            before[key] = r["value"]
            versions.append(FactVersion(
                version=r["version_number"], value=r["value"],
                change_from_previous=None if previous is None or r["value"] is None else r["value"] - previous,
                receipt=receipt(r, standard_concept=name if kind == "standard" else None,
                                matched_tag=f"{r['taxonomy']}:{r['concept']}" if kind == "standard" else None)))
        return FactHistoryResult(company=co, concept=name, fiscal_year=fiscal_year, fiscal_period=fp or "",
                                 versions=versions)
    except (ToolFailure, duckdb.Error) as exc:
        return FactHistoryResult(concept=concept, fiscal_year=fiscal_year, fiscal_period=str(fiscal_period),
                                 error=_failed(exc))


def get_derived_metric(con: duckdb.DuckDBPyConnection, company_query: str, metric: str, fiscal_year: int,
                       fiscal_period: str = "FY", as_of: str | datetime | None = None) -> DerivedMetricResult:
    """A derived metric's value, formula, rule version and lineage to the exact fact versions."""
    try:
        co = company(con, company_query)
        try:
            found_name = resolve_name(con, metric)
        except UnknownMetricError as exc:
            raise ToolFailure(ToolError(kind="unknown_metric", message=str(exc), closest=exc.suggestions,
                                        suggestion=f"Derived metrics: {', '.join(metric_names())}.")) from None
        if found_name.kind != "metric":
            raise ToolFailure(ToolError(
                kind="unknown_metric", closest=metric_names(),
                message=f"{metric!r} is the standard concept {found_name.name}, not a derived metric",
                suggestion=f"Ask get_facts for {found_name.name}, or pick a derived metric (closest listed)."))
        metric = found_name.name
        fp, ts = _fp(fiscal_period), as_of_time(as_of)
        params: dict[str, Any] = {"cik": co.cik, "metric": metric, "fiscal_year": fiscal_year, "fiscal_period": fp,
                                  "as_of": ts}
        # the notebook's metrics(); newest period first (a stable sort: each period's USD version first)
        found = sorted(rows(con, sql("read/api/metrics"), params), key=lambda r: r["period_end"], reverse=True)
        if not found:
            years = years_available(con, "SELECT DISTINCT fiscal_year FROM derived_metrics WHERE cik = ? AND "
                                         "metric = ? AND fiscal_period = ? ORDER BY 1", [co.cik, metric, fp])
            raise ToolFailure(ToolError(kind="no_data", fiscal_years_available=years,
                                        message=f"no {metric} for FY{fiscal_year} {fp}"
                                                + (f" as of {ts.isoformat()}" if ts else ""),
                                        suggestion="Pick one of fiscal_years_available."))
        ids = [r["metric_id"] for r in found]
        edges = rows(con, sql("read/api/lineage"), lineage_params(con, co.cik, ids))  # the notebook's lineage()
        metrics = []
        for r in found:
            lineage = [LineageEdge(role=e["role"], step=e["step"], standard_concept=e["standard_concept"],
                                   value=e["value"], input_metric_id=e["input_metric_id"], revision=e["revision"],
                                   receipt=receipt(e, derivation="reported", computed=False))
                       for e in edges if e["metric_id"] == r["metric_id"]]
            metrics.append(DerivedMetric(
                metric_id=r["metric_id"], metric=r["metric"], value=r["value"], unit=r["unit"], formula=r["formula"],
                rule_version=r["rule_version"], version=r["version"], null_reason=r["null_reason"],
                flags=list(r["flags"] or []), fiscal_year=r["fiscal_year"], fiscal_period=r["fiscal_period"],
                period_start=r["period_start"], period_end=r["period_end"], known_from=r["known_from"],
                lineage=lineage))
        return DerivedMetricResult(company=co, metric=metric, as_of=ts, metrics=metrics)
    except (ToolFailure, duckdb.Error) as exc:
        return DerivedMetricResult(metric=metric, error=_failed(exc))


def compare_companies(con: duckdb.DuckDBPyConnection, concept_or_metric: str, companies: list[str],
                      fiscal_year: int) -> CompareResult:
    """One row per company for a standard concept or derived metric in a fiscal year, with warnings."""
    from warehouse.read.compare import compare

    try:
        cos = [company(con, c) for c in companies]
        if not cos:
            raise ToolFailure(ToolError(kind="bad_argument", message="no companies given",
                                        suggestion="Name at least one company (ticker, CIK or name)."))
        try:
            found = compare(con, concept_or_metric, [c.cik for c in cos], fiscal_year)
        except UnknownMetricError as exc:
            raise ToolFailure(ToolError(
                kind="unknown_metric", message=str(exc), closest=exc.suggestions,
                suggestion="Use a derived metric (free_cash_flow, net_margin, ...) or a standard concept "
                           "(revenue, ...).")) from None
        names = {c.cik: c.name for c in cos}
        out = []
        for r in found:
            accession = r.get("accession")
            single = accession if accession and "," not in accession else None
            derivation = r.get("derivation")
            out.append(CompareRow(
                cik=r["cik"], company_name=r.get("name") or names.get(r["cik"]), value=r.get("value"),
                unit=r.get("unit"), fiscal_year=r.get("fiscal_year") or fiscal_year,
                fiscal_period=r.get("fiscal_period") or "FY", period_start=r.get("period_start"),
                period_end=r.get("period_end"), matched_tag=r.get("matched_tag"), accession=accession,
                sec_url=sec_url(r["cik"], single) if single else None, derivation=derivation,
                computed=bool(r.get("metric_id")) or (derivation not in (None, "reported")),
                null_reason=r.get("null_reason"), warnings=list(r.get("warnings") or [])))
        warnings = sorted({w for row in out for w in row.warnings})
        return CompareResult(concept_or_metric=concept_or_metric, fiscal_year=fiscal_year, rows=out,
                             warnings=warnings)
    except (ToolFailure, duckdb.Error) as exc:
        return CompareResult(concept_or_metric=concept_or_metric, fiscal_year=fiscal_year, error=_failed(exc))


def _since(value: str | date | None) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        raise ToolFailure(ToolError(kind="bad_argument", message=f"since {value!r} is not an ISO date",
                                    suggestion="Use YYYY-MM-DD, e.g. 2024-01-01.")) from None


def list_filings(con: duckdb.DuckDBPyConnection, company_query: str, form: str | None = None,
                 since: str | date | None = None) -> FilingsResult:
    """The company's filings, newest first (form matches in any case, exactly or by base form: 10-K finds 10-K/A)."""
    try:
        co = company(con, company_query)
        found = rows(con, sql("read/api/filings"), {"cik": co.cik, "form": form, "since": _since(since),
                                                    "limit": MAX_ROWS + 1})  # the notebook's filings()
        if not found:
            forms = [r[0] for r in con.execute("SELECT DISTINCT form FROM filings WHERE cik = ? ORDER BY 1",
                                               [co.cik]).fetchall()]
            raise ToolFailure(ToolError(
                kind="no_data", closest=closest(form, forms) if form else [],
                message=f"no filings of {co.name}" + (f" of form {form}" if form else "")
                        + (f" since {since}" if since else "") + (" (its submissions are not loaded)" if not forms else ""),
                suggestion="Try another form (closest listed) or an earlier since." if forms
                           else "Load the company's submissions (edgar-warehouse refresh)."))
        filings = [Filing(**r, sec_url=sec_url(co.cik, r["accession"])) for r in found[:MAX_ROWS]]
        return FilingsResult(company=co, filings=filings, truncated=len(found) > MAX_ROWS)
    except (ToolFailure, duckdb.Error) as exc:
        return FilingsResult(error=_failed(exc))


def get_statement(con: duckdb.DuckDBPyConnection, accession: str, statement: str) -> StatementResult:
    """A filing's statement as presented: lines in printed order, labels, depth, each value with its receipt."""
    from warehouse.read.presented import STATEMENTS, StatementNotFound
    from warehouse.read.presented import statement as read_statement

    try:
        doc = read_statement(con, accession, statement)
    except StatementNotFound as exc:
        kind = "bad_argument" if statement not in STATEMENTS else "no_data"
        return StatementResult(accession=accession, statement=statement, error=ToolError(
            kind=kind, message=str(exc), closest=closest(statement, list(STATEMENTS)) if kind == "bad_argument" else [],
            suggestion="Ask for one of: " + ", ".join(STATEMENTS) if kind == "bad_argument"
            else "Load the filing's inline-XBRL document, or ask for a statement it prints."))
    except duckdb.Error as exc:
        return StatementResult(accession=accession, statement=statement, error=_failed(exc))
    lines = [StatementLine(label=line["label"], concept=line["concept"], depth=line["depth"],
                           values=[StatementValue(**v) for v in line["values"]]) for line in doc["lines"]]
    return StatementResult(accession=accession, statement=statement, title=doc["title"], form=doc["form"],
                           cik=doc["cik"], document_sha256=doc["document"]["sha256"],
                           sec_url=sec_url(doc["cik"], accession) if doc["cik"] else None, lines=lines)


def get_breakdown(con: duckdb.DuckDBPyConnection, accession: str, breakdown: str,
                  concept: str | None = None) -> BreakdownResult:
    """A filing's standard breakdown (business_segment, product_or_service, geography) of revenue (or
    ``concept``): members with labels and receipts, their sum against the consolidated total, gaps named."""
    from warehouse.read.breakdowns import BREAKDOWNS, BreakdownNotFound
    from warehouse.read.breakdowns import breakdown as read_breakdown

    try:
        doc = read_breakdown(con, accession, breakdown, concept)
    except BreakdownNotFound as exc:
        known = breakdown in BREAKDOWNS
        return BreakdownResult(accession=accession, breakdown=breakdown, error=ToolError(
            kind="no_data" if known else "bad_argument", message=str(exc),
            closest=[] if known else closest(breakdown, list(BREAKDOWNS)),
            suggestion="Try another breakdown or concept, or load the filing's document." if known
            else "Ask for one of: " + ", ".join(BREAKDOWNS)))
    except duckdb.Error as exc:
        return BreakdownResult(accession=accession, breakdown=breakdown, error=_failed(exc))
    periods = [BreakdownPeriod(**{**p, "members": [BreakdownMember(**m) for m in p["members"]]})
               for p in doc["periods"]]
    return BreakdownResult(accession=accession, breakdown=breakdown, axis=doc["axis"], concept=doc["concept"],
                           periods=periods)


def get_segment(con: duckdb.DuckDBPyConnection, company_query: str, segment: str,
                concept: str = "revenue") -> SegmentResult:
    """One segment of a company (a member's QName or name: Data Center, iPhone, Americas) over time: every
    period's value of ``concept`` as the latest filing says, with fiscal year and receipts."""
    from warehouse.read.segments import SegmentNotFound, segment_values

    try:
        co = company(con, company_query)
        try:
            found = segment_values(con, co.cik, segment, concept)
        except SegmentNotFound as exc:
            raise ToolFailure(ToolError(kind="no_data", message=str(exc),
                                        suggestion="Ask get_breakdown for a filing's members and their names.")) from None
        except UnknownMetricError as exc:
            raise ToolFailure(ToolError(kind="unknown_metric", message=str(exc), closest=exc.suggestions,
                                        suggestion="Use a standard concept (revenue, ...) or a prefixed XBRL concept.")) from None
        first = found[0]
        return SegmentResult(segment=segment, company=co, axis=first["axis"], member=first["member"],
                             member_label=first["member_label"],
                             values=[SegmentValue(**{k: r[k] for k in SegmentValue.model_fields if k in r},
                                                  sec_url=sec_url(co.cik, r["accession"])) for r in found])
    except (ToolFailure, duckdb.Error) as exc:
        return SegmentResult(segment=segment, error=_failed(exc))


def get_insider_transactions(con: duckdb.DuckDBPyConnection, company_query: str, since: str | date | None = None,
                             codes: list[str] | None = None) -> InsiderResult:
    """Form 3/4/5 transaction lines of the company as issuer (amendment-aware), newest first."""
    try:
        co = company(con, company_query)
        code_list = [c.strip().upper() for c in codes] if codes else None
        found = rows(con, sql("read/api/insider_transactions"), {  # the notebook's insider_transactions()
            "cik": co.cik, "since": _since(since), "codes": code_list, "limit": MAX_ROWS + 1})
        if not found:
            raise ToolFailure(ToolError(kind="no_data", message=f"no insider transactions of {co.name} as issuer"
                                        + (f" since {since}" if since else "") + (f" with codes {code_list}" if code_list else ""),
                                        suggestion="Widen since/codes (P purchase, S sale, A grant, M exercise, "
                                                   "F tax withholding, G gift), or load its Forms 3/4/5."))
        out = [InsiderTransaction(**r, sec_url=sec_url(co.cik, r["accession"])) for r in found[:MAX_ROWS]]
        return InsiderResult(company=co, transactions=out, truncated=len(found) > MAX_ROWS)
    except (ToolFailure, duckdb.Error) as exc:
        return InsiderResult(error=_failed(exc))
