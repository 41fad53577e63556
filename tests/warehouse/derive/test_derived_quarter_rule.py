"""The derived-quarter rule is said once (issue 23.4): the macros derived_quarter and
derived_quarter_pick (schema/definitions/), called by the point-in-time standard facts
(company_standard_facts_as_of_only, the view's rule) and by the metrics refresh's timeline
(warehouse/sql/derive/refresh/30_derived_timeline.sql, which stores a derived quarter as the
derived metric named after its standard concept). Both must give the same quarters for EVERY
vendored company at several instants (checked before only for Apple and NVIDIA, now)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import COMPANYFACTS_FILES, NOW
from warehouse.store.db import fetch_all, fetch_value

ROOT = Path(__file__).parents[3]
INSTANTS = ["TIMESTAMP '2011-06-30 00:00:00'", "TIMESTAMP '2015-12-31 00:00:00'",
            "TIMESTAMP '2019-09-30 00:00:00'", "TIMESTAMP '2023-03-31 00:00:00'", NOW]
QUARTER = "cik, unit, period_start, period_end, fiscal_year, fiscal_period, value, derivation"


def _view(ts: str) -> str:  # the derived quarters standard_facts_as_of says were the answer at ts
    return (f"SELECT standard_concept AS concept, {QUARTER} FROM standard_facts_as_of({ts})"
            " WHERE derivation <> 'reported'")


REPORTED_ITSELF = "the company reported this quarter itself%"


def _refresh(ts: str) -> str:  # the derived quarters the refresh stored, the versions current at ts
    return (f"SELECT metric AS concept, cik, input_unit AS unit, period_start, period_end, fiscal_year,"
            f" fiscal_period, value, derivation FROM derived_metrics_as_of({ts})"
            " WHERE metric IN (SELECT standard_concept FROM standard_concepts)"
            f" AND coalesce(null_reason, '') NOT LIKE '{REPORTED_ITSELF}'")


def test_both_call_the_one_rule():
    view = (ROOT / "schema/definitions/company_standard_facts_as_of_only.sql").read_text()
    refresh = (ROOT / "warehouse/sql/derive/refresh/30_derived_timeline.sql").read_text()
    for text in (view, refresh):
        assert "derived_quarter(" in text and "derived_quarter_pick(" in text
        # the rule's pieces are nowhere else: the period start, the labels, the flag
        assert "INTERVAL 1 DAY" not in text and "'Q2'" not in text and "'tag_differs_from_ytd_pick'" not in text


@pytest.mark.parametrize("ts", INSTANTS)
def test_view_and_refresh_give_the_same_derived_quarters_for_every_company(loaded_con, ts):
    """Every derived quarter the view gives at ts is the refresh's (value, period, fiscal labels,
    derivation), for every company, and the other way round: once a tagged discrete quarter answers,
    the derived metric's version current at ts is the NULL one saying the company reported it (was:
    the old derived figure stayed current, 21-32 quarters at each of these instants)."""
    con = loaded_con
    ciks = [c for (c,) in fetch_all(con, "SELECT DISTINCT cik FROM facts ORDER BY 1")]
    assert len(ciks) == len(COMPANYFACTS_FILES) == 8
    view_only = fetch_all(con, f"SELECT * FROM ({_view(ts)}) EXCEPT ALL SELECT * FROM ({_refresh(ts)})")
    assert view_only == [], view_only[:5]
    refresh_only = fetch_all(con, f"SELECT * FROM ({_refresh(ts)}) EXCEPT ALL SELECT * FROM ({_view(ts)})")
    assert refresh_only == [], refresh_only[:5]
    ended = fetch_all(con, f"""
        SELECT e.cik, e.metric, e.period_end, s.derivation FROM derived_metrics_as_of({ts}) e
        LEFT JOIN standard_facts_as_of({ts}) s
          ON s.cik = e.cik AND s.standard_concept = e.metric AND s.unit = e.input_unit AND s.period_end = e.period_end
         AND s.duration_class = 'quarter'
        WHERE e.null_reason LIKE '{REPORTED_ITSELF}'""")
    assert {d for *_, d in ended} <= {"reported"}, ended[:5]  # each ended quarter is one the company tagged
    if ts != INSTANTS[0]:
        assert len(ended) > 10, ended
    if ts == NOW:  # the companies compared: 7 of the 8 have derived quarters, on both sides
        view = dict(fetch_all(con, f"SELECT cik, count(*) FROM ({_view(ts)}) GROUP BY cik"))
        refresh = dict(fetch_all(con, f"SELECT cik, count(*) FROM ({_refresh(ts)}) GROUP BY cik"))
        assert set(view) == set(refresh) and len(view) >= 7 and min(view.values()) > 20, (view, refresh)
        flags = fetch_value(con, f"""
            SELECT count(*) FROM standard_facts_as_of({ts}) s JOIN derived_metrics_current d
              ON d.metric = s.standard_concept AND d.cik = s.cik AND d.input_unit = s.unit
             AND d.period_start = s.period_start AND d.period_end = s.period_end AND d.value = s.value
            WHERE s.derivation <> 'reported' AND list_contains(s.flags, 'tag_differs_from_ytd_pick')
                  <> list_contains(coalesce(d.flags, []), 'tag_differs_from_ytd_pick')""")
        assert flags == 0


def test_a_derived_quarter_ends_when_the_company_tags_it(loaded_con):
    """Procter & Gamble (CIK 80424): net income for 2009-04-01..2009-06-30 was first derived (FY - 9M),
    then a later filing tagged that quarter. The derived metric's current version is NULL, says why,
    and its lineage names the tagged fact; the version before it keeps the derived value."""
    con = loaded_con
    rows = fetch_all(con, """
        SELECT version, value, null_reason, superseded_at IS NULL, metric_id FROM derived_metrics
        WHERE cik = 80424 AND metric = 'net_income' AND period_end = DATE '2009-06-30'
          AND duration_class = 'quarter' ORDER BY version""")
    assert len(rows) >= 2 and rows[0][1] is not None, rows
    *_, (version, value, reason, current, metric_id) = rows
    assert value is None and current and reason.startswith("the company reported this quarter itself"), rows
    lineage = fetch_all(con, "SELECT step, accession FROM metric_lineage WHERE metric_id = ?", [metric_id])
    tagged = fetch_value(con, """
        SELECT accession FROM standard_facts WHERE cik = 80424 AND standard_concept = 'net_income'
          AND period_end = DATE '2009-06-30' AND duration_class = 'quarter'""")
    assert lineage == [("reported", tagged)], (lineage, tagged)
