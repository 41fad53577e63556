"""The one SEC HTTP path: declared User-Agent, process-wide rate limit, retries, cache and replay.

Everything that talks to sec.gov goes through ``SecClient.get`` (or a ``fetch_*`` helper), which
returns a ``pipelines.documents.Document``. SEC's fair access rules are enforced here:

- a User-Agent with a contact email (``SEC_USER_AGENT``) or the client refuses to start; the contact
  goes only into that header, never into logs, errors or Documents;
- at most 10 requests/second for the whole process (default 8), evenly spaced;
- 429/5xx and network errors retry with exponential backoff and jitter, honouring Retry-After;
- SEC's 403 "Request Rate Threshold Exceeded" page blocks every request of the process for
  10 minutes (``SecThrottled``) instead of hammering;
- Archives documents are cached forever, other endpoints revalidated with ETag/Last-Modified;
- redirects are followed by the client itself, each hop a request like any other: rate limited
  and only to https://*.sec.gov (at most ``MAX_REDIRECTS`` hops).

``SecClient.replay(folder)`` serves recorded responses (see ``pipelines.replay``): no network, no
rate limiting, no sleeping.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import json
import logging
import os
import random
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx

from pipelines.documents import Document, utcnow
from pipelines.errors import (
    ConfigError,
    NotFound,
    SecForbidden,
    SecThrottled,
    TerminalError,
    TransientError,
)
from pipelines.replay import (
    REPLAY_MISSING_HEADER,
    RecordingTransport,
    ReplayTransport,
    url_relpath,
    write_atomic,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], None]

MAX_RATE = 10.0
DEFAULT_RATE = 8.0
THROTTLE_BLOCK_SECONDS = 600.0
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5
REPLAY_USER_AGENT = "edgar-warehouse replay (no network)"
USER_AGENT_HELP = (
    'set SEC_USER_AGENT to your name and contact email, e.g. export SEC_USER_AGENT="Your Name you@example.com" '
    "(SEC fair access policy: https://www.sec.gov/os/accessing-edgar-data)"
)
_CONTACT = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")

ARCHIVES_PREFIX = "https://www.sec.gov/Archives/"
COMPANY_TICKERS_URL = "https://www.sec.gov/files/company_tickers.json"
COMPANY_TICKERS_EXCHANGE_URL = "https://www.sec.gov/files/company_tickers_exchange.json"
DAILY_INDEX_TYPES = ("form", "master", "company")
_PAGE_NAME = re.compile(r"^[A-Za-z0-9._-]+\.json$")
# Archives paths that SEC rewrites in place: quarterly full indexes and directory listings.
_MUTABLE_ARCHIVES = re.compile(r"^/Archives/edgar/(full-index|Feed|Oldloads)/|/$|/index\.(json|xml|html?)$")


# --------------------------------------------------------------------------- URL builders

def cik_int(cik: int | str) -> int:
    """``cik`` as an int: accepts 320193, "320193", "0000320193" or "CIK0000320193"."""
    text = str(cik).strip()
    if text.upper().startswith("CIK"):
        text = text[3:]
    if isinstance(cik, bool) or not text.isdigit() or not 0 < int(text) <= 9_999_999_999:
        raise TerminalError(f"not a CIK: {cik!r} (expected 1 to 10 digits)")
    return int(text)


def companyfacts_url(cik: int | str) -> str:
    return f"https://data.sec.gov/api/xbrl/companyfacts/CIK{cik_int(cik):010d}.json"


def submissions_url(cik: int | str) -> str:
    return f"https://data.sec.gov/submissions/CIK{cik_int(cik):010d}.json"


def submissions_page_url(name: str) -> str:
    """An older-filings page named in ``filings.files`` (e.g. ``CIK0001318605-submissions-001.json``)."""
    if not _PAGE_NAME.match(name):
        raise TerminalError(f"not a submissions page file name: {name!r}")
    return f"https://data.sec.gov/submissions/{name}"


def company_tickers_url() -> str:
    return COMPANY_TICKERS_URL


def company_tickers_exchange_url() -> str:
    return COMPANY_TICKERS_EXCHANGE_URL


def archive_url(path_or_url: str) -> str:
    """Full Archives URL from ``edgar/data/...``, ``/Archives/edgar/...`` or the URL itself."""
    text = str(path_or_url).strip()
    if "://" in text:
        if not text.startswith(ARCHIVES_PREFIX):
            raise TerminalError(f"not an SEC Archives URL: {text} (expected {ARCHIVES_PREFIX}...)")
        url = text
    else:
        rel = text.lstrip("/")
        if rel.startswith("Archives/"):
            rel = rel[len("Archives/"):]
        url = ARCHIVES_PREFIX + rel
    path = url.split("?", 1)[0][len(ARCHIVES_PREFIX):]
    if any(seg in (".", "..") for seg in path.split("/")) or path.strip("/") == "":
        raise TerminalError(f"not an SEC Archives document path: {path_or_url!r}")
    return url


def daily_index_url(day: date | str, index: str = "form") -> str:
    """``https://www.sec.gov/Archives/edgar/daily-index/YYYY/QTRn/<index>.YYYYMMDD.idx``."""
    if index not in DAILY_INDEX_TYPES:
        raise TerminalError(f"unknown daily index {index!r} (expected one of {', '.join(DAILY_INDEX_TYPES)})")
    d = _as_date(day)
    quarter = (d.month - 1) // 3 + 1
    return f"{ARCHIVES_PREFIX}edgar/daily-index/{d.year}/QTR{quarter}/{index}.{d:%Y%m%d}.idx"


def is_immutable_url(url: str) -> bool:
    """True for Archives documents, which SEC never changes (indexes and directory listings do)."""
    if not url.startswith(ARCHIVES_PREFIX):
        return False
    return not _MUTABLE_ARCHIVES.search(httpx.URL(url).path)


def _as_date(day: date | str) -> date:
    if isinstance(day, datetime):
        return day.date()
    if isinstance(day, date):
        return day
    text = str(day).strip()
    for fmt in ("%Y-%m-%d", "%Y%m%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise TerminalError(f"not a date: {day!r} (expected a date, YYYY-MM-DD or YYYYMMDD)")


# --------------------------------------------------------------------------- rate limiter

class RateLimiter:
    """Evenly spaced request starts (``1/rate`` seconds apart, never bursts) and SEC's throttle block.

    Thread-safe: a caller waits while holding the lock, so concurrent callers queue up one interval
    apart. ``sleep`` must advance ``clock`` (true of ``time.sleep``/``time.monotonic``).
    """

    def __init__(self, rate: float = DEFAULT_RATE, *, clock: Clock = time.monotonic, sleep: Sleep = time.sleep):
        _check_rate(rate)
        self._rate = float(rate)
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._next_start: float | None = None
        self._blocked_until: float | None = None

    @property
    def rate(self) -> float:
        return self._rate

    def slow_to(self, rate: float) -> None:
        """Lower the rate to ``rate`` if that is slower (the process honours its slowest client)."""
        _check_rate(rate)
        with self._lock:
            if rate < self._rate:
                log.info("SEC request rate lowered from %.2f to %.2f/s", self._rate, rate)
                self._rate = float(rate)

    def acquire(self) -> float:
        """Wait until the next request may start and return its start time (``clock()``)."""
        with self._lock:
            while True:
                now = self._clock()
                if self._next_start is None or now >= self._next_start:
                    break
                self._sleep(self._next_start - now)
            self._next_start = now + 1.0 / self._rate
            return now

    def block(self, seconds: float) -> None:
        """Refuse requests for ``seconds`` from now (never shortens a block already in force)."""
        with self._lock:
            until = self._clock() + seconds
            if self._blocked_until is None or until > self._blocked_until:
                self._blocked_until = until

    def blocked_for(self) -> float:
        """Seconds left in the throttle block, 0.0 when requests may go out."""
        with self._lock:
            if self._blocked_until is None:
                return 0.0
            return max(0.0, self._blocked_until - self._clock())


def _check_rate(rate: float) -> None:
    if not 0 < rate <= MAX_RATE:  # also refuses NaN
        raise ConfigError(f"SEC request rate must be above 0 and at most {MAX_RATE:g}/s (fair access), got {rate!r}")


_shared_lock = threading.Lock()
_shared_limiters: dict[tuple[Clock, Sleep], RateLimiter] = {}


def shared_limiter(
    rate: float = DEFAULT_RATE, *, clock: Clock = time.monotonic, sleep: Sleep = time.sleep
) -> RateLimiter:
    """The process-wide limiter for this clock (created on first use); every SecClient shares it.

    Asking for a slower ``rate`` than it has lowers it for everyone; a faster one changes nothing.
    """
    _check_rate(rate)
    with _shared_lock:
        limiter = _shared_limiters.get((clock, sleep))
        if limiter is None:
            limiter = _shared_limiters[(clock, sleep)] = RateLimiter(rate, clock=clock, sleep=sleep)
            return limiter
    limiter.slow_to(rate)
    return limiter


# --------------------------------------------------------------------------- user agent

def resolve_user_agent(user_agent: str | None = None) -> str:
    """``user_agent`` or ``$SEC_USER_AGENT``, checked to carry a contact email; else ConfigError.

    The messages never repeat the value (it may hold someone's address).
    """
    ua = user_agent if user_agent is not None else os.environ.get("SEC_USER_AGENT")
    ua = (ua or "").strip()
    if not ua:
        raise ConfigError(f"SEC_USER_AGENT is not set: SEC requires a declared User-Agent with a contact; {USER_AGENT_HELP}")
    if not (ua.isascii() and ua.isprintable()):
        raise ConfigError(f"SEC_USER_AGENT must be printable ASCII on one line; {USER_AGENT_HELP}")
    if not _CONTACT.search(ua):
        raise ConfigError(f"SEC_USER_AGENT has no contact email address; {USER_AGENT_HELP}")
    return ua


# --------------------------------------------------------------------------- cache

@dataclass(frozen=True)
class _CacheEntry:
    body: bytes
    status: int
    etag: str | None
    last_modified: str | None
    fetched_at: datetime
    stored_at: float  # wall clock (epoch seconds) of the last fetch or revalidation


class _DiskCache:
    """Bodies gzip-compressed at ``<dir>/<host>/<path>.gz``, metadata in ``<path>.meta.json``."""

    def __init__(self, root: Path):
        self.root = root

    def _paths(self, url: str) -> tuple[Path, Path]:
        base = self.root / url_relpath(url)
        return base.with_name(base.name + ".gz"), base.with_name(base.name + ".meta.json")

    def load(self, url: str) -> _CacheEntry | None:
        body_path, meta_path = self._paths(url)
        if not meta_path.is_file() or not body_path.is_file():
            return None
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            body = gzip.decompress(body_path.read_bytes())
            if meta["url"] != url or meta["sha256"] != hashlib.sha256(body).hexdigest():
                log.warning("cache entry for %s does not match its metadata; refetching", url)
                return None
            return _CacheEntry(
                body=body,
                status=int(meta["status"]),
                etag=meta.get("etag"),
                last_modified=meta.get("last_modified"),
                fetched_at=datetime.fromisoformat(meta["fetched_at"]),
                stored_at=float(meta["stored_at"]),
            )
        except (OSError, EOFError, zlib.error, ValueError, KeyError, TypeError) as exc:
            log.warning("unreadable cache entry for %s (%s); refetching", url, exc)
            return None

    def store(self, url: str, entry: _CacheEntry, *, body_too: bool = True) -> None:
        body_path, meta_path = self._paths(url)
        meta = {
            "url": url,
            "status": entry.status,
            "etag": entry.etag,
            "last_modified": entry.last_modified,
            "fetched_at": entry.fetched_at.isoformat(),
            "stored_at": entry.stored_at,
            "sha256": hashlib.sha256(entry.body).hexdigest(),
            "bytes": len(entry.body),
        }
        try:
            if body_too:
                write_atomic(body_path, gzip.compress(entry.body, compresslevel=6, mtime=0))
            write_atomic(meta_path, json.dumps(meta, indent=1).encode("utf-8"))
        except OSError as exc:
            # The fetch itself succeeded; a cache that cannot be written only costs a refetch later.
            log.warning("cannot write cache entry for %s under %s: %s", url, self.root, exc.strerror or exc)


# --------------------------------------------------------------------------- client

class SecClient:
    """The SEC HTTP client. Use as a context manager or call ``close()``.

    ``transport`` is any httpx transport (``ReplayTransport`` for offline runs, ``httpx.MockTransport``
    in tests). ``clock``/``sleep`` time the rate limiter, backoff and throttle block; ``wall_clock``
    (epoch seconds) reads Retry-After dates and the cache TTL. ``rng`` draws backoff jitter.
    """

    def __init__(
        self,
        user_agent: str | None = None,
        *,
        rate: float = DEFAULT_RATE,
        max_retries: int = 5,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
        max_retry_after: float = THROTTLE_BLOCK_SECONDS,
        timeout: float = 30.0,
        cache_dir: str | os.PathLike[str] | None = None,
        cache_ttl_seconds: float = 0,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
        wall_clock: Clock = time.time,
        rng: random.Random | None = None,
        limiter: RateLimiter | None = None,
    ):
        self._replay = isinstance(transport, ReplayTransport)
        if self._replay and user_agent == REPLAY_USER_AGENT:
            ua = user_agent
        else:
            ua = resolve_user_agent(user_agent)
        _check_rate(rate)
        if max_retries < 0:
            raise ConfigError(f"max_retries must be 0 or more, got {max_retries!r}")
        self.rate = float(rate)
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.cache_ttl_seconds = cache_ttl_seconds
        self.origin = "replay" if self._replay else "http"
        self._cache = _DiskCache(Path(cache_dir)) if cache_dir is not None else None
        self._clock = clock
        self._sleep = sleep
        self._wall_clock = wall_clock
        self._rng = rng or random.Random()
        self._limiter_given = limiter
        self._limiter_obj: RateLimiter | None = None
        self._http = httpx.Client(
            transport=transport if transport is not None else httpx.HTTPTransport(),
            headers={"User-Agent": ua, "Accept-Encoding": "gzip, deflate"},
            timeout=timeout,
            follow_redirects=False,  # _send follows them: every hop goes through the rate limiter
            event_hooks={"request": [_refuse_non_sec_request]},
        )

    # -- construction helpers

    @classmethod
    def replay(cls, root: str | os.PathLike[str], **kwargs: Any) -> SecClient:
        """A client serving recorded responses from ``root``; needs no SEC_USER_AGENT (nothing goes out)."""
        return cls(REPLAY_USER_AGENT, transport=ReplayTransport(root), **kwargs)

    @classmethod
    def recording(cls, root: str | os.PathLike[str], user_agent: str | None = None, **kwargs: Any) -> SecClient:
        """A live client that also saves every 200 body under ``root`` for later replay."""
        inner = kwargs.pop("transport", None) or httpx.HTTPTransport()
        return cls(user_agent, transport=RecordingTransport(inner, root), **kwargs)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> SecClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:  # never shows the User-Agent
        cache = self._cache.root if self._cache else None
        return f"SecClient(origin={self.origin!r}, rate={self.rate:g}, cache_dir={cache!r})"

    @property
    def limiter(self) -> RateLimiter:
        """The limiter in force: the one given, else the process-wide one (created on first use)."""
        if self._limiter_obj is None:
            self._limiter_obj = self._limiter_given or shared_limiter(self.rate, clock=self._clock, sleep=self._sleep)
        return self._limiter_obj

    # -- the one request path

    def get(
        self, url: str, *, kind: str | None = None, expected_cik: int | None = None, accession: str | None = None
    ) -> Document:
        """GET ``url`` and return its decoded body as a Document.

        Raises NotFound (404 / not recorded), SecForbidden, SecThrottled, TransientError (retries
        exhausted) or TerminalError (bad URL, other status).
        """
        url = str(url)
        _check_sec_url(url)
        extra = {"kind": kind, "expected_cik": expected_cik, "accession": accession}
        immutable = is_immutable_url(url)
        cached = self._cache.load(url) if self._cache else None
        if cached is not None and (immutable or self._fresh(cached)):
            log.debug("GET %s served from cache (%s)", url, "immutable" if immutable else "within TTL")
            return self._cached_document(url, cached, http_status=cached.status, fetched_at=cached.fetched_at, **extra)

        headers: dict[str, str] = {}
        if cached is not None:
            if cached.etag:
                headers["If-None-Match"] = cached.etag
            if cached.last_modified:
                headers["If-Modified-Since"] = cached.last_modified
        response, retries, elapsed_ms = self._send(url, headers)
        status = response.status_code
        log.info("GET %s -> %d in %.0f ms, retries=%d%s", url, status, elapsed_ms, retries,
                 " (replay)" if self._replay else "")

        if status == 304 and cached is not None:
            etag = response.headers.get("etag") or cached.etag
            last_modified = response.headers.get("last-modified") or cached.last_modified
            refreshed = _CacheEntry(cached.body, cached.status, etag, last_modified, cached.fetched_at,
                                    self._wall_clock())
            if self._cache:
                self._cache.store(url, refreshed, body_too=False)
            return self._cached_document(url, refreshed, http_status=304, fetched_at=utcnow(), **extra)
        if status == 200:
            doc = Document(
                uri=url,
                origin=self.origin,
                body=response.content,
                fetched_at=utcnow(),
                http_status=200,
                etag=response.headers.get("etag"),
                last_modified=response.headers.get("last-modified"),
                **extra,
            )
            if self._cache:
                self._cache.store(url, _CacheEntry(doc.body, 200, doc.etag, doc.last_modified, doc.fetched_at,
                                                   self._wall_clock()))
            return doc
        self._raise_for_status(url, response)
        raise AssertionError("unreachable")  # pragma: no cover

    def _fresh(self, entry: _CacheEntry) -> bool:
        return self.cache_ttl_seconds > 0 and self._wall_clock() - entry.stored_at < self.cache_ttl_seconds

    def _cached_document(self, url: str, entry: _CacheEntry, *, http_status: int, fetched_at: datetime,
                         **extra: Any) -> Document:
        return Document(uri=url, origin=self.origin, body=entry.body, fetched_at=fetched_at,
                        http_status=http_status, etag=entry.etag, last_modified=entry.last_modified,
                        from_cache=True, **extra)

    def _send(self, url: str, headers: dict[str, str]) -> tuple[httpx.Response, int, float]:
        """Send with rate limiting, retries and redirects; return (response, retries used, elapsed ms).

        A redirect (301/302/303/307/308) is followed here, not by httpx, so each hop waits for the
        rate limiter and the throttle block like any request, and goes only to https://*.sec.gov.
        """
        retries = 0
        hops = 0
        target = url
        while True:
            self._wait_turn(target)
            started = self._clock()
            error: httpx.HTTPError | None = None
            response: httpx.Response | None = None
            try:
                response = self._http.get(target, headers=headers)
            except (httpx.TransportError, httpx.DecodingError) as exc:
                error = exc
                reason = f"{type(exc).__name__}: {exc}"
            else:
                status = response.status_code
                if status in REDIRECT_STATUSES:
                    target = self._redirect_target(url, target, response, hops)
                    hops += 1
                    continue
                if status not in RETRY_STATUSES:
                    return response, retries, (self._clock() - started) * 1000
                reason = f"HTTP {status}"
            elapsed_ms = (self._clock() - started) * 1000
            if retries >= self.max_retries:
                log.warning("GET %s -> %s in %.0f ms, retries=%d; giving up", target, reason, elapsed_ms, retries)
                raise TransientError(f"{url}: gave up after {retries} retries (last: {reason})") from error
            retry_after = _retry_after_seconds(response, self._wall_clock) if response is not None else None
            if retry_after is not None and retry_after > self.max_retry_after:
                log.warning("GET %s -> %s, Retry-After %.0f s; giving up", target, reason, retry_after)
                raise TransientError(
                    f"{url}: SEC asked to retry after {retry_after:.0f} s (more than {self.max_retry_after:.0f} s); "
                    f"try again later (last: {reason})"
                ) from error
            delay = retry_after if retry_after is not None else self._backoff(retries)
            log.warning("GET %s -> %s in %.0f ms, retries=%d; retrying in %.2f s", target, reason, elapsed_ms,
                        retries, delay)
            self._sleep(delay)
            retries += 1

    def _wait_turn(self, url: str) -> None:
        """Refuse while SEC's throttle block is in force, else wait for the rate limiter (not in replay)."""
        if self._replay:
            return
        remaining = self.limiter.blocked_for()
        if remaining > 0:
            raise SecThrottled(
                f"{url}: not sent: SEC throttled this process (403 Request Rate Threshold Exceeded); "
                f"requests resume in {remaining:.0f} s"
            )
        self.limiter.acquire()

    @staticmethod
    def _redirect_target(url: str, current: str, response: httpx.Response, hops: int) -> str:
        """The URL a redirect points to, checked (sec.gov only, at most MAX_REDIRECTS hops)."""
        status = response.status_code
        location = response.headers.get("location")
        if not location:
            raise TerminalError(f"{url}: HTTP {status} redirect without a Location header")
        if hops >= MAX_REDIRECTS:
            raise TerminalError(f"{url}: more than {MAX_REDIRECTS} redirects (last to {location})")
        try:
            nxt = str(httpx.URL(current).join(location))
        except httpx.InvalidURL as exc:
            raise TerminalError(f"{url}: HTTP {status} redirect to an invalid URL ({exc})") from exc
        _check_sec_url(nxt)
        log.info("GET %s -> %d redirect to %s", current, status, nxt)
        return nxt

    def _backoff(self, retries: int) -> float:
        """Exponential backoff with 'equal jitter': uniform in [d/2, d], d = base * 2**retries (capped)."""
        ceiling = min(self.backoff_max, self.backoff_base * (2 ** retries))
        return ceiling / 2 + self._rng.random() * ceiling / 2

    def _raise_for_status(self, url: str, response: httpx.Response) -> None:
        status = response.status_code
        if status == 404:
            if response.headers.get(REPLAY_MISSING_HEADER):
                raise NotFound(response.text)
            raise NotFound(f"{url}: HTTP 404 Not Found")
        if status == 403:
            text = response.text
            if "Request Rate Threshold Exceeded" in text:
                self.limiter.block(THROTTLE_BLOCK_SECONDS)
                log.error("SEC throttled this process (403 Request Rate Threshold Exceeded) at %s; "
                          "blocking all requests for %.0f s", url, THROTTLE_BLOCK_SECONDS)
                raise SecThrottled(
                    f"{url}: SEC answered 403 Request Rate Threshold Exceeded; all requests of this process "
                    f"are blocked for {THROTTLE_BLOCK_SECONDS:.0f} s"
                )
            if "Undeclared Automated Tool" in text:
                raise SecForbidden(f"{url}: SEC refused the User-Agent (403 Undeclared Automated Tool); {USER_AGENT_HELP}")
            raise SecForbidden(f"{url}: HTTP 403 Forbidden")
        if status == 304:
            raise TerminalError(f"{url}: HTTP 304 Not Modified but nothing is cached for it")
        raise TerminalError(f"{url}: unexpected HTTP {status}")

    # -- convenience fetchers

    def fetch_companyfacts(self, cik: int | str) -> Document:
        c = cik_int(cik)
        return self.get(companyfacts_url(c), kind="companyfacts", expected_cik=c)

    def fetch_submissions(self, cik: int | str) -> Document:
        c = cik_int(cik)
        return self.get(submissions_url(c), kind="submissions", expected_cik=c)

    def fetch_submissions_page(self, name: str, cik: int | str) -> Document:
        c = cik_int(cik)
        return self.get(submissions_page_url(name), kind="submissions_page", expected_cik=c)

    def fetch_company_tickers(self) -> Document:
        return self.get(COMPANY_TICKERS_URL, kind="company_tickers")

    def fetch_company_tickers_exchange(self) -> Document:
        return self.get(COMPANY_TICKERS_EXCHANGE_URL, kind="company_tickers_exchange")

    def fetch_archive(
        self, path_or_url: str, kind: str | None = None, accession: str | None = None,
        expected_cik: int | None = None,
    ) -> Document:
        return self.get(archive_url(path_or_url), kind=kind, accession=accession, expected_cik=expected_cik)

    def fetch_daily_index(self, day: date | str, index: str = "form") -> Document:
        return self.get(daily_index_url(day, index), kind="daily_index")


def _check_sec_url(url: str) -> None:
    """Only https://sec.gov and its subdomains: the User-Agent contact goes nowhere else."""
    try:
        u = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise TerminalError(f"{url}: invalid URL ({exc})") from exc
    host = u.host or ""
    if u.scheme != "https" or not (host == "sec.gov" or host.endswith(".sec.gov")):
        raise TerminalError(f"{url}: SecClient fetches only https://*.sec.gov URLs")


def _refuse_non_sec_request(request: httpx.Request) -> None:
    _check_sec_url(str(request.url))


def _retry_after_seconds(response: httpx.Response, wall_clock: Clock) -> float | None:
    """Retry-After as seconds from now (delta-seconds or an HTTP date); None when absent or unreadable."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # "-0000": an HTTP date is GMT by definition
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - wall_clock())
