"""pipelines.errors: every error survives a process boundary (pickle, a real process pool, parse_many)."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

import flows.pool  # noqa: F401  (the flows layer's errors too)
import pipelines.sec_client  # noqa: F401  (registers any error subclasses it defines)
import warehouse.api  # noqa: F401  (every layer's errors, whatever else this run imported)
from helpers import COMPANYFACTS_FILES, read_body
from pipelines import errors, parse
from pipelines.documents import Document
from pipelines.errors import EdgarError, RejectedDocument
from pipelines.parse import parse_many
from warehouse.load.batch import BatchReport


def _all_error_classes() -> list[type[EdgarError]]:
    found, todo = [], [EdgarError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(set(found), key=lambda c: c.__qualname__)


# Errors whose constructor takes more than a message: the arguments of a realistic instance.
OWN_SIGNATURES: dict[str, tuple] = {
    "UnknownNameError": ("company", "Aple", ["Apple Inc."], " (try `edgar-warehouse companies`)"),
    "ShardsFailed": ("1 of 2 shards did not complete: shard 2/2 crashed", BatchReport(load_id="0" * 32, loaded=3),
                     "shard 2/2 (flow run shard 2/2 of 00000000) crashed: Crashed"),
}


def _instance(cls: type[EdgarError]) -> EdgarError:
    if cls.__name__ in OWN_SIGNATURES:
        return cls(*OWN_SIGNATURES[cls.__name__])
    if issubclass(cls, RejectedDocument):
        return cls("https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json", "an HTML page")
    return cls("something went wrong")


@pytest.mark.parametrize("cls", _all_error_classes(), ids=lambda c: c.__name__)
def test_every_error_pickles_round_trip(cls):
    exc = _instance(cls)
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is cls
    assert str(back) == str(exc) and back.args == exc.args
    assert vars(back) == vars(exc)


def test_rejected_document_keeps_document_and_reason():
    back = pickle.loads(pickle.dumps(RejectedDocument("doc.json", "truncated JSON")))
    assert (back.document, back.reason, str(back)) == ("doc.json", "truncated JSON", "doc.json: truncated JSON")


def test_subclass_with_its_own_signature_pickles():
    back = pickle.loads(pickle.dumps(_Custom("doc", 7, hint="x")))
    assert (back.document, back.reason, back.count, back.hint) == ("doc", "7 bad (x)", 7, "x")


class _Custom(RejectedDocument):
    def __init__(self, document: str, count: int, *, hint: str):
        self.count, self.hint = count, hint
        super().__init__(document, f"{count} bad ({hint})")


def _raise(kind: str) -> None:
    if kind == "rejected":
        raise RejectedDocument("worker-doc", "rejected in a worker")
    raise errors.SecThrottled("throttled in a worker")


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_errors_raised_in_a_worker_process_come_back(method):
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context(method)) as pool:
        with pytest.raises(RejectedDocument) as exc:
            pool.submit(_raise, "rejected").result(timeout=120)
        assert (exc.value.document, exc.value.reason) == ("worker-doc", "rejected in a worker")
        with pytest.raises(errors.SecThrottled, match="throttled in a worker"):
            pool.submit(_raise, "throttled").result(timeout=120)


def test_parse_many_brings_back_a_rejection_among_big_good_documents(monkeypatch):
    """Issue 8 bug 2: an HTML page among >= 4 MB of companyfacts broke the pool (BrokenProcessPool)."""
    monkeypatch.setattr(parse, "PARALLEL_MIN_BYTES", 4_000_000)  # the pool, for these ~8 MB
    good = [Document(uri=str(p), origin="file", body=read_body(p)) for p in COMPANYFACTS_FILES[:2]]
    html = Document(uri="throttle.json", origin="file",
                    body=b"<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title>")
    assert sum(d.size for d in good) >= 4_000_000  # big enough for parse_many to use worker processes
    results = parse_many([good[0], html, good[1]], workers=2)
    assert [d.uri for d, _ in results] == [good[0].uri, "throttle.json", good[1].uri]
    bad = results[1][1]
    assert isinstance(bad, RejectedDocument) and bad.document == "throttle.json" and "HTML" in bad.reason
    assert all(r.fact_count > 1000 for _, r in (results[0], results[2]))
