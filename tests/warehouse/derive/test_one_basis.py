"""One basis per number (issue 21), on real companyfacts whose restatements moved between tags or
recast some inputs of a period and not the others: Herc Holdings (the 2016 spin-off restated its
history under SalesRevenueNet), SunEdison (discontinued operations recast under SalesRevenueNet) and
Kimberly-Clark (Q1 2025 revenue recast by the FY2025 10-K, operating income only in the 10-Q).

A standard value is what the latest filing reporting any of its chain's tags says (never an older
filing's figure under a tag the company stopped using), its prior value the last different one
across tags, and a change between filings a restatement of the standard concept."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, NOW
from warehouse.store.db import connect, fetch_all

HERC, SUNEDISON, KIMBERLY_CLARK = 1364479, 945436, 55785
FILES = (FIXTURES / "reserialized" / "CIK0001364479.json.gz", FIXTURES / "reserialized" / "CIK0000945436.json.gz",
         COMPANYFACTS_DIR / "CIK0000055785.json.gz")


@pytest.fixture(scope="module")
def con(tmp_path_factory, company_loader):
    path = company_loader(tmp_path_factory.mktemp("basis") / "w.duckdb", files=FILES)
    c = connect(path, read_only=True)
    yield c
    c.close()


def _revenue(con, cik: int, year_end: str, source: str = "standard_facts") -> dict:
    rows = fetch_all(con, f"""
        SELECT value, matched_tag, accession, filed, prior_value, prior_accession, candidates
        FROM {source} WHERE cik = ? AND standard_concept = 'revenue' AND duration_class = 'annual'
          AND period_end = CAST(? AS DATE) AND unit = 'USD'""", [cik, year_end])
    assert len(rows) == 1, rows
    keys = ("value", "matched_tag", "accession", "filed", "prior_value", "prior_accession", "candidates")
    return dict(zip(keys, rows[0], strict=True))


def test_herc_fy2014_revenue_is_the_restated_figure_under_the_new_tag(con):
    r = _revenue(con, HERC, "2014-12-31")
    assert (r["value"], r["matched_tag"], r["accession"], str(r["filed"])) == (
        Decimal("1770400000"), "SalesRevenueNet", "0001364479-17-000008", "2017-03-15")
    # the pre-spin company's figure, under the tag Herc stopped using, is the prior value, not the answer
    assert (r["prior_value"], r["prior_accession"]) == (Decimal("11046000000"), "0001364479-16-000045")
    assert r["candidates"][0] == "us-gaap:SalesRevenueNet=1770400000"
    assert "us-gaap:Revenues=11046000000" in r["candidates"]


def test_sunedison_fy2012_revenue_is_the_recast_figure(con):
    r = _revenue(con, SUNEDISON, "2012-12-31")
    assert (r["value"], r["matched_tag"]) == (Decimal("1602500000"), "SalesRevenueNet")
    assert r["filed"].year == 2015
    assert r["prior_value"] is not None and r["prior_value"] != r["value"]
    assert Decimal("1794600000") not in (r["value"],)


def test_a_change_under_another_tag_is_a_standard_restatement(con):
    rows = fetch_all(con, """
        SELECT old_value, new_value, old_tag, new_tag, old_accession, new_accession, change_kind, evidence
        FROM standard_restatements
        WHERE cik = ? AND standard_concept = 'revenue' AND period_start = DATE '2014-01-01'
          AND period_end = DATE '2014-12-31' ORDER BY new_filed""", [HERC])
    assert rows[-1][:7] == (Decimal("11046000000"), Decimal("1770400000"), "us-gaap:Revenues",
                            "us-gaap:SalesRevenueNet", "0001364479-16-000045", "0001364479-17-000008",
                            "tag_migration")
    assert "no longer reports Revenues" in rows[-1][7]
    # fact_restatements, per tag, never sees it
    assert fetch_all(con, """SELECT count(*) FROM fact_restatements WHERE cik = ? AND concept = 'SalesRevenueNet'
                             AND period_end = DATE '2014-12-31' AND period_start = DATE '2014-01-01'""", [HERC]) == [(0,)]


def test_as_of_follows_the_filings_public_then(con):
    before = fetch_all(con, """
        SELECT value, matched_tag FROM standard_facts_as_of(TIMESTAMP '2016-06-30 00:00:00')
        WHERE cik = ? AND standard_concept = 'revenue' AND period_end = DATE '2014-12-31'
          AND period_start = DATE '2014-01-01' AND unit = 'USD'""", [HERC])
    assert before == [(Decimal("11046000000"), "Revenues")]
    now = _revenue(con, HERC, "2014-12-31", f"company_standard_facts_as_of([{HERC}], {NOW})")
    assert now == _revenue(con, HERC, "2014-12-31")


def test_stored_rows_equal_the_as_of_computation(con):
    for cik in (HERC, SUNEDISON, KIMBERLY_CLARK):
        for a, b in ((f"SELECT * FROM standard_facts WHERE cik = {cik}",
                      f"SELECT * FROM company_standard_facts_as_of([{cik}], TIMESTAMP '9999-12-30 00:00:00')"),):
            assert fetch_all(con, f"SELECT count(*) FROM (({a}) EXCEPT ALL ({b}))") == [(0,)]
            assert fetch_all(con, f"SELECT count(*) FROM (({b}) EXCEPT ALL ({a}))") == [(0,)]


def test_metrics_read_the_same_standard_values(con):
    """The metrics refresh applies the same rule: Herc's FY2014 revenue metric input is the 2017 figure."""
    rows = fetch_all(con, """
        SELECT l.value, l.concept, l.accession FROM derived_metrics_current d
        JOIN metric_lineage l USING (metric_id)
        WHERE d.cik = ? AND d.metric = 'revenue_growth_yoy' AND d.period_end = DATE '2015-12-31'
          AND l.period_end = DATE '2014-12-31'""", [HERC])
    assert rows and all(r[0] != Decimal("11046000000") for r in rows), rows


def test_no_metric_version_repeats_the_value_of_the_one_before(con):
    """A version only when the value (as stored, DECIMAL(38, 10)) or its null reason changes: a
    confirming filing, the same value under another tag, or inputs that moved to the same number add none."""
    repeated = fetch_all(con, """
        SELECT count(*) FROM (
            SELECT value, null_reason, version,
                   lag(value) OVER w AS prev_value, lag(null_reason) OVER w AS prev_reason
            FROM derived_metrics
            WINDOW w AS (PARTITION BY metric, cik, period_start, period_end, input_unit ORDER BY version))
        WHERE version > 1 AND value IS NOT DISTINCT FROM prev_value AND null_reason IS NOT DISTINCT FROM prev_reason""")
    assert repeated == [(0,)]
    assert fetch_all(con, "SELECT count(*) > 100 FROM derived_metrics WHERE version > 1") == [(True,)]


def test_kimberly_clark_margin_keeps_the_consistent_pair_with_the_recast_flag(con):
    """Q1 2025: revenue 4,840,000,000 and operating income 769,000,000 in the 10-Q; the FY2025 10-K
    recast revenue to 4,054,000,000 (discontinued operations) and said no operating income for Q1:
    the margin is the 10-Q's 15.89 %, never 769 / 4,054 = 18.97 %, and says what the 10-K recast."""
    rows = fetch_all(con, """
        SELECT d.value, d.flags, d.null_reason, list(l.role || '=' || CAST(l.value AS BIGINT) || '@' || l.accession
                                                     ORDER BY l.role)
        FROM derived_metrics_current d JOIN metric_lineage l USING (metric_id)
        WHERE d.cik = ? AND d.metric = 'operating_margin' AND d.period_start = DATE '2025-01-01'
          AND d.period_end = DATE '2025-03-31' GROUP BY ALL""", [KIMBERLY_CLARK])
    assert len(rows) == 1, rows
    value, flags, null_reason, inputs = rows[0]
    assert round(value, 4) == Decimal("0.1589") and null_reason is None
    assert flags == ["as filed in 0000055785-25-000039; revenue recast to 4,054,000,000 by 0001628280-26-007567"]
    assert inputs == ["denominator=4840000000@0000055785-25-000039", "numerator=769000000@0000055785-25-000039"]
    # the standard value itself is the recast one
    assert fetch_all(con, """SELECT value FROM standard_facts WHERE cik = ? AND standard_concept = 'revenue'
                             AND period_start = DATE '2025-01-01' AND period_end = DATE '2025-03-31'""",
                     [KIMBERLY_CLARK]) == [(Decimal("4054000000"),)]


def test_no_current_ratio_divides_two_filings_without_a_flag(con):
    """The audit of bases lists the Kimberly-Clark margin as recast after its basis, and no margin or
    ratio whose inputs no single filing reports goes unflagged (the check metric_bases is empty)."""
    audit = fetch_all(con, """SELECT issue, detail, filings FROM metric_bases WHERE cik = ? AND metric = 'operating_margin'
                              AND period_start = DATE '2025-01-01' AND period_end = DATE '2025-03-31'""",
                      [KIMBERLY_CLARK])
    assert [(a[0], a[1]) for a in audit] == [
        ("recast_after_basis", "as filed in 0000055785-25-000039; revenue recast to 4,054,000,000 by 0001628280-26-007567")]
    assert "0000055785-25-000039" in audit[0][2]
    unflagged = fetch_all(con, """
        SELECT metric, cik, period_start, period_end, detail FROM metric_bases
        WHERE issue = 'inputs_from_different_filings' AND len(flags) = 0
          AND metric IN ('operating_margin', 'gross_margin', 'net_margin', 'current_ratio', 'debt_to_equity',
                         'roa', 'roe', 'ebitda', 'net_debt_to_ebitda')
          AND period_end - coalesce(period_start, period_end) > 100""")  # fiscal years and instants
    assert unflagged == []
    checks = dict(fetch_all(con, "SELECT check_name, offending_rows FROM check_results"))
    assert "metric_bases" in checks
