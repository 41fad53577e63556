"""The notebook API: Polars frames with receipts, point in time, read-only and sandboxed."""

from __future__ import annotations

from decimal import Decimal

import polars as pl
import pytest

from warehouse.api import open_warehouse
from warehouse.db import WarehouseError
from warehouse.queries import QueryError

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
