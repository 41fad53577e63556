"""Issue #10.1: the incremental nightly over three replayed nights, every request counted.

Tracked: Apple (320193) and Katherine L. Adams (1462356, an Apple officer who files only Forms
3/4/5). The replay folders are built from real recorded SEC data by
``tests/fixtures/nights/make_nights.py`` (README: nights/). The only fake is the HTTP transport
(``SecClient.replay``); the flow, Prefect, the parsers and DuckDB are the real ones, and the
request lists asserted here are the ones the run recorded in ``run_requests``.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

from typer.testing import CliRunner

from flows.cli import app
from flows.nightly import nightly_flow
from warehouse.load.tracking import run_requests
from warehouse.store.db import connect, fetch_all, fetch_value

NIGHTS = Path(__file__).resolve().parents[1] / "fixtures" / "nights"
APPLE, ADAMS = 320193, 1462356
TEN_Q, FORM4 = "0000320193-22-000059", "0000320193-22-000061"
SUBS = "https://data.sec.gov/submissions/CIK{:010d}.json"
FACTS = "https://data.sec.gov/api/xbrl/companyfacts/CIK{:010d}.json"
INDEX = "https://www.sec.gov/Archives/edgar/daily-index/2022/QTR2/form.{}.idx"


def _requests(db: Path, load_id: str) -> Counter:
    with connect(db, read_only=True) as con:
        return Counter(run_requests(con, load_id))


def _watermarks(db: Path) -> dict[int, date | None]:
    with connect(db, read_only=True) as con:
        return dict(fetch_all(con, "SELECT cik, synced_through FROM tracked_companies"))


def test_three_nights_cost_exactly_what_changed(prefect_harness, tmp_path):
    db = tmp_path / "w.duckdb"
    cli = CliRunner()
    tracked = cli.invoke(app, ["--db", str(db), "track", "--cik", str(APPLE), "--cik", str(ADAMS)])
    assert tracked.exit_code == 0, tracked.output
    assert _watermarks(db) == {APPLE: None, ADAMS: None}

    # Night 1 (Thu 2022-04-28): never fetched, so fetched whole; no index is needed.
    n1 = nightly_flow(db=str(db), replay=str(NIGHTS / "night1"), today=date(2022, 4, 28), insider_history_days=0)
    assert n1["status"] == "succeeded" and n1["loaded"] == 4 and not n1["not_fetched"], n1
    assert _requests(db, n1["load_id"]) == Counter({
        (SUBS.format(APPLE), 200): 1, (SUBS.format(ADAMS), 200): 1, (FACTS.format(APPLE), 200): 1,
        ("https://data.sec.gov/submissions/CIK0000320193-submissions-001.json", 200): 1})
    assert n1["requests"] == 4 and n1["index_days"] == []
    assert _watermarks(db) == {APPLE: date(2022, 4, 27), ADAMS: date(2022, 4, 27)}
    with connect(db, read_only=True) as con:
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE accession = ?", [TEN_Q]) == 0
        facts_before = fetch_value(con, "SELECT count(*) FROM facts")

    # Night 2 (Sat 2022-05-07): seven daily indexes (2022-04-28 .. 05-06); Apple filed an 8-K, its
    # 10-Q and S-8s, Adams a Form 4 (listed under Apple too). Exactly: both submissions, Apple's
    # companyfacts (the 10-Q is XBRL), the Form 4 once; Apple's page is held, Adams files no XBRL.
    n2 = nightly_flow(db=str(db), replay=str(NIGHTS / "night2"), today=date(2022, 5, 7), insider_history_days=0)
    days = ["20220428", "20220429", "20220502", "20220503", "20220504", "20220505", "20220506"]
    assert _requests(db, n2["load_id"]) == Counter({
        **{(INDEX.format(d), 200): 1 for d in days},
        (SUBS.format(APPLE), 200): 1, (SUBS.format(ADAMS), 200): 1, (FACTS.format(APPLE), 200): 1,
        (f"https://www.sec.gov/Archives/edgar/data/320193/000032019322000061/{FORM4}.txt", 200): 1})
    assert n2["status"] == "succeeded" and n2["loaded"] == 4 and n2["requests"] == 11, n2
    assert n2["companies"] == [APPLE, ADAMS] and n2["missing_days"] == []
    assert n2["row_counts"]["insider_filings"] == 1 and n2["row_counts"]["facts"] > 0
    assert _watermarks(db) == {APPLE: date(2022, 5, 6), ADAMS: date(2022, 5, 6)}
    with connect(db, read_only=True) as con:
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE accession = ?", [TEN_Q]) > 0
        assert fetch_value(con, "SELECT count(*) FROM facts") == facts_before + n2["row_counts"]["facts"]
        assert fetch_value(con, "SELECT count(*) FROM insider_filings WHERE accession = ?", [FORM4]) == 1
        assert fetch_all(con, "SELECT cik, form FROM filings WHERE accession IN (?, ?) ORDER BY cik, form",
                         [TEN_Q, FORM4]) == [(APPLE, "10-Q"), (APPLE, "4"), (ADAMS, "4")]

    # Night 3 (Tue 2022-05-10): the index of Monday 2022-05-09 lists nothing of theirs: one request.
    n3 = nightly_flow(db=str(db), replay=str(NIGHTS / "night3"), today=date(2022, 5, 10), insider_history_days=0)
    assert _requests(db, n3["load_id"]) == Counter({(INDEX.format("20220509"), 200): 1})
    assert n3["status"] == "succeeded" and n3["loaded"] == 0 and n3["companies"] == [], n3
    assert not any(n3["row_counts"].values())
    assert _watermarks(db) == {APPLE: date(2022, 5, 9), ADAMS: date(2022, 5, 9)}

    with connect(db, read_only=True) as con:
        runs = fetch_all(con, "SELECT command, status, documents_loaded, documents_not_fetched FROM load_runs"
                              " WHERE command = 'nightly' ORDER BY started_at")
    assert runs == [("nightly", "succeeded", 4, 0)] * 2 + [("nightly", "succeeded", 0, 0)]

    # status shows what each night cost; the Prefect UI has the same as an artifact per run.
    shown = cli.invoke(app, ["--db", str(db), "status"])
    assert shown.exit_code == 0, shown.output
    assert "Recent runs: requests to SEC" in shown.output and "Tracked companies" in shown.output
    assert _artifact_of(n3["load_id"], db).count("| requests to SEC | 1 (") == 1


def _artifact_of(load_id: str, db: Path) -> str:
    from uuid import UUID

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId, ArtifactFilterKey

    with connect(db, read_only=True) as con:
        flow_run_id = fetch_value(con, "SELECT flow_run_id FROM load_runs WHERE load_id = ?", [load_id])
    with get_client(sync_client=True) as client:
        found = client.read_artifacts(artifact_filter=ArtifactFilter(
            key=ArtifactFilterKey(any_=["edgar-nightly"]), flow_run_id=ArtifactFilterFlowRunId(any_=[UUID(flow_run_id)])))
    assert len(found) == 1
    return found[0].data
