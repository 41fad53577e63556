"""Data-quality checks: SQL files that return offending rows, stored per load in check_results."""

from __future__ import annotations

import gzip
import json

import pytest

from helpers import COMPANYFACTS_DIR, each_table_scan, load_files
from warehouse.derive.checks import run_check, run_checks
from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import MetricsError, check_names
from warehouse.store.db import connect, fetch_all


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
        text = sql(f"derive/checks/{n}")
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


def test_the_bases_check_reads_only_the_checked_companies_metrics(loaded):
    """metric_bases of one company: every scan of derived_metrics passes that company's rows only (the
    companies came as a subquery of check_facts, so the current-version window ranked every company's
    metrics: 0.6-0.9 s of a one-company load into the 100x warehouse)."""
    con, _ = loaded
    mine = fetch_all(con, "SELECT count(*) FROM derived_metrics WHERE cik = 320193")[0][0]
    scans = [s for s in each_table_scan(con, sql("derive/checks/metric_bases"), {"ciks": [320193]})
             if s[0] == "derived_metrics"]
    assert scans and mine < fetch_all(con, "SELECT count(*) FROM derived_metrics")[0][0]
    assert all(emitted <= mine for _, _, emitted in scans), scans
    everyone = [r for r in run_check(con, "metric_bases") if r["cik"] == 320193]
    one = con.execute(f"SELECT * FROM ({sql('derive/checks/metric_bases')}) t", {"ciks": [320193]}).fetchall()
    assert len(everyone) == len(one)


def test_unknown_check_is_a_typed_error(loaded):
    con, _ = loaded
    with pytest.raises(MetricsError):
        run_check(con, "no_such_check")


# --- positive controls: each check must flag a value doctored in a copy of real data ------------------

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
# (check, concept, period_start, period_end, amount added to every version of that one fact key, the
# period the check must flag): each far past the check's 0.5 % tolerance, in a check the others'
# doctoring cannot trip. quarters_sum_to_year flags the fiscal year whose quarters no longer add up.
DOCTORED = (
    ("gross_profit_identity", "GrossProfit", "2022-09-25", "2023-09-30", 10_000_000_000,   # FY2023, +5.9 %
     ("2022-09-25", "2023-09-30")),
    ("balance_sheet_identity", "Assets", None, "2023-07-01", 10_000_000_000,              # Q3 FY2023, +3 %
     ("None", "2023-07-01")),
    ("quarters_sum_to_year", "NetIncomeLoss", "2023-04-02", "2023-07-01", 2_000_000_000,   # Q3 of FY2023
     ("2022-09-25", "2023-09-30")),
)


def doctor(src, dest, changes=DOCTORED):
    """Copy of the companyfacts file ``src`` at ``dest`` with each change's fact key (every version)
    moved by its amount; fails when a change matches no fact (the control would test nothing)."""
    body = json.loads(gzip.decompress(src.read_bytes()))
    for _, concept, start, end, amount, _ in changes:
        hits = [v for v in body["facts"]["us-gaap"][concept]["units"]["USD"]
                if v.get("start") == start and v["end"] == end]
        assert hits, (concept, start, end)
        for v in hits:
            v["val"] += amount
    dest.write_bytes(gzip.compress(json.dumps(body).encode()))
    return dest


def offenders(con, check: str, cik: int) -> set[tuple]:
    """The offending rows of ``check`` for ``cik`` by their grain (severity and values left out)."""
    keep = ("standard_concept", "period_start", "period_end", "unit", "identity", "fiscal_year")
    return {tuple((k, str(r[k])) for k in keep if k in r) for r in run_check(con, check) if r["cik"] == cik}


@pytest.fixture(scope="module")
def doctored(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("doctored")
    c = connect(tmp / "w.duckdb")
    report = load_files(c, [doctor(APPLE, tmp / APPLE.name)], tmp / "raw")
    assert report.status == "succeeded", report.summary()
    yield c
    c.close()


@pytest.mark.parametrize("check, concept, start, end, amount, flags", DOCTORED, ids=[d[0] for d in DOCTORED])
def test_each_check_flags_the_one_value_doctored_in_a_copy_of_real_data(loaded, doctored, check, concept,
                                                                        start, end, amount, flags):
    """A check that always returns nothing would pass the tests above; this one cannot: Apple's real
    file is loaded beside a copy with one fact key moved per check, and the check newly flags the
    period that value breaks (for a fiscal year also the fourth quarter derived from it, FY - 9M:
    same period end), nothing else."""
    real, _ = loaded
    new = [dict(f) for f in offenders(doctored, check, 320193) - offenders(real, check, 320193)]
    flag_start, flag_end = flags
    assert new and {f["period_end"] for f in new} == {flag_end}, (check, new)
    assert [f for f in new if f.get("period_start", "None") == flag_start], (check, new)


def _checks_after(tmp_path, name: str, batch_size: int) -> tuple[list[tuple], list[tuple]]:
    """check_results (name, rows, sample) and the per-company findings after one run of FINDING_FILES."""
    from pipelines.documents import read_local_document
    from warehouse.load.ingest import ingest

    con = connect(tmp_path / f"{name}.duckdb")
    try:
        report = ingest(con, [read_local_document(p) for p in FINDING_FILES], raw_dir=tmp_path / f"{name}.raw",
                        command="load", batch_size=batch_size, workers=1)
        assert report.status == "succeeded" and report.loaded == len(FINDING_FILES), report.summary()
        results = fetch_all(con, "SELECT check_name, offending_rows, CAST(sample AS VARCHAR) FROM check_results "
                                 "ORDER BY check_name")
        companies = fetch_all(con, "SELECT check_name, cik, offending_rows FROM check_company_results ORDER BY ALL")
        return results, companies
    finally:
        con.close()


# four companies' real companyfacts (Kimberly-Clark, Procter & Gamble, Amphenol, NVIDIA) that the checks flag, the
# last (NVIDIA) not for gross_profit_identity
FINDING_FILES = [COMPANYFACTS_DIR / f"CIK{cik:010d}.json.gz" for cik in (55785, 80424, 820313, 1045810)]


def test_a_batched_load_keeps_the_findings_of_every_batch(tmp_path):
    """`load --batch-size 1` replaced check_results at every batch: only the last company's findings
    remained (NVIDIA's 3, 0 and 9 where one batch found 14, 2 and 27). Every batch's findings are kept now."""
    one_go, one_go_companies = _checks_after(tmp_path, "one-go", 0)
    batched, batched_companies = _checks_after(tmp_path, "batched", 1)
    assert batched == one_go and batched_companies == one_go_companies
    # metric_bases (issue 21): none (the 5 margins/FCF of derived quarters whose parts no one filing
    # reports are flagged derived_quarters_from_different_filings since refresh/65)
    assert {name: n for name, n, _ in one_go if n} == {"balance_sheet_identity": 14, "gross_profit_identity": 2,
                                                       "quarters_sum_to_year": 27}
    assert {cik for _, cik, _ in batched_companies} == {55785, 80424, 820313, 1045810}
