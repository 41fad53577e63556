"""Shared pieces of the agent tools: SEC URLs, receipts from rows, company and concept resolution with
errors as data (closest names by difflib, candidates without a guess, fiscal years available)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import duckdb

from warehouse.agent.models import Company, CompanyCandidate, Receipt, ToolError
from warehouse.read.resolve import Resolution, resolve
from warehouse.schema.vocabulary import UnknownMetricError, concept_names, resolve_name
from warehouse.store.db import fetch_all

FISCAL_PERIODS = ("FY", "Q1", "Q2", "Q3", "Q4")


class ToolFailure(Exception):
    """Raised inside a tool to return ``error`` as data; never crosses the tool boundary."""

    def __init__(self, error: ToolError):
        super().__init__(error.message)
        self.error = error


def sec_url(cik: int, accession: str) -> str:
    """The filing's folder in EDGAR's Archives (its index lists every document of the filing)."""
    return f"https://www.sec.gov/Archives/edgar/data/{int(cik)}/{accession.replace('-', '')}/"


def rows(con: duckdb.DuckDBPyConnection, query: str, params: Sequence | dict | None = None) -> list[dict[str, Any]]:
    cur = con.execute(query, params or [])
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def newest_first(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Facts or fact versions (read/api/facts.sql, read/api/fact_versions.sql rows, in the notebook's
    period order) as the tools list them: the latest period first (period end, then start,
    descending; an instant first), then tag, unit and version number."""
    found = sorted(found, key=lambda r: (r["taxonomy"], r["concept"], r["unit"], r.get("version_number", 0)))
    found.sort(key=lambda r: (r["period_start"] is None, r["period_start"] or r["period_end"]), reverse=True)
    found.sort(key=lambda r: r["period_end"], reverse=True)
    return found


def closest(name: str, choices: Sequence[str], n: int = 5) -> list[str]:
    """Closest names, case-insensitively (difflib), best first."""
    by_lower: dict[str, str] = {}
    for c in choices:
        by_lower.setdefault(c.lower(), c)
    found = difflib.get_close_matches(name.lower(), list(by_lower), n=n, cutoff=0.6)
    # a name that differs only by its taxonomy prefix or case is the best suggestion of all
    bare = name.split(":")[-1].lower()
    exact = [c for low, c in by_lower.items() if low.split(":")[-1] == bare]
    return list(dict.fromkeys([*exact, *(by_lower[f] for f in found)]))[:n]


def resolution_error(r: Resolution) -> ToolError:
    cands = [CompanyCandidate(cik=c.cik, name=c.name, tickers=list(c.tickers), score=round(c.score, 3),
                              reason=c.reason) for c in r.candidates]
    if r.status == "ambiguous":
        return ToolError(kind="ambiguous_company", message=r.message, candidates=cands,
                         suggestion="Call again with one candidate's CIK or ticker; the warehouse will not guess.")
    return ToolError(kind="unknown_company", message=r.message or f"no company matches {r.query!r}",
                     candidates=cands,
                     suggestion="Use a ticker (AAPL), a CIK (320193) or a fuller legal name; "
                                "resolve_company lists candidates.")


def company(con: duckdb.DuckDBPyConnection, query: str | int) -> Company:
    """One company for a ticker, CIK or name, else ToolFailure (ambiguous: candidates, no guess)."""
    r = resolve(con, str(query))
    if not r.resolved:
        raise ToolFailure(resolution_error(r))
    found = fetch_all(con, "SELECT name, tickers FROM companies WHERE cik = ?", [r.cik])
    name, tickers = found[0] if found else (r.name, [])
    return Company(cik=r.cik, name=name or r.name, tickers=list(tickers or []))


def company_concepts(con: duckdb.DuckDBPyConnection, cik: int) -> list[str]:
    return [r[0] for r in fetch_all(
        con, "SELECT DISTINCT taxonomy || ':' || concept FROM facts WHERE cik = ? ORDER BY 1", [cik])]


def concept_kind(con: duckdb.DuckDBPyConnection, concept: str, cik: int) -> tuple[str, str]:
    """('standard', name) for a standard concept or its alias (``warehouse.schema.vocabulary``), ('tag',
    'taxonomy:Concept') for a tag the company reported; else ToolFailure naming the closest names
    (a derived metric's name is pointed at get_derived_metric)."""
    if ":" in concept:
        taxonomy, _, name = concept.partition(":")
        if fetch_all(con, "SELECT 1 FROM facts WHERE cik = ? AND taxonomy = ? AND concept = ? LIMIT 1",
                     [cik, taxonomy, name]):
            return "tag", concept
        suggestions: list[str] = []
    else:
        try:
            found = resolve_name(con, concept)
        except UnknownMetricError as exc:
            suggestions = exc.suggestions
        else:
            if found.kind == "concept":
                return "standard", found.name
            raise ToolFailure(ToolError(
                kind="unknown_concept", message=f"{concept!r} is a derived metric, not a reported concept",
                closest=[found.name], suggestion=f"Ask get_derived_metric for {found.name}."))
    raise ToolFailure(ToolError(
        kind="unknown_concept",
        message=f"{concept!r} is neither a standard concept nor a taxonomy:Concept this company reported",
        closest=list(dict.fromkeys([*suggestions, *closest(concept, [*concept_names(con),
                                                                     *company_concepts(con, cik)])]))[:5],
        suggestion="Use a standard concept (revenue, net_income, ...) or taxonomy:Concept exactly as tagged "
                   "(us-gaap:Revenues); the closest names are listed."))


def fiscal_period(value: str | None) -> str | None:
    if value is None:
        return None
    fp = value.strip().upper()
    if fp not in FISCAL_PERIODS:
        raise ToolFailure(ToolError(kind="bad_argument", message=f"fiscal_period {value!r} is not one of "
                                    f"{', '.join(FISCAL_PERIODS)}", suggestion="Use FY for the year, Q1..Q4 for quarters."))
    return fp


def as_of_time(value: str | datetime | None) -> datetime | None:
    """An agent's as_of as the warehouse's naive UTC: a time with a zone is converted, one without is UTC."""
    if value is None:
        return None
    try:
        ts = value if isinstance(value, datetime) else datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ToolFailure(ToolError(kind="bad_argument", message=f"as_of {value!r} is not an ISO date or time",
                                    suggestion="Use 2024-06-30 or 2024-06-30T21:00:00 (UTC).")) from None
    return ts if ts.tzinfo is None else ts.astimezone(UTC).replace(tzinfo=None)


def years_available(con: duckdb.DuckDBPyConnection, query: str, params: list) -> list[int]:
    return [r[0] for r in fetch_all(con, query, params) if r[0] is not None]


def receipt(row: dict[str, Any], **extra: Any) -> Receipt:
    """A Receipt from a row of the agent SQL files (missing columns default to None)."""
    tag = row.get("matched_tag") or row.get("concept")
    fields = {
        "cik": row["cik"], "company_name": row.get("company_name"),
        "concept": f"{row.get('taxonomy')}:{tag}", "unit": row.get("unit"),
        "period_start": row.get("period_start"), "period_end": row.get("period_end"),
        "duration_class": row.get("duration_class"), "fiscal_year": row.get("fiscal_year"),
        "fiscal_period": row.get("fiscal_period"), "accession": row["accession"], "form": row.get("form"),
        "filed": row.get("filed"), "acceptance_time": row.get("acceptance_time"),
        "known_from": row.get("known_from"), "sec_url": sec_url(row["cik"], row["accession"]),
        "restated": bool(row.get("restated")), "versions": row.get("versions"),
        "prior_value": row.get("prior_value"), "prior_accession": row.get("prior_accession"),
        "first_value": row.get("first_value"), "first_accession": row.get("first_accession"),
        "derivation": row.get("derivation") or "reported",
        "computed": (row.get("derivation") or "reported") != "reported",
    }
    fields.update(extra)
    return Receipt(**fields)
