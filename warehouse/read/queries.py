"""Read-side SQL for the CLI, notebooks and agents: ONE statement per call, under a time limit and a
row limit, answered as a ``Result`` (column names and rows as tuples, converted column by column where
DuckDB's own per-value conversion is slow: ``warehouse.read.pyrows``; ``warehouse.read.api`` gives Polars)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb

from warehouse.errors import WarehouseError
from warehouse.read.pyrows import fetch_rows
from warehouse.schema.sql_files import sql

DEFAULT_TIMEOUT = float(os.environ.get("EDGAR_WAREHOUSE_SQL_TIMEOUT") or 30.0)   # seconds per statement
DEFAULT_MAX_ROWS = int(os.environ.get("EDGAR_WAREHOUSE_SQL_MAX_ROWS") or 100_000)  # rows fetched per statement


class QueryError(WarehouseError):
    """A query the user or a tool sent failed (syntax, unknown column, read-only violation...)."""


class QueryRefused(QueryError):
    """The call did not hold exactly one SQL statement."""


class QueryTimeout(QueryError):
    """A statement ran past its time limit and was interrupted."""


@dataclass(frozen=True)
class Result:
    """Column names and rows of one statement; ``truncated`` when more rows than asked existed."""

    columns: list[str]
    rows: list[tuple]
    truncated: bool = False


@contextmanager
def time_limit(con: duckdb.DuckDBPyConnection, seconds: float | None) -> Iterator[threading.Event]:
    """Interrupt whatever ``con`` runs once ``seconds`` have passed (DuckDB has no statement timeout
    setting; ``interrupt()`` from a timer thread is its documented way to cancel). The event says
    whether the timer fired."""
    fired = threading.Event()
    if not seconds or seconds <= 0:
        yield fired
        return

    def stop() -> None:
        fired.set()
        con.interrupt()

    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    try:
        yield fired
    finally:
        timer.cancel()


def one_statement(con: duckdb.DuckDBPyConnection, query: str) -> duckdb.Statement:
    """DuckDB's own parser splits ``query``; anything but exactly one statement is refused (a tool
    that sends "select 1; select 2" must not silently get only the last answer)."""
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as exc:
        raise QueryError(f"{type(exc).__name__}: {exc}") from exc
    if len(statements) != 1:
        raise QueryRefused(f"one SQL statement per call, got {len(statements)}: send them one at a time")
    return statements[0]


def run_query(con: duckdb.DuckDBPyConnection, query: str, params: list | dict | None = None, *,
              timeout: float | None = DEFAULT_TIMEOUT, max_rows: int | None = None) -> Result:
    """Execute ONE statement and fetch its rows (none left open): stopped after ``timeout`` seconds,
    at most ``max_rows`` rows fetched (``truncated`` says there were more). Every failure is a
    QueryError (QueryTimeout for the time limit)."""
    one_statement(con, query)
    with time_limit(con, timeout) as fired:
        try:
            cur = con.execute(query, params or [])
            columns = [d[0] for d in cur.description] if cur.description else []
            if max_rows is None:
                return Result(columns, fetch_rows(cur))
            rows = fetch_rows(cur, max_rows + 1)
        except duckdb.Error as exc:
            if fired.is_set() or isinstance(exc, duckdb.InterruptException):
                raise QueryTimeout(f"stopped after the {timeout:g} s statement time limit "
                                   f"(narrow the query, or give it more time)") from exc
            raise QueryError(f"{type(exc).__name__}: {exc}") from exc
    return Result(columns, rows[:max_rows], truncated=len(rows) > max_rows)


def run_named(con: duckdb.DuckDBPyConnection, name: str, params: list | dict | None = None) -> Result:
    """Run a shipped query file, e.g. ``run_named(con, "read/status/totals")`` (our own SQL: no time
    limit; a reader never holds up a writer, so a slow status on a big warehouse harms nobody)."""
    return run_query(con, sql(name), params, timeout=None)


def company_ciks(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Every company the warehouse holds (the nightly refresh covers them all)."""
    return [r[0] for r in run_named(con, "read/status/company_ciks").rows]


def status_sections(con: duckdb.DuckDBPyConnection) -> list[tuple[str, Result]]:
    """The sections `edgar-warehouse status` prints, in order; optional ones appear once their
    tables exist (coverage comes with the filings migration)."""
    names = {r[0] for r in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE NOT internal"
        " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    totals = run_named(con, "read/status/totals")
    for needs, name in (("filings", "read/status/totals_filings"), ("insider_filings", "read/status/totals_insider"),
                        ("derived_metrics", "read/status/totals_metrics")):
        if needs in names:
            totals = Result(totals.columns, totals.rows + run_named(con, name).rows)
    sections = [("Totals", totals), ("Companies", run_named(con, "read/status/companies"))]
    views = names
    if "company_coverage" in views:
        sections.append(("Filings coverage", run_query(con, "SELECT * FROM company_coverage ORDER BY cik", timeout=None)))
    sections.append(("Recent load runs", run_named(con, "read/status/recent_runs")))
    rejected = run_named(con, "read/status/rejected")
    if rejected.rows:
        sections.append(("Rejected documents", rejected))
    return sections
