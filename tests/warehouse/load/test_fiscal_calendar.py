"""Fiscal calendars: the value's own fiscal year/period, real companies and warehouse.load.fiscal.build_calendar."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from warehouse.load.fiscal import build_calendar
from warehouse.store.db import connect, fetch_all, fetch_value


@pytest.fixture(scope="module")
def ro(loaded_warehouse):
    con = connect(loaded_warehouse, read_only=True)
    yield con
    con.close()


APPLE_REV = ("SELECT accession, filing_fy, value, duration_days, fiscal_year, fiscal_period, duration_class"
             " FROM facts WHERE cik = 320193 AND concept = 'RevenueFromContractWithCustomerExcludingAssessedTax'"
             " AND unit = 'USD' AND period_start = ? AND period_end = ? ORDER BY accession")


def test_apple_fy2023_revenue_keeps_its_own_year_in_every_filing(ro):
    rows = fetch_all(ro, APPLE_REV, [date(2022, 9, 25), date(2023, 9, 30)])
    by_acc = {r[0]: r[1:] for r in rows}
    # reported in the FY2023 10-K and again as a comparative in the FY2024 and FY2025 10-Ks
    assert by_acc["0000320193-25-000079"] == (2025, Decimal(383_285_000_000), 370, 2023, "FY", "annual")
    assert len(rows) >= 3
    assert {r[2:] for r in rows} == {(Decimal(383_285_000_000), 370, 2023, "FY", "annual")}
    assert {r[1] for r in rows} >= {2023, 2024, 2025}  # the filings' fy differ; the value's year does not
    (current,) = fetch_all(ro, "SELECT value, fiscal_year, fiscal_period, versions, restated FROM facts_current"
                               " WHERE cik = 320193 AND concept = 'RevenueFromContractWithCustomerExcludingAssessedTax'"
                               " AND unit = 'USD' AND period_start = DATE '2022-09-25'"
                               " AND period_end = DATE '2023-09-30'")
    assert current == (Decimal(383_285_000_000), 2023, "FY", len(rows), False)


def test_apple_calendar_52_53_weeks(ro):
    cal = {fy: (s, e, w53, basis) for fy, s, e, w53, basis in fetch_all(
        ro, "SELECT fiscal_year, fy_start, fy_end, weeks_53, basis FROM fiscal_calendar WHERE cik = 320193")}
    assert cal[2023] == (date(2022, 9, 25), date(2023, 9, 30), True, "observed")
    assert cal[2024] == (date(2023, 10, 1), date(2024, 9, 28), False, "observed")
    assert cal[2022][1] == date(2022, 9, 24) and cal[2017][2] is True
    years = sorted(cal)
    assert years == list(range(years[0], years[-1] + 1))
    for a, b in zip(years, years[1:], strict=False):  # contiguous, no gaps or overlaps
        assert cal[b][0] == cal[a][1] + timedelta(days=1)


@pytest.mark.parametrize(("start", "end", "value", "period"), [
    (date(2022, 9, 25), date(2022, 12, 31), 117_154_000_000, "Q1"),
    (date(2023, 1, 1), date(2023, 4, 1), 94_836_000_000, "Q2"),
    (date(2023, 4, 2), date(2023, 7, 1), 81_797_000_000, "Q3"),
])
def test_apple_10q_quarters_by_where_they_end(ro, start, end, value, period):
    rows = fetch_all(ro, APPLE_REV, [start, end])
    assert rows
    assert {r[2:] for r in rows} == {(Decimal(value), (end - start).days, 2023, period, "quarter")}


def test_instant_at_fiscal_year_end_is_fy(ro):
    rows = fetch_all(ro, "SELECT DISTINCT value, fiscal_year, fiscal_period FROM facts WHERE cik = 320193"
                         " AND concept = 'Assets' AND unit = 'USD' AND period_end = DATE '2023-09-30'")
    assert rows == [(Decimal(352_583_000_000), 2023, "FY")]
    q3 = fetch_all(ro, "SELECT DISTINCT fiscal_year, fiscal_period FROM facts WHERE cik = 320193"
                       " AND concept = 'Assets' AND period_end = DATE '2023-07-01'")
    assert q3 == [(2023, "Q3")]


def test_nvidia_fy2024_ends_2024_01_28(ro):
    assert fetch_all(ro, "SELECT fy_start, fy_end, basis FROM fiscal_calendar WHERE cik = 1045810"
                         " AND fiscal_year = 2024") == [(date(2023, 1, 30), date(2024, 1, 28), "observed")]
    rows = fetch_all(ro, "SELECT DISTINCT value, fiscal_year, fiscal_period FROM facts WHERE cik = 1045810"
                         " AND concept = 'Revenues' AND unit = 'USD' AND period_start = DATE '2023-01-30'"
                         " AND period_end = DATE '2024-01-28'")
    assert rows == [(Decimal(60_922_000_000), 2024, "FY")]
    # NVIDIA's early 10-Ks carry SEC fy one lower than NVIDIA's own label; the calendar follows NVIDIA
    assert fetch_value(ro, "SELECT fiscal_year FROM fiscal_calendar WHERE cik = 1045810"
                           " AND fy_end = DATE '2013-01-27'") == 2013


def test_tsm_ifrs_20f_gets_a_calendar(ro):
    cal = fetch_all(ro, "SELECT fiscal_year, fy_start, fy_end, basis FROM fiscal_calendar WHERE cik = 1046179"
                        " AND basis = 'observed' ORDER BY 1")
    assert len(cal) >= 8 and all((s, e) == (date(y, 1, 1), date(y, 12, 31)) for y, s, e, _ in cal)
    rows = fetch_all(ro, "SELECT DISTINCT value, fiscal_year, fiscal_period FROM facts WHERE cik = 1046179"
                         " AND taxonomy = 'ifrs-full' AND concept = 'Revenue' AND unit = 'TWD'"
                         " AND period_start = DATE '2023-01-01' AND period_end = DATE '2023-12-31'")
    assert rows == [(Decimal(2_161_735_800_000), 2023, "FY")]


def test_every_fact_has_an_own_fiscal_year_and_consistent_period(ro):
    assert fetch_value(ro, "SELECT count(*) FROM facts WHERE fiscal_year IS NULL OR fiscal_period IS NULL") == 0
    assert fetch_value(ro, "SELECT count(DISTINCT cik) FROM fiscal_calendar") == 8
    # an annual fact in an annual form ending on a calendar year end is that year's FY
    bad = fetch_value(ro, """
        SELECT count(*) FROM facts f JOIN fiscal_calendar c ON c.cik = f.cik AND c.fy_end = f.period_end
        WHERE f.duration_class = 'annual' AND (f.fiscal_year <> c.fiscal_year OR f.fiscal_period <> 'FY')""")
    assert bad == 0
    # the value's own fiscal year contains its period end (3 days of 52/53-week slack)
    outside = fetch_value(ro, """
        SELECT count(*) FROM facts f JOIN fiscal_calendar c USING (cik, fiscal_year)
        WHERE f.period_end > c.fy_end + 3 OR f.period_end < c.fy_start - 3""")
    assert outside == 0


# --------------------------------------------------------------------------- build_calendar, synthetic

def _by_year(years):
    return {y.fiscal_year: y for y in years}


def test_52_53_week_years():
    ends = [date(2021, 9, 25), date(2022, 9, 24), date(2023, 9, 30), date(2024, 9, 28)]
    years = _by_year(build_calendar([(e, 40) for e in ends], [(e, e.year) for e in ends], (ends[0], ends[-1])))
    for e in ends:
        assert years[e.year].fy_end == e and years[e.year].basis == "observed"
    assert years[2023].fy_start == date(2022, 9, 25) and years[2023].weeks_53
    assert not years[2022].weeks_53 and not years[2024].weeks_53
    assert (years[2024].fy_end - years[2024].fy_start).days + 1 == 364


def test_january_year_end_label_offset_zero_nvidia_like():
    ends = [date(2023, 1, 29), date(2024, 1, 28), date(2025, 1, 26)]
    own = [(e, e.year) for e in ends]  # FY2024 ends 2024-01-28
    years = _by_year(build_calendar([(e, 40) for e in ends], own, (ends[0], ends[-1])))
    assert [years[y].fy_end for y in (2023, 2024, 2025)] == ends
    assert years[2024].fy_start == date(2023, 1, 30)


def test_january_year_end_label_offset_minus_one_home_depot_like():
    ends = [date(2023, 1, 29), date(2024, 1, 28), date(2025, 2, 2)]
    own = [(e, e.year - 1) for e in ends]  # fiscal 2023 ends 2024-01-28
    years = _by_year(build_calendar([(e, 40) for e in ends], own, (ends[0], ends[-1])))
    assert [years[y].fy_end for y in (2022, 2023, 2024)] == ends
    assert years[2024].weeks_53 and not years[2023].weeks_53


def test_label_convention_from_majority_when_one_filing_has_no_fy():
    ends = [date(2022, 1, 30), date(2023, 1, 29), date(2024, 1, 28)]
    own = [(ends[0], 2021), (ends[1], None), (ends[2], 2023)]
    years = _by_year(build_calendar([(e, 40) for e in ends], own, None))
    assert years[2022].fy_end == ends[1]


def test_no_annual_filings_assumes_calendar_years():
    years = build_calendar([], [], (date(2021, 3, 31), date(2023, 6, 30)))
    assert [(y.fiscal_year, y.fy_start, y.fy_end, y.basis) for y in years] == [
        (y, date(y, 1, 1), date(y, 12, 31), "assumed_calendar") for y in (2021, 2022, 2023)]
    assert build_calendar([], [], None) == []


def test_conflicting_nearby_candidates_keep_the_best_attested():
    # a stray annual-looking duration ending a week off the real year end, reported once
    candidates = [(date(2022, 12, 31), 60), (date(2023, 12, 31), 60), (date(2023, 12, 24), 1),
                  (date(2024, 12, 31), 55)]
    own = [(date(2022, 12, 31), 2022), (date(2023, 12, 31), 2023), (date(2024, 12, 31), 2024)]
    years = _by_year(build_calendar(candidates, own, (date(2022, 1, 1), date(2024, 12, 31))))
    assert years[2023].fy_end == date(2023, 12, 31) and years[2024].fy_start == date(2024, 1, 1)
    assert all(y.fy_end != date(2023, 12, 24) for y in years.values())


def test_missing_year_is_filled_and_span_extrapolated():
    ends = [date(2019, 12, 31), date(2022, 12, 31)]
    years = _by_year(build_calendar([(e, 30) for e in ends], [(e, e.year) for e in ends],
                                    (date(2018, 6, 30), date(2023, 3, 31))))
    assert years[2020].basis == years[2021].basis == "extrapolated"
    assert years[2021].fy_end == date(2021, 12, 31) and years[2022].basis == "observed"
    assert years[2018].fy_end == date(2018, 12, 31) and years[2023].fy_end == date(2023, 12, 31)


def test_year_end_change_december_to_june():
    # FY2021 ends 2021-12-31; transition period 2022-01-01..2022-06-30 (10-KT); FY2023 ends 2023-06-30
    ends = [date(2020, 12, 31), date(2021, 12, 31), date(2023, 6, 30), date(2024, 6, 30)]
    own = [(date(2020, 12, 31), 2020), (date(2021, 12, 31), 2021), (date(2023, 6, 30), 2023),
           (date(2024, 6, 30), 2024)]
    years = _by_year(build_calendar([(e, 40) for e in ends], own, (date(2020, 1, 1), date(2024, 6, 30))))
    assert years[2021].fy_end == date(2021, 12, 31)
    assert (years[2023].fy_start, years[2023].fy_end) == (date(2022, 7, 1), date(2023, 6, 30))
    assert not years[2023].weeks_53
    assert all((y.fy_end - y.fy_start).days < 372 for y in years.values())


def test_year_end_change_june_to_december():
    ends = [date(2020, 6, 30), date(2021, 6, 30), date(2022, 12, 31), date(2023, 12, 31)]
    own = [(e, e.year) for e in ends]
    years = _by_year(build_calendar([(e, 40) for e in ends], own, (date(2019, 7, 1), date(2023, 12, 31))))
    assert years[2021].fy_end == date(2021, 6, 30)
    assert (years[2022].fy_start, years[2022].fy_end) == (date(2022, 1, 1), date(2022, 12, 31))
    assert years[2023].fy_end == date(2023, 12, 31)
