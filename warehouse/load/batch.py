"""Load a batch of parsed documents in ONE transaction: provenance, rejections, rows, run record.

A loader error for one document (a RejectedDocument, or anything else a bad value can cause: a
DuckDB conversion or range error, ArrowInvalid, OverflowError...) rejects that document only: the
batch is rolled back and retried without it, and the rejection is recorded with its reason.
Errors of the machine rather than the document (disk, memory, an interrupted or broken
connection) fail the batch and leave the warehouse as it was, except one: DuckDB running out of
memory in a batch of several documents loads the batch in pieces (its largest document alone,
after the rest), and a document that runs out of memory alone is rejected by name with the limit
to raise (``EDGAR_WAREHOUSE_MEMORY_LIMIT``): one large document never loses the run.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb

from pipelines.documents import Document, utcnow
from pipelines.errors import RejectedDocument
from warehouse.derive.batch import derive_batch
from warehouse.load.context import LoadContext
from warehouse.memory import MEMORY_LIMIT_ENV, writer_memory_limit
from warehouse.schema.sql_files import sql
from warehouse.schema.stored_tables import keep
from warehouse.store.db import fetch_all, fetch_value, out_of_memory, transaction, unregister
from warehouse.store.killpoints import kill_point
from warehouse.store.lake import CONFLICT_RETRIES, conflict_pause, is_conflict, is_lake, retry_on_conflict
from warehouse.store.lake_writers import add_run_batch, claim, pid_alive, release, reserve_ids, run_totals
from warehouse.store.raw_payloads import RawDir, RawWriter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Parsed:
    """A document and the record its parser produced."""

    doc: Document
    record: Any


@dataclass(frozen=True)
class Rejected:
    """A document that failed before loading (fetch or parse), with the error naming it."""

    doc: Document
    error: RejectedDocument
    kind: str | None = None


@dataclass(frozen=True)
class Known:
    """A document whose bytes are already loaded (found by sha256 before parsing): unchanged."""

    doc: Document
    kind: str


Item = Parsed | Rejected | Known


RUNNING = "running"
STATUS_RANK = ["succeeded", "partial", "failed"]

# Errors of the machine, not of a document: they fail the batch instead of rejecting a document.
INFRASTRUCTURE_ERRORS: tuple[type[BaseException], ...] = (
    OSError, MemoryError, duckdb.IOException, duckdb.OutOfMemoryException, duckdb.InternalException,
    duckdb.FatalException, duckdb.InterruptException, duckdb.TransactionException,
    duckdb.ConnectionException, duckdb.PermissionException)

# Largest value of the INTEGER columns that hold a CIK.
MAX_CIK = 2**31 - 1


@dataclass
class BatchReport:
    load_id: str
    loaded: int = 0
    unchanged: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    row_counts: Counter = field(default_factory=Counter)
    status: str = "succeeded"
    ciks: set[int] = field(default_factory=set)  # companies whose facts or filings this batch changed
    restated: set[int] = field(default_factory=set)  # ... whose stored facts' fiscal year or filing changed
    document_ids: set[int] = field(default_factory=set)  # source documents this batch loaded
    conflicts: int = 0  # DuckLake commit conflicts this batch was redone after

    def add(self, other: BatchReport) -> None:
        """Add another batch of the same run to these totals (the worst status wins)."""
        self.loaded += other.loaded
        self.unchanged += other.unchanged
        self.rejected += other.rejected
        self.row_counts.update(other.row_counts)
        self.status = max(self.status, other.status, key=STATUS_RANK.index)

    @property
    def documents(self) -> int:
        """Documents that reached the warehouse (loaded, unchanged or recorded as rejected)."""
        return self.loaded + self.unchanged + len(self.rejected)

    def summary(self) -> str:
        rows = ", ".join(f"{k}={v}" for k, v in sorted(self.row_counts.items()) if v) or "no new rows"
        return (f"load {self.load_id[:8]}: {self.loaded} loaded, {self.unchanged} unchanged, "
                f"{len(self.rejected)} rejected; {rows}")


def new_load_id() -> str:
    return str(uuid.uuid4())


def _storable_cik(cik: Any) -> int | None:
    """A CIK that fits the INTEGER columns, else None (the rejection reason says what was wrong)."""
    return cik if isinstance(cik, int) and 0 <= cik <= MAX_CIK else None


# source_documents' columns, in the order _DocumentRows writes them, with their types.
_DOCUMENT_COLUMNS = (
    ("source_document_id", "int64"), ("kind", "string"), ("uri", "string"), ("origin", "string"),
    ("sha256", "string"), ("bytes", "int64"), ("fetched_at", "timestamp"), ("http_status", "int32"),
    ("etag", "string"), ("last_modified", "string"), ("cik", "int32"), ("accession", "string"),
    ("status", "string"), ("reject_reason", "string"), ("raw_path", "string"), ("load_id", "string"),
    ("expected_cik", "int32"), ("given_accession", "string"))


class _DocumentRows:
    """The source_documents rows of one batch attempt: ids counted up from max + 1 (the DuckDB file's
    one writer, inside the batch's transaction) or from the first of the block the batch reserved on
    the lake (``lake_writers.reserve_ids``: ``ids`` is (first, how many)); the rows written together by
    ``flush`` (one INSERT from Arrow) at the end of the batch's loading (no loader reads source_documents).

    Ids are assigned here, not by the column's sequence default: the same statements then run on
    DuckLake, which has no sequences. Rows are not inserted one statement each: the Python binding
    converts each parameter (~0.3 ms), so an INSERT of 18 parameters cost ~5 ms per document (0.54 s of
    a 10x bootstrap's 80 documents)."""

    def __init__(self, con, ids: tuple[int, int] | None = None):
        if ids is None:
            self.next = int(fetch_value(con, "SELECT coalesce(max(source_document_id), 0) + 1 FROM source_documents"))
            self.end: int | None = None
        else:
            self.next, self.end = ids[0], ids[0] + ids[1]
        self.rows: list[tuple] = []

    def add(self, doc: Document, *, kind: str, load_id: str, status: str, reason: str | None,
            raw_path: str | None, cik: int | None, accession: str | None) -> int:
        """Record ``doc`` (written at the next ``flush``); returns its source_document_id."""
        doc_id = self.next
        self.next += 1
        self.rows.append((doc_id, kind, doc.uri, doc.origin, doc.sha256, doc.size, doc.fetched_at, doc.http_status,
                          doc.etag, doc.last_modified, _storable_cik(cik), accession, status, reason, raw_path,
                          load_id, _storable_cik(doc.expected_cik), doc.accession))
        return doc_id

    def flush(self, con) -> None:
        """INSERT the rows added since the last flush, in one statement."""
        if self.end is not None and self.next > self.end:  # a bug, not the document's fault: fail the batch
            raise AssertionError(f"the batch recorded {len(self.rows)} source documents, more than the ids it reserved")
        if not self.rows:
            return
        import pyarrow as pa

        types = {"int64": pa.int64(), "int32": pa.int32(), "string": pa.string(), "timestamp": pa.timestamp("us")}
        columns = list(zip(*self.rows, strict=True))
        table = pa.table({name: pa.array(column, types[kind])
                          for (name, kind), column in zip(_DOCUMENT_COLUMNS, columns, strict=True)})
        con.register("source_documents_arrow", table)
        try:
            names = ", ".join(name for name, _ in _DOCUMENT_COLUMNS)
            con.execute(f"INSERT INTO source_documents ({names}) SELECT {names} FROM source_documents_arrow")
        finally:
            unregister(con, "source_documents_arrow")
        self.rows.clear()


def loaded_documents(con, sha256s: Iterable[str]) -> set[tuple[str, str]]:
    """(kind, sha256) of the documents among ``sha256s`` already loaded (one indexed lookup)."""
    wanted = sorted(set(sha256s))
    if not wanted:
        return set()
    return set(fetch_all(con, "SELECT DISTINCT kind, sha256 FROM source_documents"
                              " WHERE status = 'loaded' AND list_contains(?, sha256)", [wanted]))


def _already_loaded(con, items: Sequence[Item]) -> set[tuple[str, str]]:
    """(kind, sha256) of the batch's parsed documents that an earlier batch already loaded (one
    lookup per batch; ``ingest.prepare`` finds most of them before parsing)."""
    return loaded_documents(con, (it.doc.sha256 for it in items if isinstance(it, Parsed)))


def _record_kind(item: Item) -> str:
    record_kind = getattr(item, "kind", None) or getattr(getattr(item, "record", None), "kind", None)
    return item.doc.kind or record_kind or "unknown"


def _order(item: Item) -> int:
    """Load order within a batch: the order of the item's kind (warehouse.load.kinds), found by its
    record's type, or by its document kind when it has no record; unknown kinds last. A Known item
    stores nothing, so its place is immaterial: a batch of unchanged documents never imports the
    loaders (numpy, pyarrow)."""
    if isinstance(item, Known):
        return 0
    from warehouse.load.kinds import BY_DOCUMENT, KINDS, LOADERS

    record = getattr(item, "record", None)
    spec = LOADERS.get(type(record)) if record is not None else BY_DOCUMENT.get(_record_kind(item))
    return spec.order if spec else len(KINDS)


# ------------------------------------------------------------------------------------------ runs


def reconcile_interrupted(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Close the runs still marked ``running`` whose process on this host is gone (killed, or the
    machine stopped): ``partial`` when some of their batches committed, else ``failed``, with an
    ``interrupted: ...`` error. Returns their load ids."""
    host = platform.node()
    gone = [(lid, pid) for lid, pid in fetch_all(
        con, "SELECT load_id, pid FROM load_runs WHERE status = ? AND host = ?", [RUNNING, host])
        if pid is None or (pid != os.getpid() and not pid_alive(pid))]
    if not gone:
        return []

    def close_them() -> None:
        with transaction(con):
            for lid, pid in gone:
                fold_run_batches(con, lid)
                con.execute(sql("load/runs/close_interrupted"),
                            [f"interrupted: process {pid} on {host} ended before finishing the run", lid])
    retry_on_conflict(close_them)
    return [lid for lid, _ in gone]


def start_run(con: duckdb.DuckDBPyConnection, *, command: str, flow_run_id: str | None = None,
              load_id: str | None = None) -> str:
    """Record a run as ``running`` (its own committed transaction, with this process's pid and
    host) before anything is loaded, so a run that never finishes cannot look finished."""
    reconcile_interrupted(con)
    load_id = load_id or new_load_id()

    def record() -> None:
        with transaction(con):
            con.execute(
                "INSERT INTO load_runs (load_id, flow_run_id, command, started_at, status, pid, host)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [load_id, flow_run_id, command, utcnow(), RUNNING, os.getpid(), platform.node()])
    retry_on_conflict(record)
    kill_point("run_started")
    return load_id


def fold_run_batches(con: duckdb.DuckDBPyConnection, load_id: str) -> None:
    """On the lake: write the totals its batches appended (``lake_writers.run_totals``) into the run's
    ``load_runs`` row, and its check totals when its batches ran checks (the DuckDB file's batches
    wrote both themselves: nothing to do)."""
    if not is_lake(con):
        return
    loaded, unchanged, rejected, counts, error = run_totals(con, load_id)
    if counts is None:
        return
    if json.loads(counts).get("check_results"):
        from warehouse.derive.checks import store_check_totals

        store_check_totals(con, load_id)
    con.execute("UPDATE load_runs SET documents_loaded = ?, documents_unchanged = ?, documents_rejected = ?,"
                " row_counts = ?, error = coalesce(?, error) WHERE load_id = ?",
                [loaded, unchanged, rejected, counts, error, load_id])


def run_report(con: duckdb.DuckDBPyConnection, load_id: str) -> BatchReport:
    """On the lake: the totals of a started run's batches, whichever processes committed them (a work
    pool's shards, ``flows.pool``), with the documents they rejected, for ``finish_run``."""
    loaded, unchanged, _, counts, _ = run_totals(con, load_id)
    rejected = fetch_all(con, "SELECT uri, reject_reason FROM source_documents WHERE load_id = ? AND status = 'rejected'"
                              " ORDER BY source_document_id", [load_id])
    return BatchReport(load_id=load_id, loaded=loaded, unchanged=unchanged, rejected=[tuple(r) for r in rejected],
                       row_counts=Counter(json.loads(counts) if counts else {}))


def run_status(run: BatchReport, *, not_fetched: int = 0, error: str | None = None) -> str:
    """failed: nothing reached the warehouse and something went wrong (an error, or every document
    failed to be fetched); partial: documents rejected or not fetched, or an error after some
    batches committed; else succeeded."""
    if (error or not_fetched) and run.documents == 0:
        return "failed"
    if error or not_fetched or run.rejected:
        return "partial"
    return "succeeded"


def finish_run(con: duckdb.DuckDBPyConnection, run: BatchReport, *, not_fetched: int = 0,
               error: str | None = None) -> str:
    """Give a ``running`` run its final status (see run_status) and finish time; returns the status."""
    status = run_status(run, not_fetched=not_fetched, error=error)

    def record() -> None:
        with transaction(con):
            fold_run_batches(con, run.load_id)
            con.execute("UPDATE load_runs SET status = ?, finished_at = ?, documents_not_fetched = ?,"
                        " error = coalesce(?, error) WHERE load_id = ?",
                        [status, utcnow(), not_fetched, error, run.load_id])
    retry_on_conflict(record)
    kill_point("run_finished")
    run.status = status
    return status


def _write_run(con, report: BatchReport, *, command: str, flow_run_id: str | None, started_at,
               error: str | None = None) -> None:
    previous = fetch_all(con, "SELECT status, row_counts, error FROM load_runs WHERE load_id = ?", [report.load_id])
    if previous:
        # A run of several batches: add this batch to the run's totals; the worst status wins, and
        # a run recorded as running stays running until finish_run.
        old_status, old_counts, old_error = previous[0]
        if old_status == RUNNING and is_lake(con):  # an insert: concurrent batches do not conflict on load_runs
            add_run_batch(con, report.load_id, loaded=report.loaded, unchanged=report.unchanged,
                          rejected=len(report.rejected), row_counts=report.row_counts, error=error,
                          conflicts=report.conflicts)
            return
        totals = Counter(json.loads(old_counts) if old_counts else {})
        totals.update(report.row_counts)
        status = old_status if old_status == RUNNING else max(old_status, report.status, key=STATUS_RANK.index)
        con.execute(
            sql("load/runs/add_batch"),
            [None if status == RUNNING else utcnow(), status, report.loaded, report.unchanged,
             len(report.rejected), json.dumps(dict(sorted(totals.items()))), error or old_error, report.load_id])
    else:
        counts = json.dumps(dict(sorted(report.row_counts.items())))
        con.execute(
            sql("load/runs/insert_finished"),
            [report.load_id, flow_run_id, command, started_at, utcnow(), report.status, report.loaded,
             report.unchanged, len(report.rejected), counts, error, os.getpid(), platform.node()])


# ----------------------------------------------------------------------------------------- batch


def load_batch(con: duckdb.DuckDBPyConnection, items: Sequence[Item], *, raw_dir: RawDir,
               command: str = "load", load_id: str | None = None, flow_run_id: str | None = None,
               derive: bool = True) -> BatchReport:
    """Commit every good document of ``items`` and record every bad one, all in one transaction.

    A loader that finds a document bad rolls the batch back; the batch is then retried with that
    document recorded as rejected, so nothing else is lost. Any other error (see
    INFRASTRUCTURE_ERRORS, or a failure of the derived metrics) rolls back everything and is
    recorded in the run: the warehouse is left as it was. Part of a run started with ``start_run``
    the batch adds to the run's totals; alone, it is a run of its own with its final status.
    """
    load_id = load_id or new_load_id()
    started_at = utcnow()
    pending = sorted(items, key=_order)
    deferred: list[Item] = []  # loaded alone after this batch commits (DuckDB ran out of memory)
    turn = _LakeTurn.take(con, pending, load_id) if is_lake(con) else None
    try:
        report = _attempts(con, pending, deferred, turn, raw_dir=raw_dir, command=command, load_id=load_id,
                           flow_run_id=flow_run_id, derive=derive, started_at=started_at)
    finally:
        if turn is not None:
            release(con, turn.owner)
    for item in deferred:  # each a batch of its own, after this one committed
        report.add(load_batch(con, [item], raw_dir=raw_dir, command=command, load_id=load_id,
                              flow_run_id=flow_run_id, derive=derive))
    return report


@dataclass(frozen=True)
class _LakeTurn:
    """A batch's turn on the lake (``warehouse.store.lake_writers``): its claim (``owner``), its block of
    source_document ids (first, how many) and the shared rows claimed for its documents (sha256 ->
    {row count name: rows}).

    A batch claims its companies when each of its records' loaders writes its company's rows only
    (``RecordLoader.shared``) and none of those companies has facts yet: it then only inserts, so it
    commits beside every other such batch. Any other batch (a kind that writes shared rows, or a
    company loaded again, whose rows it updates: DuckLake would make it conflict with every concurrent
    insert into the same tables) claims the whole lake and runs alone: it waits instead of being redone."""

    owner: str
    ids: tuple[int, int]
    shared: dict[str, Counter]
    running: bool  # a batch of a started run: its totals are written by finish_run

    @classmethod
    def take(cls, con, pending: list[Item], load_id: str) -> _LakeTurn:
        from warehouse.load.kinds import LOADERS

        parsed = [it for it in pending if isinstance(it, Parsed)]
        specs = [LOADERS.get(type(it.record)) for it in parsed]
        ciks = sorted({c for it in parsed if (c := _storable_cik(getattr(it.record, "cik", None))) is not None})
        own = all(spec is not None and spec.shared is not None for spec in specs) and not _stored(con, ciks)
        owner = claim(con, ciks if own else None)
        if own and _stored(con, ciks):  # another writer stored one of them meanwhile
            release(con, owner)
            own, owner = False, claim(con, None)
        try:
            loaded_before = _already_loaded(con, pending)
            seen: set[tuple[str, str]] = set()
            fresh: list[Parsed] = []
            for it in pending:
                key = (_record_kind(it), it.doc.sha256)
                if isinstance(it, Parsed) and key not in seen and key not in loaded_before:
                    seen.add(key)
                    fresh.append(it)
            needed = len(fresh) + sum(isinstance(it, Rejected) for it in pending)
            shared: dict[str, Counter] = {}
            if own and fresh:
                def claim_shared() -> None:
                    shared.clear()
                    with transaction(con):
                        for spec in {LOADERS[type(it.record)] for it in fresh}:
                            mine = [it for it in fresh if LOADERS[type(it.record)] is spec]
                            for it, n in zip(mine, spec.shared(con, [it.record for it in mine]), strict=True):
                                shared.setdefault(it.doc.sha256, Counter())[spec.shared_count] += n
                retry_on_conflict(claim_shared)
            running = fetch_all(con, "SELECT status FROM load_runs WHERE load_id = ?", [load_id]) == [(RUNNING,)]
            return cls(owner, (reserve_ids(con, needed), needed), shared, running)
        except BaseException:
            release(con, owner)
            raise

    def count_shared(self, report: BatchReport, pending: Sequence[Item]) -> None:
        """Add the shared rows claimed for the documents this attempt loaded to its row counts."""
        for sha256 in {it.doc.sha256 for it in pending if isinstance(it, Parsed)} & self.shared.keys():
            report.row_counts.update(self.shared[sha256])


def _stored(con, ciks: list[int]) -> bool:
    """Whether any of ``ciks`` has facts stored."""
    return bool(ciks) and bool(fetch_all(
        con, "SELECT 1 FROM facts WHERE cik BETWEEN list_min($c) AND list_max($c) AND list_contains($c, cik) LIMIT 1",
        {"c": ciks}))


def _attempts(con, pending: list[Item], deferred: list[Item], turn: _LakeTurn | None, *, raw_dir: RawDir,
              command: str, load_id: str, flow_run_id: str | None, derive: bool, started_at) -> BatchReport:
    """load_batch's attempts: again after a rejected document or a conflict, in pieces after running
    out of memory (``deferred``); returns the committed attempt's report."""
    conflicts = 0
    together = True  # records of several companies stored by one call (Kind.many)
    for _attempt in range(2 * len(pending) + 2 + CONFLICT_RETRIES):
        report = BatchReport(load_id=load_id, conflicts=conflicts)
        try:
            with transaction(con, serialise=turn is None):  # on the lake the claims keep batches apart
                _load_items(con, pending, report, raw_dir, together, turn.ids if turn else None)
                if turn is not None:
                    turn.count_shared(report, pending)
                current = refresh_current_facts(con, report)
                if derive:  # a lake run's check totals are written once, by finish_run (fold_run_batches)
                    _derive(con, report, current, check_totals=turn is None or not turn.running)
                report.status = "partial" if report.rejected else "succeeded"
                _write_run(con, report, command=command, flow_run_id=flow_run_id, started_at=started_at)
                kill_point("before_commit")
            return report
        except _LoaderRejected as bad:
            pending = [Rejected(it.doc, bad.error, _record_kind(it)) if it is bad.item else it for it in pending]
        except _TogetherFailed:
            together = False  # a value of one of the documents stored together: find which, one by one
        except BaseException as exc:
            if is_conflict(exc) and conflicts < CONFLICT_RETRIES:
                # DuckLake: another writer committed first; the batch was rolled back: do it again
                conflicts += 1
                log.warning("batch of %d documents redone after a DuckLake commit conflict (%d): %s", len(pending),
                            conflicts, " ".join(str(exc).split())[:300])
                conflict_pause(conflicts)
                continue
            loadable = [it for it in pending if isinstance(it, Parsed)]
            if out_of_memory(exc) and loadable:
                largest = max(loadable, key=lambda it: len(it.doc.body))
                if len(loadable) > 1:  # in pieces: the rest now, the largest alone after
                    deferred.insert(0, largest)
                    pending = [it for it in pending if it is not largest]
                else:
                    pending = [Rejected(it.doc, _too_large(it, exc), _record_kind(it)) if it is largest else it
                               for it in pending]
                continue
            failed = BatchReport(load_id=load_id, status="failed")
            retry_on_conflict(lambda f=failed, e=exc: _record_failed(con, f, command, flow_run_id, started_at, e))
            raise
    raise AssertionError("unreachable: every retry rejects one more document")


def _too_large(item: Parsed, exc: BaseException) -> RejectedDocument:
    """The rejection of a document DuckDB ran out of memory loading on its own."""
    facts = getattr(item.record, "fact_count", None)
    what = f"{len(item.doc.body):,} bytes" + (f", {facts:,} facts" if facts else "")
    return RejectedDocument(item.doc.uri, f"too large for the writer's memory limit of {writer_memory_limit()} "
                                          f"({what}; DuckDB ran out of memory): raise {MEMORY_LIMIT_ENV} "
                                          f"(e.g. {MEMORY_LIMIT_ENV}=4GB) and load it again")


def current_facts_scope(con: duckdb.DuckDBPyConnection, report: BatchReport) -> list[int]:
    """Companies whose current facts this batch may have changed: those whose facts or filings it
    changed, and those whose facts cite an accession of a filing it inserted (a co-registrant's
    facts take the acceptance time from another company's submissions)."""
    ciks = set(report.ciks)
    if report.row_counts.get("filings") and report.document_ids:
        ciks |= {c for (c,) in fetch_all(
            con, sql("load/batch/co_registrant_companies"),
            {"docs": sorted(report.document_ids), "ciks": sorted(ciks)})}
    return sorted(ciks)


def refresh_current_facts(con: duckdb.DuckDBPyConnection, report: BatchReport) -> list[int]:
    """Recompute facts_current_rows and fact_restatements_rows for the companies this batch changed
    (inside its transaction; schema/stored/); returns those companies."""
    ciks = current_facts_scope(con, report)
    keep(con, ("facts_current_rows", "fact_restatements_rows"), ciks)
    return ciks


def _record_failed(con, failed: BatchReport, command: str, flow_run_id: str | None, started_at,
                   exc: BaseException) -> None:
    with transaction(con):
        _write_run(con, failed, command=command, flow_run_id=flow_run_id, started_at=started_at,
                   error=f"{type(exc).__name__}: {exc}")


def _derive(con: duckdb.DuckDBPyConnection, report: BatchReport, current: list[int], check_totals: bool = True) -> None:
    """Derived metrics and checks of the companies whose facts or filings this batch changed, and
    the stored standard facts of those whose current facts it recomputed (``current``), inside the
    batch's transaction (warehouse.derive.batch.derive_batch: the checks only when the batch stored
    facts, which is all they read)."""
    if not report.ciks:
        return
    counts = derive_batch(con, load_id=report.load_id, ciks=report.ciks, document_ids=report.document_ids,
                          restated=report.restated, check=bool(report.row_counts.get("facts")), current=current,
                          check_totals=check_totals)
    report.row_counts.update({k: counts[k] for k in ("derived_metrics", "metric_lineage")})
    if counts["check_results"]:
        report.row_counts["check_results"] += counts["check_results"]


class _LoaderRejected(Exception):
    def __init__(self, item: Parsed, error: RejectedDocument):
        self.item, self.error = item, error


class _TogetherFailed(Exception):
    """Records stored together failed on a value: the batch is retried storing them one by one,
    which names the document."""


def _load_items(con, items: Sequence[Item], report: BatchReport, raw_dir: RawDir, together: bool = True,
                ids: tuple[int, int] | None = None) -> None:
    # Raw payloads are compressed and written in a background thread while DuckDB loads; every
    # write has finished and been fsynced (file and directory) before the batch commits.
    with RawWriter(raw_dir) as raw:
        _load_each(con, items, report, raw, together, ids)


# Row counts of a loader that change what derived metrics read for the record's company.
_DERIVE_INPUTS = ("facts", "filings", "filings_links_updated", "facts_fiscal_reassigned", "facts_earliest_payload")
# ... that change what stored facts say (fiscal year, filed date): their metrics are recomputed.
_RESTATED = ("facts_fiscal_reassigned", "facts_earliest_payload")


def _load_each(con, items: Sequence[Item], report: BatchReport, raw: RawWriter, together: bool = True,
               ids: tuple[int, int] | None = None) -> None:
    seen: set[tuple[str, str]] = set()
    documents = _DocumentRows(con, ids)
    loaded_before = _already_loaded(con, items)
    # Consecutive records that one Kind.many stores together (each company once: a company's
    # next record waits for the call that stores its previous one).
    waiting: list[tuple[Parsed, LoadContext, Any]] = []
    for item in items:
        kind = _record_kind(item)
        doc = item.doc
        record = getattr(item, "record", None)
        cik = getattr(record, "cik", None) or doc.expected_cik
        accession = getattr(record, "accession", None) or doc.accession
        if isinstance(item, Rejected):
            raw_path = raw.store(doc.body, doc.sha256) if doc.body else None
            documents.add(doc, kind=kind, load_id=report.load_id, status="rejected", reason=item.error.reason,
                          raw_path=raw_path, cik=cik, accession=accession)
            report.rejected.append((doc.uri, item.error.reason))
            continue
        key = (kind, doc.sha256)
        if isinstance(item, Known) or key in seen or key in loaded_before:
            report.unchanged += 1
            continue
        seen.add(key)
        from warehouse.load.kinds import LOADERS  # here: unchanged documents need no loader

        spec = LOADERS.get(type(record))
        many = spec.many if together and spec is not None else None
        if waiting and (many is not _many_of(waiting) or any(c == cik for _, _, c in waiting)):
            _store_together(con, waiting, report)
        try:
            if spec is None:
                raise RejectedDocument(doc.uri, f"no loader for {type(record).__name__} records")
            if cik is not None and _storable_cik(cik) is None:
                raise RejectedDocument(doc.uri, f"CIK {cik} is out of range (1 to {MAX_CIK})")
            raw_path = raw.store(doc.body, doc.sha256)
            doc_id = documents.add(doc, kind=kind, load_id=report.load_id, status="loaded", reason=None,
                                   raw_path=raw_path, cik=cik, accession=accession)
            ctx = LoadContext(report.load_id, doc_id, doc)
            if many is not None:
                waiting.append((item, ctx, cik))
                continue
            counts = spec.loader(con, ctx, record)
        except RejectedDocument as exc:
            raise _LoaderRejected(item, RejectedDocument(doc.uri, exc.reason)) from exc
        except INFRASTRUCTURE_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - a bad value in this document: reject it, keep the rest
            raise _LoaderRejected(item, _value_error(doc, exc)) from exc
        _count(report, doc_id, cik, counts)
    documents.flush(con)
    if waiting:
        _store_together(con, waiting, report)


def _many_of(waiting: Sequence[tuple[Parsed, LoadContext, Any]]):
    from warehouse.load.kinds import LOADERS

    return LOADERS[type(waiting[0][0].record)].many


def _value_error(doc: Document, exc: BaseException) -> RejectedDocument:
    return RejectedDocument(doc.uri, f"the loader failed on this document ({type(exc).__name__}: {exc})"[:2000])


def _store_together(con, waiting: list[tuple[Parsed, LoadContext, Any]], report: BatchReport) -> None:
    """Store the waiting records with one Kind.many call, then count each as its own load.
    A document named by a RejectedDocument is rejected; any other error of a value fails the
    attempt with _TogetherFailed (one waiting record alone: that document is rejected)."""
    many = _many_of(waiting)
    try:
        counts = many(con, [(ctx, item.record) for item, ctx, _ in waiting])
    except RejectedDocument as exc:
        named = next((item for item, _, _ in waiting if item.doc.uri == exc.document), None)
        if named is None and len(waiting) > 1:
            raise _TogetherFailed() from exc
        named = named or waiting[0][0]
        raise _LoaderRejected(named, RejectedDocument(named.doc.uri, exc.reason)) from exc
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception as exc:  # noqa: BLE001 - a bad value in one of these documents
        if len(waiting) > 1:
            raise _TogetherFailed() from exc
        raise _LoaderRejected(waiting[0][0], _value_error(waiting[0][0].doc, exc)) from exc
    for (_, ctx, cik), doc_counts in zip(waiting, counts, strict=True):
        _count(report, ctx.source_document_id, cik, doc_counts)
    waiting.clear()


def _count(report: BatchReport, doc_id: int, cik: Any, counts: dict[str, int]) -> None:
    report.loaded += 1
    report.document_ids.add(doc_id)
    report.row_counts.update(counts)
    kill_point("document_loaded")
    if isinstance(cik, int) and any(counts.get(k) for k in _DERIVE_INPUTS):
        report.ciks.add(cik)
    if isinstance(cik, int) and any(counts.get(k) for k in _RESTATED):
        report.restated.add(cik)
