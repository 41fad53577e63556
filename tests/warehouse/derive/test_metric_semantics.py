"""What a metric means (issue 11, on the vendored companyfacts): versions only for real changes,
lineage naming the filing that first reported each input, quarters whose year and year-to-date
parts line up, revenue as the top line."""

from __future__ import annotations

from decimal import Decimal

import pytest

from warehouse.store.db import fetch_all, fetch_value

AAPL, NVDA, APH = 320193, 1045810, 820313


def test_no_metric_version_repeats_the_input_values_of_the_one_before(loaded_con):
    # A later 10-K that re-files an input with the same value is a confirmation: no new version (the
    # same inputs may give a new version only when the value or its NULL reason changed: a filing that
    # reports both inputs gives a NULL "no filing reports both" its basis, issue 21).
    repeated = fetch_value(loaded_con, """
        WITH v AS (
            SELECT d.metric_id, d.metric, d.cik, d.period_start, d.period_end, d.input_unit, d.version,
                   d.value, d.null_reason,
                   (SELECT list(l.role || ':' || l.step || ':' || l.concept || '=' || CAST(l.value AS VARCHAR)
                                ORDER BY l.role, l.step)
                    FROM metric_lineage l WHERE l.metric_id = d.metric_id) AS input_values
            FROM derived_metrics d)
        SELECT count(*) FROM v a JOIN v b
          ON b.metric = a.metric AND b.cik = a.cik AND b.period_start IS NOT DISTINCT FROM a.period_start
         AND b.period_end = a.period_end AND b.input_unit IS NOT DISTINCT FROM a.input_unit
         AND b.version = a.version + 1
        WHERE a.input_values = b.input_values AND a.value IS NOT DISTINCT FROM b.value
          AND a.null_reason IS NOT DISTINCT FROM b.null_reason""")
    assert repeated == 0


def test_standing_version_names_the_filing_that_first_reported_each_input(loaded_con):
    # Apple FY2023 operating cash flow and capex: first in the FY2023 10-K (0000320193-23-000106),
    # repeated unchanged in the FY2024 and FY2025 10-Ks.
    rows = fetch_all(loaded_con, """
        SELECT d.version, l.role, l.accession, l.value FROM derived_metrics_current d
        JOIN metric_lineage l USING (metric_id)
        WHERE d.cik = ? AND d.metric = 'free_cash_flow' AND d.fiscal_year = 2023 AND d.fiscal_period = 'FY'
          AND d.input_unit = 'USD' ORDER BY l.role""", [AAPL])
    assert rows == [(1, "capital_expenditure", "0000320193-23-000106", Decimal("10959000000")),
                    (1, "operating_cash_flow", "0000320193-23-000106", Decimal("110543000000"))]


@pytest.mark.parametrize("fy, value, ytd, nine_months", [
    (2021, Decimal("5003000000"), Decimal("16675000000"), Decimal("11672000000")),
    (2022, Decimal("7643000000"), Decimal("26914000000"), Decimal("19271000000")),
])
def test_nvidia_q4_revenue_exists_when_one_tag_gives_both_year_and_nine_months(loaded_con, fy, value, ytd, nine_months):
    # NVIDIA tagged its FY2021/FY2022 year as RevenueFromContractWithCustomer... and its nine months
    # as Revenues; Revenues is reported for both, so Q4 = Revenues(FY) - Revenues(9M). Its later 10-Ks
    # say the years under Revenues, the year's tag now (issue 21): the quarter's tag is the year's, and
    # the flag tag_differs_from_ytd_pick its first version carried is cleared on the standing one.
    rows = fetch_all(loaded_con, """
        SELECT d.value, d.derivation, d.flags, l.step, l.concept, l.value FROM derived_metrics_current d
        JOIN metric_lineage l USING (metric_id)
        WHERE d.cik = ? AND d.metric = 'revenue' AND d.fiscal_year = ? AND d.fiscal_period = 'Q4'
        ORDER BY l.step DESC""", [NVDA, fy])
    assert rows == [(value, "derived_q4", [], "ytd", "Revenues", ytd),
                    (value, "derived_q4", [], "less_ytd", "Revenues", nine_months)]
    margins = fetch_all(loaded_con, "SELECT metric FROM derived_metrics_current WHERE cik = ? AND fiscal_year = ?"
                             " AND fiscal_period = 'Q4' AND duration_class = 'quarter' AND metric LIKE '%margin'"
                             " ORDER BY 1", [NVDA, fy])
    assert {"gross_margin", "net_margin", "operating_margin"} <= {m for (m,) in margins}


def test_the_latest_filing_gives_the_year_even_rounded(loaded_con):
    # Amphenol FY2023: its 10-K of 2026-02-11 says RevenueFromContractWithCustomer... 12,554,700,000;
    # a later filing (0001104659-26-040688, 2026-04-08) says Revenues 12,555,000,000 for the year and
    # no longer the other tag: the latest filing's figure is the year's (issue 21), the exact one its
    # prior value; as of March 2026 the metric was the 10-K's.
    sql_ = """SELECT l.concept, l.value FROM {src} d JOIN metric_lineage l USING (metric_id)
              WHERE d.cik = ? AND d.metric = 'ttm_revenue' AND d.fiscal_year = 2023 AND d.fiscal_period = 'Q4'"""
    assert fetch_all(loaded_con, sql_.format(src="derived_metrics_current"), [APH]) == [
        ("Revenues", Decimal("12555000000"))]
    assert fetch_all(loaded_con, sql_.format(src="derived_metrics_as_of(TIMESTAMP '2026-03-01 00:00:00')"), [APH]) == [
        ("RevenueFromContractWithCustomerExcludingAssessedTax", Decimal("12554700000"))]


def test_revenue_is_the_top_line_and_the_other_candidates_stay_visible(loaded_con):
    # P&G FY2012 tags SalesRevenueNet 82,006,000,000 (total net sales) and Revenues 28,400,000,000
    # (a part) for the same year: the total wins, never a sum; both are listed with their values.
    rows = fetch_all(loaded_con, "SELECT value, matched_tag, candidates FROM standard_facts WHERE cik = 80424"
                          " AND standard_concept = 'revenue' AND period_end = DATE '2012-06-30'"
                          " AND duration_class = 'annual'")
    assert rows == [(Decimal("82006000000"), "SalesRevenueNet",
                     ["us-gaap:SalesRevenueNet=82006000000", "us-gaap:Revenues=28400000000"])]
    # Amphenol FY2023: the latest filing's Revenues first, the older filings' tags after it
    rows = fetch_all(loaded_con, "SELECT value, matched_tag, candidates, prior_value FROM standard_facts WHERE cik = ?"
                          " AND standard_concept = 'revenue' AND period_end = DATE '2023-12-31'"
                          " AND duration_class = 'annual'", [APH])
    assert rows == [(Decimal("12555000000"), "Revenues",
                     ["us-gaap:Revenues=12555000000",
                      "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax=12554700000"], Decimal("12554700000"))]


def test_standard_facts_records_the_tag_choice_of_a_derived_quarter(loaded_con):
    rows = fetch_all(loaded_con, "SELECT fiscal_year, value, matched_tag, candidates, flags FROM standard_facts"
                          " WHERE cik = ? AND standard_concept = 'revenue' AND fiscal_period = 'Q4'"
                          " AND fiscal_year IN (2021, 2022) AND duration_class = 'quarter' ORDER BY 1", [NVDA])
    # the years are what NVIDIA's latest 10-Ks say, under Revenues (issue 21): one tag, no flag
    assert rows == [(2021, Decimal("5003000000"), "Revenues", ["us-gaap:Revenues"], []),
                    (2022, Decimal("7643000000"), "Revenues", ["us-gaap:Revenues"], [])]


def test_the_refresh_and_standard_facts_apply_the_same_rules(loaded_con):
    # The checks' staging runs the refresh's own steps; its current values are standard_facts.
    from warehouse.derive.checks import _stage_for
    ciks = [r[0] for r in fetch_all(loaded_con, "SELECT DISTINCT cik FROM facts")]
    _stage_for(loaded_con, ciks)
    # (candidates is left out: the refresh records them when its pick changes, not on every arrival)
    cols = "cik, standard_concept, unit, period_start, period_end, value, matched_tag, tags_tried, derivation, flags"
    diff = fetch_value(loaded_con, f"SELECT count(*) FROM ((SELECT {cols} FROM check_facts EXCEPT SELECT {cols} FROM standard_facts)"
                            f" UNION ALL (SELECT {cols} FROM standard_facts EXCEPT SELECT {cols} FROM check_facts))")
    loaded_con.execute("DROP TABLE check_facts")
    assert diff == 0


def test_statement_metrics_with_lineage_and_null_reasons(loaded_con):
    rows = dict(fetch_all(loaded_con, "SELECT metric, value FROM derived_metrics_current WHERE cik = ? AND fiscal_year = 2024"
                               " AND fiscal_period = 'FY' AND input_unit = 'USD' AND metric IN ('ebitda', 'fcf_margin',"
                               " 'debt_to_equity', 'current_ratio', 'roe', 'roa', 'net_debt_to_ebitda')", [AAPL]))
    assert set(rows) == {"ebitda", "fcf_margin", "debt_to_equity", "current_ratio", "roe", "roa", "net_debt_to_ebitda"}
    assert rows["ebitda"] == Decimal("134661000000")  # operating income 123,216M + D&A 11,445M
    assert Decimal("0.27") < rows["fcf_margin"] < Decimal("0.28")
    assert Decimal("0.86") < rows["current_ratio"] < Decimal("0.87")
    roles = fetch_all(loaded_con, "SELECT DISTINCT l.role FROM derived_metrics_current d JOIN metric_lineage l USING (metric_id)"
                           " WHERE d.cik = ? AND d.metric = 'net_debt_to_ebitda' AND d.fiscal_year = 2024"
                           " AND d.fiscal_period = 'FY' ORDER BY 1", [AAPL])
    assert [r for (r,) in roles] == ["cash", "depreciation_amortization", "operating_income", "total_debt"]
    reasons = {r for (r,) in fetch_all(loaded_con, "SELECT DISTINCT null_reason FROM derived_metrics WHERE value IS NULL"
                                            " AND metric IN ('debt_to_equity', 'roe', 'net_debt_to_ebitda')")}
    assert reasons and all(r for r in reasons)
