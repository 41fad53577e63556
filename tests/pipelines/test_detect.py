"""Detection is one row per kind (pipelines/detect.py DETECTIONS, issue 23.2): each vendored example
is told by its own row's rule, the order matters only where a row says so, and what no rule takes is
refused by name."""

from __future__ import annotations

import pytest

from helpers import KIND_EXAMPLES, read_body
from pipelines.archive import documents
from pipelines.detect import DETECTIONS, JSON_KINDS, KINDS, WEB_PAGE_KINDS, detect_kind
from pipelines.errors import RejectedDocument
from pipelines.parse import KINDS as PARSED


def _body(kind: str) -> bytes:
    if kind == "fsds_filing":  # a zip of filings: its first one
        return next(documents([KIND_EXAMPLES[kind]])).body
    return read_body(KIND_EXAMPLES[kind])


def test_every_kind_has_one_row_and_every_loadable_kind_is_detected():
    assert len(KINDS) == len(set(KINDS)) == len(DETECTIONS)
    assert set(PARSED) <= set(KINDS)  # a kind the parser takes is one detection tells
    assert set(KIND_EXAMPLES) == set(KINDS)
    assert WEB_PAGE_KINDS == {"filing_document"} and "companyfacts" in JSON_KINDS and "ownership" not in JSON_KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_each_example_is_told_by_its_own_row(kind):
    body = _body(kind)
    head = body[:4096].lstrip()
    assert detect_kind(body, document=kind) == kind
    row = next(d for d in DETECTIONS if d.kind == kind)
    assert row.rule(body, head)
    # the rows tried before it do not take it (the order decides nothing for the vendored examples)
    before = DETECTIONS[:DETECTIONS.index(row)]
    assert [d.kind for d in before if (not d.json or head[:1] in (b"{", b"[")) and d.rule(body, head)] == []


@pytest.mark.parametrize(("body", "reason"), [
    (b"   ", "empty body"),
    (b"<html><head><title>Error</title></head></html>", "an HTML page, not an SEC data payload"),
    (b"<html>Request Rate Threshold Exceeded</html>", "SEC's throttle page"),
    (b'{"x": 1}', "JSON of an unknown shape"),
    (b'{"a": "<ownershipDocument"}', "JSON of an unknown shape"),  # JSON never reaches the XML rules
    (b"plain words", "unrecognised content"),
])
def test_what_no_rule_takes_is_refused_by_name(body, reason):
    with pytest.raises(RejectedDocument, match=reason) as caught:
        detect_kind(body, document="payload.bin")
    assert caught.value.document == "payload.bin"
