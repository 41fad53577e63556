"""SecClient against a real HTTP server on 127.0.0.1: the machine-wide rate limit and injected faults.

The only fake is where the requests go (``LoopbackTransport`` rewrites https://*.sec.gov to the
loopback server); the client, httpx's HTTP transport, sockets and the server are real. Timing is
read from the server's log.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sec_loopback import (
    ERROR_PAGE,
    THROTTLE_PAGE,
    LoopbackSEC,
    drip,
    gzip_ok,
    max_in_any_window,
    reset,
    respond,
    short_body,
    truncated_gzip,
)

from pipelines.errors import SecThrottled, TransientError
from pipelines.parse import parse_document
from pipelines.sec_client import SecClient, companyfacts_url, submissions_url
from pipelines.sec_ratelimit import BLOCK_FILE, THROTTLE_BLOCK_SECONDS

pytestmark = pytest.mark.slow  # client processes against a loopback server (make check leaves it out)

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "sec"
CONTACT = "ops.contact@example.org"
UA = f"Loopback Test {CONTACT}"
APPLE = 320193
FACTS = companyfacts_url(APPLE)
SUBS = submissions_url(APPLE)
ARCHIVE = "https://www.sec.gov/Archives/edgar/data/320193/000032019322000061/0000320193-22-000061.txt"
SUBS_BODY = b'{"cik": "320193", "name": "Apple Inc.", "tickers": ["AAPL"], "filings": {"recent": {}}}'


@pytest.fixture
def state_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "sec-state"
    monkeypatch.setenv("EDGAR_WAREHOUSE_STATE_DIR", str(d))
    return d


@pytest.fixture
def sec():
    with LoopbackSEC(FIXTURES) as server:
        yield server


def client_for(sec: LoopbackSEC, state_dir: Path, **kw) -> SecClient:
    kw.setdefault("backoff_base", 0.05)
    return SecClient(UA, transport=sec.transport(), state_dir=state_dir, **kw)


def cached_files(cache: Path) -> list[str]:
    return sorted(str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file()) if cache.exists() else []


# ---------------------------------------------------------------- one rate limit for every process


def _run_workers(sec: LoopbackSEC, state_dirs: list[Path], per_process: int, extra_env: dict | None = None,
                 lead: float = 2.0) -> list[dict]:
    start_at = time.time() + lead  # every process imports first, then all start together
    urls = [submissions_url(1000 + k) for k in range(per_process)]
    procs = []
    for d in state_dirs:
        env = {**os.environ, "SEC_USER_AGENT": UA, "EDGAR_WAREHOUSE_STATE_DIR": str(d), **(extra_env or {})}
        procs.append(subprocess.Popen(
            [sys.executable, str(REPO / "tests" / "sec_loopback.py"), str(sec.port), str(start_at), "2",
             *urls],  # unknown to the server: quick 404s, only arrival times matter
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def test_three_processes_share_one_rate_limit_measured_at_the_server(sec, tmp_path):
    """Issue #8.5: three processes (a nightly, a manual refresh, a notebook) each at the default 8/s
    sent 25 requests in one second. Sharing one limit, the server never sees more than 10."""
    shared = tmp_path / "shared-state"
    results = _run_workers(sec, [shared] * 3, per_process=16)
    assert [sum(r.values()) for r in results] == [16, 16, 16]
    times = [h.at for h in sec.hits]
    assert len(times) == 48
    worst = max_in_any_window(times)
    gaps = [b - a for a, b in zip(sorted(times), sorted(times)[1:], strict=False)]
    print(f"\n3 processes x 16 requests, shared limit (default 8/s): max {worst} requests in any 1-second window "
          f"(server log), {len(times)} requests in {max(times) - min(times):.2f} s, smallest gap {min(gaps) * 1000:.0f} ms")
    assert worst <= 10
    assert max(times) - min(times) >= 47 / 8 - 0.2  # evenly spaced at 8/s across the three processes


def test_without_a_shared_folder_three_processes_exceed_the_limit(sec, tmp_path):
    """The control: the same measurement catches per-process limiters (what main had)."""
    results = _run_workers(sec, [tmp_path / f"own-{n}" for n in range(3)], per_process=8)
    assert [sum(r.values()) for r in results] == [8, 8, 8]
    worst = max_in_any_window([h.at for h in sec.hits])
    print(f"\n3 processes x 8 requests, one limiter each: max {worst} requests in any 1-second window")
    assert worst > 10


def _organisation_limit(postgres_loopback) -> dict[str, str]:
    """The environment putting the SEC limit's home in a fresh database of the loopback PostgreSQL."""
    from scripts import pg_loopback

    postgres_loopback.made += 1
    catalog = pg_loopback.createdb(postgres_loopback.folder, postgres_loopback.port, f"limit_{postgres_loopback.made}")
    return {"EDGAR_WAREHOUSE_SEC_LIMIT": catalog}


def test_processes_sharing_no_folder_share_the_organisations_limit_in_postgresql(sec, tmp_path, postgres_loopback):
    """Issue #25.1: two Dask workers with their own state folders sent 14 requests in one second. With
    the limit's home in PostgreSQL (EDGAR_WAREHOUSE_SEC_LIMIT), processes that share no folder (as on
    separate machines) never exceed 10 in any second at the server."""
    limit = _organisation_limit(postgres_loopback)
    results = _run_workers(sec, [tmp_path / f"machine-{n}" for n in range(4)], per_process=12, extra_env=limit,
                           lead=8.0)  # each process connects to PostgreSQL before the common start
    assert [sum(r.values()) for r in results] == [12, 12, 12, 12]
    times = [h.at for h in sec.hits]
    assert len(times) == 48
    worst = max_in_any_window(times)
    print(f"\n4 processes x 12 requests, no shared folder, limit in PostgreSQL (default 8/s): max {worst} "
          f"requests in any 1-second window (server log), {len(times)} requests in {max(times) - min(times):.2f} s")
    assert worst <= 10
    assert max(times) - min(times) >= 47 / 8 - 0.3  # spaced at 8/s across the four processes
    assert not any((tmp_path / f"machine-{n}" / "sec-rate.lock").exists() for n in range(4))  # not the file


def test_a_throttle_page_pauses_every_process_of_the_organisation(sec, tmp_path, postgres_loopback, monkeypatch):
    """SEC's throttle page seen by one process blocks the others, which share no folder with it: they
    send nothing for the 10 minutes."""
    limit = _organisation_limit(postgres_loopback)
    for k, v in limit.items():
        monkeypatch.setenv(k, v)
    sec.script(ARCHIVE, respond(200, THROTTLE_PAGE, {"Content-Type": "text/html"}))
    client = client_for(sec, tmp_path / "machine-a")
    with pytest.raises(SecThrottled, match="every process sharing this SEC rate limit"):
        client.get(ARCHIVE, kind="ownership")
    env = {**os.environ, "SEC_USER_AGENT": UA, "EDGAR_WAREHOUSE_STATE_DIR": str(tmp_path / "machine-b"), **limit}
    out = subprocess.run([sys.executable, str(REPO / "tests" / "sec_loopback.py"), str(sec.port), "0", "1", SUBS],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == {"SecThrottled": 1}
    assert [h.path for h in sec.hits] == ["/www.sec.gov" + ARCHIVE.split("sec.gov", 1)[1]]
    assert THROTTLE_BLOCK_SECONDS - 120 < client.limiter.blocked_for() <= THROTTLE_BLOCK_SECONDS


def test_the_limit_home_is_named_or_refused(monkeypatch):
    from pipelines.errors import ConfigError
    from pipelines.sec_ratelimit_pg import limit_home

    monkeypatch.delenv("EDGAR_WAREHOUSE_SEC_LIMIT", raising=False)
    assert limit_home() is None  # the local file by default
    monkeypatch.setenv("EDGAR_WAREHOUSE_SEC_LIMIT", "lake")
    monkeypatch.setenv("EDGAR_WAREHOUSE_LAKE_CATALOG", "ducklake:postgres:dbname=lake host=db user=w")
    assert limit_home() == "dbname=lake host=db user=w"
    monkeypatch.setenv("EDGAR_WAREHOUSE_SEC_LIMIT", "redis://x")
    with pytest.raises(ConfigError, match="expected 'local', 'lake' or 'postgres:"):
        limit_home()


# ---------------------------------------------------------------- faults


def test_429_retry_after_is_honoured(sec, state_dir):
    sec.script(SUBS, respond(429, b"slow down", {"Retry-After": "1"}), gzip_ok(SUBS_BODY))
    doc = client_for(sec, state_dir).get(SUBS, kind="submissions")
    assert doc.body == SUBS_BODY
    first, second = sec.hits_for(SUBS)
    assert second.at - first.at >= 1.0


def test_503_then_success(sec, state_dir, tmp_path):
    sec.script(SUBS, respond(503, ERROR_PAGE, {"Content-Type": "text/html"}), respond(503), gzip_ok(SUBS_BODY))
    doc = client_for(sec, state_dir, cache_dir=tmp_path / "cache").get(SUBS, kind="submissions")
    assert doc.body == SUBS_BODY and len(sec.hits_for(SUBS)) == 3


def test_connection_reset_is_retried(sec, state_dir):
    sec.script(SUBS, reset(), reset(), gzip_ok(SUBS_BODY))
    assert client_for(sec, state_dir).get(SUBS, kind="submissions").body == SUBS_BODY
    assert len(sec.hits_for(SUBS)) == 3


def test_slow_drip_hits_the_overall_deadline(sec, state_dir, tmp_path):
    """Issue #8.5: one byte every 1.5 s was never timed out (timeouts are per read)."""
    cache = tmp_path / "cache"
    sec.script(SUBS, drip(SUBS_BODY, every=1.5))
    client = client_for(sec, state_dir, cache_dir=cache, timeout=30, deadline=4)
    started = time.monotonic()
    with pytest.raises(TransientError, match="no complete response within the 4 s deadline"):
        client.get(SUBS, kind="submissions")
    took = time.monotonic() - started
    assert 3.9 <= took < 5.0, took
    assert len(sec.hits_for(SUBS)) == 1  # no retry started after the deadline
    assert cached_files(cache) == []


def test_deadline_covers_retries(sec, state_dir):
    sec.script(SUBS, *[respond(503)] * 20)
    client = client_for(sec, state_dir, max_retries=20, backoff_base=0.4, deadline=2)
    started = time.monotonic()
    with pytest.raises(TransientError, match="deadline"):
        client.get(SUBS)
    assert time.monotonic() - started < 2.0
    assert 2 <= len(sec.hits_for(SUBS)) < 20


def test_truncated_gzip_is_retried_never_returned_or_cached(sec, state_dir, tmp_path):
    """Issue #8.4: a gzip body cut in half came back as 200 with 0 bytes and was cached."""
    cache = tmp_path / "cache"
    body = gzip.decompress((FIXTURES / "www.sec.gov/files/company_tickers.json.gz").read_bytes())
    url = "https://www.sec.gov/files/company_tickers.json"
    sec.script(url, truncated_gzip(body), short_body(gzip.compress(body)))
    client = client_for(sec, state_dir, cache_dir=cache)
    doc = client.get(url, kind="company_tickers")
    assert doc.body == body  # the third answer, complete
    assert len(sec.hits_for(url)) == 3
    # Cut short every time: an error, never a 200 with a partial body, and nothing cached.
    sec.script(ARCHIVE, *[truncated_gzip(b"<SEC-DOCUMENT>" + b"x" * 5000)] * 3)
    with pytest.raises(TransientError, match="incomplete gzip body"):
        client_for(sec, state_dir, cache_dir=cache, max_retries=2).get(ARCHIVE, kind="ownership")
    assert not [f for f in cached_files(cache) if "Archives" in f]


def test_throttle_page_with_200_blocks_every_process_and_is_never_cached(sec, state_dir, tmp_path):
    """Issue #8.4: SEC's Request Rate Threshold Exceeded page served with 200 was accepted as a
    document and cached (Archives: forever), and no block started."""
    cache = tmp_path / "cache"
    sec.script(ARCHIVE, respond(200, THROTTLE_PAGE, {"Content-Type": "text/html"}))
    client = client_for(sec, state_dir, cache_dir=cache)
    with pytest.raises(SecThrottled, match="HTTP 200 Request Rate Threshold Exceeded"):
        client.get(ARCHIVE, kind="ownership")
    assert cached_files(cache) == []
    block = json.loads((state_dir / BLOCK_FILE).read_text())
    assert THROTTLE_BLOCK_SECONDS - 5 < block["blocked_until"] - time.time() <= THROTTLE_BLOCK_SECONDS
    # This process: refused without a request.
    with pytest.raises(SecThrottled, match="requests resume in 600 s"):
        client_for(sec, state_dir).get(SUBS)
    # Another process of the same user: refused too, and nothing reaches the server.
    env = {**os.environ, "SEC_USER_AGENT": UA, "EDGAR_WAREHOUSE_STATE_DIR": str(state_dir)}
    out = subprocess.run([sys.executable, str(REPO / "tests" / "sec_loopback.py"), str(sec.port), "0", "1", SUBS],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == {"SecThrottled": 1}
    assert [h.path for h in sec.hits] == ["/www.sec.gov" + ARCHIVE.split("sec.gov", 1)[1]]


@pytest.mark.parametrize("status", [403, 503])
def test_throttle_page_under_other_statuses_blocks_without_retrying(sec, state_dir, status):
    sec.script(SUBS, respond(status, THROTTLE_PAGE, {"Content-Type": "text/html"}))
    with pytest.raises(SecThrottled):
        client_for(sec, state_dir).get(SUBS)
    assert len(sec.hits_for(SUBS)) == 1
    assert (state_dir / BLOCK_FILE).is_file()


def test_html_where_json_expected_is_returned_for_rejection_but_never_cached(sec, state_dir, tmp_path):
    cache = tmp_path / "cache"
    sec.script(FACTS, respond(200, ERROR_PAGE, {"Content-Type": "text/html"}))
    client = client_for(sec, state_dir, cache_dir=cache)
    doc = client.fetch_companyfacts(APPLE)
    assert doc.body == ERROR_PAGE and not doc.from_cache  # the parser rejects and records it ...
    assert cached_files(cache) == []  # ... but it is not kept
    good = client.fetch_companyfacts(APPLE)  # the next run asks SEC again and gets the real body
    assert good.body[:1] == b"{" and len(sec.hits_for(FACTS)) == 2
    assert parse_document(good)[0] == "companyfacts"
    assert any(f.endswith("CIK0000320193.json.gz") for f in cached_files(cache))


def test_a_body_its_parser_rejects_is_evicted(sec, state_dir, tmp_path):
    """A well-formed body about another company passes the client's checks; the parser's rejection
    evicts it, so the next refresh fetches it again instead of reading it from the cache forever."""
    cache = tmp_path / "cache"
    nvidia = gzip.decompress((FIXTURES / "data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json.gz").read_bytes())
    sec.script(FACTS, gzip_ok(nvidia))
    client = client_for(sec, state_dir, cache_dir=cache)
    doc = client.fetch_companyfacts(APPLE)
    assert cached_files(cache)
    with pytest.raises(Exception, match="CIK"):
        parse_document(doc)
    assert client.evict(doc.uri) and cached_files(cache) == []
    assert parse_document(client.fetch_companyfacts(APPLE))[0] == "companyfacts"


def test_a_poisoned_cache_entry_from_an_older_version_heals(sec, state_dir, tmp_path):
    cache = tmp_path / "cache"
    poisoned = SecClient(UA, transport=sec.transport(), state_dir=state_dir, cache_dir=cache)
    sec.script(ARCHIVE, respond(200, b"<SEC-DOCUMENT>real filing</SEC-DOCUMENT>"))
    poisoned.get(ARCHIVE)
    entry = next(p for p in cache.rglob("*.txt.gz"))
    meta = entry.with_name(entry.name.replace(".gz", ".meta.json"))
    # What the old client wrote: the throttle page under an Archives URL (kept forever).
    import hashlib
    entry.write_bytes(gzip.compress(THROTTLE_PAGE))
    m = json.loads(meta.read_text())
    m["sha256"] = hashlib.sha256(THROTTLE_PAGE).hexdigest()
    meta.write_text(json.dumps(m))
    sec.script(ARCHIVE, respond(200, b"<SEC-DOCUMENT>real filing</SEC-DOCUMENT>"))
    doc = client_for(sec, state_dir, cache_dir=cache).get(ARCHIVE, kind="ownership")
    assert doc.body == b"<SEC-DOCUMENT>real filing</SEC-DOCUMENT>" and not doc.from_cache
    assert len(sec.hits_for(ARCHIVE)) == 2


# ---------------------------------------------------------------- the contact stays in the header


def test_contact_only_in_the_user_agent_header(sec, state_dir, tmp_path, caplog):
    """Fetch, fail and load through the real client, parser and DuckDB: the contact reaches the server
    in the User-Agent header and appears in no log line, error, cache file or warehouse row."""
    from warehouse.load.batch import Parsed, Rejected, load_batch
    from warehouse.store.db import connect, fetch_all, raw_dir_for

    caplog.set_level(logging.DEBUG)
    cache = tmp_path / "cache"
    tsmc = 1046179  # a small company: the load is quick
    sec.script(submissions_url(tsmc), respond(503), reset())
    sec.script(companyfacts_url(tsmc), truncated_gzip(b'{"cik": 1046179}'))
    client = client_for(sec, state_dir, cache_dir=cache)
    docs = [client.fetch_submissions(tsmc), client.fetch_companyfacts(tsmc)]
    errors: list[BaseException] = []
    sec.script(companyfacts_url(1), respond(200, ERROR_PAGE))
    docs.append(client.fetch_companyfacts(1))  # an HTML page: rejected by the parser below
    for url, fault in [(ARCHIVE, drip(b"x" * 10, 1.0)), (submissions_url(2), respond(403, b"Forbidden")),
                       (submissions_url(3), respond(200, THROTTLE_PAGE))]:
        sec.script(url, fault)
        try:
            client_for(sec, state_dir, deadline=1.5).get(url)
        except Exception as exc:  # noqa: BLE001 (every error's text is checked below)
            errors.append(exc)
    with pytest.raises(SecThrottled) as blocked:
        client.fetch_submissions(4)
    errors.append(blocked.value)
    assert [type(e).__name__ for e in errors] == ["TransientError", "AccessDenied", "SecThrottled", "SecThrottled"]

    items = []
    for d in docs:
        try:
            items.append(Parsed(d, parse_document(d)[1]))
        except Exception as exc:  # noqa: BLE001
            items.append(Rejected(d, exc))
    db = tmp_path / "w.duckdb"
    con = connect(db)
    try:
        report = load_batch(con, items, raw_dir=raw_dir_for(db), command="refresh")
        assert report.loaded == 2 and len(report.rejected) == 1
        rows = []
        for (table,) in fetch_all(con, "SELECT table_name FROM duckdb_tables() WHERE NOT internal"):
            rows += [str(r) for r in fetch_all(con, f'SELECT * FROM "{table}"')]
    finally:
        con.close()

    assert all(h.user_agent == UA for h in sec.hits)  # it is sent ...
    texts = [caplog.text, repr(client), *rows, *[repr(d) for d in docs]]
    for e in errors:
        while e is not None:
            texts += [str(e), repr(e)]
            e = e.__cause__ or e.__context__
    for folder in (cache, state_dir, raw_dir_for(db)):
        texts += [p.read_bytes().decode("latin-1") for p in folder.rglob("*") if p.is_file()]
    texts += [gzip.decompress(p.read_bytes()).decode("latin-1") for p in cache.rglob("*.gz")]
    assert len(rows) > 1000
    assert not [t[:200] for t in texts if CONTACT in t or "ops.contact" in t]  # ... and appears nowhere else
