"""pipelines.parse.parse_many's worker pool: when it is used, and how documents reach the workers."""

from __future__ import annotations

import os
import pickle

import pytest

from helpers import COMPANYFACTS_DIR, read_body
from pipelines import parse as parse_mod
from pipelines.documents import Document
from pipelines.parse import DocumentKind, parse_many, pool_size

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
NVDA = COMPANYFACTS_DIR / "CIK0001045810.json.gz"


class _Unpicklable(Document):
    """A document that refuses to be pickled: a worker can only get it by inheriting it (fork)."""

    def __reduce_ex__(self, protocol):
        raise TypeError(f"{self.uri} was pickled")


def _docs(cls=Document) -> list[Document]:
    return [cls(uri=str(p), origin="file", body=read_body(p), kind="companyfacts") for p in (APPLE, NVDA)]


def _record_pid(monkeypatch):
    """The companyfacts parser, also saying which process ran it."""
    real = parse_mod.KINDS["companyfacts"]
    monkeypatch.setitem(parse_mod.KINDS, "companyfacts",
                        DocumentKind("companyfacts", lambda doc: (os.getpid(), real.parse(doc))))


def test_a_small_batch_is_parsed_in_this_process(monkeypatch):
    """Two workers on the 8 sample files cost 1.5-2x the CPU of this process: below
    PARALLEL_MIN_BYTES no pool is started, whatever ``workers`` says."""
    _record_pid(monkeypatch)
    docs = _docs()
    assert sum(d.size for d in docs) < parse_mod.PARALLEL_MIN_BYTES
    assert pool_size(docs, 2) == 1
    assert {r.record[0] for r in parse_many(docs, workers=2)} == {os.getpid()}


def test_a_big_batch_is_parsed_by_forked_workers(monkeypatch):
    _record_pid(monkeypatch)
    monkeypatch.setattr(parse_mod, "PARALLEL_MIN_BYTES", 4_000_000)
    docs = _docs()
    assert pool_size(docs, 2) == 2 and pool_size(docs, 1) == 1 and pool_size(docs[:1], 2) == 1
    results = parse_many(docs, workers=2)
    assert os.getpid() not in {r.record[0] for r in results}
    assert [r.record[1].cik for r in results] == [320193, 1045810]


def test_workers_inherit_the_documents_instead_of_unpickling_them(monkeypatch):
    """Bodies (up to 512 MiB) were pickled into the pool's queue, a copy per document; the
    workers are forked after the documents are registered and are handed an index."""
    monkeypatch.setattr(parse_mod, "PARALLEL_MIN_BYTES", 4_000_000)
    docs = _docs(_Unpicklable)
    with pytest.raises(TypeError, match="was pickled"):
        pickle.dumps(docs[0])
    pooled = parse_many(docs, workers=2)
    assert [r.error for r in pooled] == [None, None]
    inline = parse_many(docs, workers=1)
    for a, b in zip(pooled, inline, strict=True):
        assert a.record.facts.equals(b.record.facts) and a.record.concepts.equals(b.record.concepts)
    assert not parse_mod._CALLS  # nothing kept once the call returns
