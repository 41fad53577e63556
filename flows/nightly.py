"""The incremental nightly: EDGAR's daily form indexes say which tracked companies filed; only those are fetched.

Each run reads the daily ``form.idx`` of every business day after the oldest watermark of the
tracked companies (``tracked_companies.synced_through``) through yesterday (New York), then, per
batch of companies:

* a company never fetched whole gets its submissions, every declared page not held yet, its
  companyfacts when the submissions list XBRL filings, and the Forms 3/4/5 it lists filed within
  ``insider_history_days``;
* a company the indexes list under new filings gets its submissions (pages only when the main file
  declares pages not held yet), its companyfacts only when a new filing is XBRL (or is not in the
  submissions yet and is not an insider form), and the Forms 3/4/5 of the index not held yet (once
  per accession, though EDGAR lists a Form 4 under its issuer and each owner);
* a company tracked with text (``track --with-text``) whose submissions are fetched tonight also
  gets the primary documents of its 10-K/10-Q/8-K filings filed since its ``text_since`` that are
  not held yet (a first fetch does not pull the company's whole history);
* every other tracked company costs nothing.

Retries are the client's alone (``pipelines.sec_client``: per request, within the run's retry
budget); no task is retried by Prefect. A document still failing is reported as not fetched (the
companies it serves keep their watermark, so the next night asks again); SEC throttling, SEC
unreachable or the retry budget spent stops the run (``pipelines.errors.STOPS_THE_RUN``).

Every HTTP request is recorded in ``run_requests`` under the run's load id. A missing daily index
(404/403: a weekend or holiday, or not published yet) is not an error; a company's watermark
advances only to the last day whose index was read (a missing last day is asked again next night)
and only when everything it needed was fetched and loaded.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run
from prefect.states import Completed

from flows.pool import PoolLoad
from flows.refresh import (
    FetchFailure,
    RefreshFailed,
    fetch_document,
    fetch_parse,
    make_client,
    pool_deployment,
)
from pipelines.documents import Document
from pipelines.errors import (
    STOPS_THE_RUN,
    AccessDenied,
    EdgarError,
    NotFound,
    RejectedDocument,
)
from pipelines.indexes import IndexEntry, business_days, parse_daily_index
from pipelines.request_log import RequestLog
from pipelines.sec_client import SecClient
from pipelines.sec_formats import OWNERSHIP_FORMS
from warehouse.load.batch import BatchReport, Parsed, Rejected
from warehouse.load.tracking import Tracked

NEW_YORK = ZoneInfo("America/New_York")
FETCH_THREADS = 4


# ------------------------------------------------------------------------------ what to fetch


@dataclass(frozen=True)
class Company:
    """A tracked company's work tonight: fetched whole, or the index entries new to it."""

    cik: int
    whole: bool
    new: tuple[IndexEntry, ...] = ()
    text_since: date | None = None


@dataclass
class IndexRead:
    """What the daily indexes said: entries per day read, days missing, days whose body was refused."""

    entries: dict[date, list[IndexEntry]] = field(default_factory=dict)
    missing: list[date] = field(default_factory=list)
    failed: list[FetchFailure] = field(default_factory=list)
    failed_days: list[date] = field(default_factory=list)

    def confirmed_through(self, days: list[date], start: date | None) -> date | None:
        """The last day up to which every day is read or known absent: a missing day counts as
        absent only when a later day's index was read (indexes are published in order)."""
        last = start
        for d in days:
            if d in self.failed_days:
                break
            if d in self.entries:
                last = d
        return last


@dataclass
class Fetched:
    """Documents fetched for a batch, with the companies each belongs to."""

    items: list[Document | Parsed | Rejected] = field(default_factory=list)
    owners: list[set[int]] = field(default_factory=list)  # parallel to items: the CIKs it serves
    failures: list[tuple[FetchFailure, set[int]]] = field(default_factory=list)

    def add(self, got: Document | Parsed | Rejected | FetchFailure, ciks: set[int]) -> None:
        if isinstance(got, FetchFailure):
            self.failures.append((got, ciks))
        else:
            self.items.append(got)
            self.owners.append(ciks)

    def extend(self, other: Fetched) -> None:
        self.items += other.items
        self.owners += other.owners
        self.failures += other.failures


def _parallel(jobs: list[tuple[Callable[[], Any], set[int]]], out: Fetched) -> None:
    if not jobs:
        return
    with ThreadPoolExecutor(min(FETCH_THREADS, len(jobs))) as pool:
        for (_, ciks), got in zip(jobs, pool.map(lambda job: job[0](), jobs), strict=True):
            out.add(got, ciks)


def _fetch(what: str, fn: Callable[[], Document], *, parse: bool) -> Document | Parsed | Rejected | FetchFailure:
    """Fetch one document (and parse it when asked): see flows.refresh.fetch_document."""
    return fetch_parse(what, fn) if parse else fetch_document(what, fn)


# ------------------------------------------------------------------------------ tasks


@task(name="plan-night", cache_policy=NO_CACHE)
def plan_task(db: str) -> list[Tracked]:
    """The tracked companies, their watermarks and text windows (the run's build file)."""
    from warehouse.load.tracking import tracked
    from warehouse.store.db import connect

    with connect(db) as con:
        return tracked(con)


@task(name="read-daily-indexes", cache_policy=NO_CACHE)
def read_indexes_task(client: SecClient, days: list[date]) -> IndexRead:
    """EDGAR's daily form.idx of each day; a missing one (404/403) is not an error, one that failed
    is reported and its day not passed."""
    read = IndexRead()
    for day in days:
        try:
            doc = client.fetch_daily_index(day, "form")
        except (NotFound, AccessDenied):
            read.missing.append(day)
            continue
        except STOPS_THE_RUN:
            raise
        except EdgarError as exc:  # retries exhausted: not read tonight, asked again next night
            read.failed.append(FetchFailure(f"daily form index {day}", str(exc)))
            read.failed_days.append(day)
            continue
        try:
            read.entries[day] = parse_daily_index(doc.body, document=doc.uri)
        except RejectedDocument as exc:
            client.evict(doc.uri)  # a refused body must not stay in the HTTP cache
            read.failed.append(FetchFailure(f"daily form index {day}", exc.reason))
            read.failed_days.append(day)
    return read


@task(name="fetch-submissions", cache_policy=NO_CACHE, task_run_name="submissions of {n} companies")
def fetch_submissions_task(client: SecClient, ciks: list[int], n: int) -> Fetched:
    """The main submissions file of each company of the batch, parsed (pages and filings are read
    from it)."""
    out = Fetched()
    _parallel([(lambda c=c: _fetch(f"submissions {c}", lambda: client.fetch_submissions(c), parse=True), {c})
               for c in ciks], out)
    return out


@task(name="fetch-documents", cache_policy=NO_CACHE, task_run_name="{n} documents")
def fetch_documents_task(client: SecClient, jobs: list[tuple[str, str, Any, set[int]]], n: int) -> Fetched:
    """Companyfacts, submissions pages, Forms 3/4/5 and filing documents of the batch: (what, how,
    argument, ciks)."""
    def one(what: str, how: str, arg: Any) -> Any:
        if how == "companyfacts":
            return _fetch(what, lambda: client.fetch_companyfacts(arg), parse=False)
        if how == "page":
            name, cik = arg
            return _fetch(what, lambda: client.fetch_submissions_page(name, cik), parse=False)
        path, accession = arg  # a filing document names its company (or its accession's filings row does)
        return _fetch(what, lambda: client.fetch_archive(path, kind=how, accession=accession), parse=False)

    out = Fetched()
    _parallel([(lambda w=w, h=h, a=a: one(w, h, a), ciks) for w, h, a, ciks in jobs], out)
    return out


@task(name="what-is-held", cache_policy=NO_CACHE)
def held_task(db: str, ciks: list[int], accessions: list[str], documents: list[str]
              ) -> tuple[set[tuple[int, str]], set[str], set[str]]:
    """Submissions pages, Forms 3/4/5 and filing documents (of ``documents``) the warehouse already holds."""
    from warehouse.load.filing_documents import held_documents
    from warehouse.load.ownership import loaded_accessions
    from warehouse.load.tracking import held_pages
    from warehouse.store.db import connect

    with connect(db) as con:
        return held_pages(con, ciks), loaded_accessions(con, accessions), held_documents(con, documents)


@task(name="load-batch", cache_policy=NO_CACHE)
def load_batch_task(db: str, items: list, flow_run_id: str | None, load_id: str,
                    requests: list[RequestLog]) -> BatchReport:
    """One batch through the ingest path, then the requests made so far recorded under the run."""
    from warehouse.load.ingest import load_documents
    from warehouse.load.tracking import record_requests
    from warehouse.store.db import connect, raw_dir_for

    with connect(db) as con:
        report = (load_documents(con, items, raw_dir=raw_dir_for(db), command="nightly", load_id=load_id,
                                 flow_run_id=flow_run_id, workers=1) if items else BatchReport(load_id=load_id))
        record_requests(con, load_id, requests)
    return report


@task(name="start-run", cache_policy=NO_CACHE)
def start_task(db: str, flow_run_id: str | None) -> str:
    from warehouse.load.batch import start_run
    from warehouse.store.db import connect

    with connect(db) as con:
        return start_run(con, command="nightly", flow_run_id=flow_run_id)


@task(name="finish-run", cache_policy=NO_CACHE)
def finish_task(db: str, run: BatchReport, not_fetched: int, error: str | None, requests: list[RequestLog],
                advance: dict[date, list[int]]) -> tuple[str, dict]:
    """Record the last requests, advance the watermarks of the companies made whole, give the run
    its final status; returns the status and the run's summary."""
    from warehouse.load.batch import finish_run
    from warehouse.load.tracking import advance as advance_watermark
    from warehouse.load.tracking import record_requests, run_summary
    from warehouse.store.db import connect

    with connect(db) as con:
        record_requests(con, run.load_id, requests)
        if error is None:
            for day, ciks in sorted(advance.items()):
                advance_watermark(con, ciks, day, run.load_id)
        status = finish_run(con, run, not_fetched=not_fetched, error=error)
        return status, run_summary(con, run.load_id)


# ------------------------------------------------------------------------------ the flow


def new_york_today() -> date:
    return datetime.now(NEW_YORK).date()


def _plan(tracked: list[Tracked], read: IndexRead) -> list[Company]:
    """Companies with work tonight, in CIK order."""
    entries = [(day, e) for day, es in sorted(read.entries.items()) for e in es]
    work = []
    for t in tracked:
        if t.synced_through is None:
            work.append(Company(t.cik, True, text_since=t.text_since))
            continue
        mine = [e for day, e in entries if day > t.synced_through and e.cik == t.cik]
        if mine:
            work.append(Company(t.cik, False, tuple(mine), t.text_since))
    return work


@flow(name="edgar-nightly", log_prints=False)
def nightly_flow(db: str, replay: str | None = None, cache_dir: str | None = None, today: date | None = None,
                 batch_size: int = 50, insider_history_days: int = 90,
                 lock_wait: float | None = None, work_pool: str | None = None) -> dict | Completed:
    """The incremental nightly over the tracked universe (see the module docstring).

    ``today`` (New York) defaults to now: the run reads the indexes through the day before.
    Companies are fetched and committed ``batch_size`` at a time, all under one load run; the run
    holds the writer lock and publishes its build copy at the end (readers never wait).
    ``work_pool`` (DuckLake): each batch is loaded by the pool's workers while the next is fetched
    (``flows.pool.PoolLoad``); watermarks advance once every batch is in."""
    from warehouse.store.db import publishing

    log = get_run_logger()
    deployment = pool_deployment(work_pool)
    today = today or new_york_today()
    through = today - timedelta(days=1)
    client = make_client(replay, cache_dir)
    sent: list[RequestLog] = []
    sent_lock = threading.Lock()

    def on_request(r: RequestLog) -> None:
        with sent_lock:
            sent.append(r)

    def drain() -> list[RequestLog]:
        with sent_lock:
            out, sent[:] = list(sent), []
        return out

    client.on_request = on_request
    flow_run_id = str(flow_run.get_id() or "") or None
    published = db
    with publishing(published, command=f"nightly (flow run {flow_run_id or '-'})", wait=lock_wait,
                    on_wait=lambda h: log.warning("waiting for the writer lock of %s, held by %s", published,
                                                  h.describe() if h else "another process")) as build, \
            closing(client):
        db = str(build)
        run = BatchReport(load_id=start_task(db, flow_run_id))
        pool = None if deployment is None else PoolLoad(deployment, run.load_id, command="nightly", batch_size=0,
                                                         on_event=log.info)
        failures: list[FetchFailure] = []
        advance: dict[date, list[int]] = {}
        read = IndexRead()
        days: list[date] = []
        error: str | None = None
        try:
            tracked = plan_task(db)
            synced = [t.synced_through for t in tracked if t.synced_through is not None]
            days = business_days(min(synced), through) if synced else []
            read = read_indexes_task(client, days) if days else IndexRead()
            failures += read.failed
            confirmed = read.confirmed_through(days, None)
            work = _plan(tracked, read)
            busy = {c.cik for c in work}
            asked: set[str] = set()
            failed_ciks: set[int] = set()
            step = max(batch_size, 1)
            pooled: list[Fetched] = []
            for k in range(0, len(work), step):
                batch = work[k:k + step]
                got, bad = _run_batch(client, db, batch, today, insider_history_days, asked)
                failures += [f for f, _ in got.failures]
                failed_ciks |= bad
                if pool is not None:
                    pool.submit(got.items, f"{k // step + 1}/{math.ceil(len(work) / step)}")
                    pooled.append(got)
                    continue
                report = load_batch_task(db, got.items, flow_run_id, run.load_id, drain())
                failed_ciks |= _rejected_owners(client, got, report)
                log.info("batch %d: %s", k // step + 1, report.summary())
                run.add(report)
            if pool is not None:
                run = pool.finish()
                for got in pooled:
                    failed_ciks |= _rejected_owners(client, got, run)
            for t in tracked:
                if t.cik in failed_ciks:
                    continue
                if t.synced_through is None:  # fetched whole tonight: everything public by now is held
                    advance.setdefault(through, []).append(t.cik)
                elif confirmed is not None and (t.cik in busy or confirmed > t.synced_through):
                    advance.setdefault(confirmed, []).append(t.cik)
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"
            if pool is not None:
                run, error = pool.stopped(exc)
            finish_task(db, run, len(failures), error, drain(), {})
            raise
        status, summary = finish_task(db, run, len(failures), None, drain(), advance)
        result = {"load_id": run.load_id, "status": status, "loaded": run.loaded, "unchanged": run.unchanged,
                  "rejected": run.rejected, "not_fetched": [(f.what, f.reason) for f in failures],
                  "row_counts": dict(run.row_counts), "index_days": days, "missing_days": read.missing,
                  "companies": sorted(busy), "requests": summary.get("requests", 0),
                  "seconds": summary.get("seconds")}
        for fail in failures:
            log.info("not fetched: %s (%s)", fail.what, fail.reason)
        log.info(summary_line(result))
        _artifact(result, summary)
    if status == "failed":
        failed = RefreshFailed(f"nightly {run.load_id[:8]} failed: none of the {len(failures)} documents asked "
                               f"for could be fetched (first: {failures[0].what}: {failures[0].reason})")
        failed.result = result
        raise failed
    if status == "partial":
        return Completed(message=f"partial: {len(run.rejected)} rejected, {len(failures)} not fetched", data=result)
    return result


def _run_batch(client: SecClient, db: str, batch: list[Company], today: date, history_days: int,
               asked: set[str]) -> tuple[Fetched, set[int]]:
    """Fetch one batch: submissions first, then what they and the indexes say is missing."""
    from pipelines.ownership import ownership_archive_path
    from pipelines.submissions import ownership_filings, text_filings

    ciks = [c.cik for c in batch]
    got = fetch_submissions_task(client, ciks, len(ciks))
    subs = {it.record.cik: it.record for it in got.items
            if isinstance(it, Parsed) and getattr(it.record, "kind", None) == "submissions"}
    since = today - timedelta(days=history_days)
    owned: dict[str, tuple[str, set[int]]] = {}  # accession -> (archive path, ciks)
    for c in batch:
        if c.whole and c.cik in subs:
            for cik, acc, filed in ownership_filings(subs[c.cik]):
                if filed >= since:
                    owned.setdefault(acc, (ownership_archive_path(cik, acc), set()))[1].add(c.cik)
        for e in c.new:
            if e.form_type.upper() in OWNERSHIP_FORMS and e.accession:
                owned.setdefault(e.accession, (ownership_archive_path(e.cik, e.accession), set()))[1].add(c.cik)
    texts: dict[str, tuple[str, int]] = {}  # accession -> (primary document URL, cik)
    for c in batch:
        if c.text_since is not None and c.cik in subs:
            for acc, _filed, url in text_filings(subs[c.cik], c.text_since):
                texts.setdefault(acc, (url, c.cik))
    pages_held, held, texts_held = held_task(db, ciks, sorted(set(owned) - asked), sorted(set(texts) - asked))
    jobs: list[tuple[str, str, Any, set[int]]] = []
    for c in batch:
        record = subs.get(c.cik)
        if _wants_companyfacts(c, record):
            jobs.append((f"companyfacts {c.cik}", "companyfacts", c.cik, {c.cik}))
        for name in record.page_names if record is not None else []:
            if (c.cik, name) not in pages_held:
                jobs.append((f"submissions page {name}", "page", (name, c.cik), {c.cik}))
    for acc, (path, owners) in sorted(owned.items()):
        if acc not in held and acc not in asked:
            asked.add(acc)
            jobs.append((f"ownership {acc}", "ownership", (path, acc), owners))
    for acc, (url, cik) in sorted(texts.items()):
        if acc not in texts_held and acc not in asked:
            asked.add(acc)
            jobs.append((f"filing document {acc}", "filing_document", (url, acc), {cik}))
    if jobs:
        got.extend(fetch_documents_task(client, jobs, len(jobs)))
    bad = {cik for _, owners in got.failures for cik in owners}
    return got, bad


def _rejected_owners(client: SecClient, got: Fetched, report: BatchReport) -> set[int]:
    """The companies served by a document of ``got`` that ``report`` rejected (their watermarks stay);
    a rejected body leaves the HTTP cache."""
    rejected = {uri for uri, _ in report.rejected}
    owners: set[int] = set()
    for item, ciks in zip(got.items, got.owners, strict=True):
        uri = item.uri if isinstance(item, Document) else item.doc.uri
        if uri in rejected:
            owners |= ciks
            if uri.startswith("https://"):
                client.evict(uri)  # a rejected body must not stay cached
    return owners


def _wants_companyfacts(c: Company, record: Any) -> bool:
    """Companyfacts change only with XBRL filings: whole, when the submissions list any; else when
    a new filing is XBRL, or is not in the submissions yet and is not an insider form."""
    if record is None:
        return c.whole or any(e.form_type.upper() not in OWNERSHIP_FORMS for e in c.new)
    table = record.filings
    xbrl = dict(zip(table.column("accession").to_pylist(), table.column("is_xbrl").to_pylist(), strict=True))
    if c.whole:
        return any(xbrl.values())
    return any(xbrl[e.accession] if e.accession in xbrl else e.form_type.upper() not in OWNERSHIP_FORMS
               for e in c.new)


def summary_line(result: dict) -> str:
    rows = ", ".join(f"{k}={v}" for k, v in sorted(result["row_counts"].items()) if v) or "no new rows"
    return (f"nightly {result['load_id'][:8]} {result['status']}: {result['requests']} requests "
            f"({len(result['index_days'])} daily indexes, {len(result['missing_days'])} missing), "
            f"{len(result['companies'])} compan{'y' if len(result['companies']) == 1 else 'ies'} fetched; "
            f"{result['loaded']} documents loaded, "
            f"{result['unchanged']} unchanged, {len(result['rejected'])} rejected, "
            f"{len(result['not_fetched'])} not fetched; {rows}; {result['seconds']} s")


def _artifact(result: dict, summary: dict) -> None:
    """The run's cost and yield as a markdown artifact (key edgar-nightly) in the Prefect UI."""
    lines = ["| measure | value |", "|---|---|",
             f"| status | {result['status']} |",
             f"| requests to SEC | {result['requests']} ({summary.get('bytes', 0):,} bytes) |",
             f"| daily indexes read | {len(result['index_days']) - len(result['missing_days'])} "
             f"(missing: {', '.join(map(str, result['missing_days'])) or 'none'}) |",
             f"| companies fetched | {len(result['companies'])} |",
             f"| documents loaded | {result['loaded']} |",
             f"| documents unchanged | {result['unchanged']} |",
             f"| documents rejected | {len(result['rejected'])} |",
             f"| documents not fetched | {len(result['not_fetched'])} |",
             f"| duration | {result['seconds']} s |"]
    rows = ["", "| table | rows added |", "|---|---|"] + [
        f"| {k} | {v:,} |" for k, v in sorted(result["row_counts"].items()) if v] or []
    problems = [f"- rejected: {uri}: {reason}" for uri, reason in result["rejected"]] + [
        f"- not fetched: {what}: {reason}" for what, reason in result["not_fetched"]]
    markdown = "\n".join([f"# Nightly {result['load_id'][:8]}", "", *lines, *rows,
                          *(["", "## Problems", *problems] if problems else [])])
    create_markdown_artifact(markdown=markdown, key="edgar-nightly",
                             description=f"EDGAR nightly {result['load_id']}")


def run_nightly(db: str, **kwargs: Any) -> dict:
    """Run the nightly flow (ephemeral Prefect when no server is configured)."""
    from flows.refresh import http_cache_for

    if not kwargs.get("replay") and not kwargs.get("cache_dir"):
        kwargs["cache_dir"] = str(http_cache_for(db))
    return nightly_flow(db=str(db), **kwargs)

