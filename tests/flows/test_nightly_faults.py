"""Issue #10.1: the nightly against a loopback SEC: missing daily indexes, transient errors retried
by Prefect, a 404 reported and never retried; and the `track` command.

The flow's client is a real live SecClient whose transport reaches the loopback server of
``tests/sec_loopback.py`` serving the replay folder of night 2 (``tests/fixtures/nights``); the
flow, Prefect, parsers and DuckDB are the real ones. Requests are read back from ``run_requests``.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from sec_loopback import LoopbackSEC, respond
from typer.testing import CliRunner

import flows.nightly as nightly
from flows.cli import app
from pipelines.sec_client import SecClient, companyfacts_url, daily_index_url, submissions_url
from warehouse.load.tracking import run_requests, track
from warehouse.store.db import connect, fetch_all, writer

NIGHTS = Path(__file__).resolve().parents[1] / "fixtures" / "nights"
UA = "Flow Test flow.test@example.org"
APPLE, ADAMS = 320193, 1462356
FORM4_TXT = "https://www.sec.gov/Archives/edgar/data/320193/000032019322000061/0000320193-22-000061.txt"
SATURDAY = date(2022, 5, 7)


@pytest.fixture
def after_night1(prefect_harness, tmp_path) -> Path:
    """A warehouse tracking Apple and Adams, fetched whole on night 1 (replay)."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="track") as con:
        track(con, [APPLE, ADAMS])
    first = nightly.nightly_flow(db=str(db), replay=str(NIGHTS / "night1"), today=date(2022, 4, 28),
                                 insider_history_days=0)
    assert first["status"] == "succeeded", first
    return db


@pytest.fixture
def sec(tmp_path, monkeypatch):
    """A loopback SEC serving night 2; the nightly's live client is pointed at it."""
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(tmp_path / "sec-state"))
    with LoopbackSEC(NIGHTS / "night2") as server:
        def make_client(replay=None, cache_dir=None, rate=None, record=None):
            assert replay is None
            return SecClient(UA, transport=server.transport(), max_retries=1, backoff_base=0.01)

        monkeypatch.setattr(nightly, "make_client", make_client)
        yield server


def _requests(db: Path, load_id: str) -> Counter:
    with connect(db, read_only=True) as con:
        return Counter(run_requests(con, load_id))


def _watermarks(db: Path) -> dict:
    with connect(db, read_only=True) as con:
        return dict(fetch_all(con, "SELECT cik, synced_through FROM tracked_companies"))


def test_missing_daily_indexes_are_not_errors_and_a_missing_last_day_is_read_again(after_night1, sec):
    db = after_night1
    sec.script(daily_index_url(date(2022, 5, 2)), respond(403, b"<Error><Code>AccessDenied</Code></Error>"))
    sec.script(daily_index_url(date(2022, 5, 6)), respond(404, b"Not Found"))
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0, retry_delays=[0, 0])
    assert run["status"] == "succeeded" and not run["not_fetched"], run
    assert run["missing_days"] == [date(2022, 5, 2), date(2022, 5, 6)]
    days = [date(2022, 4, 28), date(2022, 4, 29), date(2022, 5, 3), date(2022, 5, 4), date(2022, 5, 5)]
    assert _requests(db, run["load_id"]) == Counter({
        **{(daily_index_url(d), 200): 1 for d in days},
        (daily_index_url(date(2022, 5, 2)), 403): 1, (daily_index_url(date(2022, 5, 6)), 404): 1,
        (submissions_url(APPLE), 200): 1, (companyfacts_url(APPLE), 200): 1})  # Adams: nothing read yet
    # 05-02 is known absent (later days were published); 05-06 may come late: not passed.
    assert _watermarks(db) == {APPLE: date(2022, 5, 5), ADAMS: date(2022, 5, 5)}

    again = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0, retry_delays=[0, 0])
    assert _requests(db, again["load_id"]) == Counter({
        (daily_index_url(date(2022, 5, 6)), 200): 1, (submissions_url(APPLE), 200): 1,
        (submissions_url(ADAMS), 200): 1, (FORM4_TXT, 200): 1})  # a Form 4 is no XBRL: no companyfacts
    assert again["status"] == "succeeded" and again["row_counts"]["insider_filings"] == 1, again
    assert _watermarks(db) == {APPLE: date(2022, 5, 6), ADAMS: date(2022, 5, 6)}


def test_a_transient_error_is_retried_by_prefect_and_the_night_completes(after_night1, sec):
    db = after_night1
    # The client tries twice (max_retries=1); both 503: the batch task fails and Prefect retries it.
    sec.script(companyfacts_url(APPLE), respond(503, b"busy"), respond(503, b"busy"))
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0, retry_delays=[0, 0])
    assert run["status"] == "succeeded" and not run["not_fetched"], run
    got = _requests(db, run["load_id"])
    assert got[(companyfacts_url(APPLE), 503)] == 2 and got[(companyfacts_url(APPLE), 200)] == 1
    assert got[(FORM4_TXT, 200)] == 2  # fetched in the same task: the retry asks again (no cache here)
    assert got[(submissions_url(APPLE), 200)] == 1  # the submissions task succeeded: not retried
    assert _watermarks(db) == {APPLE: date(2022, 5, 6), ADAMS: date(2022, 5, 6)}


def test_a_404_is_reported_never_retried_and_asked_again_next_night(after_night1, sec):
    db = after_night1
    sec.script(FORM4_TXT, *[respond(404, b"Not Found")] * 5)
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0, retry_delays=[0, 0])
    assert run["status"] == "partial" and [w for w, _ in run["not_fetched"]] == ["ownership 0000320193-22-000061"]
    assert _requests(db, run["load_id"])[(FORM4_TXT, 404)] == 1  # neither the client nor Prefect retried
    # Both companies the Form 4 is listed under stay behind: the next night asks for it again.
    assert _watermarks(db) == {APPLE: date(2022, 4, 27), ADAMS: date(2022, 4, 27)}
    with connect(db, read_only=True) as con:
        assert fetch_all(con, "SELECT status, documents_not_fetched FROM load_runs WHERE load_id = ?",
                         [run["load_id"]]) == [("partial", 1)]


def test_track_list_untrack_and_the_nightly_command(prefect_harness, tmp_path):
    db = tmp_path / "w.duckdb"
    cli = CliRunner()
    assert cli.invoke(app, ["--db", str(db), "track"]).exit_code == 2
    first = cli.invoke(app, ["--db", str(db), "track", "--cik", str(APPLE), "--cik", str(ADAMS)])
    assert first.exit_code == 0 and "tracking 2 more companies: 320193, 1462356" in first.output, first.output
    again = cli.invoke(app, ["--db", str(db), "track", "--cik", str(APPLE), "--list"])
    assert again.exit_code == 0 and "tracking 0 more companies" in again.output
    assert "320193" in again.output and "1462356" in again.output
    unknown = cli.invoke(app, ["--db", str(db), "track", "--ticker", "NOPE"])
    assert unknown.exit_code == 6 and "track --cik" in unknown.output, unknown.output
    gone = cli.invoke(app, ["--db", str(db), "untrack", "--cik", str(ADAMS)])
    assert gone.exit_code == 0 and "untracked 1: 1462356" in gone.output
    assert _watermarks(db) == {APPLE: None}
    ran = cli.invoke(app, ["--db", str(db), "nightly", "--replay", str(NIGHTS / "night1"), "--today", "2022-04-28",
                           "--insider-history-days", "0"])
    assert ran.exit_code == 0, ran.output
    assert "succeeded: 3 requests (0 daily indexes, 0 missing), 1 company fetched; 3 documents loaded" in ran.output
    assert _watermarks(db) == {APPLE: date(2022, 4, 27)}
