"""The table of loadable document kinds (kind -> parser) and the parse stage of ingest.

``KINDS`` is the ONE place that says which kinds of SEC payload can be loaded and which parser turns
each into a record (``pipelines.detect`` tells the kind from the content). ``warehouse.load.kinds``
says, once, which record type each kind's parser returns, which loader stores it and in which order;
a test checks the two tables against each other.

``parse_many`` is a process boundary and therefore an error boundary: whatever a parser raises
for a document (not only RejectedDocument: TypeError, MemoryError, OverflowError...) comes back
as a RejectedDocument naming that document, and a worker process that dies loses at most the
documents it had in flight, which are retried one per fresh process and rejected if they kill it
again.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import count
from pathlib import PurePosixPath
from typing import Any

from pipelines.detect import HTML_PAGE, WEB_PAGE_KINDS, detect_kind, is_html_page
from pipelines.documents import Document
from pipelines.errors import RejectedDocument

_PAGE_NAME = re.compile(r"CIK(\d{10})-submissions-\d{3}\.json", re.IGNORECASE)


def _file_name(doc: Document) -> str:
    name = PurePosixPath(doc.uri.split("?")[0]).name.rpartition(":")[2]  # a zip member: "x.zip:CIK...json"
    return name[:-3] if name.endswith(".gz") else name


def _companyfacts(doc: Document) -> Any:
    from pipelines.companyfacts import parse_companyfacts

    return parse_companyfacts(doc.body, document=doc.uri, expected_cik=doc.expected_cik)


def _submissions(doc: Document) -> Any:
    from pipelines.submissions import parse_submissions

    return parse_submissions(doc.body, document=doc.uri, expected_cik=doc.expected_cik)


def _submissions_page(doc: Document) -> Any:
    from pipelines.submissions import parse_submissions_page

    name = _file_name(doc)
    m = _PAGE_NAME.search(name)
    cik = doc.expected_cik or (int(m.group(1)) if m else None)
    if cik is None:
        raise RejectedDocument(doc.uri, "a submissions page file must be named CIK##########-submissions-NNN.json")
    return parse_submissions_page(doc.body, document=doc.uri, cik=cik, page_name=name)


def _company_tickers(doc: Document) -> Any:
    from pipelines.tickers import parse_company_tickers

    return parse_company_tickers(doc.body, document=doc.uri)


def _company_tickers_exchange(doc: Document) -> Any:
    from pipelines.tickers import parse_company_tickers_exchange

    return parse_company_tickers_exchange(doc.body, document=doc.uri)


def _ownership(doc: Document) -> Any:
    from pipelines.ownership import parse_ownership

    # The parser takes the accession from the SEC header, else from the file name in
    # ``document`` (and records which); ``doc.accession`` is what the fetcher asked for.
    return parse_ownership(doc.body, document=doc.uri, accession=doc.accession)


def _filing_document(doc: Document) -> Any:
    """A 10-K/10-Q/8-K document with its items; an inline-XBRL one also with its facts (``inline_xbrl``)."""
    from dataclasses import replace

    from pipelines.filing_documents import parse_filing_document

    record = parse_filing_document(doc.body, document=doc.uri, accession=doc.accession,
                                   expected_cik=doc.expected_cik)
    if record.envelope == "inline_xbrl" and record.accession is not None:
        from pipelines.inline_xbrl import parse_inline_xbrl
        from pipelines.statements import find_statements

        facts = parse_inline_xbrl(doc.body, document=doc.uri, accession=record.accession)
        # the statements as presented, then the tables dropped: the record goes back to the writer pickled
        facts = replace(facts, statements=find_statements(facts), tables=[], element_facts={})
        record = replace(record, inline_xbrl=facts)
    return record


def _fsds_filing(doc: Document) -> Any:
    from pipelines.fsds import parse_fsds_filing

    return parse_fsds_filing(doc.body, document=doc.uri)


@dataclass(frozen=True)
class DocumentKind:
    """One loadable kind of SEC payload: its name (``source_documents.kind``, one of
    ``pipelines.detect.KINDS``, told by its ``DETECTIONS`` row) and its parser (its record type and loader: ``warehouse.load.kinds``)."""

    name: str
    parse: Callable[[Document], Any]


KINDS: dict[str, DocumentKind] = {k.name: k for k in (
    DocumentKind("company_tickers", _company_tickers),
    DocumentKind("company_tickers_exchange", _company_tickers_exchange),
    DocumentKind("submissions", _submissions),
    DocumentKind("submissions_page", _submissions_page),
    DocumentKind("companyfacts", _companyfacts),
    DocumentKind("ownership", _ownership),
    DocumentKind("filing_document", _filing_document),
    DocumentKind("fsds_filing", _fsds_filing),
)}


def document_kind(doc: Document) -> str:
    return doc.kind or detect_kind(doc.body, document=doc.uri)


def parse_document(doc: Document) -> tuple[str, Any]:
    """Return (kind, record) for ``doc``; raise RejectedDocument naming it when it cannot be parsed."""
    kind = document_kind(doc)
    spec = KINDS.get(kind)
    if spec is None:
        raise RejectedDocument(doc.uri, f"documents of kind {kind!r} are not loadable")
    if kind not in WEB_PAGE_KINDS and is_html_page(doc.body):  # asked for by kind, served as a web page
        raise RejectedDocument(doc.uri, HTML_PAGE)
    return kind, spec.parse(doc)


@dataclass(frozen=True)
class ParseResult:
    """What the parse stage says about one document: its kind (when it could be told) and either
    the record or the RejectedDocument naming it."""

    doc: Document
    kind: str | None
    record: Any = None
    error: RejectedDocument | None = None

    def pair(self) -> tuple[Document, Any]:
        """``(doc, record or RejectedDocument)``: a result also unpacks and indexes as this pair."""
        return self.doc, self.error if self.error is not None else self.record

    def __iter__(self):
        return iter(self.pair())

    def __getitem__(self, i: int) -> Any:
        return self.pair()[i]


def _outcome(doc: Document) -> tuple[str | None, Any, str | None]:
    """(kind, record, None) or (kind or None, None, reason): plain data that always pickles."""
    kind = doc.kind
    try:
        kind = document_kind(doc)
        return kind, parse_document(doc)[1], None
    except RejectedDocument as exc:
        return kind, None, exc.reason
    except Exception as exc:  # noqa: BLE001 - every parser failure is this document's rejection
        return kind, None, f"the parser failed on this document ({type(exc).__name__}: {exc})"[:2000]


def _in_worker(doc: Document) -> tuple[str | None, Any, str | None]:
    try:
        return _outcome(doc)
    except BaseException as exc:  # noqa: BLE001 - e.g. a MemoryError raised while building the reason
        return doc.kind, None, f"the parser failed on this document ({type(exc).__name__})"


def _result(doc: Document, outcome: tuple[str | None, Any, str | None]) -> ParseResult:
    kind, record, reason = outcome
    if reason is not None:
        return ParseResult(doc, kind, error=RejectedDocument(doc.uri, reason))
    return ParseResult(doc, kind, record=record)


# Below this many bytes in total the documents are parsed in this process: a forked worker costs more
# CPU than it saves. Measured (tests/bench/bench_parse_companyfacts.py --workers 2, the 8 sample
# companyfacts, 23.7 MB): 0.24 s CPU in this process, 0.36-0.6 s CPU for two workers. Documents are
# not the cost (handing them over by index instead of pickling saved ~0.02 s), nor records (Arrow
# IPC bytes instead of pickled tables: no gain): the workers' own parse is 1.3-1.5x slower (a fresh
# heap: copy-on-write and first-touch page faults, cold caches; and two cores shared).
PARALLEL_MIN_BYTES = 64_000_000
DIED = "the parser process died while parsing this document (killed, or out of memory)"

# The documents of the parse_many calls under way, by call: forked workers inherit them and are
# handed an index, never a pickled copy of a body (documents go up to 512 MiB).
_CALLS: dict[int, Sequence[Document]] = {}
_CALL_IDS = count()


def pool_size(docs: Sequence[Document], workers: int | None = None, *, isolate: bool = False) -> int:
    """How many processes ``parse_many`` uses for ``docs``: 1 means this process, no pool
    (``isolate``: a pool whatever the size, so that a document that kills its process is isolated)."""
    workers = workers or os.cpu_count() or 1
    if isolate and docs:
        return max(1, min(workers, len(docs)))
    if workers <= 1 or len(docs) <= 1 or sum(d.size for d in docs) < PARALLEL_MIN_BYTES:
        return 1
    return min(workers, len(docs))


def _die_with_parent(parent: int) -> None:
    """Worker initializer: the worker ends when the process that forked it does (Linux
    PR_SET_PDEATHSIG), so a killed writer leaves no parser behind holding its pipes (a caller
    waiting for their end would wait for the worker) and its inherited writer lock."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the worker ends when it next reads its queue
        pass
    if os.getppid() != parent:  # the parent died before the call above
        os._exit(1)


def _pool(size: int) -> Any:
    """A pool of ``size`` forked parser processes that end with this process."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    return ProcessPoolExecutor(max_workers=size, mp_context=get_context("fork"), initializer=_die_with_parent,
                               initargs=(os.getpid(),))


def _in_worker_at(call: int, n: int) -> tuple[str | None, Any, str | None]:
    return _in_worker(_CALLS[call][n])


def parse_many(docs: Sequence[Document], *, workers: int | None = None, isolate: bool = False) -> list[ParseResult]:
    """Parse documents, in a process per core when there are several big ones (always in worker
    processes when ``isolate``); results in input order. Never raises for a document: a bad one
    gives a ParseResult with ``error`` set.

    Workers are forked (Linux's default): they inherit the documents, run only this pure parser and
    return its records. forkserver/spawn were measured and rejected: each worker re-imports the
    caller's __main__ (the whole CLI), which made the bench 30% slower and breaks callers without a
    main file.
    """
    docs = list(docs)
    size = pool_size(docs, workers, isolate=isolate)
    if size == 1 and not isolate:
        return [_result(d, _outcome(d)) for d in docs]
    from concurrent.futures.process import BrokenProcessPool

    call = next(_CALL_IDS)
    _CALLS[call] = docs
    try:
        outcomes: dict[int, tuple] = {}
        lost: list[int] = []
        with _pool(size) as pool:
            futures = [(n, pool.submit(_in_worker_at, call, n)) for n in range(len(docs))]
            for n, fut in futures:
                try:
                    outcomes[n] = fut.result()
                except BrokenProcessPool:
                    lost.append(n)
        # A dead worker breaks the pool: every document not finished by then is retried alone in a
        # fresh process, so one poisonous document cannot take the others with it.
        for n in lost:
            outcomes[n] = _alone(call, n)
    finally:
        del _CALLS[call]
    return [_result(d, outcomes[n]) for n, d in enumerate(docs)]


def _alone(call: int, n: int) -> tuple[str | None, Any, str | None]:
    from concurrent.futures.process import BrokenProcessPool

    try:
        with _pool(1) as pool:
            return pool.submit(_in_worker_at, call, n).result()
    except BrokenProcessPool:
        return _CALLS[call][n].kind, None, DIED


class ParseAhead:
    """One worker process that parses the next batch while the caller loads the previous one.

    ``submit(docs)`` hands a batch to the worker one document per task (it is forked once, at the
    first submit) and returns a function that waits for that batch's results, in input order. One
    document at a time, not the batch as one task: the worker then holds one document, its record
    and that record pickled, never the whole batch of each (bootstrap, 64 MB batches: its peak RSS
    545 -> 204 MB), and the writer unpickles one record at a time. The worker is an error boundary like ``parse_many``'s: a parser failure is that
    document's rejection; a worker that dies (killed, out of memory, a crash in native code) loses
    its batch, which is then parsed again by ``parse_many`` with every document in a pool (a
    document that kills its process again is rejected, naming it), and the next batch gets a
    fresh worker. Use as a context manager (``close`` stops the worker)."""

    def __init__(self) -> None:
        self._pool: Any = None

    def _worker(self) -> Any:
        if self._pool is None:
            self._pool = _pool(1)
        return self._pool

    def submit(self, docs: Sequence[Document]) -> Callable[[], list[ParseResult]]:
        from concurrent.futures.process import BrokenProcessPool

        docs = list(docs)
        if not docs:
            return list
        try:
            futures = [self._worker().submit(_in_worker, d) for d in docs]
        except BrokenProcessPool:  # the worker died after its last batch: start another
            self.close()
            futures = [self._worker().submit(_in_worker, d) for d in docs]

        def results() -> list[ParseResult]:
            try:
                outcomes = [future.result() for future in futures]
            except BrokenProcessPool:
                self.close()
                return parse_many(docs, workers=max(2, os.cpu_count() or 1), isolate=True)
            return [_result(d, o) for d, o in zip(docs, outcomes, strict=True)]
        return results

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> ParseAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
