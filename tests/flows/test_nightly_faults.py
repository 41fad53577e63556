"""Issue #10.1: the nightly against a loopback SEC: missing daily indexes, transient errors retried
by the client alone, a 404 reported and never retried; and the `track` command. Issue #27.7: DNS
down or a refused connection fails the run at the first request, a spent retry budget stops it.

The flow's client is a real live SecClient whose transport reaches the loopback server of
``tests/sec_loopback.py`` serving the replay folder of night 2 (``tests/fixtures/nights``); the
flow, Prefect, parsers and DuckDB are the real ones. Requests are read back from ``run_requests``.
"""

from __future__ import annotations

import socket
import time
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from sec_loopback import LoopbackSEC, LoopbackTransport, respond
from typer.testing import CliRunner

import flows.nightly as nightly
import flows.refresh as refresh
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
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0)
    assert run["status"] == "succeeded" and not run["not_fetched"], run
    assert run["missing_days"] == [date(2022, 5, 2), date(2022, 5, 6)]
    days = [date(2022, 4, 28), date(2022, 4, 29), date(2022, 5, 3), date(2022, 5, 4), date(2022, 5, 5)]
    assert _requests(db, run["load_id"]) == Counter({
        **{(daily_index_url(d), 200): 1 for d in days},
        (daily_index_url(date(2022, 5, 2)), 403): 1, (daily_index_url(date(2022, 5, 6)), 404): 1,
        (submissions_url(APPLE), 200): 1, (companyfacts_url(APPLE), 200): 1})  # Adams: nothing read yet
    # 05-02 is known absent (later days were published); 05-06 may come late: not passed.
    assert _watermarks(db) == {APPLE: date(2022, 5, 5), ADAMS: date(2022, 5, 5)}

    again = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0)
    assert _requests(db, again["load_id"]) == Counter({
        (daily_index_url(date(2022, 5, 6)), 200): 1, (submissions_url(APPLE), 200): 1,
        (submissions_url(ADAMS), 200): 1, (FORM4_TXT, 200): 1})  # a Form 4 is no XBRL: no companyfacts
    assert again["status"] == "succeeded" and again["row_counts"]["insider_filings"] == 1, again
    assert _watermarks(db) == {APPLE: date(2022, 5, 6), ADAMS: date(2022, 5, 6)}


def test_a_transient_error_is_retried_by_the_client_alone_and_the_night_completes(after_night1, sec):
    db = after_night1
    # One 503: the client's retry gets it; nothing else of the batch is asked twice.
    sec.script(companyfacts_url(APPLE), respond(503, b"busy"))
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0)
    assert run["status"] == "succeeded" and not run["not_fetched"], run
    got = _requests(db, run["load_id"])
    assert got[(companyfacts_url(APPLE), 503)] == 1 and got[(companyfacts_url(APPLE), 200)] == 1
    assert got[(FORM4_TXT, 200)] == 1 and got[(submissions_url(APPLE), 200)] == 1
    assert _watermarks(db) == {APPLE: date(2022, 5, 6), ADAMS: date(2022, 5, 6)}


def test_retries_are_one_layer_a_document_still_failing_is_reported_and_asked_again(after_night1, sec):
    """Issue #27.7: the client retried each request AND Prefect retried the batch (3 x 2 requests
    here; with DNS down a real nightly made 72 requests in 1,548 s). Now the client's retries are
    the only ones: 2 requests (max_retries=1), the document is reported, the watermark stays."""
    db = after_night1
    sec.script(companyfacts_url(APPLE), *[respond(503, b"busy")] * 6)
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0)
    assert run["status"] == "partial" and [w for w, _ in run["not_fetched"]] == [f"companyfacts {APPLE}"], run
    got = _requests(db, run["load_id"])
    assert got[(companyfacts_url(APPLE), 503)] == 2 and got[(companyfacts_url(APPLE), 200)] == 0
    assert got[(FORM4_TXT, 200)] == 1  # the rest of the batch: asked once
    assert _watermarks(db)[APPLE] == date(2022, 4, 27)  # asked again next night


def test_a_spent_retry_budget_stops_the_run_with_one_line(after_night1, tmp_path, monkeypatch):
    """Every request failing with 503: the run's retry budget (not each request's retries) bounds
    the night, and the run stops instead of trying every remaining request."""
    db = after_night1
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(tmp_path / "sec-state"))
    monkeypatch.setenv("EDGAR_WAREHOUSE_RETRY_BUDGET", "1.5")
    with LoopbackSEC(None) as server:
        for day in (date(2022, 4, 28), date(2022, 4, 29)):
            server.script(daily_index_url(day), *[slow(0.2, respond(503, b"busy"))] * 50)
        monkeypatch.setattr(nightly, "make_client", lambda replay=None, cache_dir=None, rate=None, record=None:
                            SecClient(UA, transport=server.transport(), backoff_base=0.05))
        started = time.monotonic()
        ran = CliRunner().invoke(app, ["--db", str(db), "nightly", "--today", SATURDAY.isoformat(),
                                       "--insider-history-days", "0"], env={"SEC_USER_AGENT": UA})
        took = time.monotonic() - started
        hits = len(server.hits)
    assert ran.exit_code == 1, ran.output
    assert "retry budget of 1.5 s is spent" in _error_line(ran.output)
    assert took < 30 and hits <= 10, (took, hits)  # ~6 requests of 0.2 s plus their waits
    assert _last_run(db) == ("failed", hits)


def _error_line(output: str) -> str:
    """The CLI's one error line (and the proof that it is the only line the failure printed)."""
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    assert "Traceback" not in output
    return lines[0]


def _last_run(db: Path) -> tuple[str, int]:
    """Status and requests recorded of the warehouse's latest run."""
    with connect(db, read_only=True) as con:
        (load_id, status), = fetch_all(con, "SELECT load_id, status FROM load_runs ORDER BY started_at DESC LIMIT 1")
        return status, len(run_requests(con, load_id))


def slow(seconds: float, fault):
    def delayed(h):
        time.sleep(seconds)
        fault(h)
    return delayed


def test_dns_down_fails_the_night_at_the_first_request_with_one_line(after_night1, tmp_path, monkeypatch):
    """Issue #27.7: with DNS down a nightly made 72 requests and took 1,548 s to fail. A failed DNS
    lookup is not retried, by the client or by Prefect: one lookup, one line, exit 1. The real
    httpx transport is used; getaddrinfo refuses every name but loopback (Prefect's own API), so
    nothing leaves the machine."""
    db = after_night1
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(tmp_path / "sec-state"))
    looked_up: list[str] = []
    real = socket.getaddrinfo

    def no_dns(host, *args, **kwargs):
        if host in (None, "", "0.0.0.0", "127.0.0.1", "localhost", "::1"):
            return real(host, *args, **kwargs)
        looked_up.append(host)
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    monkeypatch.setattr(nightly, "make_client", lambda replay=None, cache_dir=None, rate=None, record=None:
                        SecClient(UA, cache_dir=cache_dir))  # the live client, default retries and transport
    started = time.monotonic()
    ran = CliRunner().invoke(app, ["--db", str(db), "nightly", "--today", SATURDAY.isoformat(),
                                   "--insider-history-days", "0"], env={"SEC_USER_AGENT": UA})
    took = time.monotonic() - started
    assert ran.exit_code == 1, ran.output
    line = _error_line(ran.output)
    assert "cannot reach www.sec.gov: DNS lookup failed" in line and "check this machine's network" in line
    assert looked_up == ["www.sec.gov"] and took < 60, (looked_up, took)
    assert _last_run(db) == ("failed", 1)


def test_connection_refused_fails_the_refresh_at_the_first_request(prefect_harness, tmp_path, monkeypatch):
    """Nothing listening where SEC should be (a real refused connection on loopback): one attempt."""
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(tmp_path / "sec-state"))
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sent: list[str] = []

    class Counting(LoopbackTransport):
        def handle_request(self, request):
            sent.append(str(request.url))
            return super().handle_request(request)

    monkeypatch.setattr(refresh, "make_client", lambda replay=None, cache_dir=None, rate=None, record=None:
                        SecClient(UA, transport=Counting(port)))
    db = tmp_path / "w.duckdb"
    started = time.monotonic()
    ran = CliRunner().invoke(app, ["--db", str(db), "refresh", "--cik", str(APPLE), "--no-insiders"],
                             env={"SEC_USER_AGENT": UA})
    assert ran.exit_code == 1, ran.output
    assert "cannot reach data.sec.gov: connection refused; not retried" in ran.output.splitlines()[-1]
    assert "Traceback" not in ran.output
    assert len(sent) <= 2 and time.monotonic() - started < 60, sent  # companyfacts and submissions, once each


def test_a_404_is_reported_never_retried_and_asked_again_next_night(after_night1, sec):
    db = after_night1
    sec.script(FORM4_TXT, *[respond(404, b"Not Found")] * 5)
    run = nightly.nightly_flow(db=str(db), today=SATURDAY, insider_history_days=0)
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
