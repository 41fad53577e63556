"""The Prefect refresh flow end to end against recorded SEC responses (replay), under Prefect's harness."""

from __future__ import annotations

import gzip
import shutil
from datetime import date
from pathlib import Path

import pytest

from flows.refresh import fetch_parse, refresh_flow
from pipelines.sec_client import SecClient
from warehouse.load.batch import Parsed, Rejected
from warehouse.load.tracking import run_requests
from warehouse.store.db import connect, fetch_all, fetch_value

APPLE = 320193


def _counts(db: Path) -> dict[str, int]:
    con = connect(db, read_only=True)
    try:
        tables = [r[0] for r in fetch_all(con, "SELECT table_name FROM duckdb_tables() WHERE NOT internal")]
        # every run adds its own load_runs row and its requests (run_requests): the rest converges
        return {t: fetch_value(con, f'SELECT count(*) FROM "{t}"') for t in tables
                if t not in ("load_runs", "run_requests")}
    finally:
        con.close()


def test_refresh_loads_companyfacts_submissions_and_insiders_then_converges(prefect_harness, tmp_path, replay_root):
    db = tmp_path / "w.duckdb"
    result = refresh_flow(db=str(db), tickers=["AAPL"], replay=str(replay_root),
                          insider_since=date(2022, 5, 6), insider_until=date(2022, 5, 6))
    assert result["ciks"] == [APPLE]
    assert result["status"] == "partial", result  # a page was not fetched (below)
    # companyfacts, submissions, both ticker files and the one Form 4 filed that day
    assert result["loaded"] == 5, result
    assert result["row_counts"]["facts"] == 24579
    # Apple's submissions list a page file that was not recorded: reported, not hidden.
    assert [w for w, _ in result["not_fetched"]] == ["submissions page CIK0000320193-submissions-001.json"]

    con = connect(db, read_only=True)
    try:
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [APPLE]) == 24579
        assert fetch_value(con, "SELECT count(*) FROM insider_filings WHERE accession = '0000320193-22-000061'") == 1
        assert fetch_value(con, "SELECT flow_run_id IS NOT NULL FROM load_runs WHERE load_id = ?",
                           [result["load_id"]])
        kinds = {r[0] for r in fetch_all(con, "SELECT kind FROM source_documents WHERE status = 'loaded'")}
        assert kinds == {"companyfacts", "submissions", "company_tickers", "company_tickers_exchange", "ownership"}
    finally:
        con.close()

    before = _counts(db)
    again = refresh_flow(db=str(db), ciks=[APPLE], replay=str(replay_root),
                         insider_since=date(2022, 5, 6), insider_until=date(2022, 5, 6))
    assert again["loaded"] == 0 and again["unchanged"] == 2  # same bytes: nothing new
    assert _counts(db) == before
    with connect(db, read_only=True) as con:  # the run's requests are recorded under it
        assert sorted(run_requests(con, again["load_id"])) == [
            ("https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json", 200),
            ("https://data.sec.gov/submissions/CIK0000320193-submissions-001.json", 404),
            ("https://data.sec.gov/submissions/CIK0000320193.json", 200)] and again["requests"] == 3


def test_refresh_rejects_bad_payload_and_loads_the_rest(prefect_harness, tmp_path, replay_root):
    replay = tmp_path / "replay"
    shutil.copytree(replay_root, replay)
    # NVIDIA's companyfacts URL answers an HTML page (as SEC does when throttling).
    bad = replay / "data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json.gz"
    bad.write_bytes(gzip.compress(b"<!DOCTYPE html><html><body>Request Rate Threshold Exceeded</body></html>"))
    db = tmp_path / "w.duckdb"
    result = refresh_flow(db=str(db), ciks=[APPLE, 1045810], replay=str(replay), insiders=False)
    assert result["status"] == "partial"
    assert len(result["rejected"]) == 1
    uri, reason = result["rejected"][0]
    assert "CIK0001045810.json" in uri and "HTML" in reason
    con = connect(db, read_only=True)
    try:
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [APPLE]) == 24579
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE cik = 1045810") == 0
        assert fetch_value(con, "SELECT count(*) FROM source_documents WHERE status = 'rejected'") == 1
    finally:
        con.close()


def test_unknown_url_in_replay_is_a_fetch_failure_not_a_crash(replay_root):
    client = SecClient.replay(replay_root)
    got = fetch_parse("companyfacts 1", lambda: client.fetch_companyfacts(1))
    assert not isinstance(got, Parsed | Rejected)
    assert "CIK0000000001.json" in got.reason


@pytest.mark.parametrize("ticker", ["NOPE-NOT-A-TICKER"])
def test_unknown_ticker_is_reported(prefect_harness, tmp_path, replay_root, ticker):
    result = refresh_flow(db=str(tmp_path / "w.duckdb"), tickers=[ticker], replay=str(replay_root))
    assert result["unknown_tickers"] == [ticker]
    assert result["ciks"] == []


def test_daily_index_discovery_fetches_each_ownership_filing_once(prefect_harness, tmp_path, replay_root):
    """10x Genomics (CIK 1770787) in EDGAR's daily form index of 2020-03-18: one Form 3 and one Form 4,
    the Form 4 listed three times (issuer and two reporting owners) but fetched once."""
    from flows.refresh import RefreshFailed

    db = tmp_path / "w.duckdb"
    with pytest.raises(RefreshFailed) as failed:
        refresh_flow(db=str(db), ciks=[1770787], replay=str(replay_root), index_days=[date(2020, 3, 18)])
    # Nothing of 10x Genomics was recorded in the replay folder, the filings included: nothing could
    # be fetched, so the run is failed (not succeeded with nothing in it).
    assert "none of the 4 documents asked for could be fetched" in str(failed.value)
    ownership = sorted(w for w, _ in failed.value.result["not_fetched"] if w.startswith("ownership "))
    assert ownership == ["ownership 0000899243-20-008926", "ownership 0000899243-20-008928"]  # once each
    con = connect(db, read_only=True)
    try:
        assert fetch_all(con, "SELECT status, documents_not_fetched FROM load_runs") == [("failed", 4)]
        assert fetch_value(con, "SELECT count(*) FROM source_documents") == 0
    finally:
        con.close()


def test_nightly_deployment_is_the_incremental_nightly_at_six_in_new_york(tmp_path):
    """Issue #10.1: the deployment runs the incremental nightly flow, cron in America/New_York."""
    from flows.deploy import nightly_deployment

    db = tmp_path / "w.duckdb"
    deployment = nightly_deployment(db)
    assert deployment.name == "edgar-nightly" and deployment.flow_name == "edgar-nightly"
    schedule = deployment.schedules[0].schedule
    assert (schedule.cron, schedule.timezone) == ("0 6 * * *", "America/New_York")
    assert deployment.parameters["db"] == str(db) and deployment.parameters["batch_size"] == 50
    assert nightly_deployment(db, cron="0 7 * * 1-5").schedules[0].schedule.cron == "0 7 * * 1-5"


def test_refresh_in_company_batches_is_one_run(prefect_harness, tmp_path, replay_root):
    db = tmp_path / "w.duckdb"
    result = refresh_flow(db=str(db), ciks=[APPLE, 1045810], replay=str(replay_root), insiders=False,
                          batch_size=1)
    assert result["loaded"] == 4 and result["status"] == "partial"  # pages listed but not recorded
    con = connect(db, read_only=True)
    try:
        assert fetch_all(con, "SELECT load_id, status, documents_loaded, documents_not_fetched FROM load_runs") == [
            (result["load_id"], "partial", 4, len(result["not_fetched"]))]
        assert dict(fetch_all(con, "SELECT cik, count(*) FROM facts GROUP BY cik")) == {APPLE: 24579, 1045810: 26903}
    finally:
        con.close()
