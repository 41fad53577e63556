"""The refresh flow: fetch companyfacts, submissions (all pages) and new Forms 3/4/5, load them in one run."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run

from pipelines.documents import Document
from pipelines.errors import NotFound, RejectedDocument, SecThrottled, TransientError
from pipelines.parse import parse_document
from pipelines.sec_client import SecClient
from warehouse.load import BatchReport, Parsed, Rejected


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


def make_client(replay: str | None = None, cache_dir: str | None = None, rate: float | None = None) -> SecClient:
    """The one SEC client of a run: live (SEC_USER_AGENT required) or replaying recorded responses."""
    kwargs: dict[str, Any] = {}
    if rate is not None:
        kwargs["rate"] = rate
    if replay:
        return SecClient.replay(replay, **kwargs)
    if cache_dir:
        kwargs["cache_dir"] = cache_dir
    return SecClient(**kwargs)


def fetch_parse(what: str, fetch: Callable[[], Document]) -> Parsed | Rejected | FetchFailure:
    """Fetch one document and parse it; a bad body becomes Rejected, a missing one a FetchFailure.
    SEC throttling is not swallowed: it stops the run (never hammer a 10-minute block)."""
    try:
        doc = fetch()
    except SecThrottled:
        raise
    except (NotFound, TransientError) as exc:
        return FetchFailure(what, str(exc))
    try:
        _kind, record = parse_document(doc)
    except RejectedDocument as exc:
        return Rejected(doc, exc)
    return Parsed(doc, record)


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
        for t in tickers:
            cik = ticker_to_cik(got.record, t)
            if cik is None:
                plan.unknown_tickers.append(t)
            else:
                plan.tickers[t.upper()] = cik
                if cik not in plan.ciks:
                    plan.ciks.append(cik)
    return plan, extra


@task(name="load-batch", cache_policy=NO_CACHE)
def load_task(db: str, items: list[Parsed | Rejected], flow_run_id: str | None) -> BatchReport:
    from warehouse.db import connect, raw_dir_for
    from warehouse.load import load_batch

    con = connect(db)
    try:
        return load_batch(con, items, raw_dir=raw_dir_for(db), command="refresh", flow_run_id=flow_run_id)
    finally:
        con.close()


@task(name="ownership-accessions-to-fetch", cache_policy=NO_CACHE)
def ownership_to_fetch(db: str, submissions: list[Parsed], since: date | None,
                       until: date | None = None) -> list[tuple[int, str]]:
    """(cik, accession) of Forms 3/4/5 listed in the fetched submissions, filed within
    [since, until], and not loaded yet."""
    from pipelines.submissions import ownership_filings
    from warehouse.db import connect
    from warehouse.load_ownership import loaded_accessions

    wanted: dict[str, int] = {}
    for item in submissions:
        for cik, accession, filing_date in ownership_filings(item.record):
            if (since is None or filing_date >= since) and (until is None or filing_date <= until):
                wanted.setdefault(accession, cik)
    if not wanted:
        return []
    con = connect(db)
    try:
        have = loaded_accessions(con, list(wanted))
    finally:
        con.close()
    return [(cik, acc) for acc, cik in sorted(wanted.items()) if acc not in have]


@flow(name="edgar-refresh", log_prints=False)
def refresh_flow(db: str, tickers: list[str] | None = None, ciks: list[int] | None = None,
                 replay: str | None = None, cache_dir: str | None = None,
                 insider_since: date | None = None, insider_until: date | None = None,
                 insiders: bool = True) -> dict:
    """Refresh the given companies: companyfacts, submissions with every page, and the Forms 3/4/5
    listed in their submissions (filed on/after ``insider_since``) that are not loaded yet.
    Everything fetched in the run is committed in ONE transaction (readers never see half a run)."""
    log = get_run_logger()
    client = make_client(replay, cache_dir)
    try:
        plan, items = resolve_targets(client, tickers or [], ciks or [])
        if plan.unknown_tickers:
            log.warning("unknown tickers (not in company_tickers.json): %s", ", ".join(plan.unknown_tickers))
        futures = []
        for cik in plan.ciks:
            futures.append(fetch_parse_task.submit(f"companyfacts {cik}", lambda c=cik: client.fetch_companyfacts(c)))
            futures.append(fetch_parse_task.submit(f"submissions {cik}", lambda c=cik: client.fetch_submissions(c)))
        results = [f.result() for f in futures]
        submissions = [r for r in results if isinstance(r, Parsed) and r.record.kind == "submissions"]
        pages = []
        for sub in submissions:
            for name in sub.record.page_names:
                pages.append(fetch_parse_task.submit(
                    f"submissions page {name}",
                    lambda n=name, c=sub.record.cik: client.fetch_submissions_page(n, c)))
        results += [f.result() for f in pages]
        if insiders and submissions:
            todo = ownership_to_fetch(db, submissions, insider_since, insider_until)
            owned = [fetch_parse_task.submit(
                f"ownership {acc}",
                lambda c=cik, a=acc: client.fetch_archive(_ownership_path(c, a), kind="ownership", accession=a))
                for cik, acc in todo]
            results += [f.result() for f in owned]
        items += results
        loadable = [r for r in items if isinstance(r, Parsed | Rejected)]
        failures = [r for r in items if isinstance(r, FetchFailure)]
        for fail in failures:
            log.warning("not fetched: %s (%s)", fail.what, fail.reason)
        report = load_task(db, loadable, str(flow_run.get_id() or "") or None)
        log.info(report.summary())
        return {"load_id": report.load_id, "status": report.status, "loaded": report.loaded,
                "unchanged": report.unchanged, "rejected": report.rejected,
                "not_fetched": [(f.what, f.reason) for f in failures],
                "row_counts": dict(report.row_counts), "ciks": plan.ciks,
                "unknown_tickers": plan.unknown_tickers}
    finally:
        client.close()


def _ownership_path(cik: int, accession: str) -> str:
    from pipelines.ownership import ownership_archive_path

    return ownership_archive_path(cik, accession)


def run_refresh(db: str | Path, **kwargs: Any) -> dict:
    """Run the flow (Prefect runs it ephemerally when no server is configured)."""
    return refresh_flow(db=str(db), **kwargs)
