"""How every command opens the warehouse: ``writer()`` (locked, private build, published by rename)
and ``reader()`` (the published file, read-only, sandboxed); where the file and its raw store live.

With ``EDGAR_WAREHOUSE_BACKEND=ducklake`` (warehouse/store/lake.py) the same functions open the DuckLake
instead of the file: no writer lock and no build copy (writers commit concurrently with snapshot
isolation), readers pinned to the latest snapshot; the ``db_path`` arguments are then ignored."""

from __future__ import annotations

import errno
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from warehouse.errors import DamagedWarehouse, DiskFull, DuckDBStopped, OutOfMemory, WarehouseError
from warehouse.memory import MEMORY_LIMIT_ENV, writer_memory_limit
from warehouse.schema.migrate import upgrade
from warehouse.schema.template import forget_template, start_from_template
from warehouse.store.lake import connect_lake, is_lake, lake_config, serialise_writes
from warehouse.store.publish import (
    INTERACTIVE_WAIT,
    Holder,
    discard_build,
    lock_wait,
    prepare_build,
    publish_build,
    published_path_for,
    wal_of,
    writer_lock,
)
from warehouse.store.sandbox import sandbox

__all__ = ["DEFAULT_DB", "WarehouseError", "checkpoint", "connect", "default_db_path", "fetch_all", "fetch_value",
           "publishing", "raw_dir_for", "reader", "transaction", "writer"]

DEFAULT_DB = "edgar.duckdb"


def default_db_path() -> Path:
    """`EDGAR_WAREHOUSE_DB` when set, else ./edgar.duckdb."""
    return Path(os.environ.get("EDGAR_WAREHOUSE_DB") or DEFAULT_DB)


def raw_dir_for(db_path: str | Path) -> Path | str:
    """Content-addressed raw payloads live beside the database: edgar.duckdb -> edgar.raw/ (a
    writer's build file edgar.duckdb.build shares the raw store of the file it will replace); on
    DuckLake beside the lake's data (``LakeConfig.raw_dir``: a folder, or an object store prefix)."""
    cfg = lake_config()
    if cfg is not None:
        return cfg.raw_dir
    p = published_path_for(db_path)
    return p.with_name(p.stem + ".raw")


def _damaged(p: Path, exc: duckdb.Error) -> DamagedWarehouse:
    """One line naming the file, what is wrong and the documented recovery (docs/operations.md: Recovery)."""
    p = published_path_for(p)  # a writer's build copy is damaged because the published file is
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "WAL" in str(exc):
        return DamagedWarehouse(
            f"{p}: its write-ahead log {wal_of(p).name} cannot be replayed ({first[:160]}); recovery: "
            f"move it aside (mv {wal_of(p)} {wal_of(p)}.damaged): the file then opens at its last "
            f"checkpoint; re-run the loads made since")
    return DamagedWarehouse(
        f"{p}: damaged warehouse file ({type(exc).__name__}: {first[:160]}); recovery: restore the last "
        f"good copy of {p.name}, or rebuild one from the raw payloads: "
        f"edgar-warehouse --db NEW.duckdb load {raw_dir_for(p)}/*/*.gz")


def connect(db_path: str | Path, *, read_only: bool = False, migrate: bool = True,
            external_access: bool = False) -> duckdb.DuckDBPyConnection:
    """Open one DuckDB file as it is (no lock, no publishing: use ``writer``/``reader``).

    Writers get pending migrations applied; readers get a read-only handle that is also sandboxed
    (no file or network access, no spill folder: COPY TO, read_csv, ATTACH are refused, and the
    settings are locked) unless ``external_access`` is asked for, as `export` does.
    On DuckLake the lake is opened instead (``db_path`` ignored; readers pinned to its latest snapshot)."""
    cfg = lake_config()
    if cfg is not None:
        return connect_lake(cfg, read_only=read_only, migrate=migrate, external_access=external_access)
    p = Path(db_path)
    if read_only and not p.exists():
        raise WarehouseError(f"{p}: no warehouse here (run `edgar-warehouse --db {p} init` first)")
    # a new file starts as a copy of the machine's empty-schema template (warehouse/schema/template.py)
    fresh = not read_only and migrate and not p.exists() and start_from_template(p)
    try:
        con = _open(p, read_only)
    except WarehouseError:
        if not fresh:
            raise
        forget_template(p)  # a damaged template: this file made from the migrations, the next builds it again
        fresh = False
        con = _open(p, read_only)
    try:
        if con.execute("SELECT current_setting('lock_configuration')").fetchone()[0]:
            # DuckDB shares one instance per file within a process: another reader here sandboxed it
            if not read_only or external_access:
                raise WarehouseError(f"{p}: this process already holds a sandboxed reader of it open; "
                                     f"close it first")
            return con
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")  # never write into a caller's stdout (MCP stdio)
        if read_only and not external_access:
            sandbox(con)
        if not read_only and migrate:
            upgrade(con, copied=fresh)
    except BaseException:
        con.close()
        raise
    return con


def _open(p: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect``, its failures told as the writer or reader is told them."""
    try:
        return duckdb.connect(str(p), read_only=read_only)
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            raise WarehouseError(f"{p}: another process holds the file open for writing "
                                 f"(a DuckDB shell or an older edgar-warehouse?)") from exc
        raise _damaged(p, exc) from exc
    except duckdb.Error as exc:  # WAL replay failures, bad headers, truncated blocks...
        raise _damaged(p, exc) from exc


# Connections with a statement DuckDB could not interrupt still running on one of their cursors
# (``abandon``): closing them would wait for it to end.
_RUNAWAY: dict[int, list[threading.Thread]] = {}
_RUNAWAY_LOCK = threading.Lock()


def abandon(con: duckdb.DuckDBPyConnection, cur: duckdb.DuckDBPyConnection, worker: threading.Thread) -> None:
    """``cur`` (a cursor of ``con``) runs a statement past its time limit that ``worker`` is waiting
    on: close the cursor when it ends, and let ``close(con)`` return at once meanwhile."""
    with _RUNAWAY_LOCK:
        _RUNAWAY.setdefault(id(con), []).append(worker)

    def finish() -> None:
        worker.join()
        cur.close()

    threading.Thread(target=finish, name="edgar-sql-runaway", daemon=True).start()


def close(con: duckdb.DuckDBPyConnection) -> None:
    """Close a connection; one with a runaway statement (``abandon``) is closed in the background
    once the statement ends, so that its caller is answered now."""
    with _RUNAWAY_LOCK:
        workers = [w for w in _RUNAWAY.pop(id(con), []) if w.is_alive()]
    if not workers:
        con.close()
        return

    def finish() -> None:
        for w in workers:
            w.join()
        con.close()

    threading.Thread(target=finish, name="edgar-sql-close", daemon=True).start()


@contextmanager
def reader(db_path: str | Path, *, sandboxed: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
    """The published warehouse, read-only (sandboxed unless ``sandboxed=False``, as `export` needs),
    closed on leaving the block. Never waits for a writer: writers work on a private copy."""
    con = connect(published_path_for(db_path), read_only=True, external_access=not sandboxed)
    try:
        yield con
    finally:
        close(con)


@contextmanager
def publishing(db_path: str | Path, *, command: str, wait: float | None = None,
               on_wait: Callable[[Holder | None], None] | None = None, resume: bool = False) -> Iterator[Path]:
    """Hold the writer lock of ``db_path`` and yield the path of a private build copy of it; when the
    block ends, publish the copy by atomic rename (readers see the whole run at once, or nothing).

    Open and close the build path as often as needed inside the block (``connect(build)``); every
    connection must be closed by the end. What the block committed is published even when it
    ends with an error (the failing transaction has rolled back; ``load_runs`` says how the run
    ended); a killed process publishes nothing and its build is discarded by the next writer.
    ``wait`` defaults to ``$EDGAR_WAREHOUSE_LOCK_WAIT``, else 30 s. ``resume`` (the bulk bootstrap)
    carries on from the build a killed run of the same command left (see ``prepare_build``).

    On DuckLake there is nothing to lock or publish: the block gets the published path back and its
    connections open the lake, whose commits are the publication (snapshots)."""
    db = published_path_for(db_path)
    if lake_config() is not None:
        yield db
        return
    wait = lock_wait(INTERACTIVE_WAIT) if wait is None else wait
    with writer_lock(db, command=command, wait=wait, on_wait=on_wait):
        try:
            build = prepare_build(db, command=command, resume=resume)
        except BaseException as exc:
            discard_build(db)  # a copy cut short (the disk filled up) never stays behind
            failure = machine_failure(exc, db)
            if failure is None:
                raise
            raise failure from exc
        try:
            yield build
        except BaseException as exc:
            failure = machine_failure(exc, db)
            if isinstance(failure, DiskFull | DuckDBStopped):
                discard_build(db)  # the build may hold a half-written commit; and it frees the space
            elif build.exists() and not wal_of(build).exists():
                publish_build(db)
            else:
                discard_build(db)
            if failure is None:
                raise
            raise failure from exc
        if not build.exists():  # the block created nothing (e.g. a new file it decided not to make)
            discard_build(db)  # (its bookkeeping)
            return
        publish_build(db)


_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
_DISK_FULL_TEXT = ("no space left on device", "disk quota exceeded")


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the chain of its causes (``__cause__``, else ``__context__``), each once."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        yield cause
        cause = cause.__cause__ or cause.__context__


def out_of_memory(exc: BaseException) -> bool:
    """True when DuckDB (or Python) running out of memory caused ``exc``, however it was wrapped."""
    return any(isinstance(c, duckdb.OutOfMemoryException | MemoryError) for c in _causes(exc))


def machine_failure(exc: BaseException, db: Path) -> WarehouseError | None:
    """The one-line error, naming what to do, for a writer stopped by its machine rather than by a
    document: the disk full (DiskFull), DuckDB out of memory (OutOfMemory) or DuckDB invalidating
    the database (DuckDBStopped); None for any other error. Looks through the chain of causes."""
    found: BaseException | None = None
    for cause in _causes(exc):
        text = str(cause).lower()
        if (isinstance(cause, OSError) and cause.errno in _DISK_FULL) or (
                isinstance(cause, duckdb.Error) and any(t in text for t in _DISK_FULL_TEXT)):
            return _disk_full(db)
        if found is None and isinstance(cause, duckdb.OutOfMemoryException | MemoryError | duckdb.FatalException):
            found = cause
    if isinstance(found, duckdb.OutOfMemoryException | MemoryError):
        return OutOfMemory(
            f"{db}: out of memory: DuckDB needed more than the writer's memory limit of {writer_memory_limit()} "
            f"({MEMORY_LIMIT_ENV}); raise it (e.g. {MEMORY_LIMIT_ENV}=4GB) or load fewer documents per batch "
            f"(--batch-size), then run again (`status` shows what the run committed)")
    if isinstance(found, duckdb.FatalException):
        first = (str(found).strip().splitlines() or [type(found).__name__])[0]
        return DuckDBStopped(f"{db}: DuckDB stopped this run ({first[:200]}); its build copy was removed and "
                             f"nothing of it was published; run it again")
    return None


def _disk_full(db: Path) -> DiskFull:
    try:
        free = f"{shutil.disk_usage(db.parent).free / 2**20:,.0f} MB free"
    except OSError:
        free = "free space unknown"
    try:
        size = f"{db.stat().st_size / 2**20:,.0f} MB"
    except OSError:
        size = "its size"
    return DiskFull(f"{db}: no space left on the device of {db.parent} ({free} now); this run's build copy was "
                    f"removed and nothing of the run was published. Free space (a write needs room for a copy of "
                    f"the warehouse, {size}, plus what the run adds) and run again")


@contextmanager
def writer(db_path: str | Path, *, command: str, wait: float | None = None, migrate: bool = True,
           on_wait: Callable[[Holder | None], None] | None = None,
           resume: bool = False, bulk: bool | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection to a private build copy of ``db_path`` (migrated), under the writer
    lock; leaving the block checkpoints, closes and publishes it (see ``publishing``). ``bulk`` (default:
    ``resume``, the bootstrap): a load of many batches, whose leftover storage work is done before
    publishing (see ``settle``) instead of by the next, small, write."""
    bulk = resume if bulk is None else bulk
    with publishing(db_path, command=command, wait=wait, on_wait=on_wait, resume=resume) as build:
        con = connect(build, migrate=migrate)
        try:
            yield con
            if lake_config() is None:  # DuckLake's CHECKPOINT is maintenance (compaction), not this
                if bulk:
                    con.execute("CHECKPOINT")
                    settle(con)
                else:
                    small_checkpoint(con)
        finally:
            con.close()


def checkpoint(con: duckdb.DuckDBPyConnection) -> None:
    """Fold the WAL into the file now (DuckDB file only; DuckLake's CHECKPOINT is maintenance, not this).

    A bulk run calls it after a batch whose commit leaves at least ``BULK_CHECKPOINT_WAL_BYTES`` of
    WAL (``warehouse.load.ingest``; about every third batch of 25), instead of one batch in ~40 paying for
    all of them when the WAL reaches the automatic threshold (the universe's one 54 s batch among
    15-20 s ones); a killed run's build replays at most that much WAL and one batch when resumed."""
    if not is_lake(con):
        con.execute("CHECKPOINT")


# A small write merges partly filled row groups (DuckDB's checkpoint "vacuum") only every COMPACT_EVERY-th
# load run; bulk runs (``settle``), refresh and nightly connections always do.
COMPACT_EVERY = 16


def compaction_due(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether this small write's CHECKPOINT merges row groups: every ``COMPACT_EVERY``-th load run
    (``load_runs`` rows; a process with no run row, such as ``init``, has nothing to merge)."""
    try:
        runs = con.execute("SELECT count(*) FROM load_runs").fetchone()[0]
    except duckdb.CatalogException:  # a file without the schema (writer(migrate=False)): DuckDB's default
        return True
    return runs % COMPACT_EVERY == 0


def small_checkpoint(con: duckdb.DuckDBPyConnection) -> None:
    """The CHECKPOINT that ends a small write (one or a few documents), without DuckDB's merging of
    partly filled row groups unless ``compaction_due``.

    At a checkpoint DuckDB merges a run of up to four row groups of a table it appended to whenever
    their live rows fit in one fewer (``max_vacuum_tasks``): a one-company load appends ~12k rows to
    ``facts_current_rows`` beside partly filled groups, and the merge rewrites up to ~370k rows of
    other companies, 1.2-1.5 s CPU at 10x, ~60 % of the whole write (the CHECKPOINT without it: 0.05-0.1
    s). Skipped, each small write leaves its rows as one more small row group (pruned by zone maps like
    any other) and its deleted rows in place; every ``COMPACT_EVERY``-th run lets DuckDB merge what it
    finds then (measured at 10x after five unmerged one-company writes: one merge, 1.5 s CPU, 13 row
    groups of facts_current_rows back to 8), ~0.1 s per run on average."""
    vacuum_when_due(con)
    con.execute("CHECKPOINT")


def vacuum_when_due(con: duckdb.DuckDBPyConnection) -> None:
    """The connection's next CHECKPOINT merges row groups only when ``compaction_due`` (else
    ``max_vacuum_tasks = 0``): the rule of a small write's checkpoint (``small_checkpoint``)."""
    if not compaction_due(con):
        con.execute("SET max_vacuum_tasks = 0")


@contextmanager
def checkpoint_at_commit(con: duckdb.DuckDBPyConnection, threshold: str) -> Iterator[None]:
    """Run the block (a batch whose transaction commits inside it) so that its COMMIT checkpoints at
    once instead of writing its rows to the WAL first: for the last batch of a run, whose writer
    checkpoints when it closes anyway (``writer``), the WAL copy is written for nothing (the 8
    vendored files: 42 MB of WAL for a 22 MB file). ``checkpoint_threshold = 0`` is DuckDB's way
    (the migrations use it too); the checkpoint merges row groups only as ``small_checkpoint``'s does
    (``vacuum_when_due``). DuckDB file only: a lake has no WAL. After the block the threshold is
    ``threshold`` again (the writer's setting as it was given: DuckDB prints sizes rounded, 1GB as
    953.5 MiB, so the printed value is not the one to set back) and the vacuum setting as before."""
    if is_lake(con):
        yield
        return
    vacuum = int(fetch_value(con, "SELECT current_setting('max_vacuum_tasks')"))
    con.execute("SET checkpoint_threshold = '0b'")
    vacuum_when_due(con)
    try:
        yield
    finally:
        try:
            con.execute("SET checkpoint_threshold = ?", [threshold])
            con.execute(f"SET max_vacuum_tasks = {vacuum}")
        except duckdb.Error:
            pass  # an aborted transaction refuses every statement: the caller's error propagates


def settle(con: duckdb.DuckDBPyConnection) -> None:
    """Leave the file with no storage work pending for the next writer.

    DuckDB merges a table's partly filled row groups (a bulk load leaves one per batch) at a
    CHECKPOINT that has something to write, but not at the one that wrote them: left alone, the next
    write pays it, however small (measured: a one-document write right after a 10x bootstrap cost
    2.6 s CPU instead of 0.6). A catalog change no one sees (a table created and dropped) and a second
    CHECKPOINT do it now, in the bulk run that made the row groups (when nothing is pending it costs
    ~10-20 ms CPU, so small writes skip it: they leave nothing measurable behind)."""
    # (OR REPLACE / IF EXISTS: a bootstrap killed in between is resumed from its build, table and all)
    con.execute("CREATE OR REPLACE TABLE _edgar_settle (x INTEGER)")
    con.execute("DROP TABLE IF EXISTS _edgar_settle")
    con.execute("CHECKPOINT")


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection, *, serialise: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
    """BEGIN ... COMMIT, or ROLLBACK on any error so the warehouse is left exactly as before.
    On DuckLake the transaction conflicts with every concurrent ``serialise``-d one (one of them
    fails at COMMIT, ``lake.is_conflict``, and is retried by its caller: ``lake.retry_on_conflict``);
    ``serialise=False`` is for a batch that writes only rows of companies it has claimed
    (``store.lake_writers``)."""
    con.execute("BEGIN TRANSACTION")
    try:
        if serialise and is_lake(con):
            serialise_writes(con)
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def quote_ident(name: str) -> str:
    """``name`` as a quoted SQL identifier (embedded double quotes doubled)."""
    return '"' + name.replace('"', '""') + '"'


def unregister(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Drop a registered Arrow view, also from a ``finally`` after a failed statement: DuckDB 2.x refuses
    ``unregister`` inside an aborted transaction, whose rollback takes the view with it anyway."""
    try:
        con.unregister(name)
    except duckdb.TransactionException:
        pass  # aborted transaction: the caller's rollback drops the view


def fetch_all(con: duckdb.DuckDBPyConnection, sql: str, params: list | tuple | dict | None = None) -> list[tuple]:
    """Run a query and fetch every row (closes the result, idiom valid on DuckDB 1.5 and 2.x);
    ``params`` positional, or a dict for ``$name`` parameters."""
    return con.execute(sql, params or []).fetchall()


def fetch_value(con: duckdb.DuckDBPyConnection, sql: str, params: list | tuple | dict | None = None):
    """First column of the first row, or None."""
    rows = fetch_all(con, sql, params)
    return rows[0][0] if rows else None
