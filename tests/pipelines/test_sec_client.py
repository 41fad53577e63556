"""SecClient: User-Agent rules, rate limiting, retries, SEC's 403 pages, cache, replay and recording."""

from __future__ import annotations

import email.utils
import errno
import gzip
import json
import logging
import random
import socket
import subprocess
import sys
import threading
from datetime import date
from pathlib import Path

import httpcore
import httpx
import pytest

from pipelines.detect import detect_kind
from pipelines.errors import (
    ConfigError,
    NotFound,
    RetryBudgetSpent,
    SecForbidden,
    SecThrottled,
    SecUnreachable,
    TerminalError,
    TransientError,
)
from pipelines.replay import ReplayTransport, url_relpath
from pipelines.sec_client import (
    RateLimiter,
    SecClient,
    archive_url,
    cache_problem,
    companyfacts_url,
    daily_index_url,
    is_immutable_url,
    sec_refusal_page,
    shared_limiter,
    submissions_page_url,
    submissions_url,
)

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "sec"
CONTACT = "jane.doe@example.org"
UA = f"Test Suite {CONTACT}"
SUBS = "https://data.sec.gov/submissions/CIK0000320193.json"
ARCHIVE = "https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/0000320193-23-000106.txt"
UNDECLARED_PAGE = b"<html><body><h1>Your Request Originates from an Undeclared Automated Tool</h1></body></html>"
RATE_PAGE = b"<html><body><h1>Request Rate Threshold Exceeded</h1><p>... 10 minutes ...</p></body></html>"


class FakeClock:
    """Monotonic clock + sleep that only move when slept on; records every sleep."""

    def __init__(self) -> None:
        self.t = 1000.0
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        return self.t

    def wall(self) -> float:
        return 1_700_000_000.0 + self.t

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        with self._lock:
            self.sleeps.append(seconds)
            self.t += seconds


class Server:
    """httpx.MockTransport driven by a script of responses; records each request and its clock time."""

    def __init__(self, clock: FakeClock, script=None, default=None):
        self.clock = clock
        self.script = list(script or [])
        self.default = default or (lambda req: httpx.Response(200, content=b'{"ok": true}'))
        self.requests: list[httpx.Request] = []
        self.times: list[float] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.times.append(self.clock.now())
        step = self.script.pop(0) if self.script else self.default
        if isinstance(step, Exception):
            raise step
        return step(request) if callable(step) else step

    def client(self, **kw) -> SecClient:
        kw.setdefault("rng", random.Random(7))
        return SecClient(UA, transport=httpx.MockTransport(self), clock=self.clock.now, sleep=self.clock.sleep,
                         wall_clock=self.clock.wall, **kw)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch) -> Path:
    """The shared rate limit's folder of this test (never the user's real ~/.cache/edgar-warehouse)."""
    d = tmp_path / "sec-state"
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(d))
    return d


# ---------------------------------------------------------------- User-Agent


def test_user_agent_required_with_contact(monkeypatch):
    monkeypatch.delenv("SEC_USER_AGENT", raising=False)
    with pytest.raises(ConfigError, match='export SEC_USER_AGENT="Your Name you@example.com"'):
        SecClient()
    monkeypatch.setenv("SEC_USER_AGENT", "Just A Name")
    with pytest.raises(ConfigError, match="no contact email") as info:
        SecClient()
    assert "Just A Name" not in str(info.value)
    with pytest.raises(ConfigError):
        SecClient("Name bad\r\nX-Evil: 1 a@b.co")


def test_user_agent_from_environment_is_sent_with_gzip(monkeypatch, clock):
    monkeypatch.setenv("SEC_USER_AGENT", UA)
    server = Server(clock)
    client = SecClient(transport=httpx.MockTransport(server), clock=clock.now, sleep=clock.sleep)
    client.get(SUBS)
    assert server.requests[0].headers["user-agent"] == UA
    assert server.requests[0].headers["accept-encoding"] == "gzip, deflate"


def test_gzip_body_is_decoded(clock):
    raw = b'{"cik": "320193", "name": "Apple Inc.", "tickers": ["AAPL"], "filings": {}}'
    server = Server(clock, default=lambda req: httpx.Response(
        200, headers={"content-encoding": "gzip"}, content=gzip.compress(raw)))
    assert server.client().get(SUBS).body == raw


def test_contact_never_leaks_into_logs_errors_or_documents(clock, caplog, tmp_path):
    caplog.set_level(logging.DEBUG)
    server = Server(clock, script=[
        httpx.Response(200, headers={"etag": '"e1"'}, content=b"{}"),
        httpx.Response(404),
        httpx.Response(403, content=UNDECLARED_PAGE),
        httpx.Response(403, content=b"nope"),
        *[httpx.Response(503)] * 3,
        httpx.ConnectError("[Errno 111] Connection refused"),
        *[httpx.ReadError("connection reset")] * 3,
        httpx.Response(403, content=RATE_PAGE),
    ])
    client = server.client(max_retries=2, cache_dir=tmp_path)
    docs = [client.get(SUBS, kind="submissions", expected_cik=320193)]
    errors = []
    for _ in range(7):
        with pytest.raises((NotFound, SecForbidden, SecUnreachable, TransientError)) as info:
            client.get(SUBS)
        errors.append(info.value)
    assert [type(e).__name__ for e in errors] == [
        "NotFound", "SecForbidden", "AccessDenied", "TransientError", "SecUnreachable", "TransientError",
        "SecThrottled"]
    assert all(r.headers["user-agent"] == UA for r in server.requests)  # it is sent ...
    texts = [caplog.text, repr(client)] + [repr(d) for d in docs]
    for e in errors:
        while e is not None:
            texts += [str(e), repr(e)]
            e = e.__cause__ or e.__context__
    texts += [p.read_text() for p in tmp_path.rglob("*.json")]
    assert not [t for t in texts if CONTACT in t or "jane.doe" in t]  # ... and appears nowhere else
    assert "User-Agent" in str(errors[1])


# ---------------------------------------------------------------- rate limiting


def test_requests_are_evenly_spaced_at_the_default_rate(clock):
    server = Server(clock)
    client = server.client()
    for _ in range(20):
        client.get(SUBS)
    gaps = [b - a for a, b in zip(server.times, server.times[1:], strict=False)]
    assert gaps == pytest.approx([1 / 8] * 19, abs=1e-5)
    assert clock.sleeps == pytest.approx([1 / 8] * 19, abs=1e-5)  # one sleep per request: no bursts, no extra waits


def test_never_more_than_ten_requests_in_any_second(clock):
    server = Server(clock)
    client = server.client(rate=10)
    for _ in range(60):
        client.get(SUBS)
    t = server.times
    assert all(t[i + 10] - t[i] >= 1.0 - 1e-9 for i in range(len(t) - 10))
    assert min(b - a for a, b in zip(t, t[1:], strict=False)) >= 0.1 - 1e-9


def test_limiter_is_thread_safe(clock):
    limiter = RateLimiter(10, clock=clock.now, sleep=clock.sleep)
    starts: list[float] = []
    lock = threading.Lock()

    def worker():
        for _ in range(15):
            s = limiter.acquire()
            with lock:
                starts.append(s)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    starts.sort()
    assert len(starts) == 60
    assert min(b - a for a, b in zip(starts, starts[1:], strict=False)) >= 0.1 - 1e-9
    assert all(starts[i + 10] - starts[i] >= 1.0 - 1e-9 for i in range(50))


def test_rate_above_ten_or_not_positive_is_refused(clock):
    for rate in (10.5, 0, -1, float("nan")):
        with pytest.raises(ConfigError, match="at most 10"):
            Server(clock).client(rate=rate)
        with pytest.raises(ConfigError):
            RateLimiter(rate)


def test_limiter_is_process_wide_and_lazy(clock, state_dir):
    server = Server(clock)
    a, b = server.client(), server.client()
    assert a.limiter is b.limiter is shared_limiter(clock=clock.wall, sleep=clock.sleep, state_dir=state_dir)
    assert a.limiter.shared
    for _ in range(5):
        a.get(SUBS)
        b.get(SUBS)
    gaps = [y - x for x, y in zip(server.times, server.times[1:], strict=False)]
    assert gaps == pytest.approx([1 / 8] * 9, abs=1e-5)  # two clients, one spacing
    assert (state_dir / "sec-rate.lock").is_file()  # ... kept where other processes see it
    server.client(rate=4).get(SUBS)  # a slower client slows the whole process
    a.get(SUBS)
    assert a.limiter.rate == 4
    assert server.times[-1] - server.times[-2] == pytest.approx(1 / 4, abs=1e-5)
    # Importing the module creates no limiter (no import-time side effects).
    code = "import pipelines.sec_client, pipelines.sec_ratelimit as m; assert m._shared_limiters == {}"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


def test_replay_is_neither_rate_limited_nor_slept_on(clock):
    client = SecClient.replay(FIXTURES, clock=clock.now, sleep=clock.sleep)
    for _ in range(30):
        client.fetch_company_tickers()
    assert clock.sleeps == [] and clock.t == 1000.0


# ---------------------------------------------------------------- retries


def test_5xx_retries_with_exponential_backoff_and_jitter(clock):
    server = Server(clock, script=[httpx.Response(503), httpx.Response(500), httpx.Response(502),
                                   httpx.Response(504)])
    doc = server.client(backoff_base=1.0).get(SUBS)
    assert doc.http_status == 200 and len(server.requests) == 5
    assert len(clock.sleeps) == 4
    for k, s in enumerate(clock.sleeps):
        assert 2 ** k / 2 <= s <= 2 ** k  # equal jitter in [d/2, d], d doubling
    assert len(set(clock.sleeps)) == 4


def test_retry_after_seconds_and_http_date_are_honoured(clock):
    later = email.utils.formatdate(clock.wall() + 7 + 30, usegmt=True)  # 30 s after the first retry
    server = Server(clock, script=[
        httpx.Response(429, headers={"retry-after": "7"}),
        httpx.Response(503, headers={"retry-after": later}),
    ])
    server.client().get(SUBS)
    assert clock.sleeps == pytest.approx([7, 30], abs=1e-6)
    assert len(server.requests) == 3


def test_retry_after_beyond_the_limit_gives_up_at_once(clock):
    server = Server(clock, default=lambda req: httpx.Response(429, headers={"retry-after": "3600"}))
    with pytest.raises(TransientError, match="retry after 3600 s"):
        server.client().get(SUBS)
    assert len(server.requests) == 1 and clock.sleeps == []


def test_retries_exhausted_raise_transient_error_naming_url(clock):
    server = Server(clock, default=lambda req: httpx.Response(502))
    with pytest.raises(TransientError, match=r"CIK0000320193\.json: gave up after 3 retries \(last: HTTP 502\)"):
        server.client(max_retries=3).get(SUBS)
    assert len(server.requests) == 4


def test_network_errors_retry_then_succeed_or_give_up(clock):
    server = Server(clock, script=[httpx.ConnectError("refused"), httpx.ReadTimeout("slow")])
    assert server.client().get(SUBS).body == b'{"ok": true}'
    assert len(server.requests) == 3
    server = Server(clock, default=lambda req: (_ for _ in ()).throw(httpx.ConnectError("refused")))
    with pytest.raises(TransientError, match="CIK0000320193.json: gave up after 5 retries") as info:
        server.client().get(SUBS)
    assert isinstance(info.value.__cause__, httpx.ConnectError)
    assert len(server.requests) == 6


def _chained(exc: OSError, text: str) -> httpx.ConnectError:
    """A ConnectError as httpx raises it: from httpcore's, from the socket error."""
    try:
        try:
            raise exc
        except OSError as os_error:
            raise httpcore.ConnectError(text) from os_error
    except httpcore.ConnectError as core:
        try:
            raise httpx.ConnectError(text) from core
        except httpx.ConnectError as outer:
            return outer


@pytest.mark.parametrize(("error", "said"), [
    (socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"), "DNS lookup failed"),
    (ConnectionRefusedError(111, "Connection refused"), "connection refused"),
    (OSError(errno.ENETUNREACH, "Network is unreachable"), "no route to the host"),
])
def test_no_connection_at_all_is_not_retried(clock, error, said):
    """Issue #27.7: DNS down, a refused connection or no route was retried 5 times per request (and
    the nightly's batch 3 times): 72 requests and 1,548 s before the run failed."""
    server = Server(clock, default=lambda req: (_ for _ in ()).throw(_chained(error, str(error))))
    with pytest.raises(SecUnreachable, match=f"cannot reach data.sec.gov: {said}") as info:
        server.client().get(SUBS)
    assert "not retried" in str(info.value) and "\n" not in str(info.value)
    assert len(server.requests) == 1 and clock.sleeps == []


def test_the_retry_budget_bounds_the_retries_of_all_requests_together(clock):
    """Each request may retry 5 times (waits of about 1, 2, 4, 8, 16 s), but the client's budget (one
    run's) caps the seconds all requests spend on failed attempts and waits: once spent, a failing
    request is not retried and raises RetryBudgetSpent, which stops the run."""
    server = Server(clock, default=lambda req: httpx.Response(503))
    client = server.client(retry_budget=10)
    with pytest.raises(RetryBudgetSpent, match=r"retry budget of 10 s is spent") as info:
        client.get(SUBS)
    assert "run again later" in str(info.value) and "EDGAR_WAREHOUSE_RETRY_BUDGET" in str(info.value)
    first = len(server.requests)
    assert first in (4, 5) and sum(_backoffs(clock)) <= 10  # waits of 0.5-1, 1-2, 2-4 (and 4-8) s
    for _ in range(3):  # every later failing request: one attempt, no wait
        with pytest.raises(RetryBudgetSpent):
            client.get(SUBS)
    assert len(server.requests) <= first + 4 and sum(_backoffs(clock)) <= 10  # (one 0.5 s wait may still fit)


def _backoffs(clock: FakeClock) -> list[float]:
    """The waits before retries (the rate limiter's 1/8 s spacing left out)."""
    return [s for s in clock.sleeps if abs(s - 1 / 8) > 1e-6]


def test_the_retry_budget_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("EDGAR_WAREHOUSE_RETRY_BUDGET", "7.5")
    assert SecClient(UA).retry_budget == 7.5
    monkeypatch.setenv("EDGAR_WAREHOUSE_RETRY_BUDGET", "soon")
    with pytest.raises(ConfigError, match="EDGAR_WAREHOUSE_RETRY_BUDGET='soon'"):
        SecClient(UA)


# ---------------------------------------------------------------- SEC's 403 pages and 404


def test_rate_threshold_page_blocks_the_process_for_ten_minutes(clock):
    server = Server(clock, script=[httpx.Response(403, content=RATE_PAGE)])
    client = server.client()
    with pytest.raises(SecThrottled, match="Request Rate Threshold Exceeded"):
        client.get(SUBS)
    assert len(server.requests) == 1  # not retried
    other = server.client()  # another client of the same process is blocked too
    for c in (client, other, client):
        with pytest.raises(SecThrottled, match="requests resume in 600 s"):
            c.get(SUBS)
    assert len(server.requests) == 1 and clock.sleeps == []  # no network, no tight loop
    clock.sleep(599)
    with pytest.raises(SecThrottled, match="resume in 1 s"):
        other.get(SUBS)
    clock.sleep(1)
    assert other.get(SUBS).http_status == 200
    assert len(server.requests) == 2


def test_undeclared_tool_and_other_403_are_forbidden_404_is_not_found(clock):
    server = Server(clock, script=[httpx.Response(403, content=UNDECLARED_PAGE), httpx.Response(403, text="no"),
                                   httpx.Response(404)])
    client = server.client()
    with pytest.raises(SecForbidden, match="refused the User-Agent.*SEC_USER_AGENT"):
        client.get(SUBS)
    with pytest.raises(SecForbidden, match="HTTP 403"):
        client.get(SUBS)
    with pytest.raises(NotFound, match=r"CIK0000320193\.json: HTTP 404"):
        client.get(SUBS)
    assert len(server.requests) == 3
    assert client.limiter.blocked_for() == 0


def test_only_https_sec_gov_urls(clock):
    client = Server(clock).client()
    for url in ("http://www.sec.gov/x", "https://example.com/x", "https://evilsec.gov/x"):
        with pytest.raises(TerminalError, match="only https://"):
            client.get(url)


# ---------------------------------------------------------------- cache


def test_archives_are_cached_forever(clock, tmp_path):
    server = Server(clock, default=lambda req: httpx.Response(200, content=b"<SEC-DOCUMENT>filing"))
    first = server.client(cache_dir=tmp_path).get(ARCHIVE, kind="ownership", accession="0000320193-23-000106")
    second = server.client(cache_dir=tmp_path).get(ARCHIVE, kind="ownership", accession="0000320193-23-000106")
    assert len(server.requests) == 1
    assert (first.from_cache, second.from_cache) == (False, True)
    assert second.body == first.body and second.fetched_at == first.fetched_at
    assert (second.kind, second.accession, second.origin) == ("ownership", "0000320193-23-000106", "http")
    base = tmp_path / "www.sec.gov/Archives/edgar/data/320193/000032019323000106/0000320193-23-000106.txt"
    assert gzip.decompress(base.with_name(base.name + ".gz").read_bytes()) == b"<SEC-DOCUMENT>filing"
    meta = json.loads(base.with_name(base.name + ".meta.json").read_text())
    assert meta["url"] == ARCHIVE and meta["status"] == 200
    assert not list(tmp_path.rglob("*.tmp"))


def test_other_endpoints_revalidate_and_304_serves_cached_body(clock, tmp_path):
    lm = "Tue, 01 Oct 2024 10:00:00 GMT"
    v1 = b'{"cik": "320193", "name": "Apple Inc.", "tickers": ["AAPL"], "filings": {"v": 1}}'
    v2 = v1.replace(b'"v": 1', b'"v": 2')
    server = Server(clock, script=[
        httpx.Response(200, headers={"etag": '"v1"', "last-modified": lm}, content=v1),
        httpx.Response(304, headers={"etag": '"v1"'}),
        httpx.Response(200, headers={"etag": '"v2"'}, content=v2),
    ])
    client = server.client(cache_dir=tmp_path)
    assert client.get(SUBS).body == v1
    assert "if-none-match" not in server.requests[0].headers
    doc = client.get(SUBS, kind="submissions", expected_cik=320193)
    assert server.requests[1].headers["if-none-match"] == '"v1"'
    assert server.requests[1].headers["if-modified-since"] == lm
    assert (doc.body, doc.from_cache, doc.http_status, doc.etag, doc.last_modified) == (
        v1, True, 304, '"v1"', lm)
    assert (doc.kind, doc.expected_cik) == ("submissions", 320193)
    doc = client.get(SUBS)
    assert (doc.body, doc.from_cache, doc.etag) == (v2, False, '"v2"')
    server.script = [httpx.Response(304)]  # the 200 replaced the entry: revalidated with the new ETag
    assert client.get(SUBS).body == v2
    assert server.requests[-1].headers["if-none-match"] == '"v2"'


def test_cache_ttl_skips_requests_until_it_expires(clock, tmp_path):
    server = Server(clock, script=[httpx.Response(200, headers={"etag": '"a"'}, content=b"{}"),
                                   httpx.Response(304)])
    client = server.client(cache_dir=tmp_path, cache_ttl_seconds=60)
    client.get(SUBS)
    clock.sleep(59)
    assert client.get(SUBS).from_cache and len(server.requests) == 1
    clock.sleep(2)
    assert client.get(SUBS).http_status == 304 and len(server.requests) == 2


def test_corrupt_cache_entry_is_refetched(clock, tmp_path):
    server = Server(clock, default=lambda req: httpx.Response(200, content=b"filing"))
    client = server.client(cache_dir=tmp_path)
    client.get(ARCHIVE)
    body = next(tmp_path.rglob("*.txt.gz"))
    body.write_bytes(b"not gzip")
    assert client.get(ARCHIVE).body == b"filing" and len(server.requests) == 2


def test_indexes_and_listings_under_archives_are_not_immutable():
    assert is_immutable_url(ARCHIVE)
    assert is_immutable_url(daily_index_url("2020-03-18"))
    assert not is_immutable_url("https://www.sec.gov/Archives/edgar/full-index/2024/QTR1/company.idx")
    assert not is_immutable_url("https://www.sec.gov/Archives/edgar/data/320193/")
    assert not is_immutable_url("https://www.sec.gov/Archives/edgar/data/320193/index.json")
    assert not is_immutable_url(SUBS)


# ---------------------------------------------------------------- replay and recording


def test_replay_serves_recorded_responses(monkeypatch):
    monkeypatch.delenv("SEC_USER_AGENT", raising=False)  # nothing goes out: no contact needed
    with SecClient.replay(FIXTURES) as client:
        facts = client.fetch_companyfacts(320193)
        assert (facts.origin, facts.kind, facts.expected_cik, facts.http_status) == ("replay", "companyfacts",
                                                                                     320193, 200)
        assert facts.uri == "https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json"
        assert json.loads(facts.body)["entityName"] == "Apple Inc."
        assert detect_kind(facts.body, document=facts.uri) == "companyfacts"
        subs = client.fetch_submissions("0001318605")
        assert json.loads(subs.body)["cik"].lstrip("0") == "1318605"
        page = client.fetch_submissions_page("CIK0001318605-submissions-001.json", 1318605)
        assert (page.kind, page.expected_cik) == ("submissions_page", 1318605)
        assert detect_kind(page.body, document=page.uri) == "submissions_page"
        tickers = client.fetch_company_tickers()
        assert detect_kind(tickers.body, document=tickers.uri) == "company_tickers"
        exch = client.fetch_company_tickers_exchange()
        assert detect_kind(exch.body, document=exch.uri) == "company_tickers_exchange"


def test_replay_unknown_url_is_a_clear_not_found():
    client = SecClient.replay(FIXTURES)
    url = companyfacts_url(1)
    with pytest.raises(NotFound) as info:
        client.get(url)
    msg = str(info.value)
    plain = FIXTURES / "data.sec.gov/api/xbrl/companyfacts/CIK0000000001.json"
    assert url in msg and f"replay folder {FIXTURES}" in msg
    assert str(plain) in msg and f"{plain}.gz" in msg


def test_replay_needs_the_placeholder_or_a_real_contact(monkeypatch, tmp_path):
    monkeypatch.delenv("SEC_USER_AGENT", raising=False)
    with pytest.raises(ConfigError):
        SecClient(transport=ReplayTransport(tmp_path))
    with pytest.raises(ConfigError):  # the placeholder is refused for a live client
        SecClient("edgar-warehouse replay (no network)")


def test_replay_prefers_plain_file(tmp_path):
    target = tmp_path / "www.sec.gov/Archives/edgar/data/1/a.txt"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"plain")
    (target.parent / "a.txt.gz").write_bytes(gzip.compress(b"gz"))
    assert SecClient.replay(tmp_path).fetch_archive("edgar/data/1/a.txt").body == b"plain"


def test_recording_then_replay_round_trip(clock, tmp_path):
    body = b'{"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}}'
    server = Server(clock, default=lambda req: httpx.Response(
        200, headers={"content-encoding": "gzip"}, content=gzip.compress(body)))
    live = SecClient.recording(tmp_path, UA, transport=httpx.MockTransport(server), clock=clock.now,
                               sleep=clock.sleep, wall_clock=clock.wall)
    assert live.fetch_company_tickers().body == body
    recorded = tmp_path / "www.sec.gov/files/company_tickers.json.gz"
    assert gzip.decompress(recorded.read_bytes()) == body
    server.default = lambda req: httpx.Response(404)
    with pytest.raises(NotFound):
        live.fetch_company_tickers_exchange()
    assert not (tmp_path / "www.sec.gov/files/company_tickers_exchange.json.gz").exists()
    replayed = SecClient.replay(tmp_path).fetch_company_tickers()
    assert (replayed.body, replayed.origin, replayed.kind) == (body, "replay", "company_tickers")


# ---------------------------------------------------------------- logging


def test_one_log_line_per_request(clock, caplog):
    caplog.set_level(logging.INFO, logger="pipelines.sec_client")
    server = Server(clock, script=[httpx.Response(503)])
    server.client(rng=random.Random(1)).get(SUBS)
    lines = [r.getMessage() for r in caplog.records if r.name == "pipelines.sec_client"]
    assert len(lines) == 2  # the retry warning and the final line
    assert lines[-1].startswith(f"GET {SUBS} -> 200 in ") and lines[-1].endswith("ms, retries=1")
    assert "-> HTTP 503" in lines[0] and "retrying in" in lines[0]


# ---------------------------------------------------------------- URL builders


def test_url_builders():
    assert companyfacts_url(320193) == "https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json"
    assert submissions_url("CIK0000320193") == "https://data.sec.gov/submissions/CIK0000320193.json"
    assert submissions_page_url("CIK0001318605-submissions-001.json") == (
        "https://data.sec.gov/submissions/CIK0001318605-submissions-001.json")
    assert daily_index_url(date(2020, 3, 18)) == (
        "https://www.sec.gov/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx")
    assert daily_index_url("20181231", "master") == (
        "https://www.sec.gov/Archives/edgar/daily-index/2018/QTR4/master.20181231.idx")
    assert daily_index_url("2022-10-03", "company").endswith("/2022/QTR4/company.20221003.idx")
    for given in ("edgar/data/320193/x.txt", "/Archives/edgar/data/320193/x.txt",
                  "https://www.sec.gov/Archives/edgar/data/320193/x.txt"):
        assert archive_url(given) == "https://www.sec.gov/Archives/edgar/data/320193/x.txt"
    for bad in (lambda: companyfacts_url(0), lambda: companyfacts_url("12a"), lambda: companyfacts_url(10**10),
                lambda: submissions_page_url("../x.json"), lambda: archive_url("edgar/../../etc/passwd"),
                lambda: archive_url("https://www.sec.gov/Archives/../files/x"), lambda: archive_url("/Archives/"),
                lambda: archive_url("https://example.com/Archives/x"), lambda: daily_index_url("2020-13-01"),
                lambda: daily_index_url("2020-01-01", "crawler")):
        with pytest.raises(TerminalError):
            bad()
    assert str(url_relpath("https://www.sec.gov/Archives/edgar/data/1/")) == (
        "www.sec.gov/Archives/edgar/data/1/index.html")


def test_fetch_daily_index_from_replay(tmp_path):
    day = tmp_path / "www.sec.gov/Archives/edgar/daily-index/2020/QTR1"
    day.mkdir(parents=True)
    (day / "form.20200318.idx.gz").write_bytes((REPO / "tests/fixtures/idx/form.20200318.idx.gz").read_bytes())
    doc = SecClient.replay(tmp_path).fetch_daily_index("2020-03-18", "form")
    assert doc.kind == "daily_index" and detect_kind(doc.body, document=doc.uri) == "daily_index"


def test_redirect_away_from_sec_is_refused(clock):
    server = Server(clock, script=[httpx.Response(302, headers={"location": "https://example.com/x"})])
    with pytest.raises(TerminalError, match="example.com/x: SecClient fetches only"):
        server.client().get(SUBS)
    assert [str(r.url) for r in server.requests] == [SUBS]


def test_redirect_hops_are_rate_limited_and_checked(clock):
    moved = "https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/moved.txt"
    server = Server(clock, script=[
        httpx.Response(301, headers={"location": "https://www.sec.gov/Archives/old.txt"}),
        httpx.Response(307, headers={"location": "edgar/data/320193/000032019323000106/moved.txt"}),  # relative
        httpx.Response(200, content=b"final"),
    ])
    client = server.client()
    doc = client.get(SUBS)
    assert doc.body == b"final" and doc.uri == SUBS  # the Document names the URL asked for
    assert [str(r.url) for r in server.requests] == [SUBS, "https://www.sec.gov/Archives/old.txt", moved]
    # every hop waited its turn: evenly spaced at the default rate, one limiter sleep per hop
    gaps = [b - a for a, b in zip(server.times, server.times[1:], strict=False)]
    assert gaps == pytest.approx([1 / 8] * 2, abs=1e-5) and clock.sleeps == pytest.approx([1 / 8] * 2, abs=1e-5)
    client.get(SUBS)  # the next request still waits one interval after the last hop
    assert server.times[-1] - server.times[-2] == pytest.approx(1 / 8, abs=1e-5)


@pytest.mark.parametrize("location, reason", [
    ("http://www.sec.gov/x", "only https://"),
    ("https://sec.gov.example.com/x", "only https://"),
    (None, "without a Location"),
])
def test_bad_redirects_are_refused_before_any_request(clock, location, reason):
    headers = {"location": location} if location else {}
    server = Server(clock, script=[httpx.Response(302, headers=headers)])
    with pytest.raises(TerminalError, match=reason):
        server.client().get(SUBS)
    assert [str(r.url) for r in server.requests] == [SUBS]


def test_redirect_loop_gives_up(clock):
    server = Server(clock, default=lambda req: httpx.Response(302, headers={"location": str(req.url)}))
    with pytest.raises(TerminalError, match="more than 5 redirects"):
        server.client().get(SUBS)
    assert len(server.requests) == 6
    assert clock.sleeps == pytest.approx([1 / 8] * 5, abs=1e-5)


# ---------------------------------------------------------------- complete bodies, refusal pages by content


def test_body_shorter_than_its_content_length_is_retried(clock):
    body = b'{"cik": "320193", "name": "Apple Inc.", "tickers": ["AAPL"], "filings": {}}'
    server = Server(clock, script=[
        httpx.Response(200, headers={"content-length": str(len(body))}, content=body[:10]),
        httpx.Response(200, headers={"content-encoding": "gzip"}, content=gzip.compress(body)[:-8]),  # no trailer
        httpx.Response(200, headers={"content-encoding": "gzip"}, content=gzip.compress(body)),
    ])
    doc = server.client().get(SUBS, kind="submissions")
    assert doc.body == body and len(server.requests) == 3
    server = Server(clock, default=lambda req: httpx.Response(
        200, headers={"content-encoding": "gzip"}, content=gzip.compress(body)[:20]))
    with pytest.raises(TransientError, match=r"gave up after 2 retries \(last: incomplete gzip body"):
        server.client(max_retries=2).get(SUBS)


def test_gzip_bomb_is_refused_without_inflating_it(clock, monkeypatch):
    bomb = gzip.compress(b"\0" * (64 << 20))  # 64 MiB of zeros in ~64 KB
    server = Server(clock, default=lambda req: httpx.Response(200, headers={"content-encoding": "gzip"},
                                                              content=bomb))
    monkeypatch.setenv("EDGAR_MAX_DOCUMENT_BYTES", str(1 << 20))  # the one size cap, local files' too
    with pytest.raises(TerminalError, match="inflates beyond 1,048,576 bytes"):
        server.client().get(ARCHIVE)
    assert len(server.requests) == 1  # not retried


def test_throttle_page_is_recognised_by_content_whatever_the_status(clock, tmp_path):
    server = Server(clock, script=[httpx.Response(200, content=RATE_PAGE)])
    client = server.client(cache_dir=tmp_path / "cache")
    with pytest.raises(SecThrottled, match="HTTP 200 Request Rate Threshold Exceeded"):
        client.get(ARCHIVE, kind="ownership")
    assert not (tmp_path / "cache").exists()
    with pytest.raises(SecThrottled, match="resume in 600 s"):
        client.get(SUBS)
    assert len(server.requests) == 1


def test_a_document_quoting_the_phrase_is_not_a_throttle_page(clock):
    filing = b"<SEC-DOCUMENT>... remarks: Request Rate Threshold Exceeded ...</SEC-DOCUMENT>"
    server = Server(clock, default=lambda req: httpx.Response(200, content=filing))
    assert server.client().get(ARCHIVE).body == filing
    assert sec_refusal_page(filing, 200) is None and sec_refusal_page(filing, 403) == "throttle"
    assert sec_refusal_page(UNDECLARED_PAGE, 200) == "undeclared"


def test_undeclared_tool_page_with_200_is_forbidden_not_a_document(clock, tmp_path):
    server = Server(clock, script=[httpx.Response(200, content=UNDECLARED_PAGE)])
    with pytest.raises(SecForbidden, match="Undeclared Automated Tool"):
        server.client(cache_dir=tmp_path / "cache").get(SUBS, kind="submissions")
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("body, kind, problem", [
    (b"", None, "empty body"),
    (b"<!DOCTYPE html><html><body>Error</body></html>", "companyfacts", "HTML page"),
    (b'{"cik": "320193", "name": "Apple Inc.", "tickers": ["AAPL"], "filings": {}}', "companyfacts",
     "not the companyfacts asked for"),
    (b'{"cik": "320193", "name": "Apple Inc.", "tickers": ["AAPL"], "filings": {"recent": {"form": ["4"',
     "submissions", "does not end"),
])
def test_bodies_that_fail_validation_are_returned_but_not_cached(clock, tmp_path, body, kind, problem):
    assert problem in (cache_problem(body, kind, document="x") or "")
    server = Server(clock, default=lambda req: httpx.Response(200, content=body))
    client = server.client(cache_dir=tmp_path / "cache")
    assert client.get(SUBS, kind=kind).body == body
    assert not list((tmp_path / "cache").rglob("*.gz")) if (tmp_path / "cache").exists() else True
    client.get(SUBS, kind=kind)
    assert len(server.requests) == 2  # asked again: nothing was kept


def test_evict_removes_a_cached_entry(clock, tmp_path):
    server = Server(clock, default=lambda req: httpx.Response(200, content=b"<SEC-DOCUMENT>x</SEC-DOCUMENT>"))
    client = server.client(cache_dir=tmp_path)
    client.get(ARCHIVE)
    assert client.evict(ARCHIVE) and not client.evict(ARCHIVE)
    assert not list(tmp_path.rglob("*.gz"))
    client.get(ARCHIVE)
    assert len(server.requests) == 2


def test_overall_deadline_with_a_fake_clock(clock):
    server = Server(clock, default=lambda req: httpx.Response(503))
    with pytest.raises(TransientError, match="within the 10 s deadline"):
        server.client(max_retries=50, backoff_base=1.0, deadline=10).get(SUBS)
    assert sum(clock.sleeps) < 10
