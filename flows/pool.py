"""Loads on a Prefect work pool: one reader or fetcher feeding shard flow runs on process workers, into one lake run.

``edgar-warehouse bootstrap --companyfacts-zip Z --work-pool NAME --shards N`` (DuckLake only) runs
``pool_bootstrap_flow`` in the calling process, the one reader of the input; ``refresh --work-pool``
and ``nightly --work-pool`` (``flows/refresh.py``, ``flows/nightly.py``) are the one process under
SEC's limit: they fetch batch by batch as before and hand each batch to the pool (``PoolLoad``)
instead of loading it, so the workers load one batch while the next is fetched:

1. it records ONE load run as running in the lake (``warehouse.load.batch.start_run``);
2. it streams the members (``flows.bootstrap.items``), writes each payload content-addressed into the
   lake's raw store (``LakeConfig.raw_dir``: the same folder or ``s3://`` prefix every ``ingest``
   writes, beside the lake's data), and cuts them into ``N`` shards of consecutive members; a shard is
   submitted as soon as its payloads are durable, as a flow run of the ``edgar-shard/<pool>``
   deployment, whose parameters name its members by sha256 (a member that could not be read is
   named with its reason, the fetcher's metadata of a document kept: origin, fetch time, validators);
3. ``prefect worker start --pool NAME --type process`` workers (any number, on any machine with the
   lake's ``EDGAR_WAREHOUSE_*`` settings) run ``shard_flow``: it reads its payloads back from the raw
   store (sha256 checked) and loads them through the one ingest path as batches of the parent's
   run (``ingest(..., load_id=...)``); on the lake, batches of new companies commit side by side
   (``warehouse.store.lake_writers``);
4. the parent waits for every shard run, writes the run's totals from its batches
   (``run_report``, ``finish_run``) and returns them; a shard that failed, crashed or was cancelled
   makes the run partial (or failed) and raises ``ShardsFailed`` naming each such shard and its
   error. Every process boundary is an error boundary: what committed stays; the same bootstrap run
   again skips every member already loaded (by sha256) and loads only what is missing.

The DuckDB file is refused: it takes one writer process at a time.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any
from uuid import UUID

from prefect import flow, get_run_logger
from prefect.states import Completed

from flows.bootstrap import DEFAULT_BATCH_SIZE, items, require, total_members
from pipelines.documents import Document
from pipelines.errors import RejectedDocument
from warehouse.errors import WarehouseError
from warehouse.load.batch import BatchReport, Parsed, Rejected
from warehouse.store.lake import LakeConfig, LakeError, lake_config

SHARD_FLOW = "edgar-shard"
POLL_SECONDS = 2.0  # how often the parent reads its shards' states


class PoolError(WarehouseError):
    """The work pool cannot take the bootstrap (no such pool, no worker, no Prefect server, not a lake)."""


class ShardsFailed(WarehouseError):
    """One or more shard runs did not complete; the message names each and its error (``error``, what the
    run records). ``report`` holds the run's totals (what the other shards, and the failed ones'
    committed batches, loaded)."""

    def __init__(self, message: str, report: BatchReport, error: str):
        super().__init__(message)
        self.report, self.error = report, error


@dataclass(frozen=True)
class Shard:
    """One submitted shard: its label (``2/4``), its flow run and how many members it was given."""

    label: str
    flow_run_id: UUID
    flow_run_name: str
    members: int


# --------------------------------------------------------------------------------- members and shards


_KEPT = ("kind", "http_status", "etag", "last_modified", "expected_cik", "accession")  # Document fields a shard is given


def member_entry(item: Document | Parsed | Rejected) -> dict[str, Any]:
    """What a shard is told of one member: its name, sha256 and what its fetcher knew of it (origin,
    fetch time, kind, HTTP validators, the CIK and accession asked for), or, for a member that could
    not be read, its name and the reason. A parsed document is sent as its document (the shard parses)."""
    if isinstance(item, Parsed):
        item = item.doc
    if isinstance(item, Rejected):
        return {"uri": item.doc.uri, "rejected": item.error.reason, "kind": item.kind}
    entry: dict[str, Any] = {"uri": item.uri, "sha256": item.sha256, "origin": item.origin,
                             "fetched_at": item.fetched_at.isoformat()}
    entry.update((k, getattr(item, k)) for k in _KEPT if getattr(item, k) is not None)
    return entry


def member_item(raw_dir: Path | str, entry: dict[str, Any]) -> Document | Rejected:
    """The ingest item of ``entry``: its payload read back from the raw store by sha256, or Rejected."""
    from warehouse.store.raw_documents import raw_document

    if "rejected" in entry:
        return Rejected(Document(uri=entry["uri"], origin="file", body=b""),
                        RejectedDocument(entry["uri"], entry["rejected"]), entry.get("kind"))
    fields = {k: entry[k] for k in _KEPT if k in entry}
    if "fetched_at" in entry:
        fields["fetched_at"] = datetime.fromisoformat(entry["fetched_at"])
    return raw_document(raw_dir, entry["sha256"], uri=entry["uri"], origin=entry.get("origin", "file"), **fields)


def shard_plan(members: int, shards: int) -> tuple[int, int]:
    """(members per shard, shards) for ``members`` cut into at most ``shards`` lists of consecutive members."""
    size = max(1, math.ceil(members / max(shards, 1)))
    return size, math.ceil(members / size)


# ------------------------------------------------------------------------------------------ the shard


@flow(name=SHARD_FLOW, log_prints=False)
def shard_flow(load_id: str, lake: str, members: list[dict[str, Any]], label: str = "1/1",
               command: str = "bootstrap", batch_size: int = DEFAULT_BATCH_SIZE):
    """Load ``members`` (read back from the lake's raw store by sha256) as batches of the started run
    ``load_id`` of the lake ``lake`` (``LakeConfig.describe()``: this worker's lake must be it)."""
    from warehouse.load.ingest import ingest
    from warehouse.store.db import default_db_path, writer
    from warehouse.store.secrets import redact_logs

    redact_logs()
    cfg = lake_config()
    if cfg is None or cfg.describe() != lake:
        here = cfg.describe() if cfg else "the DuckDB file (no EDGAR_WAREHOUSE_BACKEND=ducklake)"
        raise LakeError(f"shard {label}: this worker's warehouse is {here}, the run's is {lake}: start the "
                        f"pool's workers with the lake's EDGAR_WAREHOUSE_* settings")
    raw_dir = cfg.raw_dir
    with writer(default_db_path(), command=command) as con:
        report = ingest(con, (member_item(raw_dir, e) for e in members), raw_dir=raw_dir, command=command,
                        batch_size=batch_size, workers=1, load_id=load_id)
    line = f"shard {label} (process {os.getpid()}): {report.summary()}"
    get_run_logger().info(line)
    return Completed(message=line, data={"loaded": report.loaded, "unchanged": report.unchanged,
                                         "rejected": len(report.rejected), "pid": os.getpid()})


# ------------------------------------------------------------------------------ the pool and its runs


def shard_deployment(work_pool: str) -> str:
    """The name (``flow/deployment``) of the shard deployment on ``work_pool``."""
    return f"{SHARD_FLOW}/{work_pool}"


def prepare_pool(work_pool: str) -> str:
    """Check that ``work_pool`` exists on the Prefect server and has a worker online, and (re)register
    the shard deployment on it (its code is this package, imported by module path: nothing is
    uploaded); returns the deployment's name."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.objects import WorkPoolStatus
    from prefect.exceptions import ObjectNotFound
    from prefect.settings import PREFECT_API_URL
    from prefect.types.entrypoint import EntrypointType

    require_lake()
    api = PREFECT_API_URL.value()
    if not api:
        raise PoolError("--work-pool needs a Prefect server that the pool's workers reach: start one "
                        "(prefect server start) and set PREFECT_API_URL")
    start = f"prefect worker start --pool {work_pool} --type process --limit 1"
    with get_client(sync_client=True) as client:
        try:
            pool = client.read_work_pool(work_pool)
        except ObjectNotFound:
            raise PoolError(f"no work pool {work_pool!r} at {api}: start its workers first ({start})") from None
    if pool.status != WorkPoolStatus.READY:
        raise PoolError(f"work pool {work_pool!r} has no worker online (status {pool.status.value if pool.status else 'unknown'}): "
                        f"start one or more ({start})")
    deployment = shard_flow.to_deployment(
        name=work_pool, entrypoint_type=EntrypointType.MODULE_PATH, tags=["edgar-warehouse", "shard"],
        description="One shard of a bootstrap on a work pool: payloads from the raw store into the lake (flows/pool.py).")
    deployment.apply(work_pool_name=work_pool)
    return shard_deployment(work_pool)


class PoolLoad:
    """The shard flow runs of one started run on a work pool: ``submit`` makes a shard's payloads
    durable in the lake's raw store and submits it (it runs while the caller fetches or reads the
    next); ``finish`` waits for every shard and returns the run's totals, read from the lake
    (``ShardsFailed`` when one did not complete); ``cancel`` stops those not finished; ``stopped`` says
    what a run that stopped early records."""

    def __init__(self, deployment: str, load_id: str, *, command: str, batch_size: int,
                 on_event: Callable[[str], None]):
        self.cfg = require_lake()
        self.deployment, self.load_id, self.command, self.batch_size = deployment, load_id, command, batch_size
        self.on_event = on_event
        self.shards: list[Shard] = []

    def submit(self, members: Iterable[Document | Parsed | Rejected], label: str) -> Shard | None:
        """Store ``members``' payloads (streamed: one body in memory at a time, besides the writer's
        queue), then submit them as the shard ``label``; None when there were none."""
        from prefect.deployments import run_deployment

        from warehouse.store.raw_payloads import RawWriter

        entries: list[dict[str, Any]] = []
        with RawWriter(self.cfg.raw_dir) as store:
            for item in members:
                doc = item.doc if isinstance(item, Parsed) else item
                if isinstance(doc, Document):
                    store.store(doc.body, doc.sha256)
                entries.append(member_entry(item))
        if not entries:
            return None
        run = run_deployment(self.deployment, timeout=0, flow_run_name=f"shard {label} of {self.load_id[:8]}",
                             parameters={"load_id": self.load_id, "lake": self.cfg.describe(), "members": entries,
                                         "label": label, "command": self.command, "batch_size": self.batch_size})
        shard = Shard(label, run.id, run.name, len(entries))
        self.shards.append(shard)
        self.on_event(f"shard {label} submitted: {len(entries)} members (flow run {run.name})")
        return shard

    def finish(self) -> BatchReport:
        """Wait until every shard is in a final state; the run's totals from the lake (``run_report``);
        ``ShardsFailed`` (carrying them) names each shard that failed, crashed or was cancelled."""
        states = self._final_states()
        report = self.totals()
        failed = [(s, states[s.flow_run_id]) for s in self.shards if not states[s.flow_run_id].is_completed()]
        if failed:
            error = "; ".join(f"shard {s.label} (flow run {s.flow_run_name}) {st.name.lower()}: {st.message or st.name}"
                              for s, st in failed)
            raise ShardsFailed(f"{len(failed)} of {len(self.shards)} shards did not complete: {error}. What "
                               f"committed stays ({report.summary()}); run the same {self.command} again: it "
                               f"loads only what is missing", report, error)
        return report

    def totals(self) -> BatchReport:
        """The run's totals as the lake holds them: what every shard's committed batches loaded
        (``warehouse.load.batch.run_report``)."""
        from warehouse.load.batch import run_report
        from warehouse.store.db import default_db_path, writer

        with writer(default_db_path(), command=self.command) as con:
            return run_report(con, self.load_id)

    def stopped(self, exc: BaseException) -> tuple[BatchReport, str]:
        """What a run on the pool that stopped with ``exc`` records (its totals, its error): a
        ``ShardsFailed``'s own; for anything else the shards not finished are cancelled first, and the
        totals are the lake's (what the shards committed before), the error ``exc`` (and, when the
        cancel failed too, why: the shards may still be running)."""
        if isinstance(exc, ShardsFailed):
            return exc.report, exc.error
        error = f"{type(exc).__name__}: {exc}"
        try:
            self.cancel()
        except Exception as cancel_exc:  # noqa: BLE001 - the run is still recorded, saying so
            error += f"; cancelling the unfinished shards failed too ({type(cancel_exc).__name__}: {cancel_exc})"
        return self.totals(), error

    def _final_states(self) -> dict[UUID, Any]:
        from prefect.client.orchestration import get_client
        from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

        by_id = {s.flow_run_id: s for s in self.shards}
        done: dict[UUID, Any] = {}
        with get_client(sync_client=True) as client:
            while len(done) < len(self.shards):
                pending = [i for i in by_id if i not in done]
                for run in client.read_flow_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=pending))):
                    if run.state is not None and run.state.is_final():
                        done[run.id] = run.state
                        self.on_event(f"shard {by_id[run.id].label} {run.state.name}: {run.state.message or ''}"
                                      .rstrip(": "))
                if len(done) < len(self.shards):
                    time.sleep(POLL_SECONDS)
        return done

    def cancel(self) -> None:
        """Cancel the shards' runs not finished yet (the caller stopped before waiting for them)."""
        from prefect.client.orchestration import get_client
        from prefect.states import Cancelling

        with get_client(sync_client=True) as client:
            for s in self.shards:
                run = client.read_flow_run(s.flow_run_id)
                if run.state is None or not run.state.is_final():
                    client.set_flow_run_state(s.flow_run_id, Cancelling(message=f"the {self.command}'s parent stopped"),
                                              force=True)


@flow(name="edgar-pool-bootstrap", log_prints=False)
def pool_bootstrap_flow(paths: list[str], deployment: str, shards: int = 4, batch_size: int = DEFAULT_BATCH_SIZE,
                        command: str = "bootstrap", on_event: Callable[[str], None] | None = None) -> BatchReport:
    """Read ``paths``, store their payloads in the lake's raw store, load them as ``shards`` flow runs of
    ``deployment``, all batches of one run (see the module docstring); ``on_event`` is told each shard's
    progress (it is logged too)."""
    from prefect.runtime import flow_run

    from warehouse.load.batch import finish_run, start_run
    from warehouse.store.db import default_db_path, writer

    event = pool_events(on_event)
    db = default_db_path()
    with writer(db, command=command) as con:
        load_id = start_run(con, command=command, flow_run_id=flow_run.get_id())
    pool = PoolLoad(deployment, load_id, command=command, batch_size=batch_size, on_event=event)
    try:
        members = [Path(p) for p in paths]
        size, count = shard_plan(total_members(members), shards)
        stream = iter(items(members))
        for n in range(1, count + 1):
            pool.submit(islice(stream, size), f"{n}/{count}")
        report = pool.finish()
    except BaseException as exc:
        stopped, error = pool.stopped(exc)
        with writer(db, command=command) as con:
            finish_run(con, stopped, error=error)
        raise
    with writer(db, command=command) as con:
        finish_run(con, report)
    return report


def pool_events(on_event: Callable[[str], None] | None) -> Callable[[str], None]:
    """A shard event logged in the flow run, and given to ``on_event`` too (the CLI prints it)."""
    log = get_run_logger()

    def event(line: str) -> None:
        log.info(line)
        if on_event is not None:
            on_event(line)
    return event


def require_lake() -> LakeConfig:
    """The lake's settings; PoolError on the DuckDB file (one writer process at a time)."""
    cfg = lake_config()
    if cfg is None:
        raise PoolError("--work-pool is for the DuckLake backend (--backend ducklake): the DuckDB file takes "
                        "one writer process at a time")
    return cfg


def check_pool(shards: int = 1) -> None:
    """What any load on a pool needs before anything runs: the lake backend and ``shards`` >= 1 (PoolError)."""
    require_lake()
    if shards < 1:
        raise PoolError(f"--shards {shards}: give 1 or more")


def check_bootstrap(paths: list[Path], shards: int) -> None:
    """What a pool bootstrap needs before anything runs: ``check_pool``, and the paths
    (FileNotFoundError naming the missing ones)."""
    check_pool(shards)
    require(paths)


def run_pool_bootstrap(paths: list[Path], *, work_pool: str, shards: int = 4,
                       batch_size: int = DEFAULT_BATCH_SIZE, command: str = "bootstrap",
                       on_event: Callable[[str], None] | None = None) -> BatchReport:
    """The CLI's entry: check the lake and the pool, then run the parent flow in this process; returns
    the run's totals (``ShardsFailed`` when a shard did not complete)."""
    check_bootstrap(paths, shards)
    deployment = prepare_pool(work_pool)
    return pool_bootstrap_flow([str(p) for p in paths], deployment, shards=shards, batch_size=batch_size,
                               command=command, on_event=on_event)
