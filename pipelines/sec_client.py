"""The one SEC HTTP path: declared User-Agent, machine-wide rate limit, retries, deadline, cache, replay.

Everything that talks to sec.gov goes through ``SecClient.get`` (or a ``fetch_*`` helper), which
returns a ``pipelines.documents.Document``. SEC's fair access rules are enforced here:

- a User-Agent with a contact email (``SEC_USER_AGENT``) or the client refuses to start; the contact
  goes only into that header, never into logs, errors or Documents;
- at most 10 requests/second (default 8), evenly spaced, for every process of the user on the
  machine (``pipelines.sec_ratelimit``: a lock file in ``~/.cache/edgar-warehouse/``);
- 429/5xx, network errors and incomplete bodies retry with exponential backoff and jitter,
  honouring Retry-After, all within one overall deadline per request (``deadline`` seconds, however
  slowly the server drips bytes) and one retry budget per client, that is per run (``retry_budget``
  seconds of failed attempts and waits, ``$EDGAR_WAREHOUSE_RETRY_BUDGET``; spent, the request raises
  ``RetryBudgetSpent``). This is the one retry layer: the flows never retry a fetch again;
- no connection at all (DNS lookup failed, connection refused, network unreachable) is never
  retried: ``SecUnreachable`` at the first attempt;
- SEC's "Request Rate Threshold Exceeded" page, recognised by its content whatever the status (SEC
  sometimes serves it with 200), blocks every request of every process for 10 minutes
  (``SecThrottled``) instead of hammering; it is never cached;
- a body is complete or it is an error: a Content-Length that does not match, a gzip stream that
  does not reach its end, and a body larger than the document size cap (``max_body_bytes``, default
  ``pipelines.documents.max_document_bytes()``) are never returned as a 200;
- only validated bodies are cached (and recorded): a body whose content is not the kind asked for
  (an HTML page where JSON was expected, ...) is returned for the parser to reject but never
  written, and ``evict(url)`` removes an entry the caller's parser rejected. Archives documents are
  cached forever, other endpoints revalidated with ETag/Last-Modified; cache entries are validated
  again when read, so a cache poisoned by an older version heals itself;
- redirects are followed by the client itself, each hop a request like any other: rate limited
  and only to https://*.sec.gov (at most ``MAX_REDIRECTS`` hops).

``SecClient.replay(folder)`` serves recorded responses (see ``pipelines.replay``): no network, no
rate limiting, no sleeping.
"""

from __future__ import annotations

import email.utils
import errno
import gzip
import hashlib
import json
import logging
import os
import random
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx

from pipelines.detect import JSON_KINDS, KINDS, detect_kind, is_html_page
from pipelines.documents import Document, max_document_bytes, utcnow
from pipelines.errors import (
    AccessDenied,
    ConfigError,
    NotFound,
    RejectedDocument,
    RetryBudgetSpent,
    SecForbidden,
    SecThrottled,
    SecUnreachable,
    TerminalError,
    TransientError,
)
from pipelines.replay import (
    REPLAY_MISSING_HEADER,
    ReplayTransport,
    record_body,
    url_relpath,
    write_atomic,
)
from pipelines.request_log import RequestLog
from pipelines.sec_ratelimit import (
    DEFAULT_RATE,
    MAX_RATE,
    THROTTLE_BLOCK_SECONDS,
    Clock,
    RateLimiter,
    Sleep,
    check_rate,
    default_state_dir,
    shared_limiter,
)
from pipelines.sec_ratelimit_pg import PostgresRateLimiter, limit_home, postgres_limiter

__all__ = ["DEFAULT_RATE", "MAX_RATE", "THROTTLE_BLOCK_SECONDS", "RateLimiter", "SecClient", "shared_limiter"]

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5
DEFAULT_DEADLINE = 300.0  # seconds per request, retries and waits included
DEFAULT_RETRY_BUDGET = 300.0  # seconds per client (a run) of failed attempts and waits before retries
RETRY_BUDGET_ENV = "EDGAR_WAREHOUSE_RETRY_BUDGET"
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

# SEC's refusal pages, told by their content (the status varies: 403 usually, sometimes 200 or 503).
THROTTLE_PHRASE = b"request rate threshold exceeded"
UNDECLARED_PHRASE = b"undeclared automated tool"
_PAGE_SNIFF_BYTES = 64 * 1024


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


# --------------------------------------------------------------------------- SEC's refusal pages

def sec_refusal_page(body: bytes, status: int) -> str | None:
    """``"throttle"`` for SEC's Request Rate Threshold Exceeded page, ``"undeclared"`` for its
    Undeclared Automated Tool page, else None.

    Told by content: under 403 the phrase anywhere in the first 64 KiB; under any other status
    (SEC has served the throttle page with 200) only in an HTML page, so a filing that merely
    quotes the phrase is not mistaken for it. The throttle page also names undeclared tools, so
    the throttle phrase is looked for first.
    """
    head = body[:_PAGE_SNIFF_BYTES]
    if status != 403 and not is_html_page(head):
        return None
    lowered = head.lower()
    if THROTTLE_PHRASE in lowered:
        return "throttle"
    if UNDECLARED_PHRASE in lowered:
        return "undeclared"
    return None


def cache_problem(body: bytes, kind: str | None, *, document: str) -> str | None:
    """Why ``body`` must not be cached as a ``kind`` document, or None when it may be.

    Empty bodies and SEC's refusal pages never; a known ``kind`` must be what the content is
    (``pipelines.detect``), and JSON kinds must end like JSON (a body cut short is not cached).
    """
    if not body.strip():
        return "empty body"
    if sec_refusal_page(body, 200) is not None:
        return "an SEC refusal page"
    if kind in KINDS:
        try:
            found = detect_kind(body, document=document)
        except RejectedDocument as exc:
            return exc.reason
        if found != kind:
            return f"content is {found}, not the {kind} asked for"
        if kind in JSON_KINDS and body.rstrip()[-1:] not in (b"}", b"]"):
            return "JSON that does not end (cut short?)"
    return None


# --------------------------------------------------------------------------- body decoding

class _IncompleteBody(Exception):
    """The body received is not the whole body (retryable)."""


def _decode_body(raw: bytes, encoding: str, limit: int, url: str) -> bytes:
    """``raw`` decoded per Content-Encoding, checked complete; TerminalError above ``limit`` bytes."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return raw
    if encoding in ("gzip", "x-gzip"):
        wbits = zlib.MAX_WBITS | 16
    elif encoding == "deflate":
        wbits = zlib.MAX_WBITS if raw[:1] and (raw[0] & 0x0F) == 8 else -zlib.MAX_WBITS
    else:
        raise TerminalError(f"{url}: unsupported Content-Encoding {encoding!r}")
    out = bytearray()
    data = raw
    while True:  # gzip may hold several members
        d = zlib.decompressobj(wbits)
        try:
            out += d.decompress(data, limit + 1 - len(out))
        except zlib.error as exc:
            raise _IncompleteBody(f"corrupt {encoding} body ({exc})") from exc
        if len(out) > limit:
            raise TerminalError(f"{url}: {encoding} body inflates beyond {limit:,} bytes (refused)")
        if d.unconsumed_tail:
            raise TerminalError(f"{url}: {encoding} body inflates beyond {limit:,} bytes (refused)")
        if not d.eof:
            raise _IncompleteBody(f"incomplete {encoding} body: the stream stops after {len(raw):,} bytes "
                                  f"before its end")
        data = d.unused_data
        if wbits != zlib.MAX_WBITS | 16 or not data.strip(b"\x00"):
            return bytes(out)


@dataclass(frozen=True)
class _Reply:
    """One complete HTTP response: status, headers and the decoded, checked body."""

    status: int
    headers: httpx.Headers
    body: bytes


class _Watchdog:
    """Shut a response's socket down when the deadline passes, so a dripping server cannot hold a read."""

    def __init__(self, response: httpx.Response, seconds: float):
        self.fired = False
        self._timer: threading.Timer | None = None
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            self._timer = threading.Timer(max(0.0, seconds), self._fire, args=(sock,))
            self._timer.daemon = True
            self._timer.start()

    def _fire(self, sock: socket.socket) -> None:
        self.fired = True
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


class _DeadlinePassed(Exception):
    pass


_NO_ROUTE = frozenset({errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN})
# What httpx says when the cause is not chained (a transport that raises ConnectError itself).
_DNS_TEXT = re.compile(r"name or service not known|nodename nor servname|name resolution|getaddrinfo|"
                       r"no address associated", re.IGNORECASE)


def unreachable_reason(exc: BaseException) -> str | None:
    """Why no connection could be made at all when ``exc`` (an httpx.ConnectError) says so: the DNS
    lookup failed, the connection was refused, no route to the host; else None (retryable)."""
    if not isinstance(exc, httpx.ConnectError):
        return None
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, socket.gaierror):
            return f"DNS lookup failed ({cause.strerror or cause})"
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, OSError) and cause.errno in _NO_ROUTE:
            return f"no route to the host ({cause.strerror})"
        cause = cause.__cause__ or cause.__context__
    text = str(exc)
    if _DNS_TEXT.search(text):
        return f"DNS lookup failed ({text})"
    if "connection refused" in text.lower():
        return "connection refused"
    return None


def retry_budget_seconds() -> float:
    """``$EDGAR_WAREHOUSE_RETRY_BUDGET`` seconds, else DEFAULT_RETRY_BUDGET; ConfigError when unreadable."""
    text = os.environ.get(RETRY_BUDGET_ENV, "").strip()
    if not text:
        return DEFAULT_RETRY_BUDGET
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise ConfigError(f"{RETRY_BUDGET_ENV}={text!r}: expected seconds, 0 or more")
    return value


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

    def evict(self, url: str) -> bool:
        """Remove the entry of ``url``; True when there was one."""
        removed = False
        for path in self._paths(url):
            try:
                path.unlink()
                removed = True
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.warning("cannot remove cache file %s: %s", path, exc.strerror or exc)
        return removed


# --------------------------------------------------------------------------- client

class SecClient:
    """The SEC HTTP client. Use as a context manager or call ``close()``.

    ``transport`` is any httpx transport (``ReplayTransport`` for offline runs, a loopback server or
    ``httpx.MockTransport`` in tests). ``clock``/``sleep`` time the deadline and backoff;
    ``wall_clock`` (epoch seconds) times the shared rate limiter and throttle block, Retry-After dates
    and the cache TTL. ``rng`` draws backoff jitter. ``state_dir`` is the folder of the shared rate
    limit (default ``pipelines.sec_ratelimit.default_state_dir()``); ``limiter`` replaces it.
    ``retry_budget`` (default ``retry_budget_seconds()``) bounds the seconds all requests of the
    client together may spend on failed attempts and waits before retries.
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
        deadline: float = DEFAULT_DEADLINE,
        retry_budget: float | None = None,
        max_body_bytes: int | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        cache_ttl_seconds: float = 0,
        record_dir: str | os.PathLike[str] | None = None,
        transport: httpx.BaseTransport | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
        wall_clock: Clock = time.time,
        rng: random.Random | None = None,
        limiter: RateLimiter | None = None,
        state_dir: str | os.PathLike[str] | None = None,
    ):
        self._replay = isinstance(transport, ReplayTransport)
        if self._replay and user_agent == REPLAY_USER_AGENT:
            ua = user_agent
        else:
            ua = resolve_user_agent(user_agent)
        check_rate(rate)
        if max_retries < 0:
            raise ConfigError(f"max_retries must be 0 or more, got {max_retries!r}")
        if not deadline > 0 or not timeout > 0:
            raise ConfigError(f"deadline and timeout must be above 0 seconds, got {deadline!r} and {timeout!r}")
        self.rate = float(rate)
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.timeout = float(timeout)
        self.deadline = float(deadline)
        self.retry_budget = retry_budget_seconds() if retry_budget is None else float(retry_budget)
        self._budget_spent = 0.0
        self._retries_made = 0
        self._budget_lock = threading.Lock()
        # One size cap for every document, fetched or local (512 MiB, $EDGAR_MAX_DOCUMENT_BYTES).
        self.max_body_bytes = int(max_body_bytes) if max_body_bytes is not None else max_document_bytes()
        self.cache_ttl_seconds = cache_ttl_seconds
        self.origin = "replay" if self._replay else "http"
        self._cache = _DiskCache(Path(cache_dir)) if cache_dir is not None else None
        self._record = Path(record_dir) if record_dir is not None else None
        self._clock = clock
        self._sleep = sleep
        self._wall_clock = wall_clock
        self._rng = rng or random.Random()
        self._limiter_given = limiter
        self._state_dir = state_dir
        self._limiter_obj: RateLimiter | PostgresRateLimiter | None = None
        # Called once per request sent (see RequestLog); the nightly records them per run.
        self.on_request: Callable[[RequestLog], None] | None = None
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
        """A live client that also saves every validated 200 body under ``root`` for later replay."""
        return cls(user_agent, record_dir=root, **kwargs)

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
    def limiter(self) -> RateLimiter | PostgresRateLimiter:
        """The limiter in force: the one given, else the organisation's (``EDGAR_WAREHOUSE_SEC_LIMIT``:
        ``pipelines.sec_ratelimit_pg``), else the one shared by every process of the user."""
        if self._limiter_obj is None:
            home = limit_home() if self._limiter_given is None else None
            self._limiter_obj = self._limiter_given or (postgres_limiter(home, self.rate) if home else shared_limiter(
                self.rate, clock=self._wall_clock, sleep=self._sleep,
                state_dir=self._state_dir if self._state_dir is not None else default_state_dir()))
        return self._limiter_obj

    def evict(self, url: str) -> bool:
        """Forget the cached body of ``url`` (call it when the body was rejected); True if one was cached."""
        if self._cache is None:
            return False
        removed = self._cache.evict(str(url))
        if removed:
            log.info("cache entry for %s removed (rejected by its reader)", url)
        return removed

    # -- the one request path

    def get(
        self, url: str, *, kind: str | None = None, expected_cik: int | None = None, accession: str | None = None
    ) -> Document:
        """GET ``url`` and return its decoded, complete body as a Document.

        ``kind`` (one of ``pipelines.detect.KINDS``) is what the caller expects: a body of another
        kind is returned (for the parser to reject and record) but never cached. Raises NotFound
        (404 / not recorded), SecForbidden, SecThrottled, TransientError (retries or deadline
        exhausted) or TerminalError (bad URL, other status, body too large).
        """
        url = str(url)
        _check_sec_url(url)
        extra = {"kind": kind, "expected_cik": expected_cik, "accession": accession}
        immutable = is_immutable_url(url)
        cached = self._cache.load(url) if self._cache else None
        if cached is not None:
            problem = cache_problem(cached.body, kind, document=url)
            if problem is not None:
                log.warning("cache entry for %s is not a valid %s (%s); removed and refetching", url,
                            kind or "document", problem)
                self.evict(url)
                cached = None
        if cached is not None and (immutable or self._fresh(cached)):
            log.debug("GET %s served from cache (%s)", url, "immutable" if immutable else "within TTL")
            return self._cached_document(url, cached, http_status=cached.status, fetched_at=cached.fetched_at, **extra)

        headers: dict[str, str] = {}
        if cached is not None:
            if cached.etag:
                headers["If-None-Match"] = cached.etag
            if cached.last_modified:
                headers["If-Modified-Since"] = cached.last_modified
        reply, retries, elapsed_ms = self._send(url, headers)
        status = reply.status
        log.info("GET %s -> %d in %.0f ms, retries=%d%s", url, status, elapsed_ms, retries,
                 " (replay)" if self._replay else "")

        if status == 304 and cached is not None:
            etag = reply.headers.get("etag") or cached.etag
            last_modified = reply.headers.get("last-modified") or cached.last_modified
            refreshed = _CacheEntry(cached.body, cached.status, etag, last_modified, cached.fetched_at,
                                    self._wall_clock())
            if self._cache:
                self._cache.store(url, refreshed, body_too=False)
            return self._cached_document(url, refreshed, http_status=304, fetched_at=utcnow(), **extra)
        if status == 200:
            doc = Document(
                uri=url,
                origin=self.origin,
                body=reply.body,
                fetched_at=utcnow(),
                http_status=200,
                etag=reply.headers.get("etag"),
                last_modified=reply.headers.get("last-modified"),
                **extra,
            )
            problem = cache_problem(doc.body, kind, document=url) if (self._cache or self._record) else None
            if problem is not None:
                log.warning("GET %s: not cached: %s", url, problem)
            else:
                if self._cache:
                    self._cache.store(url, _CacheEntry(doc.body, 200, doc.etag, doc.last_modified,
                                                       doc.fetched_at, self._wall_clock()))
                if self._record:
                    record_body(self._record, url, doc.body)
            return doc
        self._raise_for_status(url, reply)
        raise AssertionError("unreachable")  # pragma: no cover

    def _fresh(self, entry: _CacheEntry) -> bool:
        return self.cache_ttl_seconds > 0 and self._wall_clock() - entry.stored_at < self.cache_ttl_seconds

    def _cached_document(self, url: str, entry: _CacheEntry, *, http_status: int, fetched_at: datetime,
                         **extra: Any) -> Document:
        return Document(uri=url, origin=self.origin, body=entry.body, fetched_at=fetched_at,
                        http_status=http_status, etag=entry.etag, last_modified=entry.last_modified,
                        from_cache=True, **extra)

    def _send(self, url: str, headers: dict[str, str]) -> tuple[_Reply, int, float]:
        """Send with rate limiting, retries, redirects and the overall deadline; return (reply, retries
        used, elapsed ms of the last attempt).

        A redirect (301/302/303/307/308) is followed here, not by httpx, so each hop waits for the
        rate limiter and the throttle block like any request, and goes only to https://*.sec.gov.
        SEC's refusal pages are recognised here, whatever their status, before any retry.
        """
        deadline_at = self._clock() + self.deadline
        retries = 0
        hops = 0
        target = url
        while True:
            self._wait_turn(target)
            started = self._clock()
            sent_at = utcnow()
            error: Exception | None = None
            reply: _Reply | None = None
            try:
                reply = self._attempt(target, headers, deadline_at)
            except _DeadlinePassed as exc:
                self._observe(target, None, None, sent_at, started, f"deadline: {exc}")
                raise self._deadline_error(url, retries, str(exc)) from None
            except (httpx.TransportError, _IncompleteBody) as exc:
                self._observe(target, None, None, sent_at, started, f"{type(exc).__name__}: {exc}")
                why = unreachable_reason(exc)
                if why is not None:
                    host = httpx.URL(target).host
                    log.warning("GET %s: cannot reach %s: %s; not retried", target, host, why)
                    raise SecUnreachable(f"cannot reach {host}: {why}; not retried: check this machine's network "
                                         f"and DNS, then run again") from None
                if self._clock() >= deadline_at:
                    raise self._deadline_error(url, retries, f"{type(exc).__name__}: {exc}") from exc
                error = exc
                reason = str(exc) if isinstance(exc, _IncompleteBody) else f"{type(exc).__name__}: {exc}"
            else:
                status = reply.status
                self._observe(target, status, len(reply.body), sent_at, started, None)
                if not self._replay:
                    page = sec_refusal_page(reply.body, status)
                    if page == "throttle":
                        self._throttled(url, status)
                    if page == "undeclared":
                        raise SecForbidden(f"{url}: SEC refused the User-Agent (HTTP {status}, Undeclared Automated "
                                           f"Tool page); {USER_AGENT_HELP}")
                if status in REDIRECT_STATUSES:
                    target = self._redirect_target(url, target, reply, hops)
                    hops += 1
                    continue
                if status not in RETRY_STATUSES:
                    return reply, retries, (self._clock() - started) * 1000
                reason = f"HTTP {status}"
            elapsed_ms = (self._clock() - started) * 1000
            if retries >= self.max_retries:
                log.warning("GET %s -> %s in %.0f ms, retries=%d; giving up", target, reason, elapsed_ms, retries)
                raise TransientError(f"{url}: gave up after {retries} retries (last: {reason})") from error
            retry_after = _retry_after_seconds(reply.headers, self._wall_clock) if reply is not None else None
            if retry_after is not None and retry_after > self.max_retry_after:
                log.warning("GET %s -> %s, Retry-After %.0f s; giving up", target, reason, retry_after)
                raise TransientError(
                    f"{url}: SEC asked to retry after {retry_after:.0f} s (more than {self.max_retry_after:.0f} s); "
                    f"try again later (last: {reason})"
                ) from error
            delay = retry_after if retry_after is not None else self._backoff(retries)
            if self._clock() + delay >= deadline_at:
                log.warning("GET %s -> %s; a retry in %.2f s would pass the deadline; giving up", target, reason,
                            delay)
                raise self._deadline_error(url, retries, f"{reason}; next retry due in {delay:.1f} s") from error
            self._spend_budget(url, elapsed_ms / 1000 + delay, reason, error)
            log.warning("GET %s -> %s in %.0f ms, retries=%d; retrying in %.2f s", target, reason, elapsed_ms,
                        retries, delay)
            self._sleep(delay)
            retries += 1

    def _spend_budget(self, url: str, seconds: float, reason: str, error: Exception | None) -> None:
        """Take ``seconds`` (a failed attempt and the wait before its retry) from the client's retry
        budget, or raise RetryBudgetSpent when they are not left: SEC keeps failing, stop the run."""
        with self._budget_lock:
            if self._budget_spent + seconds > self.retry_budget:
                spent, made = self._budget_spent, self._retries_made
            else:
                self._budget_spent += seconds
                self._retries_made += 1
                return
        log.warning("GET %s -> %s; the retry budget of %g s is spent; giving up", url, reason, self.retry_budget)
        raise RetryBudgetSpent(
            f"{url}: SEC keeps failing (last: {reason}): this run's retry budget of {self.retry_budget:g} s is spent "
            f"({made} retries, {spent:.0f} s); not retried: run again later (${RETRY_BUDGET_ENV} sets the budget)"
        ) from error

    def _observe(self, url: str, status: int | None, nbytes: int | None, sent_at: datetime, started: float,
                 error: str | None) -> None:
        if self.on_request is not None:
            self.on_request(RequestLog(url, status, nbytes, sent_at, (self._clock() - started) * 1000, error))

    def _attempt(self, target: str, headers: dict[str, str], deadline_at: float) -> _Reply:
        """One request: read the whole body within the deadline, check it is complete, decode it."""
        remaining = deadline_at - self._clock()
        if remaining <= 0:
            raise _DeadlinePassed("no time left before the request")
        wait = min(self.timeout, remaining)  # every single wait is bounded by the time left
        request = self._http.build_request("GET", target, headers=headers, timeout=httpx.Timeout(wait))
        response = self._http.send(request, stream=True)
        watchdog = _Watchdog(response, deadline_at - self._clock())
        try:
            raw = bytearray()
            try:
                # The raw bytes as they came (transports that pre-read their body, like MockTransport
                # and replay, still hold them in ``stream``); decoding is ours, to check completeness.
                for chunk in response.stream:  # type: ignore[union-attr]
                    raw += chunk
                    if len(raw) > self.max_body_bytes:
                        raise TerminalError(f"{target}: body larger than {self.max_body_bytes:,} bytes (refused)")
                    if self._clock() >= deadline_at:
                        raise _DeadlinePassed(f"body still arriving ({len(raw):,} bytes so far)")
            except httpx.TransportError:
                if watchdog.fired:
                    raise _DeadlinePassed(f"body still arriving ({len(raw):,} bytes so far)") from None
                raise
        finally:
            watchdog.cancel()
            response.close()
        status = response.status_code
        if status == 304 or status == 204 or status < 200:
            return _Reply(status, response.headers, b"")
        declared = response.headers.get("content-length")
        if declared is not None and "chunked" not in response.headers.get("transfer-encoding", "").lower():
            try:
                expected = int(declared)
            except ValueError:
                expected = -1
            if expected != len(raw):
                raise _IncompleteBody(f"incomplete body: Content-Length {declared} but {len(raw):,} bytes received")
        if not raw and status != 200:  # an empty error response, whatever its Content-Encoding says
            return _Reply(status, response.headers, b"")
        body = _decode_body(bytes(raw), response.headers.get("content-encoding", ""), self.max_body_bytes, target)
        return _Reply(status, response.headers, body)

    def _deadline_error(self, url: str, retries: int, last: str) -> TransientError:
        log.warning("GET %s: no complete response within the %.0f s deadline, retries=%d (%s)", url, self.deadline,
                    retries, last)
        return TransientError(f"{url}: no complete response within the {self.deadline:g} s deadline "
                              f"(retries included; {retries} retries; last: {last})")

    def _throttled(self, url: str, status: int) -> None:
        self.limiter.block(THROTTLE_BLOCK_SECONDS, reason=f"HTTP {status} Request Rate Threshold Exceeded at {url}")
        where = "every process sharing this SEC rate limit" if self.limiter.shared else "this process"
        log.error("SEC throttled us (HTTP %d Request Rate Threshold Exceeded) at %s; blocking all requests of %s "
                  "for %.0f s", status, url, where, THROTTLE_BLOCK_SECONDS)
        raise SecThrottled(
            f"{url}: SEC answered HTTP {status} Request Rate Threshold Exceeded; all requests of {where} "
            f"are blocked for {THROTTLE_BLOCK_SECONDS:.0f} s"
        )

    def _wait_turn(self, url: str) -> None:
        """Refuse while SEC's throttle block is in force, else wait for the rate limiter (not in replay)."""
        if self._replay:
            return
        self._refuse_if_blocked(url)
        self.limiter.acquire()
        self._refuse_if_blocked(url)  # a block may have started while this request waited its turn

    def _refuse_if_blocked(self, url: str) -> None:
        remaining = self.limiter.blocked_for()
        if remaining > 0:
            raise SecThrottled(
                f"{url}: not sent: SEC throttled this user (Request Rate Threshold Exceeded); "
                f"requests resume in {remaining:.0f} s"
            )

    @staticmethod
    def _redirect_target(url: str, current: str, reply: _Reply, hops: int) -> str:
        """The URL a redirect points to, checked (sec.gov only, at most MAX_REDIRECTS hops)."""
        status = reply.status
        location = reply.headers.get("location")
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

    def _raise_for_status(self, url: str, reply: _Reply) -> None:
        status = reply.status
        if status == 404:
            if reply.headers.get(REPLAY_MISSING_HEADER):
                raise NotFound(reply.body.decode("utf-8", "replace"))
            raise NotFound(f"{url}: HTTP 404 Not Found")
        if status == 403:
            raise AccessDenied(f"{url}: HTTP 403 Forbidden")
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

    def full_text_search(self, q: str, *, forms: list[str] | None = None, start: date | None = None,
                         end: date | None = None, offset: int = 0) -> Document:
        """EDGAR full-text search (2001 on; an earlier range raises EftsRangeRefused with the reason)."""
        from pipelines.efts import efts_url

        return self.get(efts_url(q, forms=forms, start=start, end=end, offset=offset), kind="efts")


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


def _retry_after_seconds(headers: httpx.Headers, wall_clock: Clock) -> float | None:
    """Retry-After as seconds from now (delta-seconds or an HTTP date); None when absent or unreadable."""
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if seconds == seconds else None  # NaN is unreadable
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # "-0000": an HTTP date is GMT by definition
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - wall_clock())
