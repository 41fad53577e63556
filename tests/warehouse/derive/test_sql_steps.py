"""Declared SQL steps: every step file says what it reads and creates, the runner checks the order
from those headers, parameters are bound, the metric list is the rule files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warehouse.derive.metrics import _call_args, refresh_plan, shared_inputs, standard_values_plan
from warehouse.derive.steps import StepError, check_order, existing_objects, folder_steps, load_step
from warehouse.schema.vocabulary import metric_names
from warehouse.store.db import connect, fetch_all

WAREHOUSE = Path(__file__).resolve().parents[3] / "warehouse"


@pytest.fixture
def con(tmp_path):
    c = connect(tmp_path / "w.duckdb")
    yield c
    c.close()


def test_every_step_declares_reads_and_creates_or_appends():
    for step in refresh_plan() + folder_steps("derive/checks"):
        header = [ln for ln in step.text.splitlines() if ln.startswith("--")]
        assert any(re.match(r"--\s*reads:", ln) for ln in header), step.name
        if not step.name.startswith("derive/checks/"):
            assert any(re.match(r"--\s*(creates|appends):", ln) for ln in header), step.name


def test_the_plan_is_in_a_valid_order_and_metric_rules_come_before_their_reader(con):
    plan = refresh_plan()
    check_order(plan, existing_objects(con))
    names = [s.name for s in plan]
    first_rule = min(i for i, n in enumerate(names) if n.startswith("derive/metrics/"))
    assert names[first_rule - 1] == "derive/refresh/60_metric_candidates"
    assert names.index("derive/refresh/70_new_metrics") > max(i for i, n in enumerate(names) if n.startswith("derive/metrics/"))
    assert [s.name for s in standard_values_plan()][-1] == "derive/refresh/40_timeline"


def test_an_out_of_order_plan_is_refused_naming_the_step(con):
    plan = refresh_plan()
    swapped = [plan[0], plan[2], plan[1], *plan[3:]]  # reported timeline before its candidates
    with pytest.raises(StepError, match="15_observations.sql reads 'std_cand'"):
        check_order(swapped, existing_objects(con))
    rules = folder_steps("derive/metrics")
    late = [s for s in plan if not s.name.startswith("derive/metrics/")]
    late.insert(late.index(next(s for s in late if s.name == "derive/refresh/70_new_metrics")) + 1, rules[0])
    with pytest.raises(StepError, match="before derive/metrics/"):
        check_order(late, existing_objects(con))


def test_parameters_are_bound_never_spliced():
    for step in refresh_plan():
        assert set(step.params) <= {"ciks", "load_id", "chain_concepts", "pairs", "inputs_at"}, step.name
    mine = ["derive/metrics", "derive/checks", "read/compare", "read/growth", "schema/vocabulary", "derive/steps",
            "derive/batch"]
    sources = "\n".join((WAREHOUSE / f"{m}.py").read_text() for m in mine)
    assert '.replace("$' not in sources and '.replace("{' not in sources


def test_metric_names_are_the_rule_files(loaded_warehouse):
    c = connect(loaded_warehouse, read_only=True)
    try:
        stored = {m for (m,) in fetch_all(c, "SELECT DISTINCT metric FROM derived_metrics WHERE derivation = 'formula'")}
    finally:
        c.close()
    assert stored == set(metric_names())


def test_the_shared_passes_get_every_input_the_rule_files_ask_for():
    """derive/refresh/45 and 46 compute same_period_pair and inputs_at once for every rule: their keys
    are read from the rules' calls, so a rule's macro call always finds its rows."""
    shared = shared_inputs()
    assert ["gross_profit", "revenue"] in shared["pairs"]  # ratio_of('gross_margin', 'gross_profit', 'revenue', ...)
    assert ["operating_cash_flow", "capital_expenditure"] in shared["pairs"]  # same_period_pair(...) of free_cash_flow
    assert {"anchor": "current_assets", "needs": ["current_liabilities"]} in shared["inputs_at"]  # quotient_at
    assert {"anchor": "stockholders_equity", "needs": ["total_debt"]} in shared["inputs_at"]  # anchor = den
    assert {"anchor": "operating_income", "needs": ["depreciation_amortization", "total_debt", "cash"]} in shared["inputs_at"]


def test_a_rule_calling_a_shared_macro_with_a_computed_argument_is_refused():
    with pytest.raises(StepError, match="non-literal arguments"):
        _call_args("SELECT * FROM ratio_of('m', lower('X'), 'revenue', 'm.v1')", len("SELECT * FROM ratio_of"))


def test_step_headers_parse(tmp_path):
    step = load_step("derive/refresh/20_reported_timeline")
    assert step.reads[0] == "std_obs" and step.creates == ("std_rep",) and step.appends == ()


def test_the_recorded_objects_are_existing_ones_and_hold_every_defined_macro(con):
    """run_steps checks a plan against recorded_objects (no listing of DuckDB's built-in functions),
    then, only if that refuses it, against every existing object."""
    from warehouse.derive.steps import recorded_objects
    from warehouse.schema.definitions import discover_definitions
    from warehouse.schema.folder import schema_dir

    recorded = recorded_objects(con)
    assert recorded <= existing_objects(con)
    macros = {d.name for d in discover_definitions(schema_dir() / "definitions") if d.kind.endswith("macro")}
    assert macros and macros <= recorded


def test_a_step_may_read_a_macro_no_definition_made(con):
    from warehouse.derive.steps import _CHECKED, Step, recorded_objects, run_steps

    con.execute("CREATE TEMP MACRO plus_one(x) AS x + 1")
    assert "plus_one" not in recorded_objects(con)
    step = Step(name="test/plus_one", text="-- reads: plus_one\nSELECT plus_one(41)", reads=("plus_one",),
                creates=(), appends=(), params=())
    assert run_steps(con, [step], {}) == {"test/plus_one": 42}
    _CHECKED.discard(("test/plus_one",))
    with pytest.raises(StepError, match="reads 'no_such_macro'"):
        run_steps(con, [Step(name="test/missing", text="SELECT 1", reads=("no_such_macro",), creates=(),
                             appends=(), params=())], {})
