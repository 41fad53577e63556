"""The refresh flow against a loopback SEC: rejected bodies leave the HTTP cache, a throttle page stops the run.

The flow's client is a real live SecClient (User-Agent with a contact, cache beside the warehouse)
whose transport reaches the loopback server of ``tests/sec_loopback.py``; the flow, parsers,
Prefect and DuckDB are the real ones.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from sec_loopback import ERROR_PAGE, THROTTLE_PAGE, LoopbackSEC, gzip_ok, respond

import flows.refresh as refresh
from pipelines.errors import SecThrottled
from pipelines.sec_client import THROTTLE_BLOCK_SECONDS, SecClient, companyfacts_url, submissions_url
from pipelines.sec_ratelimit import BLOCK_FILE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sec"
UA = "Flow Test flow.test@example.org"
TSMC = 1046179


@pytest.fixture
def sec(tmp_path, monkeypatch):
    """A loopback SEC serving the recorded responses; the flow's live client is pointed at it."""
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(tmp_path / "sec-state"))
    with LoopbackSEC(FIXTURES) as server:
        def make_client(replay=None, cache_dir=None, rate=None, record=None):
            assert replay is None and record is None
            return SecClient(UA, transport=server.transport(), cache_dir=cache_dir, backoff_base=0.05)

        monkeypatch.setattr(refresh, "make_client", make_client)
        yield server


def cached(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.rglob("*.gz")) if cache.exists() else []


def test_bodies_the_parser_rejects_leave_the_cache_and_the_next_refresh_loads_them(prefect_harness, sec, tmp_path):
    """Issue #8.4: a rejected body stayed in the cache and was rejected again on every refresh."""
    db = tmp_path / "w.duckdb"
    cache = tmp_path / "http-cache"
    apple_subs = gzip.decompress((FIXTURES / "data.sec.gov/submissions/CIK0000320193.json.gz").read_bytes())
    sec.script(companyfacts_url(TSMC), respond(200, ERROR_PAGE, {"Content-Type": "text/html"}))
    sec.script(submissions_url(TSMC), gzip_ok(apple_subs))  # a well-formed body about another company
    first = refresh.refresh_flow(db=str(db), ciks=[TSMC], insiders=False, cache_dir=str(cache))
    assert first["status"] == "partial" and len(first["rejected"]) == 2, first
    reasons = " ".join(reason for _, reason in first["rejected"])
    assert "HTML" in reasons and "CIK 320193" in reasons
    assert cached(cache) == []  # neither the HTML page nor the wrong company's body is kept
    second = refresh.refresh_flow(db=str(db), ciks=[TSMC], insiders=False, cache_dir=str(cache))
    assert second["loaded"] == 2 and not second["rejected"], second
    assert cached(cache) == ["CIK0001046179.json.gz", "CIK0001046179.json.gz"]


def test_a_throttle_page_with_200_stops_the_refresh(prefect_harness, sec, tmp_path):
    """Issue #8.4: the 200 throttle page was loaded as a document and the run went on asking."""
    ciks = [320193, 1045810, 1046179, 1652044]
    sec.script(companyfacts_url(ciks[0]), respond(200, THROTTLE_PAGE, {"Content-Type": "text/html"}))
    with pytest.raises(SecThrottled):
        refresh.refresh_flow(db=str(tmp_path / "w.duckdb"), ciks=ciks, insiders=False,
                             cache_dir=str(tmp_path / "http-cache"))
    throttled_at = sec.hits_for(companyfacts_url(ciks[0]))[0].at
    block = json.loads((tmp_path / "sec-state" / BLOCK_FILE).read_text())
    blocked_at = block["blocked_until"] - THROTTLE_BLOCK_SECONDS
    # Nothing is asked once the page is recognised (the block starts). A fetch that had passed its
    # last check just before may still land after: at most one or two (the limiter spaces requests
    # 0.1 s apart), and within a second (a loaded box delays the server thread that timestamps
    # arrivals, which made the old "nothing after the page's arrival" flaky). A run that went on
    # asking sends its other 7 requests at 10/s and fails both bounds.
    after_block = [h.path for h in sec.hits if h.at > blocked_at]
    assert len(after_block) <= 2, after_block
    assert [h.path for h in sec.hits if h.at > blocked_at + 1.0] == []
    # The throttle page is never cached. Fetches run concurrently, so another company's body that
    # was answered before the page may be (a good body, asked before the block started).
    answered_before = {Path(h.path).name + ".gz" for h in sec.hits if h.at <= throttled_at}
    kept = cached(tmp_path / "http-cache")
    assert "CIK0000320193.json.gz" not in kept
    assert set(kept) <= answered_before, (kept, answered_before)
