"""Data-quality checks: SQL files that return offending rows, stored per load in check_results."""

from __future__ import annotations

import json

import pytest

from helpers import COMPANYFACTS_DIR, load_files
from warehouse.checks import check_names, run_check, run_checks
from warehouse.db import connect, fetch_all
from warehouse.sqlfiles import sql
from warehouse.vocabulary import MetricsError


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("checks")
    c = connect(tmp / "w.duckdb")
    report = load_files(c, [COMPANYFACTS_DIR / "CIK0000320193.json.gz", COMPANYFACTS_DIR / "CIK0001045810.json.gz"],
                        tmp / "raw")
    yield c, report.load_id
    c.close()


def test_checks_are_one_file_each_with_a_header():
    names = check_names()
    assert {"balance_sheet_identity", "gross_profit_identity", "quarters_sum_to_year"} <= set(names)
    for n in names:
        text = sql(f"checks/{n}")
        assert text.startswith(f"-- check: {n}") and "tolerance" in text


def test_run_checks_stores_one_row_per_check(loaded):
    con, load_id = loaded
    counts = run_checks(con, load_id)
    rows = fetch_all(con, "SELECT check_name, offending_rows, sample FROM check_results WHERE load_id = ?"
                          " ORDER BY check_name", [load_id])
    assert [r[0] for r in rows] == sorted(counts)
    for name, n, sample in rows:
        assert n == counts[name]
        parsed = json.loads(sample) if sample else []
        assert len(parsed or []) == min(n, 5)
    # re-running replaces, never duplicates
    run_checks(con, load_id)
    assert len(fetch_all(con, "SELECT * FROM check_results WHERE load_id = ?", [load_id])) == len(rows)


def test_balance_sheet_identity_flags_nvidia_fy2016_and_not_apple(loaded):
    con, _ = loaded
    rows = run_check(con, "balance_sheet_identity")
    assert not [r for r in rows if r["cik"] == 320193]
    nv = [r for r in rows if r["cik"] == 1045810 and r["period_end"].isoformat() == "2016-01-31"]
    assert nv and nv[0]["identity"] == "assets = liabilities + equity"
    assert all(r["severity"] > 0.005 for r in rows)


def test_gross_profit_and_quarter_sums_hold_for_apple(loaded):
    con, _ = loaded
    assert not [r for r in run_check(con, "gross_profit_identity") if r["cik"] == 320193]
    offending = run_check(con, "quarters_sum_to_year")
    assert not [r for r in offending if r["cik"] == 320193 and r["standard_concept"] == "revenue"]


def test_unknown_check_is_a_typed_error(loaded):
    con, _ = loaded
    with pytest.raises(MetricsError):
        run_check(con, "no_such_check")
