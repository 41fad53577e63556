"""Writers that never fight on the lake: company claims, id blocks and per-batch run rows (issue 25 item 2).

DuckLake 1.5.5 detects conflicts per table: a transaction that deletes or updates rows of a table
conflicts with every concurrent one that inserts into or deletes from it, while two that only insert
never conflict (checked against the extension: ``tests/warehouse/store/test_lake_writers.py``). A batch
that inserts only rows of its own companies therefore commits beside any number of others, and what
used to make every batch a writer of shared rows is done before or after it, in small transactions that
serialise on the guard row (``lake.serialise_writes``) and, when they conflict, are retried in
milliseconds instead of a whole batch:

* **company claims** (``claim`` / ``release``): before its transaction a batch claims its companies
  (``edgar_lake.company_claims``), so no other writer inserts rows of the same company meanwhile
  (two concurrent inserts would both land, unseen by DuckLake); a batch of a kind that writes shared
  rows claims the whole lake instead (``ciks=None``: it waits until no claim is held, and new
  claims wait for it) and keeps the guard in its transaction, as before;
* **id blocks** (``reserve_ids``): ``source_document_id`` comes from a counter (``edgar_lake.id_blocks``)
  moved on by the block a batch needs, not from ``max + 1`` inside the batch; one process loading
  alone gets the numbers the DuckDB file gives;
* **run totals** (``add_run_batch`` / ``run_totals``): a batch of a started run appends its counts to
  ``edgar_lake.run_batches`` (an insert) instead of updating its ``load_runs`` row, whose totals
  ``finish_run`` writes once from them.

The DuckDB file has one writer and none of this: its statements are unchanged.
"""

from __future__ import annotations

import json
import os
import platform
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import duckdb

from warehouse.store.db import fetch_all, fetch_value, transaction
from warehouse.store.lake import CLAIMS, ID_BLOCKS, RUN_BATCHES, LakeError, retry_on_conflict

# A claim of a process on another host is taken over after this long (one of this host: when its
# process is gone). A batch holds its claims for its own duration only.
CLAIM_LEASE = timedelta(hours=1)
# How long a batch waits for the companies another writer has claimed before giving up.
CLAIM_WAIT_S = 3600.0


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def pid_alive(pid: int) -> bool:
    """Whether a process of this host with this pid exists (one of another user's counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _alive(host: str, pid: int, claimed_at: datetime) -> bool:
    if host != platform.node():
        return _now() - claimed_at < CLAIM_LEASE
    return pid_alive(pid)


def _verdict(rows: list[tuple], owner: str, ciks: Sequence[int] | None) -> tuple[bool, list[str], bool]:
    """(granted, owners of claims whose process is gone, whether ``owner``'s whole-lake request is
    still to be recorded) for the claims ``rows`` (owner, cik, host, pid, claimed_at)."""
    live = [r for r in rows if r[0] == owner or _alive(r[2], r[3], r[4])]
    gone = sorted({r[0] for r in rows if r not in live})
    others = [r for r in live if r[0] != owner]
    mine = [r for r in live if r[0] == owner]
    if ciks is None:
        at = mine[0][4] if mine else _now()
        return not any((r[4], r[0]) < (at, owner) for r in others), gone, not mine
    wanted = set(ciks)
    return not any(r[1] is None or r[1] in wanted for r in others), gone, False


def _try_claim(con: duckdb.DuckDBPyConnection, owner: str, ciks: Sequence[int] | None) -> bool:
    """Take the claim when nothing live stands in its way; True when taken. A whole-lake claim is
    recorded at the first try (new company claims then wait for it) and taken once the claims made
    before it are gone. Looking is a read: a refused try writes nothing unless it has something to
    record, so waiting writers do not make the others' guarded transactions conflict."""
    select = f"SELECT owner, cik, host, pid, claimed_at FROM {CLAIMS}"
    granted, gone, record = _verdict(fetch_all(con, select), owner, ciks)
    if not (granted or gone or record):
        return False
    with transaction(con):
        granted, gone, record = _verdict(fetch_all(con, select), owner, ciks)
        if gone:
            con.execute(f"DELETE FROM {CLAIMS} WHERE list_contains(?, owner)", [gone])
        if record:
            con.execute(f"INSERT INTO {CLAIMS} VALUES (?, NULL, ?, ?, ?)", [owner, platform.node(), os.getpid(), _now()])
        if granted and ciks is not None:
            con.execute(f"INSERT INTO {CLAIMS} SELECT ?, unnest(?::INTEGER[]), ?, ?, ?",
                        [owner, sorted(set(ciks)), platform.node(), os.getpid(), _now()])
    return granted


def claim(con: duckdb.DuckDBPyConnection, ciks: Sequence[int] | None) -> str:
    """Claim ``ciks`` (None: the whole lake) for one batch, waiting while another writer holds any of
    them; returns the claim's owner id for ``release``."""
    owner = str(uuid.uuid4())
    waited, pause = 0.0, 0.05
    while not retry_on_conflict(lambda: _try_claim(con, owner, ciks)):
        if waited > CLAIM_WAIT_S:
            release(con, owner)
            raise LakeError(f"waited {waited:.0f} s for companies another writer claimed: {sorted(ciks or [])[:10]}")
        time.sleep(pause)
        waited += pause
        pause = min(1.0, pause * 1.5)
    return owner


def release(con: duckdb.DuckDBPyConnection, owner: str) -> None:
    """Give back the claims of ``owner`` (after the batch committed or rolled back)."""
    def drop() -> None:
        with transaction(con):
            con.execute(f"DELETE FROM {CLAIMS} WHERE owner = ?", [owner])
    retry_on_conflict(drop)


def reserve_ids(con: duckdb.DuckDBPyConnection, n: int, *, table: str = "source_documents",
                column: str = "source_document_id") -> int:
    """The first of ``n`` consecutive ids of ``table.column`` no other writer will use: the counter
    moved on by ``n`` in a guarded transaction of its own (above every stored id: a lake loaded before
    the counter existed starts after its largest)."""
    def take() -> int:
        with transaction(con):
            last = fetch_value(con, f"SELECT max(last) FROM {ID_BLOCKS} WHERE name = ?", [table])
            top = int(fetch_value(con, f"SELECT coalesce(max({column}), 0) FROM {table}"))
            first = max(int(last or 0), top) + 1
            if last is None:
                con.execute(f"INSERT INTO {ID_BLOCKS} VALUES (?, ?)", [table, first + n - 1])
            elif n:
                con.execute(f"UPDATE {ID_BLOCKS} SET last = ? WHERE name = ?", [first + n - 1, table])
        return first
    return retry_on_conflict(take)


def add_run_batch(con: duckdb.DuckDBPyConnection, load_id: str, *, loaded: int, unchanged: int, rejected: int,
                  row_counts: Counter, error: str | None, conflicts: int = 0) -> None:
    """Inside a batch's transaction: its counts, appended for ``run_totals`` (an insert: no conflict),
    and how many times it was redone after a commit conflict (``tests/bench/bench_lake_writers.py``)."""
    con.execute(f"INSERT INTO {RUN_BATCHES} VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [load_id, _now(), loaded, unchanged, rejected, json.dumps(dict(sorted(row_counts.items()))), error,
                 conflicts])


def run_totals(con: duckdb.DuckDBPyConnection, load_id: str) -> tuple[int, int, int, str | None, str | None]:
    """(loaded, unchanged, rejected, row_counts JSON or None, last batch error) of a run's batches."""
    rows = fetch_all(con, f"SELECT loaded, unchanged, rejected, row_counts, error FROM {RUN_BATCHES}"
                          " WHERE load_id = ? ORDER BY committed_at", [load_id])
    counts: Counter = Counter()
    for row in rows:
        counts.update(json.loads(row[3]))
    errors = [r[4] for r in rows if r[4]]
    return (sum(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows),
            json.dumps(dict(sorted(counts.items()))) if rows else None, errors[-1] if errors else None)
