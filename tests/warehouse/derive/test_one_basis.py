"""One basis per number (issue 21), on real companyfacts whose restatements moved between tags or
recast some inputs of a period and not the others: Herc Holdings (the 2016 spin-off restated its
history under SalesRevenueNet), SunEdison (discontinued operations recast under SalesRevenueNet) and
Kimberly-Clark (Q1 2025 revenue recast by the FY2025 10-K, operating income only in the 10-Q).

A standard value is what the latest filing reporting any of its chain's tags says (never an older
filing's figure under a tag the company stopped using), its prior value the last different one
across tags, and a change between filings a restatement of the standard concept."""

from __future__ import annotations

import shutil
from datetime import date
from decimal import Decimal

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, NOW
from warehouse.store.db import connect, fetch_all, fetch_value

HERC, SUNEDISON, KIMBERLY_CLARK = 1364479, 945436, 55785
FILES = (FIXTURES / "reserialized" / "CIK0001364479.json.gz", FIXTURES / "reserialized" / "CIK0000945436.json.gz",
         COMPANYFACTS_DIR / "CIK0000055785.json.gz")


@pytest.fixture(scope="module")
def basis_path(tmp_path_factory, company_loader):
    return company_loader(tmp_path_factory.mktemp("basis") / "w.duckdb", files=FILES)


@pytest.fixture(scope="module")
def con(basis_path):
    c = connect(basis_path, read_only=True)
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


BASIS_FLAG = ("len(list_filter(flags, lambda x: x LIKE 'as filed in %' OR x IN ('years_from_different_filings', "
              "'derived_quarters_from_different_filings'))) > 0")


@pytest.mark.parametrize("which", ["con", "loaded_con"])  # every vendored company: these three and the eight others
def test_no_current_metric_combines_two_filings_without_a_flag(which, request):
    """Every current metric whose input values no one filing reports (the audit metric_bases, by the
    facts: a derived quarter's longer parts one side, its shorter parts the other) says so in a basis
    flag: 'as filed in X; ... recast by Y', years_from_different_filings, or
    derived_quarters_from_different_filings (refresh/65)."""
    c = request.getfixturevalue(which)
    mixed = fetch_all(c, f"""SELECT metric, cik, period_start, period_end, flags, detail, {BASIS_FLAG} AS flagged
                             FROM metric_bases WHERE issue = 'inputs_from_different_filings'""")
    assert [m for m in mixed if not m[-1]] == []
    assert mixed, "the vendored companies have metrics of inputs from several filings"


def test_growth_takes_both_years_from_the_latest_filing_reporting_both(loaded_con, con):
    """A growth of two reported years (not flagged years_from_different_filings) is the ratio of the
    figures the LATEST filing reporting both years gives (standard_value_timeline_of: each filing's
    pick), the company's own comparatives, even when a later filing recast one year only."""
    for c in (con, loaded_con):
        rows = fetch_all(c, """
            WITH g AS (
                SELECT metric_id, cik, value FROM derived_metrics_current
                WHERE metric = 'revenue_growth_yoy' AND value IS NOT NULL
                  AND NOT list_contains(flags, 'years_from_different_filings')
            ),
            l AS (
                SELECT g.metric_id, g.cik, g.value AS growth, l.role, l.unit, l.period_start, l.period_end
                FROM g JOIN metric_lineage l USING (metric_id)
                WHERE g.metric_id IN (SELECT metric_id FROM metric_lineage GROUP BY metric_id
                                      HAVING count(*) = 2 AND bool_and(step = 'reported'))
            ),
            t AS (SELECT * FROM standard_value_timeline_of(NULL, TIMESTAMP '9999-12-31', NULL, NULL)
                  WHERE standard_concept = 'revenue'),
            latest AS (
                SELECT c.metric_id, any_value(c.growth) AS growth,
                       arg_max({'current': tc.pick.value, 'prior': tp.pick.value},
                               greatest(tc.filing_order, tp.filing_order)) AS said
                FROM l c JOIN l p ON p.metric_id = c.metric_id AND c.role = 'current' AND p.role = 'prior'
                JOIN t tc ON tc.cik = c.cik AND tc.unit = c.unit AND tc.period_start = c.period_start
                         AND tc.period_end = c.period_end
                JOIN t tp ON tp.cik = p.cik AND tp.unit = p.unit AND tp.period_start = p.period_start
                         AND tp.period_end = p.period_end AND tp.accession = tc.accession
                GROUP BY c.metric_id
            )
            SELECT metric_id, growth, said FROM latest
            WHERE CAST(round(CAST(said.current AS DOUBLE) / CAST(said.prior AS DOUBLE) - 1, 10) AS DECIMAL(38, 10))
                  <> growth""")
        assert rows == []
    compared = fetch_all(loaded_con, """SELECT count(*) FROM derived_metrics_current
                                        WHERE metric = 'revenue_growth_yoy' AND value IS NOT NULL""")[0][0]
    assert compared > 500


def test_ttm_and_derived_quarters_name_a_recast_part(con):
    """TTM and derived quarters combine filings by their formula; a part a later filing recast is named.
    Kimberly-Clark: the FY2025 10-K recast Q1 2025 revenue to 4,054,000,000 (4,840,000,000 in the 10-Q),
    so the twelve months to June 2025 say it; the fiscal year 2025 (one filing) says nothing."""
    ttm = dict(fetch_all(con, """SELECT period_end, flags FROM derived_metrics_current
                                 WHERE cik = ? AND metric = 'ttm_revenue' AND period_end IN (DATE '2025-06-30', DATE '2025-12-31')""",
                         [KIMBERLY_CLARK]))
    assert "revenue 2025-01-01..2025-03-31 recast to 4,054,000,000 by 0001628280-26-007567" in ttm[date(2025, 6, 30)]
    assert ttm[date(2025, 12, 31)] == []
    assert fetch_all(con, "SELECT count(*) FROM derived_metrics WHERE flags IS NULL") == [(0,)]  # [] when none
    # a derived quarter names the year-to-date part that was recast (Q4 2024 = FY 2024 - nine months): its
    # last derived version, since the FY2025 10-K then tagged Q4 2024 itself (the current version is NULL)
    q4 = fetch_all(con, """SELECT flags, null_reason FROM derived_metrics WHERE cik = ? AND metric = 'revenue'
                           AND period_start = DATE '2024-10-01' AND period_end = DATE '2024-12-31' ORDER BY version""",
                   [KIMBERLY_CLARK])
    assert q4[-1][1].startswith("the company reported this quarter itself"), q4
    assert any(f.startswith("revenue 2024-01-01..2024-12-31 recast to ") for f in q4[-2][0]), q4


REPEATS = """SELECT count(*) FROM (
    SELECT value, null_reason, version, lag(value) OVER w AS prev_value, lag(null_reason) OVER w AS prev_reason
    FROM derived_metrics WINDOW w AS (PARTITION BY metric, cik, period_start, period_end, input_unit ORDER BY version))
    WHERE version > 1 AND value IS NOT DISTINCT FROM prev_value AND null_reason IS NOT DISTINCT FROM prev_reason"""


def test_a_warehouse_derived_by_the_rule_before_gets_one_version_per_value(basis_path, con, tmp_path):
    """A warehouse derived before a version needed a new value (a version for every change of an
    input's tag or filing) is converged when it opens (migration 0021): the versions repeating their
    predecessor's value go with their lineage, a metric that used one as an input names the version
    that first gave the value, the rest are numbered again. Here Kimberly-Clark's derived revenue
    quarters each get a later version of the same value, which its margins use, as the old rule did."""
    path = tmp_path / "w.duckdb"
    shutil.copy(basis_path, path)
    c = connect(path)
    try:
        c.execute("""CREATE TEMP TABLE again AS
                     SELECT * REPLACE (metric_id || 'r' AS metric_id, known_from + INTERVAL 1 DAY AS known_from,
                                       version + 1 AS version)
                     FROM derived_metrics
                     WHERE cik = ? AND metric = 'revenue' AND derivation LIKE 'derived_%'
                       AND superseded_by_metric_id IS NULL""", [KIMBERLY_CLARK])
        c.execute("INSERT INTO derived_metrics SELECT * FROM again")
        c.execute("""INSERT INTO metric_lineage SELECT l.* REPLACE (l.metric_id || 'r' AS metric_id)
                     FROM metric_lineage l SEMI JOIN again a ON a.metric_id = l.metric_id || 'r'""")
        c.execute("""UPDATE metric_lineage SET input_metric_id = input_metric_id || 'r'
                     WHERE input_metric_id IN (SELECT left(metric_id, -1) FROM again)""")
        used = fetch_value(c, "SELECT count(*) FROM metric_lineage WHERE input_metric_id LIKE '%r'")
        assert fetch_value(c, "SELECT count(*) FROM again") > 10 and used > 10
        assert fetch_value(c, REPEATS) > 10
        c.execute("DELETE FROM schema_migrations WHERE version = 21")  # derived before 0021
        c.execute("CHECKPOINT")
    finally:
        c.close()
    c = connect(path)
    try:
        assert fetch_value(c, REPEATS) == 0
        assert fetch_value(c, "SELECT count(*) FROM derived_metrics WHERE metric_id LIKE '%r'") == 0
        assert fetch_value(c, """SELECT count(*) FROM metric_lineage WHERE input_metric_id IS NOT NULL
                                 AND input_metric_id NOT IN (SELECT metric_id FROM derived_metrics)""") == 0
        assert fetch_value(c, """SELECT count(*) FROM (SELECT max(version) AS v, count(*) AS n FROM derived_metrics
                                 GROUP BY metric, cik, period_start, period_end, input_unit) WHERE v <> n""") == 0
        # the same rows as before the old rule's versions were added
        assert fetch_all(c, "SELECT count(*), sum(hash(metric_id, version, superseded_by_metric_id)) FROM derived_metrics") \
            == fetch_all(con, "SELECT count(*), sum(hash(metric_id, version, superseded_by_metric_id)) FROM derived_metrics")
    finally:
        c.close()
