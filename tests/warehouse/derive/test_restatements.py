"""Restatement semantics (issue 11) on the vendored companyfacts: prior = last DIFFERENT value,
confirmations counted, change kinds split / rounding / reclassification with their evidence."""

from __future__ import annotations

from decimal import Decimal

import pytest

from warehouse.store.db import fetch_all, fetch_value

AAPL, NVDA, APH = 320193, 1045810, 820313


def test_prior_value_is_never_the_current_value(loaded_con):
    assert fetch_value(loaded_con, "SELECT count(*) FROM facts_current WHERE prior_value = value") == 0
    # every restated key still has a prior: the last value that differed
    assert fetch_value(loaded_con, "SELECT count(*) FROM facts_current WHERE restated AND value <> first_value"
                            " AND prior_value IS NULL") == 0


def test_nvidia_fy2024_basic_eps_prior_is_the_pre_split_value(loaded_con):
    row = fetch_all(loaded_con, """
        SELECT value, prior_value, prior_accession, first_value, confirmations, value_first_accession
        FROM facts_current WHERE cik = ? AND concept = 'EarningsPerShareBasic' AND unit = 'USD/shares'
          AND period_start = DATE '2023-01-30' AND period_end = DATE '2024-01-28'""", [NVDA])
    assert row == [(Decimal("1.21"), Decimal("12.05"), "0001045810-24-000029", Decimal("12.05"), 1,
                    "0001045810-25-000023")]


@pytest.mark.parametrize("cik, concept, unit, period_end, old, new, ratio, declared", [
    # NVIDIA 10:1 (2024): FY2024 basic EPS and weighted shares re-stated in the FY2025 10-K
    (NVDA, "EarningsPerShareBasic", "USD/shares", "2024-01-28", "12.05", "1.21", "10", True),
    (NVDA, "WeightedAverageNumberOfSharesOutstandingBasic", "shares", "2024-01-28", "2469000000", "24690000000",
     "10", True),
])
def test_split_restatements_are_split_with_evidence(loaded_con, cik, concept, unit, period_end, old, new, ratio, declared):
    rows = fetch_all(loaded_con, "SELECT change_kind, evidence FROM fact_restatements WHERE cik = ? AND concept = ?"
                          " AND unit = ? AND period_end = ? AND old_value = ? AND new_value = ?",
                     [cik, concept, unit, period_end, Decimal(old), Decimal(new)])
    assert len(rows) == 1 and rows[0][0] == "split", rows
    evidence = rows[0][1]
    assert f"split {ratio}" in evidence and "changed by the same ratio" in evidence
    assert ("StockholdersEquityNoteStockSplitConversionRatio1" in evidence) == declared


@pytest.mark.parametrize("cik, ratio, year", [(NVDA, 4, 2021), (NVDA, 10, 2024), (AAPL, 4, 2020)])
def test_each_known_split_is_recognised(loaded_con, cik, ratio, year):
    n = fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements WHERE cik = ? AND change_kind = 'split'"
                         " AND year(new_filed) IN (?, ? + 1) AND evidence LIKE ?",
                    [cik, year, year, f"split {ratio}%"])
    assert n >= 5


def test_small_differences_of_the_filers_rounding_are_rounding(loaded_con):
    rows = fetch_all(loaded_con, "SELECT change_kind, evidence FROM fact_restatements WHERE old_value = 16982000"
                          " AND new_value = 17000000")
    assert rows and all(k == "rounding" for k, _ in rows), rows
    assert "agree to 10^6" in rows[0][1]
    # and no change of 1 % or more is ever called rounding
    assert fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements WHERE change_kind = 'rounding'"
                            " AND abs(change) >= 0.05 * abs(old_value)") == 0


def test_every_change_within_rounding_is_rounding(loaded_con):
    """The full rule (same_within_rounding, exponents of every value) against the kinds stored: every
    change whose two values agree within rounding is called rounding unless an earlier rule holds
    (fact_restatements_of computes exponents only for values near enough to round to each other)."""
    assert fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements WHERE change_kind = 'rounding'") > 100
    assert fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements"
                       " WHERE (change_kind = 'rounding') <> same_within_rounding(new_value, old_value)"
                       " AND change_kind NOT IN ('sec_correction', 'split')") == 0


def test_reclassification_names_the_unchanged_totals(loaded_con):
    rows = fetch_all(loaded_con, "SELECT evidence FROM fact_restatements WHERE change_kind = 'reclassification'")
    assert len(rows) > 100
    assert all("while its total(s) stayed" in e for (e,) in rows)


def test_confirmations_are_not_restatements(loaded_con):
    # every fact_restatements row changes the value
    assert fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements WHERE old_value = new_value") == 0
    assert fetch_value(loaded_con, "SELECT sum(confirmations) FROM facts_current") > 10000


def test_only_real_splits_are_splits(loaded_con):
    # Apple 7:1 (2014) and 4:1 (2020), Amphenol 2:1 (2014, 2021, 2024), NVIDIA 4:1 (2021) and 10:1
    # (2024), Alphabet 20:1 (2022); shares reported in thousands (x1000) stay scale_change.
    events = {(cik, ev.split(":")[0].removeprefix("split ")) for cik, ev in fetch_all(
        loaded_con, "SELECT DISTINCT cik, split_part(evidence, ' ', 1) || ' ' || split_part(evidence, ' ', 2)"
             " FROM fact_restatements WHERE change_kind = 'split'")}
    assert events == {(AAPL, "7"), (AAPL, "4"), (APH, "2"), (NVDA, "4"), (NVDA, "10"), (1652044, "20")}


def test_restatements_of_one_company_are_the_views_rows(loaded_con):
    """fact_restatements_of([cik]) (what the API asks: that company's versions only) gives, company by
    company, exactly the rows of the view over every company (EXCEPT ALL both ways)."""
    ciks = [c for (c,) in fetch_all(loaded_con, "SELECT DISTINCT cik FROM facts ORDER BY cik")]
    assert len(ciks) > 1 and fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements") > 0
    per_company = "SELECT * FROM (" + " UNION ALL ".join(
        f"SELECT * FROM fact_restatements_of([{int(c)}])" for c in ciks) + ")"
    for left, right in ((per_company, "SELECT * FROM fact_restatements"),
                        ("SELECT * FROM fact_restatements", per_company)):
        assert fetch_value(loaded_con, f"SELECT count(*) FROM ({left} EXCEPT ALL {right})") == 0
    # the company filter reaches the facts scan: another company's rows never come back
    assert fetch_value(loaded_con, "SELECT count(*) FROM fact_restatements_of([?]) WHERE cik <> ?",
                       [AAPL, AAPL]) == 0
