"""Comparisons that never mislead (issue 11): misaligned fiscal years even where a value is missing,
the reporting currency and convenience translations, plain-English names and suggestions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, load_files
from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, load_batch
from warehouse.read.compare import compare
from warehouse.schema.vocabulary import UnknownMetricError, resolve_name
from warehouse.store.db import connect

AAPL, MSFT, NVDA, TSM = 320193, 789019, 1045810, 1046179


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare_warnings")
    c = connect(tmp / "w.duckdb")
    load_files(c, [COMPANYFACTS_DIR / f"CIK{cik:010d}.json.gz" for cik in (AAPL, NVDA, TSM)], tmp / "raw")
    doc = read_local_document(FIXTURES / "sec" / "data.sec.gov" / "submissions" / "CIK0000789019.json.gz")
    assert load_batch(c, [Parsed(doc, parse_document(doc)[1])], raw_dir=tmp / "raw").status == "succeeded"
    yield c
    c.close()


def test_misaligned_fiscal_years_warn_even_where_a_value_is_missing(con):
    # The warehouse holds no Microsoft facts, but its submissions say the year ends 06-30.
    apple, microsoft = compare(con, "net_income", [AAPL, MSFT], 2024)
    assert apple["value"] is not None and microsoft["value"] is None
    for r in (apple, microsoft):
        assert any(w.startswith("period ends differ by 90 days") and "789019 ends 2024-06-30 (no value; from"
                   " companies.fiscal_year_end 0630)" in w for w in r["warnings"]), r["warnings"]


def test_reporting_currency_is_used_and_the_usd_translation_is_named(con):
    tsmc, nvidia = compare(con, "revenue", [TSM, NVDA], 2024)
    assert tsmc["currency"] == "TWD" and tsmc["value"] == Decimal("2894307700000")
    assert any("reports revenue in TWD; its USD value 88268000000" in w and "convenience translation" in w
               for w in tsmc["warnings"]), tsmc["warnings"]
    assert any(w.startswith("currencies differ") for w in nvidia["warnings"])


def test_plain_english_names_and_did_you_mean(con):
    assert resolve_name(con, "sales").name == "revenue"
    assert resolve_name(con, "R&D").name == "rnd_expense"
    assert resolve_name(con, "capex").name == "capital_expenditure"
    assert resolve_name(con, "FCF").name == "free_cash_flow"
    rows = compare(con, "sales", [AAPL], 2024)
    assert rows[0]["value"] == Decimal("391035000000") and "'sales' read as revenue" in rows[0]["warnings"]
    with pytest.raises(UnknownMetricError) as exc:
        compare(con, "revenu", [AAPL], 2024)
    assert exc.value.suggestions[0] == "revenue" and "did you mean: revenue" in str(exc.value)
