"""Derived metrics on real vendored companyfacts: values, lineage to exact accessions, re-versioning."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.companyfacts import parse_companyfacts
from pipelines.documents import read_local_document
from warehouse.derive.metrics import refresh_metrics
from warehouse.load.batch import Parsed, load_batch
from warehouse.read.growth import growth
from warehouse.schema.vocabulary import UnknownMetricError
from warehouse.store.db import connect, fetch_all, fetch_value

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CF = FIXTURES / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"
VINTAGES = FIXTURES / "vintages" / "companyfacts"
AAPL, NVDA = 320193, 1045810


def load(con, paths, raw_dir):
    items = []
    for p in paths:
        doc = read_local_document(p)
        items.append(Parsed(doc, parse_companyfacts(doc.body, document=doc.uri)))
    return load_batch(con, items, raw_dir=raw_dir)


@pytest.fixture(scope="module")
def wh(tmp_path_factory):
    """Older Apple payload (vintage, filed up to 2024-11-01) first, then current Apple + NVIDIA."""
    tmp = tmp_path_factory.mktemp("metrics")
    con = connect(tmp / "w.duckdb")
    # load_batch refreshes the metrics of the companies whose facts changed, in its transaction
    first = load(con, [VINTAGES / "CIK0000320193__filed-max-2024-11-01.json.gz"], tmp / "raw")
    counts1 = first.row_counts
    second = load(con, [CF / "CIK0000320193.json.gz", CF / "CIK0001045810.json.gz"], tmp / "raw")
    counts2 = second.row_counts
    yield {"con": con, "first": first, "second": second, "counts1": counts1, "counts2": counts2}
    con.close()


def current(con, metric, cik, fy, fp, duration="annual"):
    rows = fetch_all(con, "SELECT metric_id, value, unit, null_reason, version FROM derived_metrics_current"
                          " WHERE metric = ? AND cik = ? AND fiscal_year = ? AND fiscal_period = ?"
                          " AND duration_class = ? AND input_unit = 'USD'", [metric, cik, fy, fp, duration])
    assert len(rows) == 1, rows
    return rows[0]


def lineage(con, metric_id):
    return fetch_all(con, "SELECT role, step, concept, period_start, period_end, accession, value, input_metric_id"
                          " FROM metric_lineage WHERE metric_id = ? ORDER BY role, step", [metric_id])


def test_refresh_counts_and_scope(wh):
    assert wh["counts1"]["derived_metrics"] > 0 and wh["counts2"]["derived_metrics"] > 0
    assert wh["counts2"]["metric_lineage"] >= wh["counts2"]["derived_metrics"]
    # computed in the load's transaction already: refreshing again adds nothing (idempotent)
    again = refresh_metrics(wh["con"], wh["second"].load_id)
    assert again["companies"] == 2 and again["derived_metrics"] == 0 and again["metric_lineage"] == 0


def test_apple_fy2025_free_cash_flow_with_lineage(wh):
    con = wh["con"]
    mid, value, unit, null_reason, _ = current(con, "free_cash_flow", AAPL, 2025, "FY")
    assert value == Decimal("98767000000") and unit == "USD" and null_reason is None
    rows = lineage(con, mid)
    assert [(r[0], r[2], r[5], r[6]) for r in rows] == [
        ("capital_expenditure", "PaymentsToAcquirePropertyPlantAndEquipment", "0000320193-25-000079",
         Decimal("12715000000")),
        ("operating_cash_flow", "NetCashProvidedByUsedInOperatingActivities", "0000320193-25-000079",
         Decimal("111482000000")),
    ]
    formula, rule = fetch_all(con, "SELECT formula, rule_version FROM derived_metrics WHERE metric_id = ?", [mid])[0]
    assert formula == "operating_cash_flow - capital_expenditure" and rule == "free_cash_flow.v1"


def test_apple_q4_fy2025_revenue_is_fy_minus_nine_months(wh):
    con = wh["con"]
    mid, value, *_ = current(con, "revenue", AAPL, 2025, "Q4", "quarter")
    assert value == Decimal("102466000000")
    rows = lineage(con, mid)
    assert [(r[1], r[5], r[6]) for r in rows] == [
        ("less_ytd", "0000320193-25-000073", Decimal("313695000000")),
        ("ytd", "0000320193-25-000079", Decimal("416161000000")),
    ]
    sf = fetch_all(con, "SELECT value, derivation, matched_tag FROM standard_facts WHERE cik = ? AND"
                        " standard_concept = 'revenue' AND fiscal_year = 2025 AND fiscal_period = 'Q4'"
                        " AND duration_class = 'quarter'", [AAPL])
    assert sf == [(Decimal("102466000000"), "derived_q4", "RevenueFromContractWithCustomerExcludingAssessedTax")]


def test_q4_margin_lineage_reaches_the_derived_quarter(wh):
    con = wh["con"]
    mid, value, *_ = current(con, "gross_margin", AAPL, 2025, "Q4", "quarter")
    assert value is not None and Decimal("0.3") < value < Decimal("0.6")
    rows = lineage(con, mid)
    denominators = [r for r in rows if r[0] == "denominator"]
    assert {r[1] for r in denominators} == {"ytd", "less_ytd"}
    q4_id = current(con, "revenue", AAPL, 2025, "Q4", "quarter")[0]
    assert {r[7] for r in denominators} == {q4_id}


def test_every_lineage_edge_is_a_stored_fact_version(wh):
    con = wh["con"]
    orphans = fetch_value(con, """
        SELECT count(*) FROM metric_lineage l
        ANTI JOIN facts f ON f.cik = (SELECT cik FROM derived_metrics d WHERE d.metric_id = l.metric_id)
          AND f.taxonomy = l.taxonomy AND f.concept = l.concept AND f.unit = l.unit
          AND f.period_start IS NOT DISTINCT FROM l.period_start AND f.period_end = l.period_end
          AND f.accession = l.accession AND f.value = l.value""")
    assert orphans == 0
    dangling = fetch_value(con, "SELECT count(*) FROM metric_lineage l WHERE input_metric_id IS NOT NULL"
                                " AND input_metric_id NOT IN (SELECT metric_id FROM derived_metrics)")
    assert dangling == 0
    without_inputs = fetch_value(con, "SELECT count(*) FROM derived_metrics d"
                                      " WHERE metric_id NOT IN (SELECT metric_id FROM metric_lineage)")
    assert without_inputs == 0


def test_nvidia_revenue_growth_fy2022_to_fy2024(wh):
    con = wh["con"]
    g = growth(con, "revenue", NVDA, 2022, 2024)
    assert g["from_value"] == Decimal("26914000000") and g["to_value"] == Decimal("60922000000")
    assert round(g["value"], 3) == Decimal("1.264")  # +126.4 %
    assert g["to_period_end"].isoformat() == "2024-01-28" and g["null_reason"] is None
    mid, yoy, *_ = current(con, "revenue_growth_yoy", NVDA, 2024, "FY")
    assert abs(yoy - (Decimal(60922) / Decimal(26974) - 1)) < Decimal("1e-9")  # FY2023 -> FY2024
    roles = {r[0]: r[4] for r in lineage(con, mid)}
    assert roles["current"].isoformat() == "2024-01-28" and roles["prior"].isoformat() == "2023-01-29"
    with pytest.raises(UnknownMetricError):
        growth(con, "not_a_concept", NVDA, 2022, 2024)


def test_capex_through_fallback_tag(wh):
    con = wh["con"]
    row = fetch_all(con, "SELECT value, matched_tag, tags_tried, chain_rank FROM standard_facts WHERE cik = ?"
                         " AND standard_concept = 'capital_expenditure' AND fiscal_year = 2024"
                         " AND duration_class = 'annual'", [NVDA])
    assert row == [(Decimal("1069000000"), "PaymentsToAcquireProductiveAssets",
                    ["us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "us-gaap:PaymentsToAcquireProductiveAssets"],
                    2)]
    mid, *_ = current(con, "free_cash_flow", NVDA, 2024, "FY")
    capex = [r for r in lineage(con, mid) if r[0] == "capital_expenditure"]
    assert [(r[2], r[6]) for r in capex] == [("PaymentsToAcquireProductiveAssets", Decimal("1069000000"))]


def test_restated_input_gives_a_new_metric_version(wh):
    """Apple FY2009: 10-K (0001193125-09-214859) restated by the 10-K/A (0001193125-10-012091)."""
    con = wh["con"]
    versions = fetch_all(con, """
        SELECT d.metric_id, d.value, d.version, d.superseded_by_metric_id, d.known_from,
               list(DISTINCT l.accession ORDER BY l.accession)
        FROM derived_metrics d JOIN metric_lineage l USING (metric_id)
        WHERE d.metric = 'net_margin' AND d.cik = ? AND d.fiscal_year = 2009 AND d.fiscal_period = 'FY'
          AND d.duration_class = 'annual'
        GROUP BY ALL ORDER BY d.version""", [AAPL])
    assert len(versions) >= 2
    first, second = versions[0], versions[1]
    assert first[5] == ["0001193125-09-214859"] and first[3] == second[0]
    assert second[5] == ["0001193125-10-012091"]
    assert abs(first[1] - Decimal(5704) / Decimal(36537)) < Decimal("1e-9")
    assert abs(second[1] - Decimal(8235) / Decimal(42905)) < Decimal("1e-9")
    old = fetch_all(con, "SELECT metric_id, value FROM derived_metrics_as_of(TIMESTAMP '2010-01-01')"
                         " WHERE metric = 'net_margin' AND cik = ? AND fiscal_year = 2009 AND fiscal_period = 'FY'"
                         " AND duration_class = 'annual'", [AAPL])
    assert old == [(first[0], first[1])]
    after = fetch_all(con, "SELECT metric_id FROM derived_metrics_as_of(TIMESTAMP '2010-02-01')"
                           " WHERE metric = 'net_margin' AND cik = ? AND fiscal_year = 2009 AND fiscal_period = 'FY'"
                           " AND duration_class = 'annual'", [AAPL])
    assert after == [(second[0],)]
    sf_old = fetch_value(con, "SELECT value FROM standard_facts_as_of(TIMESTAMP '2010-01-01') WHERE cik = ?"
                              " AND standard_concept = 'revenue' AND fiscal_year = 2009 AND duration_class = 'annual'",
                         [AAPL])
    assert sf_old == Decimal("36537000000")


def test_refresh_is_idempotent(wh):
    con = wh["con"]
    before = fetch_value(con, "SELECT count(*) FROM derived_metrics")
    again = refresh_metrics(con, wh["second"].load_id)
    assert again["derived_metrics"] == 0 and again["metric_lineage"] == 0 and again["versions_renumbered"] == 0
    assert fetch_value(con, "SELECT count(*) FROM derived_metrics") == before


def test_vintage_rows_kept_and_new_load_adds_new_versions(wh):
    con = wh["con"]
    # A load whose facts change a company recomputes that company's metric history (order
    # independence), so rows carry the latest load id; the versions known from the vintage's
    # filings (public before 2024-11-02) stay beside the new ones.
    older, newer = fetch_all(con, "SELECT count(*) FILTER (WHERE known_from < TIMESTAMP '2024-11-02'),"
                                  " count(*) FILTER (WHERE known_from >= TIMESTAMP '2024-11-02')"
                                  " FROM derived_metrics WHERE cik = ?", [AAPL])[0]
    assert older > 0 and newer > 0
    fy25 = fetch_value(con, "SELECT load_id FROM derived_metrics WHERE metric = 'free_cash_flow' AND cik = ?"
                            " AND fiscal_year = 2025 AND fiscal_period = 'FY'", [AAPL])
    assert fy25 == wh["second"].load_id


def test_derived_quarters_match_standard_facts(wh):
    con = wh["con"]
    mismatched = fetch_value(con, """
        SELECT count(*) FROM standard_facts s
        ANTI JOIN derived_metrics_current d
          ON d.metric = s.standard_concept AND d.cik = s.cik AND d.period_start = s.period_start
         AND d.period_end = s.period_end AND d.input_unit = s.unit AND d.value = s.value
        WHERE s.derivation <> 'reported'""")
    assert mismatched == 0


def test_ttm_revenue_and_53_week_flag(wh):
    con = wh["con"]
    _, ttm_q4, *_ = current(con, "ttm_revenue", AAPL, 2025, "Q4")
    assert ttm_q4 == Decimal("416161000000")
    mid, ttm_q3, *_ = current(con, "ttm_revenue", AAPL, 2025, "Q3")
    assert ttm_q3 == Decimal("408625000000")
    assert {r[0] for r in lineage(con, mid)} == {"q1", "q2", "q3", "q4"}
    flags = fetch_value(con, "SELECT flags FROM derived_metrics_current WHERE metric = 'revenue_growth_yoy'"
                             " AND cik = ? AND fiscal_year = 2023 AND fiscal_period = 'FY' AND duration_class = 'annual'",
                        [AAPL])
    assert "53_week_year" in flags


def test_per_share_and_instants_never_derived(wh):
    con = wh["con"]
    bad = fetch_value(con, "SELECT count(*) FROM standard_facts WHERE derivation <> 'reported'"
                           " AND (standard_concept IN ('eps_basic', 'eps_diluted') OR unit LIKE '%/%'"
                           " OR duration_class <> 'quarter')")
    assert bad == 0


def test_as_of_timeline_agrees_with_point_in_time_view(wh):
    """The stored metric versions as of a date equal what standard_facts_as_of says then."""
    con = wh["con"]
    ts = datetime(2021, 6, 1)
    diff = fetch_value(con, """
        WITH sf AS (SELECT * FROM standard_facts_as_of(CAST($ts AS TIMESTAMP))
                    WHERE cik = $cik AND duration_class = 'annual' AND unit = 'USD'),
        m AS (SELECT a.period_start, a.period_end, a.value - b.value AS fcf
              FROM sf a JOIN sf b USING (period_start, period_end)
              WHERE a.standard_concept = 'operating_cash_flow' AND b.standard_concept = 'capital_expenditure')
        SELECT count(*) FROM m
        ANTI JOIN derived_metrics_as_of(CAST($ts AS TIMESTAMP)) d
          ON d.metric = 'free_cash_flow' AND d.cik = $cik AND d.period_start = m.period_start
         AND d.period_end = m.period_end AND d.value = m.fcf""", {"ts": ts, "cik": AAPL})
    assert diff == 0


def test_migration_0004_applies_on_0001_alone(tmp_path):
    import shutil

    from warehouse.schema.folder import schema_dir
    from warehouse.schema.migrate import apply_migrations

    for name in ("0001_core.sql", "0004_metrics.sql"):
        shutil.copy(schema_dir() / "migrations" / name, tmp_path / name)
    con = connect(tmp_path / "alone.duckdb", migrate=False)
    try:
        applied = apply_migrations(con, tmp_path)
        assert [m.version for m in applied] == [1, 4]
        for table in ("standard_concepts", "derived_metrics", "metric_lineage", "check_results"):
            assert fetch_value(con, f"SELECT count(*) FROM {table}") == 0
    finally:
        con.close()
    con = connect(tmp_path / "full.duckdb")  # the views and the chains' rows are definitions
    try:
        assert fetch_value(con, "SELECT count(*) FROM standard_facts") == 0
        assert fetch_value(con, "SELECT count(DISTINCT standard_concept) FROM standard_concepts") >= 18
    finally:
        con.close()
