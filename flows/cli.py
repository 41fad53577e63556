"""The `edgar-warehouse` command line: init, load, refresh, sql, status (and the registry/metrics verbs)."""

from __future__ import annotations

import csv
import functools
import json
import logging
import os
import sys
from collections.abc import Callable
from contextlib import nullcontext
from datetime import date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from flows.bootstrap import DEFAULT_BATCH_SIZE
from flows.prefect_setup import apply_prefect_defaults, prefect_start_failure
from pipelines.errors import ConfigError, EdgarError
from warehouse.read.queries import (
    DEFAULT_MAX_ROWS,
    DEFAULT_TIMEOUT,
    Result,
    run_named,
    run_query,
    status_sections,
    stream_query,
)
from warehouse.store.db import WarehouseError, default_db_path, raw_dir_for, reader, writer
from warehouse.store.publish import current_writer
from warehouse.store.secrets import redact, redact_logs

if TYPE_CHECKING:
    from rich.progress import Progress

    from warehouse.load.batch import BatchReport
    from warehouse.store.publish import Holder

# Imports a command alone needs are made in that command: a `load` or `sql` process never imports
# the HTTP client (httpx), Prefect, rich's tables and progress bars unless it uses them
# (tests/flows/test_cli_imports.py); every process pays for every module imported here.

# Exit codes scripts can rely on.
EXIT_OK = 0
EXIT_ERROR = 1          # the command failed; nothing was committed
EXIT_USAGE = 2          # bad arguments (typer's own)
EXIT_PARTIAL = 3        # committed, but some documents were rejected or not fetched
EXIT_CONFIG = 4         # not configured (e.g. SEC_USER_AGENT missing)
EXIT_AMBIGUOUS = 5      # resolve: several candidates, none clearly wins (it will not guess)
EXIT_NOT_FOUND = 6      # resolve: nothing matches
EXIT_CLAIMS_FAILED = 7  # verify: a claim failed or the summary has a number no claim backs
EXIT_TRUNCATED = 8      # sql: the output was cut at --max-rows (what was written is not the whole result)

WORK_POOL_HELP = ("DuckLake: load on this Prefect process work pool's workers (flows/pool.py); this process reads "
                  "or fetches. Needs PREFECT_API_URL.")

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Provenance-rich SEC EDGAR fact warehouse (DuckDB).")
# emoji=False, markup=False: names and values are printed as they are (a document named
# ``x:fire:.json`` or ``x[/b].json`` stays so; rich read ``[/b]`` as a closing tag and raised instead
# of printing the error), and rich does not load its emoji table for every process that prints a line
# with two colons. Labels are styled by ``say``, never by markup inside the text.
err = Console(stderr=True, soft_wrap=True, emoji=False, markup=False)  # one-line errors, never wrapped
out = Console(width=None if sys.stdout.isatty() else 200, emoji=False, markup=False)


def say(label: str, text: str, style: str = "yellow") -> None:
    """One line on stderr: ``label:`` in ``style``, then ``text`` as it is, secrets masked."""
    from rich.text import Text

    err.print(Text.assemble((f"{label}:", style), " ", redact(text)), highlight=False)


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


class State:
    db: Path = default_db_path()


def _print_version(asked: bool) -> None:
    """``--version``: this package's version and the DuckDB library it reads and writes files with."""
    if asked:
        from importlib.metadata import version

        out.print(f"edgar-warehouse {version('edgar-warehouse')} (DuckDB {version('duckdb')})", highlight=False)
        raise typer.Exit()


@app.callback()
def main_options(
    db: Annotated[Path | None, typer.Option("--db", help="Warehouse file [env EDGAR_WAREHOUSE_DB, else ./edgar.duckdb]")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log requests and loads.")] = False,
    backend: Annotated[str | None, typer.Option("--backend", help="Storage: duckdb (the --db file) or ducklake [env EDGAR_WAREHOUSE_BACKEND].")] = None,
    lake_catalog: Annotated[str | None, typer.Option("--lake-catalog", help="DuckLake catalog, e.g. 'postgres:dbname=lake host=127.0.0.1 user=edgar' [env EDGAR_WAREHOUSE_LAKE_CATALOG].")] = None,
    lake_data: Annotated[str | None, typer.Option("--lake-data", help="DuckLake data folder (Parquet) [env EDGAR_WAREHOUSE_LAKE_DATA].")] = None,
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version (and DuckDB's) and exit.")] = False,
) -> None:
    State.db = db or default_db_path()
    _select_backend(backend, lake_catalog, lake_data)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _select_backend(backend: str | None, catalog: str | None, data: str | None) -> None:
    """The storage options become the environment (docs/architecture.md), so every process and
    Prefect task the command starts opens the same warehouse; ``--lake-catalog`` implies ducklake."""
    from warehouse.store.lake import BACKEND_ENV, BACKENDS, CATALOG_ENV, DATA_ENV

    if backend is not None and backend not in BACKENDS:
        fail(f"--backend {backend}: expected one of {', '.join(BACKENDS)}", EXIT_USAGE)
    for name, value in ((BACKEND_ENV, backend or ("ducklake" if catalog else None)), (CATALOG_ENV, catalog),
                        (DATA_ENV, data)):
        if value:
            os.environ[name] = value


def command(*args, **kwargs):
    """``app.command`` whose errors become one red line and an exit code scripts can rely on."""
    def register(fn):
        @functools.wraps(fn)
        def run(*a, **kw):
            try:
                return fn(*a, **kw)
            except ConfigError as exc:
                fail(str(exc), EXIT_CONFIG)
            except (WarehouseError, EdgarError) as exc:
                fail(str(exc), EXIT_ERROR)
            except RuntimeError as exc:
                line = prefect_start_failure(exc)
                if line is None:
                    raise
                fail(line, EXIT_ERROR)
        return app.command(*args, **kwargs)(run)
    return register


def _waiting(holder: Holder | None) -> None:
    """Say once, while a writer waits for the lock, who holds it."""
    who = holder.describe() if holder else "another process"
    say("waiting", f"{State.db} is being written by {who}")


def fail(message: str, code: int = EXIT_ERROR) -> None:
    say("error", message, "red")
    raise typer.Exit(code)


@command()
def init() -> None:
    """Create the warehouse file (or bring its schema up to date); close the runs left `running` by a
    process that is gone (interrupted: partial or failed)."""
    from warehouse.load.batch import reconcile_interrupted
    from warehouse.schema.migrate import applied_migrations

    with writer(State.db, command="init", on_wait=_waiting) as con:
        applied = applied_migrations(con)
        for load_id in reconcile_interrupted(con):
            say("interrupted run", f"{load_id} (its process is gone)")
    out.print(f"{State.db}: schema at migration {applied[-1][0]:04d}_{applied[-1][1]} ({len(applied)} applied)")


@command()
def load(paths: Annotated[list[Path], typer.Argument(help="Local SEC files (.gz accepted), folders (walked recursively) or zips (every member); kind detected from content.")],
         accession: Annotated[str | None, typer.Option(help="Accession for a single ownership XML or filing document whose name carries none.")] = None,
         cik: Annotated[int | None, typer.Option("--cik", help="The company of these files: a 10-K/10-Q/8-K document that names none is its (a file about another company is rejected).")] = None,
         batch_size: Annotated[int, typer.Option(help="Commit every N documents (bulk loads); 0 = the whole run in one transaction.")] = 0,
         task_runner: Annotated[str, typer.Option(help="Parse fan-out: `local` (a process per core, no Prefect) or `dask` (a Prefect flow on Dask workers; flows/scale.py).")] = "local",
         dask_workers: Annotated[int | None, typer.Option(help="Dask: worker processes of the local cluster [default: one per core].")] = None,
         dask_address: Annotated[str | None, typer.Option(help="Dask: scheduler address (tcp://host:8786) instead of a local cluster.")] = None) -> None:
    """Load local SEC files (companyfacts, submissions and pages, tickers, Forms 3/4/5, 10-K/10-Q/8-K
    documents) in one run.

    Folders are walked recursively and zips (SEC's companyfacts.zip, submissions.zip) read member by
    member. Files already loaded (same bytes) are skipped before parsing; the others are parsed in a
    process per core; by default the whole run commits in one transaction."""
    files = list(paths)
    if accession and (len(files) != 1 or not Path(files[0]).is_file()):
        fail("--accession names the accession of ONE file", EXIT_USAGE)
    if task_runner != "local":
        if cik is not None:
            fail("--cik is for --task-runner local", EXIT_USAGE)
        for path in files:
            if not Path(path).is_file():
                fail(f"{path}: no such file (--task-runner {task_runner} loads files; folders and zips: local)")
        return _load_scaled(files, accession, batch_size, task_runner, dask_workers, dask_address)
    _bulk_load(files, command="load", batch_size=batch_size, accession=accession, cik=cik)


@command()
def bootstrap(
    companyfacts_zip: Annotated[Path, typer.Option("--companyfacts-zip", help="SEC's companyfacts.zip (or a folder of its members).")],
    submissions_zip: Annotated[Path | None, typer.Option("--submissions-zip", help="SEC's submissions.zip, pages included (or a folder).")] = None,
    batch_size: Annotated[int, typer.Option(help="Commit every N members, or sooner at EDGAR_WAREHOUSE_BATCH_BYTES (64MB) of JSON (bounds memory; a killed run resumes after the last commit).")] = DEFAULT_BATCH_SIZE,
    work_pool: Annotated[str | None, typer.Option("--work-pool", help=WORK_POOL_HELP)] = None,
    shards: Annotated[int, typer.Option(help="--work-pool: cut the members into N shard flow runs (more shards than workers balances them).")] = 4,
) -> None:
    """Bulk-load SEC's nightly companyfacts.zip (and submissions.zip), streamed member by member.

    Resumable: members already loaded (same bytes, by sha256) are skipped before parsing, so a
    killed bootstrap run again converges. A bad member is rejected by name and the rest loads.
    With --work-pool (DuckLake), this process reads the members into the lake's raw store and the
    pool's workers load them, shard by shard, as one run."""
    if batch_size <= 0:
        fail("--batch-size must be at least 1: a bootstrap commits in batches", EXIT_USAGE)
    paths = [p for p in (submissions_zip, companyfacts_zip) if p]
    if work_pool is not None:
        return _pool_load(paths, work_pool=work_pool, shards=shards, batch_size=batch_size)
    _bulk_load(paths, command="bootstrap", batch_size=batch_size)


def _check_pool(work_pool: str | None, shards: int = 1) -> None:
    """--work-pool needs the lake and at least one shard: one line, exit 2, before anything runs."""
    if work_pool is None:
        return
    from flows.pool import PoolError, check_pool

    try:
        check_pool(shards)
    except PoolError as exc:
        fail(str(exc), EXIT_USAGE)


def _pool_load(paths: list[Path], *, work_pool: str, shards: int, batch_size: int) -> None:
    """`bootstrap --work-pool`: this process reads, the pool's workers load (flows/pool.py), one run."""
    from flows.pool import PoolError, check_bootstrap, run_pool_bootstrap

    try:
        check_bootstrap(paths, shards)
    except PoolError as exc:  # not a lake, or no shard
        fail(str(exc), EXIT_USAGE)
    except FileNotFoundError as exc:
        fail(str(exc))

    run = run_pool_bootstrap(paths, work_pool=work_pool, shards=shards, batch_size=batch_size,
                             on_event=lambda line: say("pool", line, "cyan"))
    _reported(run)


def _reported(run: BatchReport) -> None:
    """Print a run's summary and its rejections; exit 3 when it rejected any."""
    out.print(run.summary())
    for uri, reason in run.rejected:
        say("rejected", f"{uri}: {reason}")
    if run.rejected:
        raise typer.Exit(EXIT_PARTIAL)


def _bulk_load(paths: list[Path], *, command: str, batch_size: int, accession: str | None = None,
               cik: int | None = None) -> None:
    """Stream every member of ``paths`` through the ingest path as one run, with progress and ETA."""
    from flows.bootstrap import bootstrap as run_bootstrap
    from flows.bootstrap import total_members

    for path in paths:
        if not Path(path).exists():
            fail(f"{path}: no such file or folder")
    # rich's Progress (its import is ~0.02 s CPU of a one-document load) only where something shows it:
    # the bar on a terminal, or the line with the ETA that a run in batches prints after each commit
    tracked = batch_size > 0 or err.is_terminal
    total = total_members(paths) if tracked else 0
    # bootstrap: a killed run's build (its committed batches) is carried on from, not redone
    with writer(State.db, command=command, on_wait=_waiting, resume=command == "bootstrap",
                bulk=command == "bootstrap" or batch_size > 0) as con:
        with _progress(eta=True) if tracked else nullcontext() as progress:
            done = None
            if progress is not None:
                task = progress.add_task(command, total=total)

                def done(report: BatchReport, n: int) -> None:
                    progress.advance(task, n)
                    if batch_size:
                        t = progress.tasks[task]
                        eta = f", about {t.time_remaining:,.0f} s left" if t.time_remaining is not None else ""
                        err.print(f"{int(t.completed):,}/{total:,} members{eta}: {report.summary()}",
                                  highlight=False)

            run = run_bootstrap(con, paths, raw_dir=raw_dir_for(State.db), command=command, batch_size=batch_size,
                                accession=accession, cik=cik, on_batch=done)
    _reported(run)


def _load_scaled(files: list[Path], accession: str | None, batch_size: int, task_runner: str,
                 workers: int | None, address: str | None) -> None:
    """`load --task-runner dask`: parse on Dask workers through Prefect (flows/scale.py), one run."""
    from flows.scale import TASK_RUNNERS, run_load

    if task_runner not in TASK_RUNNERS:
        fail(f"--task-runner {task_runner}: expected local, {' or '.join(TASK_RUNNERS)}", EXIT_USAGE)
    result = run_load(State.db, files, task_runner=task_runner, workers=workers, address=address,
                      batch_size=batch_size, accession=accession)
    rows = ", ".join(f"{k}={v}" for k, v in sorted(result["row_counts"].items()) if v) or "no new rows"
    out.print(f"load {result['load_id'][:8]}: {result['loaded']} loaded, {result['unchanged']} unchanged, "
              f"{len(result['rejected'])} rejected; {rows}")
    for uri, reason in result["rejected"]:
        say("rejected", f"{uri}: {reason}")
    if result["rejected"]:
        raise typer.Exit(EXIT_PARTIAL)


@command()
def refresh(
    ticker: Annotated[list[str] | None, typer.Option("--ticker", "-t", help="Ticker (repeatable).")] = None,
    cik: Annotated[list[int] | None, typer.Option("--cik", "-c", help="CIK (repeatable).")] = None,
    replay: Annotated[Path | None, typer.Option(help="Serve recorded responses from this folder (no network).")] = None,
    record: Annotated[Path | None, typer.Option(help="Live, and write every validated response into this replay folder.")] = None,
    cache_dir: Annotated[Path | None, typer.Option(help="On-disk HTTP cache for live runs [default: <db>.http-cache beside the warehouse].")] = None,
    insider_since: Annotated[datetime | None, typer.Option(formats=["%Y-%m-%d"], help="Fetch Forms 3/4/5 filed on/after this date.")] = None,
    insider_until: Annotated[datetime | None, typer.Option(formats=["%Y-%m-%d"], help="... and on/before this date.")] = None,
    no_insiders: Annotated[bool, typer.Option("--no-insiders", help="Skip Forms 3/4/5.")] = False,
    batch_size: Annotated[int, typer.Option(help="Commit every N companies (one run); 0 = one transaction.")] = 0,
    index_day: Annotated[list[datetime] | None, typer.Option(formats=["%Y-%m-%d"], help="Also find Forms 3/4/5 in EDGAR's daily form index of this day (repeatable).")] = None,
    work_pool: Annotated[str | None, typer.Option("--work-pool", help=WORK_POOL_HELP)] = None,
    shards: Annotated[int, typer.Option(help="--work-pool without --batch-size: cut the companies into N shard flow runs.")] = 4,
) -> None:
    """Fetch and load companies from SEC (or a replay folder) with the Prefect refresh flow. With
    --work-pool (DuckLake) this process fetches and the pool's workers load, batch by batch, one run."""
    if not ticker and not cik and not index_day:
        fail("name at least one --ticker, --cik or --index-day", EXIT_USAGE)
    _check_pool(work_pool, shards)
    from flows.refresh import run_refresh

    if replay and record:
        fail("--replay and --record exclude each other", EXIT_USAGE)
    if not replay:
        from pipelines.sec_client import resolve_user_agent

        resolve_user_agent()  # refuse before starting Prefect: one clear line, exit 4
    out.print(f"refreshing {', '.join([*(ticker or []), *map(str, cik or [])])} "
              f"({'replay ' + str(replay) if replay else 'live SEC'}) ...")
    result = run_refresh(State.db, tickers=ticker or [], ciks=cik or [], replay=str(replay) if replay else None,
                         record=str(record) if record else None,
                         cache_dir=str(cache_dir) if cache_dir else None,
                         insider_since=insider_since.date() if insider_since else None,
                         insider_until=insider_until.date() if insider_until else None,
                         insiders=not no_insiders, index_days=[d.date() for d in index_day or []],
                         batch_size=batch_size, work_pool=work_pool, shards=shards)
    rows = ", ".join(f"{k}={v}" for k, v in sorted(result["row_counts"].items()) if v) or "no new rows"
    out.print(f"load {result['load_id'][:8]} {result['status']}: {result['loaded']} documents loaded, "
              f"{result['unchanged']} unchanged, {len(result['rejected'])} rejected; {rows}")
    for uri, reason in result["rejected"]:
        say("rejected", f"{uri}: {reason}")
    for what, reason in result["not_fetched"]:
        say("not fetched", f"{what}: {reason}")
    for t in result["unknown_tickers"]:
        say("unknown ticker", t)
    if result["rejected"] or result["not_fetched"] or result["unknown_tickers"]:
        raise typer.Exit(EXIT_PARTIAL)


@command()
def serve(cron: Annotated[str, typer.Option(help="Cron schedule, in --timezone.")] = "0 6 * * *",
          timezone: Annotated[str, typer.Option(help="Time zone of the cron schedule.")] = "America/New_York",
          work_pool: Annotated[str | None, typer.Option("--work-pool", help=WORK_POOL_HELP)] = None) -> None:
    """Serve the incremental nightly deployment (the tracked universe, see `track`) on a cron schedule,
    one run at a time, and on DuckLake the lake's daily maintenance (`maintain`). Needs a Prefect API:
    run `prefect server start` first and set PREFECT_API_URL."""
    from flows.deploy import serve_nightly
    from pipelines.sec_client import resolve_user_agent

    _check_pool(work_pool)
    resolve_user_agent()
    out.print(f"serving edgar-nightly for {State.db} on '{cron}' ({timezone}) (Ctrl-C to stop)")
    serve_nightly(State.db, cron=cron, timezone=timezone, work_pool=work_pool)


@command()
def maintain(keep_hours: Annotated[float, typer.Option(help="Keep snapshots younger than this (readers pinned to them keep reading).")] = 24.0,
             format: Annotated[Format, typer.Option("--format", "-f")] = Format.table) -> None:
    """Maintain the DuckLake lake once: merge small files, expire old snapshots, delete unread files
    (`serve` schedules it daily on the lake); prints the figures before and after."""
    from datetime import timedelta

    from flows.maintain import run_maintenance

    report = run_maintenance(timedelta(hours=keep_hours))
    if format == Format.json:
        out.print_json(data=report.as_dict())
    else:
        out.print(report.line())


@command()
def track(
    ticker: Annotated[list[str] | None, typer.Option("--ticker", "-t", help="Ticker or name, resolved by the registry (repeatable).")] = None,
    cik: Annotated[list[int] | None, typer.Option("--cik", "-c", help="CIK (repeatable).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every company the warehouse holds.")] = False,
    list_: Annotated[bool, typer.Option("--list", help="Print the tracked universe.")] = False,
    with_text: Annotated[bool, typer.Option("--with-text", help="Also fetch the primary documents of their 10-K/10-Q/8-K filings (sections, search, quotes); companies already tracked too.")] = False,
    text_since: Annotated[datetime | None, typer.Option(formats=["%Y-%m-%d"], help="With --with-text: filings filed from this day on [default: a year ago].")] = None,
) -> None:
    """Add companies to the tracked universe the nightly keeps current (a new one is fetched whole by
    the next nightly, then only when EDGAR's daily index lists a new filing of it). With --with-text
    the refresh and the nightly also fetch the primary documents of their 10-K/10-Q/8-K filings filed
    since --text-since that are not held (a company already tracked gets them at its next filing, or
    now by `refresh --cik N`)."""
    from warehouse.load.tracking import track as track_ciks
    from warehouse.load.tracking import tracked_table
    from warehouse.read.queries import company_ciks

    if not (ticker or cik or all_ or list_):
        fail("name --ticker, --cik or --all (or --list)", EXIT_USAGE)
    if text_since and not with_text:
        fail("--text-since goes with --with-text", EXIT_USAGE)
    from pipelines.documents import utcnow

    since = (text_since.date() if text_since else utcnow().date() - timedelta(days=365)) if with_text else None
    if ticker or cik or all_:
        with writer(State.db, command="track", on_wait=_waiting) as con:
            added: list[int] = []
            if ticker:
                resolved = [_resolve_one(con, t) for t in ticker]
                added += track_ciks(con, [c for c, _ in resolved], tickers=[t for _, t in resolved], by="ticker",
                                    text_since=since)
            if cik:
                added += track_ciks(con, cik, by="cik", text_since=since)
            if all_:
                added += track_ciks(con, company_ciks(con), by="all", text_since=since)
        out.print(f"tracking {len(added)} more compan{'y' if len(added) == 1 else 'ies'}"
                  f"{': ' + ', '.join(map(str, sorted(added))) if added and len(added) <= 20 else ''}"
                  f"{f'; with text from {since}' if since else ''}")
    if list_:
        with reader(State.db) as con:
            print_result(tracked_table(con), Format.table, title="Tracked companies")


def _resolve_one(con, query: str) -> tuple[int, str]:
    from warehouse.read.resolve import resolve as resolve_query

    r = resolve_query(con, query)
    if not r.resolved:
        fail(f"{query}: {r.message} (the registry comes from SEC's ticker files: `refresh --ticker` loads "
             f"them; or track --cik)", EXIT_AMBIGUOUS if r.status == "ambiguous" else EXIT_NOT_FOUND)
    return r.cik, query.upper()


@command()
def untrack(cik: Annotated[list[int] | None, typer.Option("--cik", "-c", help="CIK (repeatable).")] = None,
            ticker: Annotated[list[str] | None, typer.Option("--ticker", "-t", help="Ticker or name (repeatable).")] = None) -> None:
    """Stop keeping companies current (what the warehouse holds of them stays)."""
    from warehouse.load.tracking import untrack as untrack_ciks

    if not (cik or ticker):
        fail("name --cik or --ticker", EXIT_USAGE)
    with writer(State.db, command="untrack", on_wait=_waiting) as con:
        gone = untrack_ciks(con, [*(cik or []), *(_resolve_one(con, t)[0] for t in ticker or [])])
    out.print(f"untracked {len(gone)}: {', '.join(map(str, gone)) or '-'}")


@command()
def nightly(
    replay: Annotated[Path | None, typer.Option(help="Serve recorded responses from this folder (no network).")] = None,
    cache_dir: Annotated[Path | None, typer.Option(help="On-disk HTTP cache [default: <db>.http-cache].")] = None,
    today: Annotated[datetime | None, typer.Option(formats=["%Y-%m-%d"], help="Run as if on this New York day (indexes through the day before).")] = None,
    batch_size: Annotated[int, typer.Option(help="Companies per fetch task and commit.")] = 50,
    insider_history_days: Annotated[int, typer.Option(help="A company fetched whole gets the Forms 3/4/5 of this many days.")] = 90,
    work_pool: Annotated[str | None, typer.Option("--work-pool", help=WORK_POOL_HELP)] = None,
) -> None:
    """Run the incremental nightly once over the tracked universe: daily indexes since each company's
    last sync, then only what changed (see docs/operations.md, Nightly). With --work-pool (DuckLake)
    this process fetches and the pool's workers load each batch."""
    _check_pool(work_pool)
    from flows.nightly import run_nightly

    if not replay:
        from pipelines.sec_client import resolve_user_agent

        resolve_user_agent()
    result = run_nightly(State.db, replay=str(replay) if replay else None,
                         cache_dir=str(cache_dir) if cache_dir else None,
                         today=today.date() if today else None, batch_size=batch_size,
                         insider_history_days=insider_history_days, work_pool=work_pool)
    from flows.nightly import summary_line

    out.print(summary_line(result), highlight=False)
    for uri, reason in result["rejected"]:
        say("rejected", f"{uri}: {reason}")
    for what, reason in result["not_fetched"]:
        say("not fetched", f"{what}: {reason}")
    if result["rejected"] or result["not_fetched"]:
        raise typer.Exit(EXIT_PARTIAL)


@command("sql")
def sql_cmd(query: Annotated[str, typer.Argument(help="SQL to run (read-only connection).")],
            format: Annotated[Format, typer.Option("--format", "-f")] = Format.table,
            limit: Annotated[int, typer.Option(help="Rows shown in table format (0 = all).")] = 100,
            max_rows: Annotated[int | None, typer.Option(
                help=f"Fetch at most this many rows (0 = all). Default: {DEFAULT_MAX_ROWS:,} for a table, all for "
                     f"CSV/JSON; CSV/JSON cut short exit {EXIT_TRUNCATED}.")] = None,
            timeout: Annotated[float, typer.Option(help="Stop the statement after this many seconds.")] = DEFAULT_TIMEOUT) -> None:
    """Run ONE read-only statement against the published warehouse (sandboxed: no file or network
    access, a time limit, a row limit); output as a table, or every row streamed as CSV or JSON."""
    if format is not Format.table:
        write, finish = _row_writer(format)
        with reader(State.db) as con:
            result = stream_query(con, query, write, timeout=timeout, max_rows=max_rows or None)
        finish()
        if result.truncated:
            fail(f"truncated: only the first {max_rows:,} rows written (--max-rows 0 = all)", EXIT_TRUNCATED)
        return
    max_rows = DEFAULT_MAX_ROWS if max_rows is None else max_rows
    with reader(State.db) as con:
        result = run_query(con, query, timeout=timeout, max_rows=max_rows or None)
    print_result(result, format, limit=limit)
    if result.truncated:
        say("truncated", f"more than {max_rows} rows; only the first {max_rows} fetched "
                         f"(--max-rows 0 = all, or aggregate in SQL)")


def _row_writer(fmt: Format) -> tuple[Callable[[list[str], list[tuple]], None], Callable[[], None]]:
    """``stream_query``'s ``write`` (first called with no rows: the header) for CSV or a JSON array of
    objects, and what ends the output once every row is written (a stream that failed stays unclosed)."""
    if fmt is Format.csv:
        w = csv.writer(sys.stdout)

        def write_csv(columns: list[str], rows: list[tuple]) -> None:
            if not rows:
                w.writerow(columns)
            w.writerows([_plain(v) for v in row] for row in rows)
        return write_csv, lambda: None

    written = 0

    def write_json(columns: list[str], rows: list[tuple]) -> None:
        nonlocal written
        if not written and not rows:
            sys.stdout.write("[")
        for row in rows:
            obj = {c: _plain(v) for c, v in zip(columns, row, strict=True)}
            sys.stdout.write((",\n " if written else "\n ") + json.dumps(obj, default=str))
            written += 1
    return write_json, lambda: sys.stdout.write("\n]\n" if written else "]\n")


@command()
def resolve(query: Annotated[str, typer.Argument(help="Ticker, CIK or company name.")],
            format: Annotated[Format, typer.Option("--format", "-f")] = Format.table) -> None:
    """Turn a ticker, CIK or name into one CIK; when no candidate clearly wins, list them and do not guess."""
    from warehouse.read.resolve import resolve as resolve_query

    with reader(State.db) as con:
        r = resolve_query(con, query)
    rows = Result(["cik", "name", "tickers", "score", "reason"],
                  [(c.cik, c.name, ",".join(c.tickers), round(c.score, 3), c.reason) for c in r.candidates])
    if format is Format.json:
        sys.stdout.write(json.dumps({"query": r.query, "status": r.status, "cik": r.cik, "name": r.name,
                                     "matched_by": r.matched_by, "message": r.message,
                                     "candidates": [dict(zip(rows.columns, row, strict=True)) for row in rows.rows]},
                                    indent=1) + "\n")
    elif r.resolved:
        out.print(f"{r.cik}\t{r.name}\t({r.message})", highlight=False)
    else:
        out.print(r.message, highlight=False)
        if r.candidates:
            print_result(rows, format)
    if not r.resolved:
        raise typer.Exit(EXIT_AMBIGUOUS if r.status == "ambiguous" else EXIT_NOT_FOUND)


def _companies(con, ciks: list[int] | None, tickers: list[str] | None) -> list[int]:
    """CIKs given, plus tickers/names resolved by the registry (never guessed)."""
    from warehouse.read.resolve import resolve as resolve_query

    out_ciks = list(ciks or [])
    for t in tickers or []:
        r = resolve_query(con, t)
        if not r.resolved:
            fail(f"{t}: {r.message}", EXIT_AMBIGUOUS if r.status == "ambiguous" else EXIT_NOT_FOUND)
        out_ciks.append(r.cik)
    if not out_ciks:
        fail("name at least one --cik or --ticker", EXIT_USAGE)
    return out_ciks


def _rows_result(rows: list[dict], columns: list[str]) -> Result:
    return Result(columns, [tuple(r.get(c) for c in columns) for r in rows])


@command()
def compare(
    name: Annotated[str, typer.Argument(help="Derived metric (free_cash_flow, net_margin, ...) or standard concept (revenue, ...).")],
    fiscal_year: Annotated[int, typer.Option("--fiscal-year", "-y", help="Each company's own fiscal year.")],
    cik: Annotated[list[int] | None, typer.Option("--cik", "-c")] = None,
    ticker: Annotated[list[str] | None, typer.Option("--ticker", "-t", help="Ticker or name (resolved, never guessed).")] = None,
    period: Annotated[str, typer.Option("--period", "-p", help="FY or Q1..Q4.")] = "FY",
    segment: Annotated[str | None, typer.Option("--segment", "-s", help="A segment, product or region (member QName or name, e.g. Americas): its value of the concept, from the filings' inline XBRL.")] = None,
    format: Annotated[Format, typer.Option("--format", "-f")] = Format.table,
) -> None:
    """One row per company for a metric or concept in a fiscal year, with warnings when periods,
    tags or currencies do not line up. The table shows margins and growth as percentages, ratios as
    multiples; json and csv give the fractions (0.1369 = 13.69%). With --segment, one segment's
    value of a concept (e.g. revenue of Americas) from the filings' inline XBRL."""
    from warehouse.read.compare import compare as compare_rows
    from warehouse.read.report_svg import shown
    from warehouse.schema.vocabulary import UnknownMetricError

    with reader(State.db) as con:
        companies = _companies(con, cik, ticker)
        try:
            rows = compare_rows(con, name, companies, fiscal_year, period, segment=segment)
        except UnknownMetricError as exc:
            fail(str(exc), EXIT_USAGE)
    columns = ["cik", "name", "fiscal_year", "fiscal_period", "period_start", "period_end", "value", "unit",
               "matched_tag", "accession", "derivation", "null_reason"]
    if segment is not None:
        columns[2:2] = ["member", "member_label"]
        columns.append("element_id")
    if format is Format.json:
        print_result(_rows_result(rows, [*columns, "warnings"]), format)
        return
    if format is Format.table:  # each number in its own unit (a margin as a percentage, a ratio as a multiple)
        rows = [{**r, "value": shown(r["value"], r["unit"], name)} if r["unit"] == "pure" else r for r in rows]
    print_result(_rows_result(rows, columns), format)
    for warning in sorted({w for r in rows for w in r["warnings"]}):
        say("warning", str(warning))


@command()
def growth(
    concept: Annotated[str, typer.Argument(help="Standard concept, e.g. revenue.")],
    from_year: Annotated[int, typer.Option("--from", help="Earlier fiscal year.")],
    to_year: Annotated[int, typer.Option("--to", help="Later fiscal year.")],
    cik: Annotated[list[int] | None, typer.Option("--cik", "-c")] = None,
    ticker: Annotated[list[str] | None, typer.Option("--ticker", "-t")] = None,
    segment: Annotated[str | None, typer.Option("--segment", "-s", help="A segment, product or region (member QName or name, e.g. 'Data Center'): its growth, from the filings' inline XBRL.")] = None,
    format: Annotated[Format, typer.Option("--format", "-f")] = Format.table,
) -> None:
    """Growth of a standard concept between two fiscal years (the table: a percentage; json and csv: a
    fraction), with both inputs; with --segment, of one segment's value of it."""
    from warehouse.read.growth import growth as growth_of
    from warehouse.read.report_svg import shown
    from warehouse.read.segments import SegmentNotFound
    from warehouse.schema.vocabulary import UnknownMetricError

    with reader(State.db) as con:
        rows = []
        for company in _companies(con, cik, ticker):
            try:
                rows.append({"cik": company, **growth_of(con, concept, company, from_year, to_year, segment=segment)})
            except SegmentNotFound as exc:
                fail(str(exc), EXIT_NOT_FOUND)
            except UnknownMetricError as exc:
                fail(str(exc), EXIT_USAGE)
    columns = list(dict.fromkeys(k for r in rows for k in r if k != "warnings"))
    if format is Format.table:  # one field per line reads better than 20 narrow columns; growth as a percentage
        for r in rows:
            print_result(Result(["field", "value"], [(c, shown(r.get(c), "pure") if c == "value" else r.get(c))
                                                     for c in columns]), format)
    else:
        print_result(_rows_result(rows, columns if format is Format.csv else [*columns, "warnings"]), format)
    for warning in sorted({w for r in rows for w in r.get("warnings", [])}):
        say("warning", str(warning))


class StatementKind(StrEnum):
    income = "income"
    balance = "balance"
    cash_flow = "cash_flow"
    equity = "equity"
    comprehensive = "comprehensive"


@command()
def statement(accession: Annotated[str, typer.Argument(help="Accession of the filing, e.g. 0000320193-25-000079.")],
              kind: Annotated[StatementKind, typer.Argument(help="Which statement.")],
              format: Annotated[Format, typer.Option("--format", "-f")] = Format.table) -> None:
    """A filing's statement as the company presents it: its lines in printed order with their labels,
    depth and every column shown (JSON: each value with its receipt, the fact's element id and byte offset)."""
    from warehouse.read.presented import StatementNotFound
    from warehouse.read.presented import statement as read_statement

    with reader(State.db) as con:
        try:
            doc = read_statement(con, accession, kind.value)
        except StatementNotFound as exc:
            fail(str(exc), EXIT_NOT_FOUND)
    if format is Format.json:
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        return
    columns: dict[tuple, str] = {}
    for line in doc["lines"]:
        for v in line["values"]:
            key = (v["period_start"], v["period_end"], tuple(sorted(v["dimensions"].items())))
            members = " ".join(m.rpartition(":")[2] for _, m in key[2])
            columns.setdefault(key, f"{v['period_start'] or ''}..{v['period_end']}" + (f" {members}" if members else ""))
    rows = []
    for line in doc["lines"]:
        cells = {(v["period_start"], v["period_end"], tuple(sorted(v["dimensions"].items()))): v["value"]
                 for v in line["values"]}
        rows.append(("  " * line["depth"] + line["label"], *(cells.get(k) for k in columns)))
    print_result(Result(["line", *columns.values()], rows), format, title=f"{doc['title']} ({doc['accession']})")


@command()
def checks(name: Annotated[str | None, typer.Argument(help="One check's offending rows (omit: latest results of all).")] = None,
           format: Annotated[Format, typer.Option("--format", "-f")] = Format.table,
           limit: Annotated[int, typer.Option(help="Rows shown in table format (0 = all).")] = 50) -> None:
    """Data-quality checks: balance-sheet identity, gross profit identity, quarters summing to the year."""
    from warehouse.derive.checks import run_check

    with reader(State.db) as con:
        if name:
            rows = run_check(con, name)
            result = _rows_result(rows, list(rows[0]) if rows else ["offending_rows"])
        else:
            result = run_named(con, "read/status/check_results")
    print_result(result, format, limit=limit)


_SECTION_FIELDS = ("item", "part", "heading", "text", "flags", "covers", "confidence", "confidence_reason",
                   "text_start", "text_end", "byte_start", "byte_end")


@command()
def section(accession: Annotated[str, typer.Argument(help="Accession of a loaded 10-K/10-Q/8-K document.")],
            item: Annotated[str | None, typer.Argument(help="Item: 1A, 7, II-1A (a 10-Q), 2.02 (an 8-K); omit for every item.")] = None,
            format: Annotated[Format, typer.Option("--format", "-f")] = Format.table) -> None:
    """The text of a filing's items as printed (heading, text, flags, confidence), with where they are
    in the document (its URL, character and byte offsets)."""
    from warehouse.read.filing_text import FilingTextError
    from warehouse.read.filing_text import section as one_section
    from warehouse.read.filing_text import sections as all_sections

    with reader(State.db) as con:
        try:
            rows = [one_section(con, accession, item)] if item else all_sections(con, accession)
        except FilingTextError as exc:
            fail(str(exc), EXIT_NOT_FOUND)
    first = rows[0] if rows else {}
    receipt = {k: first.get(k) for k in ("accession", "cik", "form", "company_name", "document_url", "sha256")}
    receipt["accession"] = accession
    receipt["filed"] = first["filed"].isoformat() if first.get("filed") else None
    items = [{k: r[k] for k in _SECTION_FIELDS} for r in rows]
    if format is Format.json:
        body = {**receipt, **items[0]} if item else {**receipt, "items": items}
        sys.stdout.write(json.dumps(body, indent=1, default=str) + "\n")
    elif format is Format.csv:
        print_result(Result(list(_SECTION_FIELDS), [tuple(i[k] for k in _SECTION_FIELDS) for i in items]), format)
    else:
        for i in items:
            flags = f"  [{', '.join(i['flags'])}]" if i["flags"] else ""
            out.print(f"{i['heading']}{flags}", style="bold", highlight=False, markup=False)
            out.print(i["text"] if item else _fold(i["text"]), highlight=False, markup=False)
            out.print("")
        say("source", f"{receipt['document_url']} (sha256 {receipt['sha256'][:12]}...)")


def _fold(text: str, width: int = 300) -> str:
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + f" ... ({len(text):,} characters)"


@command()
def search(query: Annotated[str | None, typer.Argument(help="Keywords, ranked (BM25) over the stored items.")] = None,
           phrase: Annotated[str | None, typer.Option("--phrase", help="An exact phrase instead (case, whitespace, quotes and dashes normalised).")] = None,
           cik: Annotated[int | None, typer.Option("--cik", "-c")] = None,
           form: Annotated[str | None, typer.Option("--form", help="10-K, 10-Q, 8-K (a family) or an exact form (10-K405).")] = None,
           item: Annotated[str | None, typer.Option("--item", help="Only this item (1A, II-1A, 2.02).")] = None,
           filed_from: Annotated[datetime | None, typer.Option("--from", help="Filed on or after (YYYY-MM-DD).")] = None,
           filed_to: Annotated[datetime | None, typer.Option("--to", help="Filed on or before (YYYY-MM-DD).")] = None,
           limit: Annotated[int, typer.Option(help="Hits (1-1000).")] = 20,
           format: Annotated[Format, typer.Option("--format", "-f")] = Format.table) -> None:
    """Full-text search over the items of the loaded 10-K/10-Q/8-K documents: hits with accession,
    item, a snippet and offsets."""
    from warehouse.read.filing_text import FilingTextError, Filters, search_keywords, search_phrase

    if (query is None) == (phrase is None):
        fail("give keywords (QUERY) or --phrase TEXT, not both", EXIT_USAGE)
    filters = Filters(cik, form, item, filed_from.date() if filed_from else None,
                      filed_to.date() if filed_to else None)
    with reader(State.db) as con:
        try:
            hits = search_phrase(con, phrase, filters, limit) if phrase is not None \
                else search_keywords(con, query, filters, limit)
        except FilingTextError as exc:
            fail(str(exc), EXIT_USAGE)
    if format is Format.json:
        sys.stdout.write(json.dumps({"mode": "phrase" if phrase is not None else "keywords",
                                     "query": phrase if phrase is not None else query,
                                     "hits": [h.as_dict() for h in hits]}, indent=1) + "\n")
        return
    columns = ["accession", "item", "form", "filed", "cik", "snippet", "match_start", "score"]
    print_result(Result(columns, [tuple(h.as_dict()[c] for c in columns) for h in hits]), format)
    if not hits:
        say("no hits", "nothing stored matches (only loaded 10-K/10-Q/8-K documents are searched)")


@command()
def export(dest: Annotated[Path, typer.Argument(help="Export folder (a symlink to DEST.<id>, swapped atomically).")],
           table: Annotated[list[str] | None, typer.Option("--table", help="Only these tables/views (repeatable).")] = None,
           as_of: Annotated[datetime | None, typer.Option("--as-of", help="Export what was public at this UTC instant (YYYY-MM-DD[THH:MM:SS]).")] = None) -> None:
    """Export to Parquet: a folder per table (facts by fiscal_year), manifest.json with schema,
    comments, row counts and sha256; built beside DEST and published with one rename."""
    from warehouse.read.export import export_warehouse

    with reader(State.db, sandboxed=False) as con:
        result = export_warehouse(con, dest, table, as_of=as_of)
    tables = result.manifest["tables"]
    print_result(Result(["table", "rows", "files"], [(n, t["rows"], len(t["files"])) for n, t in tables.items()]),
                 Format.table)
    out.print(f"{dest} -> {result.target.name} ({'published' if result.changed else 'unchanged, nothing swapped'})",
              highlight=False)


@command()
def report(company: Annotated[str, typer.Argument(help="Ticker, CIK or name (resolved, never guessed).")],
           out_path: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")] = Path("report.html"),
           concept: Annotated[str | None, typer.Option(help="XBRL concept to chart with every version [default: the revenue tag with the most restatements].")] = None) -> None:
    """A static HTML page for one company (no scripts, no network, inline SVG charts): a concept's
    history with every version, derived metrics with lineage, insider activity, filing timeline."""
    from warehouse.read.api import UnknownNameError, open_warehouse
    from warehouse.read.report import render_report

    with open_warehouse(State.db) as wh:
        try:
            page = render_report(wh, company, concept)
        except UnknownNameError as exc:
            fail(str(exc), EXIT_NOT_FOUND)
    tmp = out_path.with_name(out_path.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(out_path)
    out.print(f"{out_path}: {len(page.encode()):,} bytes", highlight=False)


@command()
def rebuild(target: Annotated[Path, typer.Argument(help="New warehouse file to build (must not exist).")],
            batch_size: Annotated[int, typer.Option(help="Commit every N documents; 0 = one transaction.")] = 0) -> None:
    """Rebuild every table into a NEW warehouse from the raw payloads kept beside this one."""
    from warehouse.load.ingest import ingest
    from warehouse.store.raw_documents import loaded_documents

    if target.exists():
        fail(f"{target} exists; rebuild writes a new warehouse", EXIT_USAGE)
    with reader(State.db) as con:
        docs = loaded_documents(con, raw_dir_for(State.db))
    counted: list[int] = []
    with writer(target, command="rebuild", on_wait=_waiting) as new:
        report = ingest(new, docs, raw_dir=raw_dir_for(target), command="rebuild", batch_size=batch_size,
                        on_batch=lambda _report, n: counted.append(n))
    out.print(f"{target}: rebuilt from {sum(counted)} raw payloads of {State.db}; {report.summary()}")
    if report.rejected:
        raise typer.Exit(EXIT_PARTIAL)


@command()
def status() -> None:
    """What the warehouse holds: totals, companies, coverage, recent runs, rejections."""
    from warehouse.load.tracking import status_sections as tracking_sections

    with reader(State.db) as con:
        sections = status_sections(con) + tracking_sections(con)
    out.print(str(State.db), style="bold")
    holder = current_writer(State.db)
    if holder:
        out.print(f"a writer is working ({holder.describe()}); this is the last published state", highlight=False)
    for title, result in sections:
        print_result(result, Format.table, title=title)


@command()
def mcp() -> None:
    """Serve the read-only agent tools over MCP on stdin/stdout (for an agent host to launch)."""
    from warehouse.agent.server import serve_stdio

    serve_stdio(State.db)


@command()
def verify(brief: Annotated[Path, typer.Argument(help='Brief JSON: {"ticker", "summary", "claims": [...]}.')]) -> None:
    """Check an agent's brief against the warehouse; print a JSON report (one entry per claim, orphan
    numbers of the summary). Exit 7 when any claim fails or the summary has a number no claim backs."""
    from warehouse.agent.verify import verify_brief

    try:
        text = brief.read_bytes()
    except OSError as exc:
        fail(f"{brief}: cannot read ({exc.strerror})", EXIT_USAGE)
    with reader(State.db) as con:
        report = verify_brief(con, text)
    sys.stdout.write(report.model_dump_json(indent=1) + "\n")
    if report.error is not None and report.cik is None and not report.claims:
        fail(f"{brief}: {report.error.message}", EXIT_USAGE)
    if not report.passed:
        raise typer.Exit(EXIT_CLAIMS_FAILED)


def _plain(v):
    if isinstance(v, Decimal):
        return format(v.normalize(), "f") if v == v.to_integral_value() else format(v.normalize(), "f")
    if isinstance(v, datetime | date):
        return v.isoformat()
    return v


def print_result(result: Result, fmt: Format, *, limit: int = 0, title: str | None = None) -> None:
    if fmt is Format.json:
        sys.stdout.write(json.dumps([{c: _plain(v) for c, v in zip(result.columns, row, strict=True)}
                                     for row in result.rows], default=str, indent=1) + "\n")
        return
    if fmt is Format.csv:
        w = csv.writer(sys.stdout)
        w.writerow(result.columns)
        for row in result.rows:
            w.writerow([_plain(v) for v in row])
        return
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_lines=False)
    for c in result.columns:
        table.add_column(c, overflow="fold")
    shown = result.rows if not limit else result.rows[:limit]
    for row in shown:
        table.add_row(*["" if v is None else str(_plain(v)) for v in row])
    out.print(table)
    if limit and len(result.rows) > limit:
        out.print(f"({len(result.rows) - limit} more rows; use --limit 0 or --format csv)")


def _progress(*, eta: bool = False) -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if eta:
        columns.append(TimeRemainingColumn())
    # the ETA from the whole run's average speed: rich's default (the last 30 s) has no sample at all
    # when one batch takes longer than that, and shows no ETA
    return Progress(*columns, console=err, transient=True, disable=not err.is_terminal,
                    speed_estimate_period=7 * 24 * 3600.0)


class NotInstalled:
    """A finder (first on ``sys.meta_path``) that answers "no module named X" at once for ``names``.

    DuckDB's client tries ``import pandas`` twice for every statement that has parameters (to recognise
    a pandas value among them); where pandas is not installed each try searched every ``sys.path``
    entry and finder again, 85-100 us on this box: a one-company ``load`` made ~870 of them (~0.08 s
    CPU), the 8 companyfacts files into a new file ~1,200, and every parameterised query of ``mcp``
    two. A CLI process runs one command: what was not installed when it started is not installed."""

    def __init__(self, names: list[str]):
        self.names = frozenset(names)

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


# optional modules that DuckDB's client looks for on every parameterised statement
_LOOKED_FOR = ("pandas",)


def main() -> None:
    """Console entry point: one-line errors, exit codes scripts can rely on."""
    from importlib.util import find_spec

    apply_prefect_defaults()  # before anything imports Prefect
    redact_logs()  # no log line of any library prints a catalog password or an object store key
    # numpy (a load imports it with pyarrow) starts an OpenBLAS thread per core when it is imported, for
    # linear algebra no command does: one, ~0.02-0.03 s CPU less per process (numpy's import 0.20 -> 0.18)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    absent = [name for name in _LOOKED_FOR if find_spec(name) is None]
    if absent:
        sys.meta_path.insert(0, NotInstalled(absent))
    try:
        app()
    except SystemExit as exc:
        _exit_without_teardown(exc.code)
        raise
    _exit_without_teardown(0)


def _exit_without_teardown(code: object) -> None:
    """End a CLI process (the console script, ``python -m flows.cli``) without the interpreter's teardown.

    Tearing down the modules a load imports (DuckDB, pyarrow, numpy) costs 0.12-0.16 s CPU, ~6 % of a
    one-company load, after its work is done and published. When no other non-daemon thread is running
    (else the normal exit, which waits for them; a daemon one is a statement past its time limit that
    DuckDB could not interrupt, ended here), the ``atexit`` functions run as at a normal exit, the output is
    flushed and the process ends with ``code`` (what ``SystemExit`` would give). Not when ``main`` is
    called from other code (``python -c``, a test), whose process goes on."""
    import threading

    script = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    if not (script == __file__ or Path(script).name == "edgar-warehouse") or any(
            not t.daemon for t in threading.enumerate() if t is not threading.current_thread()):
        return
    if code is not None and not isinstance(code, int):  # SystemExit("message"): printed by the normal exit
        return
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken pipe: let the normal exit report it
        return
    os._exit(code or 0)


if __name__ == "__main__":
    main()
