"""The refresh flow: fetch companyfacts, submissions (all pages), new Forms 3/4/5 and, for companies tracked
with text, new 10-K/10-Q/8-K primary documents; load them in one run."""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run
from prefect.states import Completed

from flows.pool import PoolLoad
from pipelines.documents import Document, utcnow
from pipelines.errors import (
    STOPS_THE_RUN,
    AccessDenied,
    NotFound,
    RejectedDocument,
    TerminalError,
    TransientError,
)
from pipelines.request_log import RequestLog
from pipelines.sec_client import SecClient
from warehouse.load.batch import BatchReport, Parsed, Rejected
from warehouse.load.ingest import prepare


class RefreshFailed(TransientError):
    """The refresh fetched none of the documents it asked for (SEC down, or every request failed):
    recorded as a failed run; the flow run ends Failed. ``result`` holds what the flow would return."""


@dataclass
class FetchFailure:
    """A request that produced no document (404, retries exhausted): reported, not loaded."""

    what: str
    reason: str


@dataclass
class RefreshPlan:
    ciks: list[int]
    tickers: dict[str, int] = field(default_factory=dict)
    unknown_tickers: list[str] = field(default_factory=list)


def make_client(replay: str | None = None, cache_dir: str | None = None, rate: float | None = None,
                record: str | None = None) -> SecClient:
    """The one SEC client of a run: live (SEC_USER_AGENT required), live and recording every
    response into a replay folder, or replaying recorded responses (no network)."""
    kwargs: dict[str, Any] = {}
    if rate is not None:
        kwargs["rate"] = rate
    if replay:
        return SecClient.replay(replay, **kwargs)
    if record:
        return SecClient.recording(record, **kwargs)
    if cache_dir:
        kwargs["cache_dir"] = cache_dir
    return SecClient(**kwargs)


def fetch_document(what: str, fetch: Callable[[], Document]) -> Document | FetchFailure:
    """Fetch one document; a missing one (404, a plain 403, retries exhausted) becomes a FetchFailure.
    SEC refusing the client (throttled, User-Agent refused), SEC unreachable or the retry budget spent
    is not swallowed: it stops the run (never hammer a 10-minute block, never try every remaining
    request)."""
    try:
        return fetch()
    except AccessDenied as exc:  # a plain 403: this path only (S3-backed Archives paths that do not exist)
        return FetchFailure(what, str(exc))
    except STOPS_THE_RUN:
        raise
    except (TransientError, TerminalError) as exc:  # 404, retries exhausted, another 4xx: this one only
        return FetchFailure(what, str(exc))


def fetch_parse(what: str, fetch: Callable[[], Document]) -> Parsed | Rejected | FetchFailure:
    """Fetch one document and parse it (the ingest path's parse stage, in this process); a bad
    body becomes Rejected, a missing one a FetchFailure."""
    got = fetch_document(what, fetch)
    return got if isinstance(got, FetchFailure) else prepare(None, [got], workers=1)[0]


@task(name="fetch", cache_policy=NO_CACHE, task_run_name="fetch {what}")
def fetch_task(what: str, fetch: Callable[[], Document]) -> Document | FetchFailure:
    return fetch_document(what, fetch)


@task(name="fetch-and-parse", cache_policy=NO_CACHE, task_run_name="fetch {what}")
def fetch_parse_task(what: str, fetch: Callable[[], Document]) -> Parsed | Rejected | FetchFailure:
    return fetch_parse(what, fetch)


@task(name="resolve-targets", cache_policy=NO_CACHE)
def resolve_targets(client: SecClient, tickers: list[str], ciks: list[int]) -> tuple[RefreshPlan, list]:
    """Map tickers to CIKs with SEC's company_tickers.json (which is loaded too, for the registry)."""
    from pipelines.tickers import ticker_to_cik

    plan = RefreshPlan(ciks=list(dict.fromkeys(ciks)))
    extra: list = []
    if tickers:
        got = fetch_parse("company_tickers.json", client.fetch_company_tickers)
        extra.append(got)
        if not isinstance(got, Parsed):
            raise RejectedDocument("company_tickers.json", f"cannot resolve tickers: {getattr(got, 'reason', got)}")
        # The exchange file feeds the registry (resolve); a failure to get it is only reported.
        extra.append(fetch_parse("company_tickers_exchange.json", client.fetch_company_tickers_exchange))
        for t in tickers:
            cik = ticker_to_cik(got.record, t)
            if cik is None:
                plan.unknown_tickers.append(t)
            else:
                plan.tickers[t.upper()] = cik
                if cik not in plan.ciks:
                    plan.ciks.append(cik)
    return plan, extra


@task(name="start-run", cache_policy=NO_CACHE)
def start_run_task(db: str, flow_run_id: str | None) -> str:
    """Record the run as running before anything is fetched (see warehouse.load.batch.start_run)."""
    from warehouse.load.batch import start_run
    from warehouse.store.db import connect

    with connect(db) as con:  # the run's build file (see refresh_flow)
        return start_run(con, command="refresh", flow_run_id=flow_run_id)


@task(name="load-batch", cache_policy=NO_CACHE)
def load_task(db: str, items: list[Document | Parsed | Rejected], flow_run_id: str | None,
              load_id: str) -> BatchReport:
    """One batch through the ingest path into ``db`` (the run's private build file, see
    warehouse.store.db.publishing): documents already loaded are skipped before parsing; the rest are
    parsed in this process (the flow's process has threads, so it never forks)."""
    from warehouse.load.ingest import load_documents
    from warehouse.store.db import connect, raw_dir_for

    with connect(db) as con:
        return load_documents(con, items, raw_dir=raw_dir_for(db), command="refresh", load_id=load_id,
                              flow_run_id=flow_run_id, workers=1)


@task(name="finish-run", cache_policy=NO_CACHE)
def finish_run_task(db: str, run: BatchReport, not_fetched: int, error: str | None,
                    requests: list[RequestLog]) -> str:
    """Record the run's requests to SEC (``run_requests``) and its final status: failed when nothing
    could be fetched, partial with rejections or documents not fetched (see
    warehouse.load.batch.run_status)."""
    from warehouse.load.batch import finish_run
    from warehouse.load.tracking import record_requests
    from warehouse.store.db import connect

    with connect(db) as con:
        record_requests(con, run.load_id, requests)
        return finish_run(con, run, not_fetched=not_fetched, error=error)


@task(name="known-companies", cache_policy=NO_CACHE)
def known_companies(db: str) -> list[int]:
    """CIKs the warehouse already holds facts or filings for."""
    from warehouse.read.queries import company_ciks
    from warehouse.store.db import reader

    if not Path(db).exists():
        return []
    with reader(db) as con:
        return company_ciks(con)


@dataclass(frozen=True)
class OwnershipTarget:
    """A Form 3/4/5 filing to fetch: where it was listed and the Archives path of its .txt."""

    cik: int
    accession: str
    filing_date: date
    path: str


def ownership_from_submissions(submissions: list[Parsed]) -> list[OwnershipTarget]:
    from pipelines.ownership import ownership_archive_path
    from pipelines.submissions import ownership_filings

    return [OwnershipTarget(cik, acc, fd, ownership_archive_path(cik, acc))
            for item in submissions for cik, acc, fd in ownership_filings(item.record)]


@task(name="discover-from-daily-index", cache_policy=NO_CACHE)
def ownership_from_daily_index(client: SecClient, day: date, ciks: list[int]) -> tuple[list[OwnershipTarget], list]:
    """Forms 3/4/5 in EDGAR's daily form index of ``day`` (once per accession, although EDGAR lists
    a filing under each of its CIKs), limited to ``ciks`` when given."""
    from pipelines.indexes import ownership_filings, parse_daily_index

    try:
        doc = client.fetch_daily_index(day, "form")
    except STOPS_THE_RUN:
        raise
    except (NotFound, TransientError) as exc:
        return [], [FetchFailure(f"daily form index {day}", str(exc))]
    try:
        entries = parse_daily_index(doc.body, document=doc.uri)
    except RejectedDocument as exc:
        client.evict(doc.uri)  # a rejected body must not stay in the HTTP cache
        return [], [FetchFailure(f"daily form index {day}", exc.reason)]
    wanted = set(ciks)
    return [OwnershipTarget(f.ciks[0], f.accession, f.date_filed, f.archive_path)
            for f in ownership_filings(entries) if not wanted or wanted.intersection(f.ciks)], []


@task(name="ownership-to-fetch", cache_policy=NO_CACHE)
def ownership_to_fetch(db: str, targets: list[OwnershipTarget], since: date | None = None,
                       until: date | None = None) -> list[OwnershipTarget]:
    """The targets filed within [since, until], once per accession, not loaded yet."""
    from warehouse.load.ownership import loaded_accessions
    from warehouse.store.db import connect

    wanted: dict[str, OwnershipTarget] = {}
    for t in targets:
        if (since is None or t.filing_date >= since) and (until is None or t.filing_date <= until):
            wanted.setdefault(t.accession, t)
    if not wanted:
        return []
    with connect(db) as con:  # the run's build file (see refresh_flow)
        have = loaded_accessions(con, list(wanted))
    return [t for acc, t in sorted(wanted.items()) if acc not in have]


@task(name="filing-documents-to-fetch", cache_policy=NO_CACHE)
def filing_documents_to_fetch(db: str, submissions: list[Parsed]) -> list[tuple[str, str]]:
    """(accession, primary document URL) of the 10-K/10-Q/8-K filings of the companies tracked
    with text (``track --with-text``) filed since their ``text_since``, not held yet."""
    from pipelines.submissions import text_filings
    from warehouse.load.filing_documents import held_documents
    from warehouse.load.tracking import text_windows
    from warehouse.store.db import connect

    with connect(db) as con:  # the run's build file (see refresh_flow)
        since = text_windows(con, sorted({item.record.cik for item in submissions}))
        wanted = {acc: url for item in submissions if item.record.cik in since
                  for acc, _filed, url in text_filings(item.record, since[item.record.cik])}
        held = held_documents(con, list(wanted))
    return [(acc, url) for acc, url in sorted(wanted.items()) if acc not in held]


def _fetch_companies(client: SecClient, db: str, ciks: list[int], extra_targets: list[OwnershipTarget],
                     insiders: bool, insider_since: date | None, insider_until: date | None) -> list:
    """Fetch companyfacts, submissions (every page), new Forms 3/4/5 and the new filing documents of
    the companies tracked with text among ``ciks``. Submissions are parsed here (their pages, Forms
    3/4/5 and filings are found in them); companyfacts are returned as Documents, for the load's
    parse stage to skip when already loaded."""
    facts = [fetch_task.submit(f"companyfacts {cik}", lambda c=cik: client.fetch_companyfacts(c)) for cik in ciks]
    subs = [fetch_parse_task.submit(f"submissions {cik}", lambda c=cik: client.fetch_submissions(c)) for cik in ciks]
    results: list = [f.result() for f in facts] + [f.result() for f in subs]
    submissions = [r for r in results if isinstance(r, Parsed) and r.record.kind == "submissions"]
    pages = [fetch_parse_task.submit(f"submissions page {name}",
                                     lambda n=name, c=sub.record.cik: client.fetch_submissions_page(n, c))
             for sub in submissions for name in sub.record.page_names]
    page_results = [f.result() for f in pages]
    results += page_results
    listed = submissions + [r for r in page_results if isinstance(r, Parsed)]
    texts = [fetch_task.submit(
        f"filing document {acc}",
        lambda u=url, a=acc: client.fetch_archive(u, kind="filing_document", accession=a))
        for acc, url in (filing_documents_to_fetch(db, listed) if listed else [])]
    results += [f.result() for f in texts]
    if insiders:
        todo = ownership_to_fetch(db, ownership_from_submissions(submissions) + extra_targets,
                                  insider_since, insider_until)
        owned = [fetch_parse_task.submit(
            f"ownership {t.accession}",
            lambda t=t: client.fetch_archive(t.path, kind="ownership", accession=t.accession))
            for t in todo]
        results += [f.result() for f in owned]
    return results


@flow(name="edgar-refresh", log_prints=False)
def refresh_flow(db: str, tickers: list[str] | None = None, ciks: list[int] | None = None,
                 replay: str | None = None, cache_dir: str | None = None,
                 insider_since: date | None = None, insider_until: date | None = None,
                 insiders: bool = True, index_days: list[date] | None = None,
                 all_companies: bool = False, insider_lookback_days: int | None = None,
                 record: str | None = None, batch_size: int = 0,
                 lock_wait: float | None = None, work_pool: str | None = None, shards: int = 4) -> dict | Completed:
    """Refresh the given companies: companyfacts, submissions with every page, and the Forms 3/4/5
    that are not loaded yet, found in their submissions and in EDGAR's daily form index of each of
    ``index_days`` (filed within [insider_since, insider_until]).

    With ``batch_size`` 0 everything fetched in the run is committed in ONE transaction (readers
    never see half a run); with N > 0 every N companies commit as they arrive, all under one load
    run (bounded memory for a nightly over thousands of companies).
    ``all_companies`` adds every company the warehouse already holds (the nightly run);
    ``insider_lookback_days`` sets insider_since to that many days before today (UTC);
    ``record`` writes every live response into that replay folder.
    ``work_pool`` (DuckLake): each batch (``batch_size`` companies, or the companies cut into
    ``shards``) is loaded by the pool's workers while the next is fetched (``flows.pool.PoolLoad``);
    this process stays the one that talks to SEC.

    The run holds the warehouse's writer lock from before its first request (a second writer waits
    up to ``lock_wait`` seconds, default $EDGAR_WAREHOUSE_LOCK_WAIT or 30 s, saying who holds it),
    loads into a private build copy and publishes it by atomic rename at the end: readers keep
    answering from the last published state meanwhile."""
    from warehouse.store.db import publishing
    log = get_run_logger()
    deployment = pool_deployment(work_pool)
    if all_companies:
        ciks = [*(ciks or []), *known_companies(db)]
    if insider_lookback_days is not None and insider_since is None:
        insider_since = utcnow().date() - timedelta(days=insider_lookback_days)
    client = make_client(replay, cache_dir, record=record)
    sent: list[RequestLog] = []
    client.on_request = sent.append  # from the fetch threads: list.append is atomic
    published = db
    with publishing(published, command=f"refresh (flow run {flow_run.get_id() or '-'})", wait=lock_wait,
                    on_wait=lambda h: log.warning("waiting for the writer lock of %s, held by %s", published,
                                                  h.describe() if h else "another process")) as build, \
            closing(client):
        db = str(build)
        flow_run_id = str(flow_run.get_id() or "") or None
        run = BatchReport(load_id=start_run_task(db, flow_run_id))
        pool = None if deployment is None else PoolLoad(deployment, run.load_id, command="refresh", batch_size=0,
                                                         on_event=log.info)
        failures: list[FetchFailure] = []
        try:
            plan, first_items = resolve_targets(client, tickers or [], ciks or [])
            if plan.unknown_tickers:
                log.warning("unknown tickers (not in company_tickers.json): %s", ", ".join(plan.unknown_tickers))
            index_targets: list[OwnershipTarget] = []
            for day in (index_days or []) if insiders else []:
                found, failed = ownership_from_daily_index(client, day, plan.ciks)
                index_targets += found
                first_items += failed
            size = batch_size if batch_size > 0 else max(
                math.ceil(len(plan.ciks) / max(shards, 1)) if pool else len(plan.ciks), 1)
            chunks = [plan.ciks[k:k + size] for k in range(0, len(plan.ciks), size)] or [[]]
            for n, chunk in enumerate(chunks):
                items = (first_items if n == 0 else []) + _fetch_companies(
                    client, db, chunk, index_targets if n == 0 else [], insiders, insider_since, insider_until)
                failures += [r for r in items if isinstance(r, FetchFailure)]
                loadable = [r for r in items if not isinstance(r, FetchFailure)]
                if pool is not None:
                    pool.submit(loadable, f"{n + 1}/{len(chunks)}")
                    continue
                report = load_task(db, loadable, flow_run_id, run.load_id)
                _evict_rejected(client, report)
                log.info(report.summary())
                run.add(report)
            if pool is not None:
                run = pool.finish()
                _evict_rejected(client, run)
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"
            if pool is not None:
                run, error = pool.stopped(exc)
                _evict_rejected(client, run)
            finish_run_task(db, run, len(failures), error, list(sent))
            raise
        status = finish_run_task(db, run, len(failures), None, list(sent))
        for fail in failures:
            # INFO: the Prefect UI shows it; the CLI prints the returned list once, on stderr
            log.info("not fetched: %s (%s)", fail.what, fail.reason)
        result = {"load_id": run.load_id, "status": status, "loaded": run.loaded,
                  "unchanged": run.unchanged, "rejected": run.rejected,
                  "not_fetched": [(f.what, f.reason) for f in failures],
                  "row_counts": dict(run.row_counts), "ciks": plan.ciks, "requests": len(sent),
                  "unknown_tickers": plan.unknown_tickers}
    # (published above, whatever the status: load_runs says how the run ended)
    if status == "failed":
        failed = RefreshFailed(f"load {run.load_id[:8]} failed: none of the {len(failures)} documents asked "
                               f"for could be fetched (first: {failures[0].what}: {failures[0].reason})")
        failed.result = result
        raise failed
    if status == "partial":
        # The flow run ends Completed, its message saying partial; the caller gets the result.
        return Completed(message=f"partial: {len(run.rejected)} rejected, {len(failures)} not fetched",
                         data=result)
    return result


def _evict_rejected(client: SecClient, report: BatchReport) -> None:
    """A body rejected by its parser or loader must not stay in the HTTP cache (Archives: forever)."""
    for uri, _reason in report.rejected:
        if uri.startswith("https://"):
            client.evict(uri)


def pool_deployment(work_pool: str | None) -> str | None:
    """The shard deployment of ``work_pool`` (checked, registered: ``flows.pool.prepare_pool``), or None."""
    if work_pool is None:
        return None
    from flows.pool import prepare_pool

    return prepare_pool(work_pool)


def http_cache_for(db: str | Path) -> Path:
    """Default HTTP cache beside the warehouse: edgar.duckdb -> edgar.http-cache/ (Archives documents
    kept forever, other endpoints revalidated with ETag/Last-Modified, so a nightly run that finds
    little changed costs little)."""
    p = Path(db)
    return p.with_name(p.stem + ".http-cache")


def run_refresh(db: str | Path, **kwargs: Any) -> dict:
    """Run the flow (Prefect runs it ephemerally when no server is configured)."""
    if not kwargs.get("replay") and not kwargs.get("cache_dir"):
        kwargs["cache_dir"] = str(http_cache_for(db))
    return refresh_flow(db=str(db), **kwargs)
