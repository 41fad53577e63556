"""Data-quality checks: each file in warehouse/sql/derive/checks/ returns its offending rows (with a
``severity``) from ``check_facts``, the current standard values of the companies checked."""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from warehouse.derive.metrics import chain_concepts, ciks_of_load, stage_current_values, standard_values_plan
from warehouse.derive.steps import StepError, folder_steps, run_steps
from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import MetricsError, check_names
from warehouse.store.db import fetch_value


def _stage_for(con: duckdb.DuckDBPyConnection, ciks: list[int]) -> None:
    """check_facts for ``ciks`` only, when no metrics refresh staged it: the refresh's own
    standard-value steps, filtered on the companies from their first read of fact_versions (never
    all companies filtered afterwards); the current intervals are the current standard values."""
    plan = standard_values_plan()
    run_steps(con, plan, {"ciks": ciks, "chain_concepts": chain_concepts(con)}, keep=["sfv"])
    stage_current_values(con)
    con.execute("DROP TABLE sfv")


def run_checks(con: duckdb.DuckDBPyConnection, load_id: str, ciks: Iterable[int] | None = None, *,
               staged: bool = False, totals: bool = True) -> dict[str, int]:
    """Run every check over ``ciks`` (default: the companies whose facts ``load_id`` inserted): their
    findings replace the ones this run stored for them before (check_company_results; another batch
    of the same run keeps its companies' findings), and check_results holds each check's total over
    every company the run checked, with the five most severe rows of all.
    ``staged``: the metrics refresh of the same companies left their current standard values in
    ``check_facts`` (``refresh_metrics(..., stage_checks=True)``); else they are computed here.
    ``totals=False`` leaves check_results to ``store_check_totals`` at the end of the run (on the lake,
    where rewriting the run's totals in every batch would make it conflict with every other writer).
    Returns check name -> offending row count of the run so far."""
    cik_list = sorted({int(c) for c in ciks}) if ciks is not None else ciks_of_load(con, load_id)
    results: dict[str, int] = {}
    try:
        if not staged:
            _stage_for(con, cik_list)
    except (StepError, duckdb.Error) as exc:
        raise MetricsError(f"staging the checks' standard facts failed: {exc}") from exc
    con.execute(sql("derive/check_store/forget_companies"), {"load_id": load_id, "ciks": cik_list})
    for step in folder_steps("derive/checks"):
        name = step.name.rsplit("/", 1)[1]
        params = {"load_id": load_id, "check_name": name}
        try:
            company_results = sql("derive/check_store/company_results")
            head, _, tail = company_results.partition("{check_sql}")  # the check's own SQL text, not a value
            con.execute(head + step.text + tail, _with_companies(step.text, params, cik_list))
            if totals:
                _store_total(con, params)
                n = fetch_value(con, "SELECT offending_rows FROM check_results WHERE load_id = ? AND check_name = ?",
                                [load_id, name])
            else:
                n = fetch_value(con, "SELECT sum(offending_rows) FROM check_company_results WHERE load_id = ?"
                                     " AND check_name = ?", [load_id, name])
        except duckdb.Error as exc:
            raise MetricsError(f"check {name} failed: {exc}") from exc
        results[name] = int(n or 0)
    con.execute("DROP TABLE IF EXISTS check_facts")
    return results


def _with_companies(check_sql: str, params: dict, ciks: list[int] | None) -> dict:
    """``params`` for a check's SQL, with ``$ciks`` (the companies checked, None = every company) when
    the check names it: a constant, so its filters reach the scans (DuckDB refuses unused parameters)."""
    return {**params, "ciks": ciks} if "$ciks" in check_sql else params


def _store_total(con: duckdb.DuckDBPyConnection, params: dict) -> None:
    con.execute(sql("derive/check_store/forget_result"), params)
    con.execute(sql("derive/check_store/results"), params)


def store_check_totals(con: duckdb.DuckDBPyConnection, load_id: str) -> None:
    """check_results of run ``load_id`` from its companies' findings (what ``run_checks`` stores
    after each batch unless ``totals=False``)."""
    for step in folder_steps("derive/checks"):
        try:
            _store_total(con, {"load_id": load_id, "check_name": step.name.rsplit("/", 1)[1]})
        except duckdb.Error as exc:
            raise MetricsError(f"check totals of {step.name} failed: {exc}") from exc


def run_check(con: duckdb.DuckDBPyConnection, name: str) -> list[dict]:
    """Offending rows of one check over every company (most severe first), without storing anything."""
    if name not in check_names():
        raise MetricsError(f"no check named {name!r}; known: {', '.join(check_names())}")
    con.execute("CREATE OR REPLACE TEMP TABLE check_facts AS SELECT * FROM standard_facts")
    text = sql(f"derive/checks/{name}")
    cur = con.execute(f"SELECT * FROM ({text}) t ORDER BY severity DESC", _with_companies(text, {}, None))
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
