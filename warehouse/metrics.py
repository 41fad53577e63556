"""Derived metrics with lineage to exact fact versions, cross-company comparisons and data-quality checks.

The rules live in SQL: standard concepts are data (table ``standard_concepts``), each metric is one
file in ``warehouse/sql/metrics/`` (header: formula, inputs, grain, rule version), each check one
file in ``warehouse/sql/checks/``. This module only sequences them:

* :func:`refresh_metrics` rebuilds, for the given companies, the timeline of every standard value
  (which tag and fact version was the answer at each moment a filing became public), evaluates every
  metric at every moment one of its inputs changed, and appends the combinations not stored yet to
  ``derived_metrics`` / ``metric_lineage`` (idempotent: the metric_id is a hash of the inputs).
* :func:`compare` lines companies up for one fiscal year and warns when they do not line up.
* :func:`growth` is the generic growth between any two fiscal years of a standard concept.
* :func:`run_checks` stores the data-quality check results of a load in ``check_results``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

import duckdb

from warehouse.db import WarehouseError, fetch_all, fetch_value
from warehouse.sqlfiles import sql, sql_names

#: Period ends further apart than this (in days) make a comparison warn.
MISALIGNED_DAYS = 45


class MetricsError(WarehouseError):
    """Derived metrics could not be computed or queried as asked."""


class UnknownMetricError(MetricsError):
    """The name is neither a derived metric nor a standard concept."""


def metric_names() -> list[str]:
    """Metric rule files shipped in warehouse/sql/metrics/ (discrete_quarters derives quarters)."""
    return sql_names("metrics")


def check_names() -> list[str]:
    """Data-quality check files shipped in warehouse/sql/checks/."""
    return sql_names("checks")


def _rows(con: duckdb.DuckDBPyConnection, query: str, params: Sequence | dict | None = None) -> list[dict]:
    cur = con.execute(query, params or [])
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def _ciks_of_load(con: duckdb.DuckDBPyConnection, load_id: str) -> list[int]:
    return [r[0] for r in fetch_all(con, "SELECT DISTINCT cik FROM facts WHERE load_id = ? ORDER BY cik", [load_id])]


def refresh_metrics(con: duckdb.DuckDBPyConnection, load_id: str | None,
                    ciks: Iterable[int] | None = None) -> dict[str, int]:
    """Compute and append every metric version not stored yet for ``ciks``.

    ``ciks`` defaults to the companies whose facts ``load_id`` inserted. Runs inside the caller's
    transaction when there is one (call it inside load_batch's transaction so readers never see
    facts without their metrics). Returns counts: companies, standard_versions, candidates,
    derived_metrics (new rows), metric_lineage (new rows), versions_renumbered, seconds.
    """
    started = time.perf_counter()
    cik_list = sorted({int(c) for c in ciks}) if ciks is not None else (
        _ciks_of_load(con, load_id) if load_id else [])
    counts = {"companies": len(cik_list), "standard_versions": 0, "candidates": 0, "derived_metrics": 0,
              "metric_lineage": 0, "versions_renumbered": 0}
    if not cik_list:
        return counts
    try:
        con.execute(sql("standard/macros"))
        con.execute(sql("standard/candidates"), {"ciks": cik_list})
        con.execute(sql("standard/reported_timeline"))
        con.execute(sql("standard/derived_timeline"))
        con.execute(sql("standard/timeline"))
        con.execute(sql("standard/pair_macro"))
        counts["standard_versions"] = fetch_value(con, "SELECT count(*) FROM sfv")
        for name in metric_names():
            con.execute("INSERT INTO metric_candidates BY NAME " + sql(f"metrics/{name}"))
        counts["candidates"] = fetch_value(con, "SELECT count(*) FROM metric_candidates")
        con.execute(sql("standard/new_metrics"))
        counts["derived_metrics"] = fetch_value(con, sql("standard/store_metrics"), {"load_id": load_id}) or 0
        counts["metric_lineage"] = fetch_value(con, sql("standard/store_lineage"), {"load_id": load_id}) or 0
        counts["versions_renumbered"] = fetch_value(con, sql("standard/renumber_versions"), {"ciks": cik_list}) or 0
    except duckdb.Error as exc:
        # The transaction is aborted: no cleanup is possible; the caller rolls back.
        raise MetricsError(f"refresh_metrics failed for {len(cik_list)} companies: {exc}") from exc
    con.execute(sql("standard/cleanup"))
    counts["seconds"] = round(time.perf_counter() - started, 3)
    return counts


def run_checks(con: duckdb.DuckDBPyConnection, load_id: str, ciks: Iterable[int] | None = None) -> dict[str, int]:
    """Run every check in warehouse/sql/checks/ over ``ciks`` (default: the companies whose facts
    ``load_id`` inserted) and store (replace) its result for ``load_id``.

    Each check returns its offending rows with a ``severity`` column; the sample keeps the five
    most severe. Returns check name -> offending row count.
    """
    cik_list = sorted({int(c) for c in ciks}) if ciks is not None else _ciks_of_load(con, load_id)
    results: dict[str, int] = {}
    _stage_check_facts(con, cik_list)
    con.execute("DELETE FROM check_results WHERE load_id = ?", [load_id])
    for name in check_names():
        try:
            n = fetch_value(
                con,
                "INSERT INTO check_results (load_id, check_name, offending_rows, sample, checked_at) "
                "SELECT ?, ?, count(*), CAST(to_json(list(t ORDER BY t.severity DESC)[1:5]) AS JSON), "
                "CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP) "
                f"FROM ({sql(f'checks/{name}')}) t RETURNING offending_rows",
                [load_id, name])
        except duckdb.Error as exc:
            raise MetricsError(f"check {name} failed: {exc}") from exc
        results[name] = int(n or 0)
    return results


def _stage_check_facts(con: duckdb.DuckDBPyConnection, ciks: list[int] | None) -> None:
    """The checks read check_facts: standard_facts of the companies checked, computed once."""
    con.execute("CREATE OR REPLACE TEMP TABLE check_facts AS SELECT * FROM standard_facts"
                " WHERE $ciks IS NULL OR list_contains($ciks, cik)", {"ciks": ciks})


def run_check(con: duckdb.DuckDBPyConnection, name: str) -> list[dict]:
    """Offending rows of one check over every company (most severe first), without storing anything."""
    if name not in check_names():
        raise MetricsError(f"no check named {name!r}; known: {', '.join(check_names())}")
    _stage_check_facts(con, None)
    return _rows(con, f"SELECT * FROM ({sql(f'checks/{name}')}) t ORDER BY severity DESC")


def _is_metric(con: duckdb.DuckDBPyConnection, name: str) -> bool | None:
    """True for a derived metric, False for a standard concept, None for neither."""
    if name in {"free_cash_flow", "gross_margin", "operating_margin", "net_margin", "revenue_growth_yoy",
                "ttm_revenue"}:
        return True
    if fetch_value(con, "SELECT count(*) FROM standard_concepts WHERE standard_concept = ?", [name]):
        return False
    if fetch_value(con, "SELECT count(*) FROM derived_metrics WHERE metric = ?", [name]):
        return True
    return None


def compare(con: duckdb.DuckDBPyConnection, metric_or_concept: str, ciks: Iterable[int], fiscal_year: int,
            fiscal_period: str = "FY") -> list[dict[str, Any]]:
    """One row per company for ``fiscal_year``/``fiscal_period`` with the warnings that matter.

    A derived metric is read from derived_metrics_current, a standard concept from standard_facts
    (fiscal years: the annual value, or the instant at the year end; quarters: the discrete
    quarter). When a company has the value in several units, USD is preferred. Each row: cik,
    name, metric, fiscal_year, fiscal_period, period_start, period_end, value, unit, currency,
    matched_tag, accession(s), derivation, null_reason, warnings (list of str). Warnings: period
    ends more than 45 days apart, matched tags differ, currencies differ, value missing.
    """
    kind = _is_metric(con, metric_or_concept)
    if kind is None:
        raise UnknownMetricError(f"{metric_or_concept!r} is neither a derived metric nor a standard concept")
    cik_list = [int(c) for c in ciks]
    if not cik_list:
        raise MetricsError("compare needs at least one company")
    fp = fiscal_period.upper()
    params = {"name": metric_or_concept, "ciks": cik_list, "fy": int(fiscal_year), "fp": fp}
    query = sql("standard/compare_metric") if kind else sql("standard/compare_concept")
    found = {r["cik"]: r for r in _rows(con, query, params)}
    names = dict(fetch_all(con, "SELECT cik, name FROM companies WHERE list_contains(?, cik)", [cik_list]))
    rows: list[dict[str, Any]] = []
    for cik in cik_list:
        r = found.get(cik)
        if r is None:
            rows.append({"cik": cik, "name": names.get(cik), "metric": metric_or_concept, "fiscal_year": fiscal_year,
                         "fiscal_period": fp, "period_start": None, "period_end": None, "value": None,
                         "unit": None, "currency": None, "matched_tag": None, "accession": None,
                         "derivation": None, "null_reason": "no value for this fiscal period",
                         "warnings": [f"{cik}: no {metric_or_concept} for FY{fiscal_year} {fp}"]})
            continue
        rows.append({"cik": cik, "name": names.get(cik), "metric": metric_or_concept, **r, "warnings": []})
    _add_warnings(rows)
    return rows


def _add_warnings(rows: list[dict[str, Any]]) -> None:
    present = [r for r in rows if r["period_end"] is not None]
    ends: list[date] = [r["period_end"] for r in present]
    if len(ends) > 1 and (max(ends) - min(ends)).days > MISALIGNED_DAYS:
        spread = (max(ends) - min(ends)).days
        detail = ", ".join(f"{r['cik']} ends {r['period_end']}" for r in present)
        for r in present:
            r["warnings"].append(f"period ends differ by {spread} days (> {MISALIGNED_DAYS}): {detail}")
    tags = {r["matched_tag"] for r in present}
    if len(tags) > 1:
        detail = ", ".join(f"{r['cik']} {r['matched_tag']}" for r in present)
        for r in present:
            r["warnings"].append(f"matched tags differ: {detail}")
    currencies = {r["currency"] for r in present}
    if len(currencies) > 1:
        detail = ", ".join(f"{r['cik']} {r['currency']}" for r in present)
        for r in present:
            r["warnings"].append(f"currencies differ: {detail}")
    for r in present:
        if r["value"] is None:
            r["warnings"].append(f"{r['cik']}: value is NULL ({r.get('null_reason') or 'no reason given'})")


def growth(con: duckdb.DuckDBPyConnection, concept: str, cik: int, from_fiscal_year: int, to_fiscal_year: int,
           fiscal_period: str = "FY", as_of: datetime | None = None) -> dict[str, Any]:
    """Growth of a standard concept between two fiscal years (any distance), as a fraction.

    ``to / from - 1`` over standard_facts (or standard_facts_as_of(as_of)); both values must share
    unit and taxonomy, the earlier must be positive, else value is None with a null_reason.
    Returns value, from/to values, periods, accessions, matched tags, unit, null_reason, warnings.
    """
    if not fetch_value(con, "SELECT count(*) FROM standard_concepts WHERE standard_concept = ?", [concept]):
        raise UnknownMetricError(f"{concept!r} is not a standard concept")
    source = "standard_facts" if as_of is None else "standard_facts_as_of(CAST($as_of AS TIMESTAMP))"
    params: dict[str, Any] = {"concept": concept, "cik": int(cik), "fy_from": int(from_fiscal_year),
                              "fy_to": int(to_fiscal_year), "fp": fiscal_period.upper()}
    if as_of is not None:
        params["as_of"] = as_of
    rows = _rows(con, sql("standard/growth_between").replace("{source}", source), params)
    if not rows:
        return {"cik": cik, "concept": concept, "value": None, "from_fiscal_year": from_fiscal_year,
                "to_fiscal_year": to_fiscal_year, "null_reason": "no comparable values for both years",
                "warnings": []}
    row = rows[0]
    warnings = []
    if row["from_matched_tag"] != row["to_matched_tag"]:
        warnings.append(f"matched tags differ: {row['from_matched_tag']} -> {row['to_matched_tag']}")
    if row["from_duration_days"] is not None and row["to_duration_days"] is not None \
            and abs(row["from_duration_days"] - row["to_duration_days"]) > 3:
        warnings.append(f"period lengths differ: {row['from_duration_days']} vs {row['to_duration_days']} days")
    row["warnings"] = warnings
    return row
