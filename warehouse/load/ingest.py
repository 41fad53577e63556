"""One way in: documents -> known? -> parse (a process per core) -> load_batch in batches, one run.

`load`, `refresh`, `rebuild` (and the bulk bootstrap) all go through here:

* ``prepare`` turns documents into batch items: a document whose (kind, sha256) is already loaded
  becomes ``Known`` without being parsed (an unchanged reload costs a hash and one lookup); the
  others are parsed by ``pipelines.parse.parse_many`` (bad ones become ``Rejected``, naming them).
* ``IngestRun`` is one load run: ``running`` in ``load_runs`` from its start, each batch committed
  by ``load_batch`` under the run's load id, and a final status (succeeded / partial / failed).
* ``ingest`` runs the whole pipeline over an iterable of documents, ``batch_size`` per commit.

Bulk mode (the bootstrap's entry point; this signature is kept stable): ``ingest(con, docs,
raw_dir=..., command="bootstrap", batch_size=N, workers=W, on_batch=...)`` with ``docs`` any
iterable (a generator streaming zip members is fine: only one batch is held at a time). Each batch
of N documents is one transaction whose cost follows the batch, not the warehouse: each document's
new fact versions are found against its own company's stored facts only; then, once per batch and
for the batch's companies only (a cik list pushed into the scans of ``facts``), the current facts
(facts_current_rows), the derived metrics and the checks are computed by set-based statements. A
few hundred companies per batch amortises that per-batch work; ``configure_writer`` bounds memory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from itertools import chain, islice
from pathlib import Path
from typing import Any

import duckdb

from pipelines.detect import detect_kind
from pipelines.documents import Document
from pipelines.errors import RejectedDocument
from pipelines.parse import ParseAhead, parse_many
from warehouse.load.batch import (
    BatchReport,
    Item,
    Known,
    Parsed,
    Rejected,
    finish_run,
    load_batch,
    loaded_documents,
    start_run,
)
from warehouse.memory import bound_memory
from warehouse.store.db import WarehouseError, checkpoint, checkpoint_at_commit
from warehouse.store.killpoints import kill_point
from warehouse.store.publish import wal_of
from warehouse.store.raw_payloads import RawDir

THREADS_ENV = "EDGAR_WAREHOUSE_WRITER_THREADS"
CHECKPOINT_THRESHOLD_ENV = "EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD"
DEFAULT_CHECKPOINT_THRESHOLD = "1GB"
# One DuckDB thread per writer by default: the same statements cost ~30 % less CPU on one thread
# (no partitioning and merging of parallel sorts, windows and aggregates; measured per 157k facts:
# 2.9 -> 2.1 s CPU for storing facts and their current rows); the parser processes use the other core.
DEFAULT_THREADS = 1
BATCH_BYTES_ENV = "EDGAR_WAREHOUSE_BATCH_BYTES"
# A batch of ``batch_size`` documents is cut short once its payloads reach this many bytes: what the
# writer holds per batch (bodies, parsed Arrow records ~1.2x the JSON, and the next batch parsed
# meanwhile) follows the bytes, not the count; 100 of the largest companies are ~290 MB of JSON and
# held the writer at 3.6 GB (scale helper, bench_scale 37x). One transaction (batch_size 0) is never cut.
DEFAULT_BATCH_BYTES = "64MB"
# A run of several batches folds the WAL into the file (``db.checkpoint``) after the commit of a batch
# that leaves at least this much WAL, not after every batch: each checkpoint also rewrites the partly
# filled last row group of every table written and the metadata, a cost per checkpoint rather than
# per row (a batch of 25 companyfacts leaves ~48 MB of WAL, so ~every third batch checkpoints; 200
# members of the 100x input in batches of 25, in-process: 122.7 -> 116.5 s CPU, -5 %, before the
# writer's closing checkpoint of what is left, ~0.5-1 s). A killed run replays at most this much WAL
# plus one batch's; no batch pays for many others' rows, as the 1GB automatic threshold made one
# batch in ~48 do.
BULK_CHECKPOINT_WAL_BYTES = 128 * 2**20
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?", re.IGNORECASE)
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def batch_bytes() -> int:
    """``EDGAR_WAREHOUSE_BATCH_BYTES`` (a size such as ``64MB``, ``256MiB`` or bytes; ``0``: no cap)."""
    value = os.environ.get(BATCH_BYTES_ENV, "").strip() or DEFAULT_BATCH_BYTES
    m = _SIZE.fullmatch(value)
    if not m:
        raise WarehouseError(f"{BATCH_BYTES_ENV}={value!r}: give a size such as 64MB, or 0 for no cap")
    return int(float(m.group(1)) * _UNITS[(m.group(2) or "b").lower()])


def checkpoint_threshold() -> str:
    """The writer's automatic checkpoint threshold: ``EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD``, else 1GB."""
    return os.environ.get(CHECKPOINT_THRESHOLD_ENV, "").strip() or DEFAULT_CHECKPOINT_THRESHOLD


def configure_writer(con: duckdb.DuckDBPyConnection) -> None:
    """Settings of the loading connection: rows need not keep their insertion order (every read
    orders what it needs, so DuckDB may stream inserts and sorts); memory bounded by
    ``EDGAR_WAREHOUSE_MEMORY_LIMIT`` (a DuckDB size such as ``4GB``, or ``60%`` of RAM; default
    ``512MB``), beyond which DuckDB spills to its temp directory; strings not FSST-compressed (only
    dictionary: analysing both cost time, dictionary won); ``EDGAR_WAREHOUSE_WRITER_THREADS``
    DuckDB threads (default 1); automatic checkpoints every ``EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD``
    of WAL (default ``1GB``)."""
    con.execute("SET preserve_insertion_order = false")
    # Strings are stored dictionary-compressed (pragma_storage_info: every string column of facts and
    # facts_current_rows but a few segments); analysing FSST beside it for every segment written cost
    # 10-16 % of storing a batch's rows and won nothing.
    con.execute("SET disabled_compression_methods = 'fsst'")
    # DuckDB 1.5 re-serialises every ART index (the PRIMARY KEYs of derived_metrics, metric_lineage,
    # filings...) whole at each automatic checkpoint (duckdb/duckdb#24848): at the default 16 MB of
    # WAL that is every batch, a cost growing with the warehouse. Commits go to the WAL and
    # checkpoint every CHECKPOINT_THRESHOLD of it instead (and when the writer closes or publishes).
    threshold = checkpoint_threshold()
    try:
        con.execute("SET checkpoint_threshold = ?", [threshold])
    except duckdb.Error as exc:
        raise WarehouseError(f"{CHECKPOINT_THRESHOLD_ENV}={threshold!r} is not a size DuckDB accepts: {exc}") from exc
    bound_memory(con)
    threads = os.environ.get(THREADS_ENV, "").strip() or str(DEFAULT_THREADS)
    if not threads.isdigit() or int(threads) < 1:
        raise WarehouseError(f"{THREADS_ENV}={threads!r}: give a number of threads, 1 or more")
    con.execute(f"SET threads = {int(threads)}")


def _kind_of(doc: Document) -> str | None:
    if doc.kind:
        return doc.kind
    try:
        return detect_kind(doc.body, document=doc.uri)
    except RejectedDocument:
        return None


def known_documents(con: duckdb.DuckDBPyConnection, docs: Sequence[Document]) -> dict[int, str]:
    """Positions in ``docs`` of the documents whose (kind, sha256) is already loaded, with the kind
    (one indexed lookup for the whole batch; kinds told from the content when not given)."""
    kinds = {n: _kind_of(d) for n, d in enumerate(docs)}
    loaded = loaded_documents(con, (d.sha256 for n, d in enumerate(docs) if kinds[n]))
    return {n: kinds[n] for n, d in enumerate(docs) if kinds[n] and (kinds[n], d.sha256) in loaded}


def prepare(con: duckdb.DuckDBPyConnection | None, docs: Sequence[Document | Item], *,
            workers: int | None = None) -> list[Item]:
    """Batch items for ``docs`` in the same order: already-made items pass through, documents
    already loaded become Known (when ``con`` is given), the rest are parsed in parallel."""
    return _prepare_with(con, docs, lambda todo: parse_many(todo, workers=workers))()


def _prepare_with(con: duckdb.DuckDBPyConnection | None, docs: Sequence[Document | Item],
                  parse: Callable[[list[Document]], Any]) -> Callable[[], list[Item]]:
    """``prepare`` in two steps: the lookup of known documents now, then ``parse(todo)`` (a list of
    ParseResults, or a function that waits for them: ParseAhead); returns a function giving the items."""
    items: dict[int, Item] = {n: d for n, d in enumerate(docs) if not isinstance(d, Document)}
    todo = [(n, d) for n, d in enumerate(docs) if isinstance(d, Document)]
    if con is not None and todo:
        known = known_documents(con, [d for _, d in todo])
        for k, kind in known.items():
            n, d = todo[k]
            items[n] = Known(d, kind)
        todo = [(n, d) for k, (n, d) in enumerate(todo) if k not in known]
    parsed = parse([d for _, d in todo])

    def finish() -> list[Item]:
        results = parsed() if callable(parsed) else parsed
        for (n, _), res in zip(todo, results, strict=True):
            items[n] = Rejected(res.doc, res.error, res.kind) if res.error else Parsed(res.doc, res.record)
        return [items[n] for n in range(len(docs))]
    return finish


def load_documents(con: duckdb.DuckDBPyConnection, docs: Sequence[Document | Item], *, raw_dir: RawDir,
                   command: str, load_id: str, flow_run_id: str | None = None, workers: int | None = None,
                   derive: bool = True) -> BatchReport:
    """One batch: ``prepare`` then ``load_batch`` under ``load_id``; returns the batch's report."""
    return load_batch(con, prepare(con, docs, workers=workers), raw_dir=raw_dir, command=command,
                      load_id=load_id, flow_run_id=flow_run_id, derive=derive)


class IngestRun:
    """One load run over any number of batches (see the module docstring)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, *, raw_dir: RawDir, command: str,
                 flow_run_id: str | None = None, derive: bool = True, load_id: str | None = None):
        """A new run, recorded as running; or, given ``load_id``, batches for that run, which another
        process started and finishes (a work pool's shard: ``flows.pool``): nothing is started here."""
        self.con, self.raw_dir, self.command, self.derive = con, raw_dir, command, derive
        configure_writer(con)
        self.flow_run_id = flow_run_id
        self.joined = load_id is not None
        self.report = BatchReport(load_id=load_id or start_run(con, command=command, flow_run_id=flow_run_id))

    @property
    def load_id(self) -> str:
        return self.report.load_id

    def load(self, docs: Sequence[Document | Item], *, workers: int | None = None) -> BatchReport:
        """Prepare and commit one batch under this run; returns the batch's report."""
        return self.load_items(prepare(self.con, docs, workers=workers))

    def load_items(self, items: Sequence[Item]) -> BatchReport:
        """Commit one batch of prepared items under this run; returns the batch's report."""
        batch = load_batch(self.con, items, raw_dir=self.raw_dir, command=self.command, load_id=self.load_id,
                           flow_run_id=self.flow_run_id, derive=self.derive)
        self.report.add(batch)
        kill_point("batch_committed")
        return batch

    def finish(self, *, not_fetched: int = 0, error: BaseException | str | None = None) -> BatchReport:
        """Record the run's final status (see warehouse.load.batch.run_status) and return its totals."""
        if isinstance(error, BaseException):
            error = f"{type(error).__name__}: {error}"
        finish_run(self.con, self.report, not_fetched=not_fetched, error=error)
        return self.report


def batches(docs: Iterable, size: int, max_bytes: int = 0) -> Iterator[list]:
    """Consecutive lists of ``size`` (all in one list when size <= 0), each cut short once its
    documents' bodies reach ``max_bytes`` (0: no cap; a list holds at least one document)."""
    it = iter(docs)
    if size <= 0:
        yield list(it)
        return
    if max_bytes <= 0:
        while chunk := list(islice(it, size)):
            yield chunk
        return
    chunk, held = [], 0
    for doc in it:
        chunk.append(doc)
        held += len(_body(doc))
        if len(chunk) >= size or held >= max_bytes:
            yield chunk
            chunk, held = [], 0
    if chunk:
        yield chunk


def _body(doc: Document | Item) -> bytes:
    return getattr(doc, "body", None) or getattr(getattr(doc, "doc", None), "body", None) or b""


def ingest(con: duckdb.DuckDBPyConnection, docs: Iterable[Document | Item], *, raw_dir: RawDir, command: str,
           batch_size: int = 0, flow_run_id: str | None = None, workers: int | None = None,
           derive: bool = True, on_batch: Callable[[BatchReport, int], None] | None = None,
           load_id: str | None = None) -> BatchReport:
    """Load ``docs`` as ONE run, committing every ``batch_size`` documents (0: one transaction), or
    sooner once a batch's payloads reach ``EDGAR_WAREHOUSE_BATCH_BYTES`` (``batch_bytes``).
    ``on_batch(report, documents)`` is called after each commit. An error stops the run, which is
    recorded (failed, or partial when batches had committed) before the error propagates. Given
    ``load_id``, the batches join that run, started by another process that also finishes it (a
    lake's work pool shard, ``flows.pool``): it is neither started nor finished here, and the
    batches' totals are returned.

    With several batches, a batch whose commit leaves ``BULK_CHECKPOINT_WAL_BYTES`` of WAL or more
    is checkpointed after it (``db.checkpoint``: a steady cost every few batches, not one batch in
    ~40 paying for all at the automatic threshold). With several batches
    (and ``workers`` not 1), the next batch is parsed in a worker process
    (``pipelines.parse.ParseAhead``) while this one loads: the writer's one DuckDB thread and the
    parser use the two cores. Its documents are looked up (already loaded?) before this batch
    commits; one that this batch loads is then found again by ``load_batch`` and counted unchanged.
    The run's last batch commits by checkpointing (``db.checkpoint_at_commit``): its writer checkpoints
    when it closes anyway, so its rows are not first written to the WAL."""
    max_bytes = batch_bytes()  # a bad value is refused before the run starts
    run = IngestRun(con, raw_dir=raw_dir, command=command, flow_run_id=flow_run_id, derive=derive, load_id=load_id)
    chunks = batches(docs, batch_size, max_bytes)
    try:
        first = next(chunks, None)
        second = next(chunks, None) if first is not None else None
        bulk = second is not None  # several batches: checkpoint once the WAL holds a few (_committed)
        if second is None or workers == 1:  # one batch (or asked for one process): nothing to overlap
            for chunk in chain((c for c in (first, second) if c is not None), chunks):
                with _last_commit(con) if not bulk else nullcontext():  # the one batch: the last
                    report = run.load(chunk, workers=workers)
                _committed(con, report, len(chunk), on_batch, bulk)
        else:
            with ParseAhead() as ahead:
                current, upcoming = first, second
                items = _prepare_with(con, current, ahead.submit)
                while current is not None:
                    ready = items()
                    following = None
                    if upcoming is not None:  # its lookup and parse start before this batch loads
                        following = _prepare_with(con, upcoming, ahead.submit)
                    with _last_commit(con) if upcoming is None else nullcontext():
                        report = run.load_items(ready)
                    _committed(con, report, len(current), on_batch, bulk)
                    current, items = upcoming, following
                    upcoming = next(chunks, None) if current is not None else None
    except BaseException as exc:
        if run.joined:  # the run's starter records how it ended
            raise
        try:
            run.finish(error=exc)
        except Exception as unrecorded:  # noqa: BLE001 - never mask the error that stopped the run
            exc.add_note(f"the run {run.load_id} could not be recorded as stopped: {unrecorded}")
        raise
    return run.report if run.joined else run.finish()


def _last_commit(con: duckdb.DuckDBPyConnection) -> AbstractContextManager[None]:
    """Around a run's last batch: its commit checkpoints instead of logging its rows first
    (``db.checkpoint_at_commit``; the writer then sets its own threshold back)."""
    return checkpoint_at_commit(con, checkpoint_threshold())


def _committed(con: duckdb.DuckDBPyConnection, report: BatchReport, documents: int,
               on_batch: Callable[[BatchReport, int], None] | None, bulk: bool) -> None:
    if bulk and _wal_bytes(con) >= BULK_CHECKPOINT_WAL_BYTES:
        checkpoint(con)
    if on_batch:
        on_batch(report, documents)


def _wal_bytes(con: duckdb.DuckDBPyConnection) -> int:
    """Size of the write-ahead log of ``con``'s database file (0: none, or not a file: DuckLake)."""
    path = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    if not path or not path[0]:
        return 0
    try:
        return wal_of(Path(path[0])).stat().st_size
    except OSError:  # no WAL: everything is in the file
        return 0
