"""The tracked universe (which companies the nightly keeps current, and through which day) and
the requests each run made to SEC (``run_requests``): what `track`, the nightly and `status` read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import duckdb
import pyarrow as pa

from pipelines.documents import utcnow
from pipelines.request_log import RequestLog, request_kind
from warehouse.read.queries import Result, run_named
from warehouse.schema.sql_files import sql
from warehouse.store.db import fetch_all, fetch_value, transaction, unregister


@dataclass(frozen=True)
class Tracked:
    """One tracked company, the last EDGAR day whose filings of it are held (None: never fetched
    whole) and the day its filings' text is fetched from (None: numbers only)."""

    cik: int
    ticker: str | None
    synced_through: date | None
    text_since: date | None = None


def track(con: duckdb.DuckDBPyConnection, ciks: Sequence[int], *, tickers: Sequence[str | None] | None = None,
          by: str = "cik", text_since: date | None = None) -> list[int]:
    """Track ``ciks`` (``tickers`` parallel, when tracked by ticker); returns those newly tracked
    (a company already tracked is left as it is). With ``text_since``, the primary documents of
    their 10-K/10-Q/8-K filings filed from that day on are fetched too (companies already tracked
    included; an earlier window already asked for is kept)."""
    if not ciks:
        return []
    tickers = list(tickers) if tickers is not None else [None] * len(ciks)
    with transaction(con):
        before = _tracked_among(con, ciks)
        con.execute(sql("load/tracking/track"), {"ciks": list(ciks), "tickers": tickers, "by": [by] * len(ciks),
                                            "now": utcnow()})
        if text_since is not None:
            con.execute(sql("load/tracking/with_text"), {"ciks": list(ciks), "since": text_since})
    return sorted(set(ciks) - before)


def text_windows(con: duckdb.DuckDBPyConnection, ciks: Sequence[int]) -> dict[int, date]:
    """The companies among ``ciks`` tracked with text, and the day their text is fetched from."""
    return dict(fetch_all(con, sql("load/tracking/text_windows"), {"ciks": sorted(set(ciks))}))


def _tracked_among(con: duckdb.DuckDBPyConnection, ciks: Sequence[int]) -> set[int]:
    return {r[0] for r in fetch_all(con, "SELECT cik FROM tracked_companies WHERE list_contains(?, cik)",
                                    [list(ciks)])}


def untrack(con: duckdb.DuckDBPyConnection, ciks: Sequence[int]) -> list[int]:
    """Stop tracking ``ciks`` (what the warehouse holds of them stays); returns those untracked."""
    with transaction(con):
        gone = _tracked_among(con, ciks)
        con.execute("DELETE FROM tracked_companies WHERE list_contains(?, cik)", [list(ciks)])
    return sorted(gone)


def tracked(con: duckdb.DuckDBPyConnection) -> list[Tracked]:
    """Every tracked company, in CIK order."""
    return [Tracked(cik, ticker, synced, text) for cik, ticker, _name, _by, _at, synced, text in
            run_named(con, "load/tracking/tracked").rows]


def tracked_table(con: duckdb.DuckDBPyConnection) -> Result:
    """The tracked universe as `track --list` and `status` print it."""
    return run_named(con, "load/tracking/tracked")


def advance(con: duckdb.DuckDBPyConnection, ciks: Sequence[int], day: date, load_id: str) -> None:
    """The filings of ``ciks`` through ``day`` are held: move their watermark (never back)."""
    if ciks:
        with transaction(con):
            con.execute(sql("load/tracking/advance"), {"ciks": sorted(set(ciks)), "day": day, "load_id": load_id})


def held_pages(con: duckdb.DuckDBPyConnection, ciks: Sequence[int]) -> set[tuple[int, str]]:
    """(cik, page name) of the submissions pages already loaded for ``ciks``."""
    return set(fetch_all(con, sql("load/tracking/held_pages"), {"ciks": sorted(set(ciks))}))


_REQUESTS = pa.schema([("load_id", pa.string()), ("seq", pa.int32()), ("url", pa.string()),
                       ("kind", pa.string()), ("status", pa.int32()), ("body_bytes", pa.int64()),
                       ("sent_at", pa.timestamp("us")), ("elapsed_ms", pa.float64()),
                       ("failure", pa.string())])


def record_requests(con: duckdb.DuckDBPyConnection, load_id: str, logs: Sequence[RequestLog]) -> int:
    """Append ``logs`` to the run's requests (numbered after those already recorded); returns how many."""
    if not logs:
        return 0
    with transaction(con):
        first = fetch_value(con, "SELECT coalesce(max(seq), 0) FROM run_requests WHERE load_id = ?", [load_id])
        table = pa.Table.from_pylist([
            {"load_id": load_id, "seq": first + n, "url": r.url, "kind": request_kind(r.url), "status": r.status,
             "body_bytes": r.bytes, "sent_at": r.started_at.replace(tzinfo=None), "elapsed_ms": round(r.elapsed_ms, 3),
             "failure": r.error} for n, r in enumerate(logs, start=1)], schema=_REQUESTS)
        con.register("_run_requests_batch", table)
        try:
            con.execute("INSERT INTO run_requests SELECT * FROM _run_requests_batch")
        finally:
            unregister(con, "_run_requests_batch")
    return len(logs)


def run_requests(con: duckdb.DuckDBPyConnection, load_id: str) -> list[tuple[str, int | None]]:
    """(url, status) of every request of a run, in the order they were sent."""
    return fetch_all(con, "SELECT url, status FROM run_requests WHERE load_id = ? ORDER BY seq", [load_id])


def run_summary(con: duckdb.DuckDBPyConnection, load_id: str) -> dict:
    """One run's documents, requests, duration and rows per table (for the artifact and status)."""
    res = run_named(con, "load/tracking/run_summary", {"load_id": load_id})
    return dict(zip(res.columns, res.rows[0], strict=True)) if res.rows else {}


def status_sections(con: duckdb.DuckDBPyConnection) -> list[tuple[str, Result]]:
    """What `status` adds: the tracked universe and what recent runs cost in requests."""
    out = []
    universe = tracked_table(con)
    if universe.rows:
        out.append(("Tracked companies", universe))
    costs = run_named(con, "load/tracking/run_requests")
    if costs.rows:
        out.append(("Recent runs: requests to SEC and what they brought", costs))
    return out
