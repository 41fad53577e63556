"""Metrics refresh: append every derived metric version not stored yet, with lineage to the exact
fact versions, for the companies a load changed.

The rules live in SQL: standard concepts are data (table ``standard_concepts``), each metric is one
file in ``warehouse/sql/derive/metrics/`` (header: formula, inputs, grain, rule version), and the refresh
is the declared steps of ``warehouse/sql/derive/refresh/`` (each names what it reads and creates; see
:mod:`warehouse.derive.steps`): the timeline of every standard value (which tag and fact version was
the answer at each moment a value changed), every metric evaluated at every moment one of its
inputs changed, and the combinations not stored yet appended to ``derived_metrics`` /
``metric_lineage`` (idempotent: the metric_id is a hash of the inputs).
"""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Iterable
from contextlib import nullcontext
from functools import cache

import duckdb

from warehouse.derive.steps import Step, StepError, folder_steps, needed_for, run_steps, setting
from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import MetricsError
from warehouse.store.db import fetch_all

# The ASOF joins of refresh/45 and 46 read CTEs, which DuckDB estimates at one row, so below its
# asof_loop_join_threshold (64 left rows) it ran them as nested loops over every pair of rows:
# 2.6 of the 4.3 s CPU of those two steps for the 23 vendored companies (tests/bench/bench_derive.py).
# 0: always the sorting ASOF join (the same rows: a join's result does not depend on its algorithm),
# for a batch of several companies; one company's rows are few, and the nested loop is cheaper than
# the sort (one company: refresh/45 ~100 ms with DuckDB's default, ~230 ms with 0).
ASOF_LOOP_JOIN_THRESHOLD = 0


def refresh_plan() -> list[Step]:
    """The refresh steps in order: warehouse/sql/derive/refresh/ with the metric rule files of
    warehouse/sql/derive/metrics/ placed before the first step that reads what they append to."""
    steps = folder_steps("derive/refresh")
    rules = folder_steps("derive/metrics")
    targets = {t for r in rules for t in r.appends}
    at = next(i for i, s in enumerate(steps) if targets & set(s.reads))
    return steps[:at] + rules + steps[at:]


# How a rule file's call of a refresh/50 macro names the inputs of the shared passes
# (refresh/45_period_pairs: $pairs, refresh/46_inputs_at: $inputs_at), from the call's literal
# arguments: ratio_of reads same_period_pair(num, den); quotient_at reads inputs_at(anchor, [the
# other of num and den]); sum_at reads inputs_at(a, [b]).
_SHARED_INPUTS = {
    "same_period_pair": lambda a, b: ("pairs", (a, b)),
    "ratio_of": lambda _metric, num, den, _rule: ("pairs", (num, den)),
    "inputs_at": lambda anchor, needs: ("inputs_at", (anchor, tuple(needs))),
    "quotient_at": lambda _metric, num, den, anchor, _formula, _rule:
        ("inputs_at", (anchor, (den if anchor == num else num,))),
    "sum_at": lambda _metric, a, b, _formula, _rule: ("inputs_at", (a, (b,))),
}
_CALL = re.compile(r"\b(" + "|".join(_SHARED_INPUTS) + r")\s*\(")


def _call_args(text: str, start: int) -> list:
    """The literal arguments of the call whose '(' is at ``start`` (strings and lists of strings)."""
    depth, end = 0, start
    for end in range(start, len(text)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(text[end], 0)
        if depth == 0:
            break
    try:
        return list(ast.literal_eval("[" + text[start + 1:end] + "]"))
    except (ValueError, SyntaxError) as exc:
        raise StepError(f"a metric rule calls a shared-input macro with non-literal arguments: "
                        f"{text[start:end + 1]!r}") from exc


@cache
def shared_inputs() -> dict[str, list]:
    """The parameters of the shared passes, from the rule files' calls of the refresh/50 macros:
    ``pairs`` ([a, b] lists) and ``inputs_at`` ({anchor, needs} structs), each once, sorted."""
    found: dict[str, set] = {"pairs": set(), "inputs_at": set()}
    for rule in folder_steps("derive/metrics"):
        code = re.sub(r"--[^\n]*", "", rule.text)
        for m in _CALL.finditer(code):
            kind, key = _SHARED_INPUTS[m.group(1)](*_call_args(code, m.end() - 1))
            found[kind].add(key)
    return {"pairs": [list(k) for k in sorted(found["pairs"])],
            "inputs_at": [{"anchor": a, "needs": list(n)} for a, n in sorted(found["inputs_at"])]}


def standard_values_plan() -> list[Step]:
    """The steps that build ``sfv`` (every version interval of every standard value)."""
    return needed_for(refresh_plan(), ["sfv"])


def ciks_of_load(con: duckdb.DuckDBPyConnection, load_id: str) -> list[int]:
    """Companies whose facts ``load_id`` inserted."""
    return [r[0] for r in fetch_all(con, "SELECT DISTINCT cik FROM facts WHERE load_id = ? ORDER BY cik", [load_id])]


def chain_concepts(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every concept some standard concept's chain lists (``$chain_concepts``: a constant list the
    refresh's first read of fact_versions filters on, so the filter reaches the scan of facts)."""
    return [r[0] for r in fetch_all(con, "SELECT DISTINCT concept FROM standard_concepts ORDER BY 1")]


def stage_current_values(con: duckdb.DuckDBPyConnection) -> None:
    """check_facts: the current interval of every standard value in ``sfv`` with its chain's
    tags_tried (what the checks read, the columns of standard_facts; without the lineage lists,
    which no check reads)."""
    con.execute(sql("derive/stage_current_values"))


def refresh_metrics(con: duckdb.DuckDBPyConnection, load_id: str | None,
                    ciks: Iterable[int] | None = None, *, stage_checks: bool = False) -> dict[str, int]:
    """Compute and append every metric version not stored yet for ``ciks``.

    ``ciks`` defaults to the companies whose facts ``load_id`` inserted. Runs inside the caller's
    transaction when there is one (call it inside load_batch's transaction so readers never see
    facts without their metrics). ``stage_checks`` leaves the current standard values of ``ciks``
    in the temp table ``check_facts`` for ``run_checks(..., staged=True)`` (computed once per batch,
    not again by the checks). Returns counts: companies, standard_versions, candidates,
    derived_metrics (new rows), metric_lineage (new rows), versions_renumbered, seconds.
    """
    started = time.perf_counter()
    cik_list = sorted({int(c) for c in ciks}) if ciks is not None else (
        ciks_of_load(con, load_id) if load_id else [])
    counts = {"companies": len(cik_list), "standard_versions": 0, "candidates": 0, "derived_metrics": 0,
              "metric_lineage": 0, "versions_renumbered": 0}
    if not cik_list:
        return counts
    plan = refresh_plan()
    try:
        with (setting(con, "asof_loop_join_threshold", ASOF_LOOP_JOIN_THRESHOLD) if len(cik_list) > 1
              else nullcontext()):
            results = run_steps(con, plan, {"ciks": cik_list, "load_id": load_id,
                                            "chain_concepts": chain_concepts(con), **shared_inputs()},
                                keep=["sfv", "metric_candidates"])
        if stage_checks:
            stage_current_values(con)
        counts["standard_versions"] = fetch_all(con, "SELECT count(*) FROM sfv")[0][0]
        counts["candidates"] = fetch_all(con, "SELECT count(*) FROM metric_candidates")[0][0]
        con.execute("DROP TABLE metric_candidates")
        con.execute("DROP TABLE sfv")
    except (StepError, duckdb.Error) as exc:
        # The transaction is aborted: no cleanup is possible; the caller rolls back.
        raise MetricsError(f"refresh_metrics failed for {len(cik_list)} companies: {exc}") from exc
    counts["derived_metrics"] = int(results["derive/refresh/80_store_metrics"] or 0)
    counts["metric_lineage"] = int(results["derive/refresh/81_store_lineage"] or 0)
    counts["versions_renumbered"] = int(results["derive/refresh/90_renumber_versions"] or 0)
    counts["seconds"] = round(time.perf_counter() - started, 3)
    return counts
