"""The bootstrap on a Prefect work pool: one reader feeding shard flow runs on process workers, into one lake run.

``edgar-warehouse bootstrap --companyfacts-zip Z --work-pool NAME --shards N`` (DuckLake only) runs
``pool_bootstrap_flow`` in the calling process, the one reader of the input (and, for a fetching
flow, the one process under SEC's limit):

1. it records ONE load run as running in the lake (``warehouse.load.batch.start_run``);
2. it streams the members (``flows.bootstrap.items``), writes each payload content-addressed into the
   lake's raw store (``LakeConfig.raw_dir``: the same folder or ``s3://`` prefix every ``ingest``
   writes, beside the lake's data), and cuts them into ``N`` shards of consecutive members; a shard is
   submitted as soon as its payloads are durable, as a flow run of the ``edgar-shard/<pool>``
   deployment, whose parameters name its members by sha256 (a member that could not be read is
   named with its reason);
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
from warehouse.load.batch import BatchReport, Rejected
from warehouse.store.lake import LakeConfig, LakeError, lake_config

SHARD_FLOW = "edgar-shard"
POLL_SECONDS = 2.0  # how often the parent reads its shards' states


class PoolError(WarehouseError):
    """The work pool cannot take the bootstrap (no such pool, no worker, no Prefect server, not a lake)."""


class ShardsFailed(WarehouseError):
    """One or more shard runs did not complete; the message names each and its error. ``report`` holds
    the run's totals (what the other shards, and the failed ones' committed batches, loaded)."""

    def __init__(self, message: str, report: BatchReport | None = None):
        super().__init__(message)
        self.report = report


@dataclass(frozen=True)
class Shard:
    """One submitted shard: its label (``2/4``), its flow run and how many members it was given."""

    label: str
    flow_run_id: UUID
    flow_run_name: str
    members: int


# --------------------------------------------------------------------------------- members and shards


def member_entry(item: Document | Rejected) -> dict[str, Any]:
    """What a shard is told of one member: its name and sha256 (and the CIK its name carries), or, for
    a member that could not be read, its name and the reason."""
    if isinstance(item, Rejected):
        return {"uri": item.doc.uri, "rejected": item.error.reason}
    entry: dict[str, Any] = {"uri": item.uri, "sha256": item.sha256}
    if item.expected_cik is not None:
        entry["expected_cik"] = item.expected_cik
    return entry


def member_item(raw_dir: Path | str, entry: dict[str, Any]) -> Document | Rejected:
    """The ingest item of ``entry``: its payload read back from the raw store by sha256, or Rejected."""
    from warehouse.store.raw_documents import raw_document

    if "rejected" in entry:
        return Rejected(Document(uri=entry["uri"], origin="file", body=b""),
                        RejectedDocument(entry["uri"], entry["rejected"]))
    return raw_document(raw_dir, entry["sha256"], uri=entry["uri"], origin="file",
                        expected_cik=entry.get("expected_cik"))


def shard_plan(members: int, shards: int) -> tuple[int, int]:
    """(members per shard, shards) for ``members`` cut into at most ``shards`` lists of consecutive members."""
    size = max(1, math.ceil(members / max(shards, 1)))
    return size, math.ceil(members / size)


def shard_chunks(paths: list[Path], raw_dir: Path | str, size: int) -> Iterator[list[dict[str, Any]]]:
    """The members of ``paths`` in lists of ``size`` consecutive members, each yielded once its payloads
    are durable in ``raw_dir`` (written, and their folders fsynced)."""
    from warehouse.store.raw_payloads import RawWriter

    members = iter(items(paths))
    while True:
        chunk: list[dict[str, Any]] = []
        with RawWriter(raw_dir) as store:
            for item in islice(members, size):
                if isinstance(item, Document):
                    store.store(item.body, item.sha256)
                chunk.append(member_entry(item))
        if not chunk:
            return
        yield chunk


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


def _final_states(shards: list[Shard], on_event: Callable[[str], None]) -> dict[UUID, Any]:
    """Wait until every shard's flow run is in a final state (completed, failed, crashed, cancelled);
    their states by flow run id."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    by_id = {s.flow_run_id: s for s in shards}
    done: dict[UUID, Any] = {}
    with get_client(sync_client=True) as client:
        while len(done) < len(shards):
            pending = [i for i in by_id if i not in done]
            for run in client.read_flow_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=pending))):
                if run.state is not None and run.state.is_final():
                    done[run.id] = run.state
                    shard = by_id[run.id]
                    on_event(f"shard {shard.label} {run.state.name}: {run.state.message or ''}".rstrip(": "))
            if len(done) < len(shards):
                time.sleep(POLL_SECONDS)
    return done


def _cancel(shards: list[Shard]) -> None:
    """Cancel the shards' runs not finished yet (the parent stopped before waiting for them)."""
    from prefect.client.orchestration import get_client
    from prefect.states import Cancelling

    with get_client(sync_client=True) as client:
        for s in shards:
            run = client.read_flow_run(s.flow_run_id)
            if run.state is None or not run.state.is_final():
                client.set_flow_run_state(s.flow_run_id, Cancelling(message="the bootstrap's parent stopped"),
                                          force=True)


@flow(name="edgar-pool-bootstrap", log_prints=False)
def pool_bootstrap_flow(paths: list[str], deployment: str, shards: int = 4, batch_size: int = DEFAULT_BATCH_SIZE,
                        command: str = "bootstrap", on_event: Callable[[str], None] | None = None) -> BatchReport:
    """Read ``paths``, store their payloads in the lake's raw store, load them as ``shards`` flow runs of
    ``deployment``, all batches of one run (see the module docstring); ``on_event`` is told each shard's
    progress (it is logged too)."""
    log = get_run_logger()

    def event(line: str) -> None:
        log.info(line)
        if on_event is not None:
            on_event(line)
    return _pool_bootstrap([Path(p) for p in paths], deployment, shards=shards, batch_size=batch_size,
                           command=command, on_event=event)


def _pool_bootstrap(paths: list[Path], deployment: str, *, shards: int, batch_size: int, command: str,
                    on_event: Callable[[str], None]) -> BatchReport:
    from prefect.deployments import run_deployment
    from prefect.runtime import flow_run

    from warehouse.load.batch import finish_run, run_report, start_run
    from warehouse.store.db import default_db_path, writer

    cfg = _lake()
    db = default_db_path()
    with writer(db, command=command) as con:
        load_id = start_run(con, command=command, flow_run_id=flow_run.get_id())
    submitted: list[Shard] = []
    error: str | None = None
    try:
        size, count = shard_plan(total_members(paths), shards)
        for n, members in enumerate(shard_chunks(paths, cfg.raw_dir, size), start=1):
            label = f"{n}/{count}"
            run = run_deployment(deployment, timeout=0, flow_run_name=f"shard {label} of {load_id[:8]}",
                                 parameters={"load_id": load_id, "lake": cfg.describe(), "members": members,
                                             "label": label, "command": command, "batch_size": batch_size})
            submitted.append(Shard(label, run.id, run.name, len(members)))
            on_event(f"shard {label} submitted: {len(members)} members (flow run {run.name})")
        states = _final_states(submitted, on_event)
    except BaseException as exc:
        _cancel(submitted)
        with writer(db, command=command) as con:
            finish_run(con, run_report(con, load_id), error=f"{type(exc).__name__}: {exc}")
        raise
    failed = [(s, states[s.flow_run_id]) for s in submitted if not states[s.flow_run_id].is_completed()]
    if failed:
        error = "; ".join(f"shard {s.label} (flow run {s.flow_run_name}) {st.name.lower()}: {st.message or st.name}"
                          for s, st in failed)
    with writer(db, command=command) as con:
        report = run_report(con, load_id)
        finish_run(con, report, error=error)
    if failed:
        raise ShardsFailed(f"{len(failed)} of {len(submitted)} shards did not complete: {error}. What committed "
                           f"stays ({report.summary()}, run {report.status}); run the same bootstrap again: it "
                           f"loads only what is missing", report)
    return report


def _lake() -> LakeConfig:
    cfg = lake_config()
    if cfg is None:
        raise PoolError("--work-pool is for the DuckLake backend (--backend ducklake): the DuckDB file takes "
                        "one writer process at a time")
    return cfg


def check_bootstrap(paths: list[Path], shards: int) -> None:
    """What a pool bootstrap needs before anything runs: the lake backend and ``shards`` >= 1
    (PoolError), the paths (FileNotFoundError naming the missing ones)."""
    _lake()
    require(paths)
    if shards < 1:
        raise PoolError(f"--shards {shards}: give 1 or more")


def run_pool_bootstrap(paths: list[Path], *, work_pool: str, shards: int = 4,
                       batch_size: int = DEFAULT_BATCH_SIZE, command: str = "bootstrap",
                       on_event: Callable[[str], None] | None = None) -> BatchReport:
    """The CLI's entry: check the lake and the pool, then run the parent flow in this process; returns
    the run's totals (``ShardsFailed`` when a shard did not complete)."""
    check_bootstrap(paths, shards)
    deployment = prepare_pool(work_pool)
    return pool_bootstrap_flow([str(p) for p in paths], deployment, shards=shards, batch_size=batch_size,
                               command=command, on_event=on_event)
