"""The notebook API: Polars frames with receipts, point in time, read-only and sandboxed."""

from __future__ import annotations

from decimal import Decimal

import polars as pl
import pytest

from warehouse.read.api import open_warehouse
from warehouse.read.queries import QueryError
from warehouse.store.db import WarehouseError

APPLE, NVIDIA = 320193, 1045810


@pytest.fixture(scope="module")
def wh(loaded_warehouse):
    with open_warehouse(loaded_warehouse) as handle:
        yield handle


def _fy(frame: pl.DataFrame, year: int) -> pl.DataFrame:
    return frame.filter((pl.col("fiscal_year") == year) & (pl.col("fiscal_period") == "FY"))


def test_facts_point_in_time_around_apples_2010_amendment(wh):
    before = _fy(wh.facts(APPLE, "SalesRevenueNet", as_of="2010-01-01"), 2009)
    after = _fy(wh.facts(APPLE, "SalesRevenueNet", as_of="2010-02-01"), 2009)
    assert before.select("value", "accession", "form").rows() == [
        (Decimal("36537000000"), "0001193125-09-214859", "10-K")]
    assert after.select("value", "accession", "form").rows() == [
        (Decimal("42905000000"), "0001193125-10-012091", "10-K/A")]
    assert (after["known_from"] > before["known_from"]).all()
    assert wh.facts(APPLE, "SalesRevenueNet", as_of="2009-01-01").filter(pl.col("fiscal_year") == 2009).is_empty()


def test_metrics_with_lineage(wh):
    fcf = _fy(wh.metrics(APPLE, "free_cash_flow"), 2025)
    assert fcf["value"].to_list() == [Decimal("98767000000")]
    edges = wh.lineage(fcf["metric_id"][0])
    assert set(edges["accession"]) == {"0000320193-25-000079"}
    assert set(edges["role"]) == {"operating_cash_flow", "capital_expenditure"}


def test_compare_and_restatements(wh):
    frame = wh.compare("revenue", [APPLE, NVIDIA], 2024)
    assert frame["cik"].to_list() == [APPLE, NVIDIA]
    assert any("period ends differ" in w for w in frame["warnings"][0])
    changes = wh.restatements(APPLE, "SalesRevenueNet")
    assert "0001193125-10-012091" in changes["new_accession"].to_list()


def test_read_only_and_sandboxed(wh):
    with pytest.raises(QueryError):
        wh.sql("DELETE FROM facts")
    with pytest.raises(QueryError):
        wh.sql("COPY facts TO '/tmp/edgar-api-leak.csv'")
    with pytest.raises(WarehouseError):
        wh.cik("AAPL")  # no ticker files in this warehouse: resolve says so, it does not guess


# -- the API fails loudly, one dtype per column, runnable docstrings (issue 9) -------------------

def test_every_docstring_example_runs(company_warehouse):
    import doctest

    import warehouse.read.api as api

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(api, extraglobs={"path": company_warehouse, "pl": pl}) if t.examples]
    for t in tests:
        runner.run(t)
    opened = [name for name, obj in vars(api.Warehouse).items()
              if callable(obj) and not name.startswith("_")]
    with_examples = {t.name.rsplit(".", 1)[-1] for t in tests}
    assert set(opened) <= with_examples, f"public methods without an example: {set(opened) - with_examples}"
    assert runner.failures == 0, f"{runner.failures} docstring examples failed (see output above)"
    assert runner.tries >= 30


def test_open_warehouse_with_and_without_with(company_warehouse):
    wh = open_warehouse(company_warehouse)
    assert wh.facts(APPLE, "SalesRevenueNet").height > 0
    wh.close()
    with pytest.raises(WarehouseError, match="closed"):
        wh.facts(APPLE)
    with open_warehouse(company_warehouse) as wh2:
        assert wh2.companies().height == 2
    assert wh2.closed


def test_unknown_names_raise_with_the_closest_matches(company_warehouse):
    from warehouse.read.api import UnknownNameError

    with open_warehouse(company_warehouse) as wh:
        with pytest.raises(UnknownNameError, match="closest: Revenues") as concept:
            wh.facts("AAPL", "Revenue")
        assert "Revenues" in concept.value.suggestions
        with pytest.raises(UnknownNameError, match="unknown metric 'ebitdax'; closest: ebitda"):
            wh.metrics("AAPL", "ebitdax")
        with pytest.raises(UnknownNameError, match="closest: free_cash_flow"):
            wh.metrics("AAPL", "free_cashflow")
        with pytest.raises(UnknownNameError, match="standard concept: use standard_facts"):
            wh.facts("AAPL", "revenue")
        with pytest.raises(UnknownNameError, match="closest: net_income"):
            wh.standard_facts("AAPL", "net_incom")
        assert wh.standard_facts("AAPL", "revenues").height > 0  # an alias (warehouse.schema.vocabulary)
        with pytest.raises(UnknownNameError, match="company 'APPL'.*AAPL"):
            wh.facts("APPL")
        with pytest.raises(UnknownNameError, match="no CIK 1234"):
            wh.facts(1234)
        with pytest.raises(UnknownNameError, match="closest: gross_profit_identity"):
            wh.checks("gross_profit")
        with pytest.raises(UnknownNameError, match="fiscal period"):
            wh.metrics("AAPL", fiscal_period="H1")


def test_one_dtype_per_column_and_utc_everywhere(company_warehouse):
    with open_warehouse(company_warehouse) as wh:
        fcf = wh.metrics("AAPL", "free_cash_flow", fiscal_year=2025, fiscal_period="FY")
        frames = {
            "companies": wh.companies(), "filings": wh.filings("AAPL"), "facts": wh.facts("AAPL", "Revenues"),
            "facts_as_of": wh.facts("AAPL", "Revenues", as_of="2020-01-01"),
            "fact_versions": wh.fact_versions("AAPL", "Revenues"), "restatements": wh.restatements("AAPL"),
            "standard_facts": wh.standard_facts("AAPL", "revenue"),
            "standard_facts_as_of": wh.standard_facts("AAPL", "revenue", as_of="2020-01-01"),
            "metrics": wh.metrics("AAPL"), "metrics_fy": fcf, "lineage": wh.lineage(fcf["metric_id"][0]),
            "growth": wh.growth("AAPL", "revenue", 2020, 2024), "compare": wh.compare("revenue", ["AAPL", "NVDA"], 2024),
            "compare_metric": wh.compare("free_cash_flow", ["AAPL", "NVDA"], 2024),
            "checks": wh.checks(), "check_rows": wh.checks("balance_sheet_identity"),
            "insider_transactions": wh.insider_transactions("AAPL"), "insider_trades": wh.insider_trades("AAPL"),
        }
    seen: dict[str, dict[pl.DataType, list[str]]] = {}
    for method, frame in frames.items():
        assert frame.height > 0, method
        for col, dtype in frame.schema.items():
            seen.setdefault(col, {}).setdefault(dtype, []).append(method)
            if isinstance(dtype, pl.Datetime):
                assert dtype.time_zone == "UTC", (method, col)
            assert not (dtype.is_integer() and dtype != pl.Int64), (method, col, dtype)
    conflicts = {col: by for col, by in seen.items() if len(by) > 1}
    assert not conflicts, conflicts
    assert seen["cik"] == {pl.Int64: seen["cik"][pl.Int64]}
    assert frames["metrics_fy"]["known_from"].dtype == pl.Datetime("us", "UTC")


def test_fiscal_year_filters(company_warehouse):
    with open_warehouse(company_warehouse) as wh:
        every = wh.metrics("AAPL", "net_margin")
        fy2024 = wh.metrics("AAPL", "net_margin", fiscal_year=2024)
        assert 0 < fy2024.height < every.height and set(fy2024["fiscal_year"]) == {2024}
        annual = wh.metrics("AAPL", "net_margin", fiscal_year=2024, fiscal_period="fy")
        assert annual["fiscal_period"].to_list() == ["FY"]
        assert set(wh.facts("AAPL", fiscal_year=2010)["fiscal_year"]) == {2010}
        assert set(wh.standard_facts("AAPL", fiscal_year=2023, fiscal_period="Q4")["fiscal_period"]) == {"Q4"}


def test_asking_for_what_is_not_there_fails_naming_what_is(company_warehouse):
    """Issue 23.4: these returned empty frames (or an error naming nothing close), never a reason."""
    from warehouse.read.api import UnknownNameError

    with open_warehouse(company_warehouse) as wh:
        with pytest.raises(UnknownNameError, match=r"fiscal year 1990.*revenue.*fiscal years 20\d\d\.\.20\d\d"):
            wh.standard_facts("AAPL", "revenue", fiscal_year=1990)
        with pytest.raises(UnknownNameError, match="unknown form '10K'; closest: 10-K") as form:
            wh.filings("AAPL", form="10K")
        assert "10-K" in form.value.suggestions
        with pytest.raises(UnknownNameError, match="closest: balance_sheet_identity"):
            wh.checks("balance")
        # what exists but has no rows in the window asked for stays an empty frame
        assert wh.filings("AAPL", form="10-K", since="2099-01-01").height == 0
        assert wh.standard_facts("AAPL", "revenue", fiscal_year=2024).height > 0
