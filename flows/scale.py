"""Scale-out of the parse fan-out on Prefect's DaskTaskRunner: chunks of documents read (or fetched) and parsed on Dask workers.

``load --task-runner dask --dask-workers 2`` (or ``--dask-address tcp://scheduler:8786``) runs
``load_flow``: the files are cut into chunks, each chunk is read and parsed by a task on a Dask
worker process (``parse_files``: pure, bytes -> records, nothing opened but the files), and the
flow's process commits the parsed chunks into the warehouse under ONE load run, ``batch_size``
documents per commit, exactly as the plain ``load`` does (``warehouse.load.ingest.IngestRun``).
``fetch_parse`` is the same fan-out for SEC requests: the task builds its own SEC client in the
worker from a picklable factory (``functools.partial(make_client, ...)``), and every worker's
requests take their turn through the machine-wide rate limit (pipelines/sec_ratelimit.py: one
lock file per user), so two workers together stay within SEC's 10 requests/s.

Default (``--task-runner thread``): Prefect's ThreadPoolTaskRunner, no Dask.
"""

from __future__ import annotations

import math
import os
import platform
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner

from pipelines.documents import Document, read_local_document
from pipelines.errors import RejectedDocument
from warehouse.load.batch import BatchReport, Item, Rejected
from warehouse.load.ingest import prepare

TASK_RUNNERS = ("thread", "dask")


def task_runner_for(name: str = "thread", *, workers: int | None = None, address: str | None = None):
    """A Prefect task runner: ``thread`` (the default pool) or ``dask``: a local cluster of
    ``workers`` processes (one thread each; default: one per core), or the Dask scheduler at
    ``address`` (workers on other machines: see docs/architecture.md)."""
    if name == "thread":
        return ThreadPoolTaskRunner(max_workers=workers) if workers else ThreadPoolTaskRunner()
    if name != "dask":
        raise ValueError(f"task runner {name!r}: expected one of {', '.join(TASK_RUNNERS)}")
    from prefect_dask import DaskTaskRunner

    if address:
        return DaskTaskRunner(address=address)
    kwargs: dict[str, Any] = {"processes": True, "threads_per_worker": 1, "dashboard_address": None}
    if workers:
        kwargs["n_workers"] = workers
    return DaskTaskRunner(cluster_class="distributed.LocalCluster", cluster_kwargs=kwargs)


def read_file(path: str, accession: str | None = None) -> Document | Rejected:
    """One local file as a Document (with the accession given for a bare XML), or Rejected naming it."""
    try:
        doc = read_local_document(Path(path))
    except RejectedDocument as exc:
        return Rejected(Document(uri=str(path), origin="file", body=b""), exc)
    return replace(doc, accession=accession) if accession else doc


@task(name="parse-files", cache_policy=NO_CACHE, task_run_name="parse {label}", retries=0)
def parse_files(paths: Sequence[str], label: str = "", accession: str | None = None) -> list[Item]:
    """Read and parse a chunk of files in this worker (bad ones become Rejected, never an error)."""
    got = [read_file(p, accession) for p in paths]
    docs = [d for d in got if isinstance(d, Document)]
    parsed = iter(prepare(None, docs, workers=1))
    items = [next(parsed) if isinstance(d, Document) else d for d in got]
    get_run_logger().info("parsed %d documents in process %d on %s", len(items), os.getpid(), platform.node())
    return items


@task(name="fetch-parse", cache_policy=NO_CACHE, task_run_name="fetch {label}", retries=0)
def fetch_parse(client_factory: Callable[[], Any], requests: Sequence[tuple[str, tuple]],
                label: str = "") -> list[Item | tuple[str, str]]:
    """Fetch and parse a chunk of SEC documents in this worker with its own client.

    ``requests`` are (SecClient method name, arguments); each result is an Item, or
    ``(what, reason)`` for a request that produced no document. The client shares the machine's
    rate limit with every other process of the user."""
    from pipelines.errors import STOPS_THE_RUN, TerminalError, TransientError

    client = client_factory()
    out: list[Item | tuple[str, str]] = []
    try:
        for method, args in requests:
            what = f"{method}{args}"
            try:
                doc = getattr(client, method)(*args)
            except STOPS_THE_RUN:
                raise  # SEC refuses this client or cannot be reached: stop, never hammer
            except (TransientError, TerminalError) as exc:
                out.append((what, str(exc)))
                continue
            out.append(prepare(None, [doc], workers=1)[0])
    finally:
        client.close()
    return out


def chunks(items: Sequence, size: int) -> list[list]:
    return [list(items[k:k + size]) for k in range(0, len(items), size)] or []


@flow(name="edgar-load", log_prints=False)
def load_flow(db: str, paths: list[str], batch_size: int = 0, chunk_size: int = 8,
              accession: str | None = None) -> dict:
    """Parse ``paths`` in chunks on the flow's task runner, load them as one run (see the module
    docstring). Returns the run's totals (status, loaded, unchanged, rejected, row counts)."""
    from warehouse.load.ingest import IngestRun
    from warehouse.store.db import raw_dir_for, writer

    log = get_run_logger()
    parts = chunks(paths, max(chunk_size, 1))
    futures = [parse_files.submit(c, label=f"{n + 1}/{len(parts)}", accession=accession)
               for n, c in enumerate(parts)]
    with writer(db, command="load") as con:  # the DuckDB file: a private build, published at the end
        run = IngestRun(con, raw_dir=raw_dir_for(db), command="load")
        pending: list[Item] = []
        try:
            for fut in futures:  # in submission order: the run does not depend on which chunk ends first
                pending += fut.result()
                while 0 < batch_size <= len(pending):
                    batch, pending = pending[:batch_size], pending[batch_size:]
                    log.info(run.load(batch).summary())
            if pending:
                log.info(run.load(pending).summary())
        except BaseException as exc:
            run.finish(error=exc)
            raise
        report: BatchReport = run.finish()
    log.info("load %s: %s", report.load_id, report.status)
    return {"load_id": report.load_id, "status": report.status, "loaded": report.loaded,
            "unchanged": report.unchanged, "rejected": report.rejected, "row_counts": dict(report.row_counts)}


@flow(name="edgar-fetch", log_prints=False)
def fetch_flow(client_factory: Callable[[], Any], requests: list[tuple[str, tuple]],
               chunk_size: int = 8) -> list[Item | tuple[str, str]]:
    """Fetch and parse ``requests`` (SecClient method, arguments) in chunks on the flow's task runner,
    each chunk with its own client in its worker; results in request order (see ``fetch_parse``)."""
    parts = chunks(requests, max(chunk_size, 1))
    futures = [fetch_parse.submit(client_factory, c, label=f"{n + 1}/{len(parts)}") for n, c in enumerate(parts)]
    return [r for fut in futures for r in fut.result()]


def run_load(db: str | Path, paths: list[Path], *, task_runner: str = "dask", workers: int | None = None,
             address: str | None = None, batch_size: int = 0, chunk_size: int | None = None,
             accession: str | None = None) -> dict:
    """``load_flow`` on the chosen task runner (Prefect: a server when PREFECT_API_URL says so).
    ``chunk_size`` defaults to about two chunks per worker, at most 8 files each."""
    if chunk_size is None:
        chunk_size = max(1, min(8, math.ceil(len(paths) / (2 * (workers or os.cpu_count() or 1)))))
    runner = task_runner_for(task_runner, workers=workers, address=address)
    return load_flow.with_options(task_runner=runner)(
        db=str(db), paths=[str(p) for p in paths], batch_size=batch_size, chunk_size=chunk_size,
        accession=accession)
