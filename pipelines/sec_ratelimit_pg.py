"""SEC's request budget for the organisation: the slots and the throttle block in one PostgreSQL row.

SEC counts requests per organisation (at most 10/second; a "Request Rate Threshold Exceeded" page
blocks the whole organisation for 10 minutes). ``pipelines.sec_ratelimit``'s ``flock``ed file shares
the budget between the processes of one user on one machine; processes that share no folder (other
machines, Dask workers with their own state folders) each got their own 10/s. Selected by
``EDGAR_WAREHOUSE_SEC_LIMIT``:

    EDGAR_WAREHOUSE_SEC_LIMIT=lake                               # the lake catalog's PostgreSQL
    EDGAR_WAREHOUSE_SEC_LIMIT='postgres:dbname=ops host=db user=edgar_writer'   # any PostgreSQL
    (unset, or "local")                                          # the flock'ed file (one machine)

The budget is one row of ``edgar_ops.sec_limit`` (made on first use), used like the local file: a
request's turn takes the row's lock (``SELECT ... FOR UPDATE``), the server sleeps (``pg_sleep``)
until the row's next start if it has not come, and once the caller has woken it sends "next start =
now + 1/rate; COMMIT" without waiting for the answer and starts its request at once (the answer is
read before the connection's next use). So the next turn is timed from when this caller really
went, as with the file's lock: a caller woken late moves every later start with it, never bunching
requests. Times are read on the database server's clock, so machines whose clocks disagree still
space their requests; a process that dies mid-turn has its transaction rolled back. A throttle page
sets the row's ``blocked_until`` (never shortened), which every process reads before each request.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pipelines.errors import ConfigError, SecUnreachable
from pipelines.sec_ratelimit import DEFAULT_RATE, THROTTLE_BLOCK_SECONDS, check_rate

log = logging.getLogger(__name__)
T = TypeVar("T")

LIMIT_ENV = "EDGAR_WAREHOUSE_SEC_LIMIT"
LAKE_CATALOG_ENV = "EDGAR_WAREHOUSE_LAKE_CATALOG"
NAME = "sec"  # the budget's row: one per organisation

_SETUP = (
    "CREATE SCHEMA IF NOT EXISTS edgar_ops",
    "CREATE TABLE IF NOT EXISTS edgar_ops.sec_limit (name text PRIMARY KEY, next_start double precision NOT NULL,"
    " blocked_until double precision, reason text)",
    "INSERT INTO edgar_ops.sec_limit (name, next_start) VALUES (%s, 0) ON CONFLICT (name) DO NOTHING",
)
_NOW = "extract(epoch FROM clock_timestamp())"
# the turn: the row locked, the server sleeps until its next start ...
_WAIT = f"SELECT pg_sleep(greatest(0, next_start - {_NOW})) FROM edgar_ops.sec_limit WHERE name = %s FOR UPDATE"
# ... and once the caller is awake, the next start moves 1/rate past now (sent without waiting)
_TAKE = "UPDATE edgar_ops.sec_limit SET next_start = {now} + {interval!r} WHERE name = {name}; COMMIT"
_BLOCK = (f"UPDATE edgar_ops.sec_limit SET blocked_until = greatest(coalesce(blocked_until, 0), {_NOW} + %s),"
          " reason = %s WHERE name = %s")
_BLOCKED = f"SELECT coalesce(blocked_until - {_NOW}, 0) FROM edgar_ops.sec_limit WHERE name = %s"


def limit_home() -> str | None:
    """The libpq connection string of the organisation's limit, or None for the local file."""
    value = os.environ.get(LIMIT_ENV, "").strip()
    if not value or value == "local":
        return None
    if value == "lake":
        value = os.environ.get(LAKE_CATALOG_ENV, "").strip()
        if not value:
            raise ConfigError(f"{LIMIT_ENV}=lake needs {LAKE_CATALOG_ENV} (the lake's catalog)")
    value = value.removeprefix("ducklake:")
    if not value.startswith("postgres:"):
        raise ConfigError(f"{LIMIT_ENV}: expected 'local', 'lake' or 'postgres:<connection string>' "
                          f"(a PostgreSQL every fetcher reaches)")
    return value.removeprefix("postgres:")


class PostgresRateLimiter:
    """``RateLimiter``'s interface (acquire, block, blocked_for, slow_to) over one PostgreSQL row: every
    process of every machine connected to the same database shares the spacing and the block.

    Thread-safe (two connections per limiter, each used under its lock: the turns', the block's).
    """

    shared = True
    state_dir = None

    def __init__(self, conninfo: str, rate: float = DEFAULT_RATE, *, name: str = NAME):
        check_rate(rate)
        self._conninfo = conninfo
        self._rate = float(rate)
        self._name = name
        self._lock = threading.Lock()
        # two connections: the turns' (whose COMMIT may still be on its way) and the throttle block's
        self._cons: dict[str, Any] = {"turn": None, "block": None}
        self._block_lock = threading.Lock()
        self._committing = False  # a turn's COMMIT was sent and its answer not read yet
        self._blocked_local = 0.0  # monotonic deadline of a block this process saw (if the row is unreachable)

    @property
    def rate(self) -> float:
        return self._rate

    def slow_to(self, rate: float) -> None:
        check_rate(rate)
        with self._lock:
            self._rate = min(self._rate, float(rate))

    def _where(self) -> str:
        parts = dict(p.split("=", 1) for p in self._conninfo.split() if "=" in p)
        return f"the SEC limit's PostgreSQL ({parts.get('host', 'local socket')}:{parts.get('port', '5432')}" \
               f" {parts.get('dbname', '')})"

    def _connection(self, which: str) -> Any:
        import psycopg

        if self._cons[which] is None or self._cons[which].closed:
            con = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10)
            for attempt in (1, 2, 3):
                try:
                    for stmt in _SETUP:
                        con.execute(stmt, (self._name,) if "%s" in stmt else None)
                    break
                except (psycopg.errors.UniqueViolation, psycopg.errors.DuplicateObject,
                        psycopg.errors.DuplicateSchema, psycopg.errors.DuplicateTable):
                    if attempt == 3:  # another process made them at the same moment: made now
                        raise
            self._cons[which] = con
        return self._cons[which]

    def _finish_turn(self, con: Any) -> None:
        """Read the answer of the last turn's COMMIT (sent without waiting for it)."""
        import psycopg
        from psycopg import pq

        if not self._committing:
            return
        self._committing = False
        failed = None
        while (result := con.pgconn.get_result()) is not None:
            if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
                failed = (result.error_message or b"").decode("utf-8", "replace").strip()
        if failed:  # the slot was not recorded: at most one request went early
            log.warning("the SEC limit's last turn did not commit (%s)", failed)
            if con.pgconn.transaction_status != pq.TransactionStatus.IDLE:
                con.pgconn.exec_(b"ROLLBACK")
        if con.pgconn.status != pq.ConnStatus.OK:
            raise psycopg.OperationalError("the connection to the SEC limit's PostgreSQL was lost")

    def _run(self, work: Callable[[Any], T], which: str = "turn") -> T:
        """``work(connection)``, connecting (and making the row) on first use; once more after a lost
        connection; SecUnreachable when the database cannot be reached."""
        import psycopg

        for attempt in (1, 2):
            try:
                con = self._connection(which)
                if which == "turn":
                    self._finish_turn(con)
                return work(con)
            except psycopg.OperationalError as exc:
                self._cons[which] = None
                if which == "turn":
                    self._committing = False
                if attempt == 2:
                    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    raise SecUnreachable(f"{self._where()} cannot be reached, so no SEC request may start: "
                                         f"{first}") from exc
        raise AssertionError("unreachable")

    def acquire(self) -> float:
        """Wait for this request's turn in the organisation's budget; returns time.time() at its start."""
        interval = 1.0 / self._rate

        def turn(con: Any) -> None:
            con.execute("BEGIN")
            con.execute(_WAIT, (self._name,))
            take = _TAKE.format(now=_NOW, interval=interval, name="'" + self._name.replace("'", "''") + "'")
            con.pgconn.send_query(take.encode("ascii"))
            self._committing = True

        with self._lock:
            self._run(turn)
        return time.time()

    def block(self, seconds: float, reason: str = "") -> None:
        """Refuse requests for ``seconds`` from now, in every process of the organisation."""
        self._blocked_local = max(self._blocked_local, time.monotonic() + seconds)
        try:
            text = reason or "SEC answered 'Request Rate Threshold Exceeded'"
            with self._block_lock:
                self._run(lambda con: con.execute(_BLOCK, (seconds, text, self._name)), "block")
        except SecUnreachable as exc:  # this process still honours the block
            log.error("%s; other processes will not see the throttle block", exc)

    def blocked_for(self) -> float:
        """Seconds left in the organisation's throttle block (0.0 when requests may go)."""
        with self._block_lock:
            (shared,) = self._run(lambda con: con.execute(_BLOCKED, (self._name,)).fetchone(), "block")
        local = self._blocked_local - time.monotonic()
        return min(max(0.0, float(shared), local), THROTTLE_BLOCK_SECONDS)

    def close(self) -> None:
        with self._lock, self._block_lock:
            for which, con in self._cons.items():
                if con is not None:
                    con.close()
                    self._cons[which] = None


_limiters_lock = threading.Lock()
_limiters: dict[str, PostgresRateLimiter] = {}


def postgres_limiter(conninfo: str, rate: float = DEFAULT_RATE) -> PostgresRateLimiter:
    """The process's limiter for ``conninfo`` (created on first use; a slower rate lowers it)."""
    check_rate(rate)
    with _limiters_lock:
        limiter = _limiters.get(conninfo)
        if limiter is None:
            limiter = _limiters[conninfo] = PostgresRateLimiter(conninfo, rate)
            return limiter
    limiter.slow_to(rate)
    return limiter
