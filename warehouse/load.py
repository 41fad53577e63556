"""Load a batch of parsed documents in ONE transaction: provenance, rejections, rows, run record."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from pipelines.documents import Document, utcnow
from pipelines.errors import RejectedDocument
from warehouse.db import fetch_all, fetch_value, transaction
from warehouse.rawstore import RawWriter


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
class LoadContext:
    """What a loader needs to stamp provenance on its rows."""

    load_id: str
    source_document_id: int
    doc: Document


Loader = Callable[[duckdb.DuckDBPyConnection, LoadContext, Any], dict[str, int]]


STATUS_RANK = ["succeeded", "partial", "failed"]


@dataclass
class BatchReport:
    load_id: str
    loaded: int = 0
    unchanged: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    row_counts: Counter = field(default_factory=Counter)
    status: str = "succeeded"

    def add(self, other: BatchReport) -> None:
        """Add another batch of the same run to these totals (the worst status wins)."""
        self.loaded += other.loaded
        self.unchanged += other.unchanged
        self.rejected += other.rejected
        self.row_counts.update(other.row_counts)
        self.status = max(self.status, other.status, key=STATUS_RANK.index)

    def summary(self) -> str:
        rows = ", ".join(f"{k}={v}" for k, v in sorted(self.row_counts.items()) if v) or "no new rows"
        return (f"load {self.load_id[:8]}: {self.loaded} loaded, {self.unchanged} unchanged, "
                f"{len(self.rejected)} rejected; {rows}")


def new_load_id() -> str:
    return str(uuid.uuid4())


def _loader_for(record: Any) -> Loader:
    """Registry: record type -> loader function (imported lazily to keep modules small)."""
    from warehouse.registry import LOADERS

    try:
        return LOADERS[type(record).__name__]
    except KeyError:
        raise RejectedDocument("?", f"no loader for {type(record).__name__} records") from None


def _record_document(con, doc: Document, *, kind: str, load_id: str, status: str,
                     reason: str | None, raw_path: str | None, cik: int | None,
                     accession: str | None) -> int:
    return fetch_value(
        con,
        "INSERT INTO source_documents (kind, uri, origin, sha256, bytes, fetched_at, http_status, etag,"
        " last_modified, cik, accession, status, reject_reason, raw_path, load_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING source_document_id",
        [kind, doc.uri, doc.origin, doc.sha256, doc.size, doc.fetched_at, doc.http_status, doc.etag,
         doc.last_modified, cik, accession, status, reason, raw_path, load_id],
    )


def _already_loaded(con, kind: str, sha256: str) -> bool:
    return bool(fetch_value(
        con, "SELECT count(*) FROM source_documents WHERE kind = ? AND sha256 = ? AND status = 'loaded'",
        [kind, sha256]))


def _record_kind(item: Parsed | Rejected) -> str:
    record_kind = getattr(item, "kind", None) or getattr(getattr(item, "record", None), "kind", None)
    return item.doc.kind or record_kind or "unknown"


# Within a batch: the registry first, then a company's main submissions file before its pages
# (a page needs its main file), then everything else in the order given (the sort is stable).
_KIND_ORDER = {"company_tickers": 0, "company_tickers_exchange": 0, "submissions": 1, "submissions_page": 2}


def _write_run(con, report: BatchReport, *, command: str, flow_run_id: str | None, started_at,
               error: str | None = None) -> None:
    previous = fetch_all(con, "SELECT status, row_counts, error FROM load_runs WHERE load_id = ?", [report.load_id])
    if previous:
        # A run of several batches: add this batch to the run's totals; the worst status wins.
        old_status, old_counts, old_error = previous[0]
        totals = Counter(json.loads(old_counts) if old_counts else {})
        totals.update(report.row_counts)
        status = max(old_status, report.status, key=STATUS_RANK.index)
        con.execute(
            "UPDATE load_runs SET finished_at = ?, status = ?, documents_loaded = documents_loaded + ?,"
            " documents_unchanged = documents_unchanged + ?, documents_rejected = documents_rejected + ?,"
            " row_counts = ?, error = ? WHERE load_id = ?",
            [utcnow(), status, report.loaded, report.unchanged, len(report.rejected),
             json.dumps(dict(sorted(totals.items()))), error or old_error, report.load_id])
    else:
        counts = json.dumps(dict(sorted(report.row_counts.items())))
        con.execute(
            "INSERT INTO load_runs (load_id, flow_run_id, command, started_at, finished_at, status,"
            " documents_loaded, documents_unchanged, documents_rejected, row_counts, error)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [report.load_id, flow_run_id, command, started_at, utcnow(), report.status, report.loaded,
             report.unchanged, len(report.rejected), counts, error])


def load_batch(con: duckdb.DuckDBPyConnection, items: Sequence[Parsed | Rejected], *, raw_dir: Path,
               command: str = "load", load_id: str | None = None, flow_run_id: str | None = None,
               derive: bool = True) -> BatchReport:
    """Commit every good document of ``items`` and record every bad one, all in one transaction.

    A loader that finds a document bad (RejectedDocument) rolls the batch back; the batch is then
    retried with that document recorded as rejected, so nothing else is lost. Any other error
    rolls back everything and is recorded as a failed run: the warehouse is left as it was.
    """
    load_id = load_id or new_load_id()
    started_at = utcnow()
    pending = sorted(items, key=lambda it: _KIND_ORDER.get(_record_kind(it), len(_KIND_ORDER)))
    for _attempt in range(len(pending) + 1):
        report = BatchReport(load_id=load_id)
        try:
            with transaction(con):
                _load_items(con, pending, report, raw_dir)
                if derive and report.row_counts.get("facts"):
                    _derive(con, report)
                report.status = "partial" if report.rejected else "succeeded"
                _write_run(con, report, command=command, flow_run_id=flow_run_id, started_at=started_at)
            return report
        except _LoaderRejected as bad:
            pending = [Rejected(it.doc, bad.error, _record_kind(it)) if it is bad.item else it for it in pending]
        except BaseException as exc:
            failed = BatchReport(load_id=load_id, status="failed")
            with transaction(con):
                _write_run(con, failed, command=command, flow_run_id=flow_run_id, started_at=started_at,
                           error=f"{type(exc).__name__}: {exc}")
            raise
    raise AssertionError("unreachable: every retry rejects one more document")


def _derive(con: duckdb.DuckDBPyConnection, report: BatchReport) -> None:
    from warehouse.checks import run_checks
    from warehouse.metrics_refresh import refresh_metrics

    counts = refresh_metrics(con, report.load_id)
    report.row_counts.update({k: counts[k] for k in ("derived_metrics", "metric_lineage")})
    failing = run_checks(con, report.load_id)
    report.row_counts["check_results"] += len(failing)


class _LoaderRejected(Exception):
    def __init__(self, item: Parsed, error: RejectedDocument):
        self.item, self.error = item, error


def _load_items(con, items: Sequence[Parsed | Rejected], report: BatchReport, raw_dir: Path) -> None:
    # Raw payloads are compressed and written in a background thread while DuckDB loads; every
    # write has finished (or raised) before the batch commits.
    with RawWriter(raw_dir) as raw:
        _load_each(con, items, report, raw)


def _load_each(con, items: Sequence[Parsed | Rejected], report: BatchReport, raw: RawWriter) -> None:
    seen: set[tuple[str, str]] = set()
    for item in items:
        kind = _record_kind(item)
        doc = item.doc
        cik = getattr(getattr(item, "record", None), "cik", None) or doc.expected_cik
        accession = getattr(getattr(item, "record", None), "accession", None) or doc.accession
        if isinstance(item, Rejected):
            raw_path = raw.store(doc.body, doc.sha256) if doc.body else None
            _record_document(con, doc, kind=kind, load_id=report.load_id, status="rejected",
                             reason=item.error.reason, raw_path=raw_path, cik=cik, accession=accession)
            report.rejected.append((doc.uri, item.error.reason))
            continue
        key = (kind, doc.sha256)
        if key in seen or _already_loaded(con, kind, doc.sha256):
            report.unchanged += 1
            continue
        seen.add(key)
        raw_path = raw.store(doc.body, doc.sha256)
        doc_id = _record_document(con, doc, kind=kind, load_id=report.load_id, status="loaded", reason=None,
                                  raw_path=raw_path, cik=cik, accession=accession)
        try:
            loader = _loader_for(item.record)
            counts = loader(con, LoadContext(report.load_id, doc_id, doc), item.record)
        except RejectedDocument as exc:
            raise _LoaderRejected(item, RejectedDocument(doc.uri, exc.reason)) from exc
        report.loaded += 1
        report.row_counts.update(counts)
