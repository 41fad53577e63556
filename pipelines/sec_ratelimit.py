"""SEC's request budget: evenly spaced request slots and the throttle block, shared by every process.

SEC counts requests per organisation, not per process: a nightly refresh, a manual refresh and a
notebook running at once must share one budget of at most 10 requests/second. ``RateLimiter`` with
a ``state_dir`` keeps that budget in two small files of a per-user folder (default
``~/.cache/edgar-warehouse/``, overridden by ``$EDGAR_WAREHOUSE_STATE_DIR``):

- ``sec-rate.lock`` is locked with ``fcntl.flock`` and holds the earliest time (epoch seconds) the
  next request may start. A caller takes the lock, sleeps until that time if it has not come,
  writes ``now + 1/rate`` and lets go. Request starts are therefore at least ``1/rate`` apart
  whatever process makes them (every rate is at most 10/s), evenly spaced, never in bursts.
- ``sec-throttle-block.json`` holds the expiry of SEC's 10-minute block after a "Request Rate
  Threshold Exceeded" page. Every process reads it before and after waiting its turn and sends
  nothing until it has passed. It is replaced atomically, so it needs no lock.

Without ``state_dir`` the limiter is per process (used with fake clocks in tests). The clock of a
shared limiter must be the wall clock (``time.time``): it is compared across processes.
"""

from __future__ import annotations

import fcntl
import json
import logging
import math
import os
import pwd
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from pipelines.errors import ConfigError
from pipelines.replay import write_atomic

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], None]

MAX_RATE = 10.0
DEFAULT_RATE = 8.0
THROTTLE_BLOCK_SECONDS = 600.0
STATE_DIR_ENV = "EDGAR_WAREHOUSE_STATE_DIR"
LOCK_FILE = "sec-rate.lock"
BLOCK_FILE = "sec-throttle-block.json"
# A next slot further ahead than this was written by a clock that has since jumped back: ignore it.
_STALE_SLOT_SECONDS = 60.0


def check_rate(rate: float) -> None:
    """Refuse a rate that is not above 0 and at most MAX_RATE (also NaN) with ConfigError."""
    if not (isinstance(rate, int | float) and 0 < rate <= MAX_RATE):
        raise ConfigError(f"SEC request rate must be above 0 and at most {MAX_RATE:g}/s (fair access), got {rate!r}")


def default_state_dir() -> Path:
    """``$EDGAR_WAREHOUSE_STATE_DIR``, else ``~/.cache/edgar-warehouse`` of the user running us.

    The home folder is read from the password database, not ``$HOME``, so a cron job, a Prefect
    worker and a login shell of the same user all find the same folder.
    """
    override = os.environ.get(STATE_DIR_ENV, "").strip()
    if override:
        return Path(override)
    try:
        home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        home = Path.home()
    return home / ".cache" / "edgar-warehouse"


def _prepare_dir(path: Path) -> Path:
    """Create ``path`` (mode 0700) and check it is a folder of ours; ConfigError otherwise."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.stat()
    except OSError as exc:
        raise ConfigError(f"cannot use {path} for the shared SEC rate limit: {exc.strerror or exc}; "
                          f"set {STATE_DIR_ENV} to a writable folder") from exc
    if not path.is_dir() or st.st_uid != os.getuid():
        raise ConfigError(f"{path} (shared SEC rate limit) is not a folder owned by this user; "
                          f"set {STATE_DIR_ENV} to a folder of yours")
    return path


class RateLimiter:
    """Evenly spaced request starts (``1/rate`` seconds apart, never bursts) and SEC's throttle block.

    Thread-safe. With ``state_dir`` the slots and the block are shared with every process using the
    same folder (see the module docstring); ``clock`` must then be the wall clock. ``sleep`` must
    advance ``clock`` (true of ``time.sleep``/``time.time``).
    """

    def __init__(self, rate: float = DEFAULT_RATE, *, clock: Clock = time.monotonic, sleep: Sleep = time.sleep,
                 state_dir: str | os.PathLike[str] | None = None):
        check_rate(rate)
        self._rate = float(rate)
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()  # the request slots (held while a caller waits its turn)
        self._state_lock = threading.Lock()  # the rate and the throttle block (never waits on the slots)
        self._next_start: float | None = None
        self._blocked_until: float | None = None
        self.state_dir = _prepare_dir(Path(state_dir)) if state_dir is not None else None

    @property
    def rate(self) -> float:
        return self._rate

    @property
    def shared(self) -> bool:
        return self.state_dir is not None

    def slow_to(self, rate: float) -> None:
        """Lower the rate to ``rate`` if that is slower (the process honours its slowest client)."""
        check_rate(rate)
        with self._state_lock:
            if rate < self._rate:
                log.info("SEC request rate lowered from %.2f to %.2f/s", self._rate, rate)
                self._rate = float(rate)

    def acquire(self) -> float:
        """Wait until a request may start and return its start time (``clock()``).

        Consecutive starts are at least ``1/rate`` apart: each caller waits, holding the lock (the
        thread lock, and with ``state_dir`` the lock file too), until the previous start plus one
        interval, then records its own start. Other callers, in this process or another, wait for
        the lock meanwhile; a process that dies releases it.
        """
        with self._lock:
            if self.state_dir is None:
                now = self._wait_until(self._next_start)
                self._next_start = now + 1.0 / self._rate
                return now
            fd = os.open(self.state_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                nxt = _parse_float(os.pread(fd, 64, 0))
                now = self._wait_until(nxt)
                # 1 µs of slack: the epoch in a float has ~0.2 µs resolution; never come out short.
                text = f"{now + 1.0 / self._rate + 1e-6!r}\n".encode("ascii")
                os.pwrite(fd, text, 0)
                os.ftruncate(fd, len(text))
                return now
            finally:
                os.close(fd)  # releases the lock

    def _wait_until(self, start: float | None) -> float:
        now = self._clock()
        if start is None or start > now + _STALE_SLOT_SECONDS:  # never set, or the clock jumped back
            return now
        while now < start:
            self._sleep(start - now)
            now = self._clock()
        return now

    def block(self, seconds: float, reason: str = "") -> None:
        """Refuse requests for ``seconds`` from now, in every process sharing the state folder
        (never shortens a block already in force)."""
        with self._state_lock:
            until = self._clock() + seconds
            if self._blocked_until is None or until > self._blocked_until:
                self._blocked_until = until
            if self.state_dir is None:
                return
            # No lock file here: a process waiting its turn holds that one. Two blocks written at
            # once differ by milliseconds; the file is replaced atomically, never read half-written.
            current = self._read_block()
            if current is not None and current >= until:
                return
            record = {
                "blocked_until": until,
                "blocked_until_utc": _utc_text(until),
                "blocked_at_utc": _utc_text(self._clock()),
                "reason": reason or "SEC answered 'Request Rate Threshold Exceeded'",
                "pid": os.getpid(),
            }
            try:
                write_atomic(self.state_dir / BLOCK_FILE, json.dumps(record, indent=1).encode("utf-8"))
            except OSError as exc:  # this process still honours the block
                log.error("cannot write the SEC throttle block file %s: %s; other processes will not see the "
                          "block", self.state_dir / BLOCK_FILE, exc.strerror or exc)

    def blocked_for(self) -> float:
        """Seconds left in the throttle block (this process's or a shared one), 0.0 when requests may go."""
        with self._state_lock:
            now = self._clock()
            until = self._blocked_until
            shared = self._read_block() if self.state_dir is not None else None
            if shared is not None and (until is None or shared > until):
                until = shared
            if until is None:
                return 0.0
            # A block can never be longer than SEC's 10 minutes, even if the clock jumped back.
            return min(max(0.0, until - now), THROTTLE_BLOCK_SECONDS)

    def _read_block(self) -> float | None:
        assert self.state_dir is not None
        try:
            data = json.loads((self.state_dir / BLOCK_FILE).read_bytes())
            until = float(data["blocked_until"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("unreadable SEC throttle block file %s (%s); ignoring it", self.state_dir / BLOCK_FILE, exc)
            return None
        return until if math.isfinite(until) else None


def _parse_float(raw: bytes) -> float | None:
    try:
        value = float(raw.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _utc_text(epoch: float) -> str:
    try:
        return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return "?"


_shared_lock = threading.Lock()
_shared_limiters: dict[tuple[str | None, Clock, Sleep], RateLimiter] = {}


def shared_limiter(
    rate: float = DEFAULT_RATE, *, clock: Clock = time.time, sleep: Sleep = time.sleep,
    state_dir: str | os.PathLike[str] | None = None,
) -> RateLimiter:
    """The limiter of this process for ``state_dir`` and this clock (created on first use).

    Every SecClient of the process with the same state folder shares it, and through the folder
    every other process of the user. Asking for a slower ``rate`` lowers it for the whole process;
    a faster one changes nothing.
    """
    check_rate(rate)
    key = (str(Path(state_dir).absolute()) if state_dir is not None else None, clock, sleep)
    with _shared_lock:
        limiter = _shared_limiters.get(key)
        if limiter is None:
            limiter = _shared_limiters[key] = RateLimiter(rate, clock=clock, sleep=sleep, state_dir=state_dir)
            return limiter
    limiter.slow_to(rate)
    return limiter
