"""Read-side helpers used by the CLI and notebooks: run SQL, return column names and rows or Polars."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from warehouse.db import WarehouseError
from warehouse.sqlfiles import sql


class QueryError(WarehouseError):
    """A query the user or a tool sent failed (syntax, unknown column, read-only violation...)."""


@dataclass(frozen=True)
class Result:
    columns: list[str]
    rows: list[tuple]


def run_query(con: duckdb.DuckDBPyConnection, query: str, params: list | dict | None = None) -> Result:
    """Execute ``query`` and fetch everything (no result left open); SQL errors become QueryError."""
    try:
        cur = con.execute(query, params or [])
    except duckdb.Error as exc:
        raise QueryError(f"{type(exc).__name__}: {exc}") from exc
    columns = [d[0] for d in cur.description] if cur.description else []
    return Result(columns, cur.fetchall())


def run_named(con: duckdb.DuckDBPyConnection, name: str, params: list | dict | None = None) -> Result:
    """Run a shipped query file, e.g. ``run_named(con, "status/totals")``."""
    return run_query(con, sql(name), params)


def company_ciks(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Every company the warehouse holds (the nightly refresh covers them all)."""
    return [r[0] for r in run_named(con, "status/company_ciks").rows]


def status_sections(con: duckdb.DuckDBPyConnection) -> list[tuple[str, Result]]:
    """The sections `edgar-warehouse status` prints, in order; optional ones appear once their
    tables exist (coverage comes with the filings migration)."""
    names = {r[0] for r in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE NOT internal"
        " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    totals = run_named(con, "status/totals")
    for needs, name in (("filings", "status/totals_filings"), ("insider_filings", "status/totals_insider"),
                        ("derived_metrics", "status/totals_metrics")):
        if needs in names:
            totals = Result(totals.columns, totals.rows + run_named(con, name).rows)
    sections = [("Totals", totals), ("Companies", run_named(con, "status/companies"))]
    views = names
    if "company_coverage" in views:
        sections.append(("Filings coverage", run_query(con, "SELECT * FROM company_coverage ORDER BY cik")))
    sections.append(("Recent load runs", run_named(con, "status/recent_runs")))
    rejected = run_named(con, "status/rejected")
    if rejected.rows:
        sections.append(("Rejected documents", rejected))
    return sections
