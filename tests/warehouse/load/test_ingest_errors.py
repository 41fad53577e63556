"""Every process boundary is an error boundary (issue 8, bullet 2, the ingest side).

One bad document among good ones is rejected with a reason naming it and recorded in
source_documents; the others load and the run is partial (exit 3). The bugs reproduced: an HTML
page among >= 4 MB of companyfacts killed the parallel parser (BrokenProcessPool, exit 1, nothing
recorded); any non-RejectedDocument error in a worker or a loader (CIK >= 2^31, a period in year
9999 or 1, fy = 3000000000) failed the whole run.
"""

from __future__ import annotations

import dataclasses
import json
import os

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from flows.cli import EXIT_PARTIAL, app
from helpers import COMPANYFACTS_DIR, read_body
from pipelines import parse as parse_mod
from pipelines.documents import Document
from pipelines.parse import DIED, DocumentKind, parse_many
from warehouse.load.batch import Parsed, load_batch
from warehouse.store.db import connect, fetch_all, fetch_value

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
NVDA = COMPANYFACTS_DIR / "CIK0001045810.json.gz"
TSM = COMPANYFACTS_DIR / "CIK0001046179.json.gz"
MRVL = COMPANYFACTS_DIR / "CIK0001835632.json.gz"
HTML = b"<!DOCTYPE html><html><body><h1>Request Rate Threshold Exceeded</h1></body></html>"


@pytest.fixture(autouse=True)
def _pool_for_these_sizes(monkeypatch):
    """These tests are about the worker pool: use it for their ~8 MB of documents (default: 64 MB)."""
    monkeypatch.setattr(parse_mod, "PARALLEL_MIN_BYTES", 4_000_000)


def _doc(uri: str, body: bytes) -> Document:
    return Document(uri=uri, origin="file", body=body)


def _big_docs() -> list[Document]:
    docs = [_doc(str(p), read_body(p)) for p in (APPLE, NVDA)]
    assert sum(d.size for d in docs) >= parse_mod.PARALLEL_MIN_BYTES  # the parallel path
    return docs


def test_html_page_among_big_files_is_rejected_by_the_worker_pool():
    docs = _big_docs() + [_doc("throttle.html", HTML)]
    results = parse_many(docs, workers=2)
    assert [r.doc.uri for r in results] == [d.uri for d in docs]
    assert [r.error is None for r in results] == [True, True, False]
    assert results[2].error.document == "throttle.html" and "HTML" in results[2].error.reason
    assert results[0].record.cik == 320193 and results[1].record.cik == 1045810


def _poisoned(monkeypatch, action):
    """The companyfacts parser, except for documents named poison*: ``action`` happens instead."""
    real = parse_mod.KINDS["companyfacts"]

    def parse(doc):
        if doc.uri.startswith("poison"):
            action()
        return real.parse(doc)

    monkeypatch.setitem(parse_mod.KINDS, "companyfacts", DocumentKind("companyfacts", parse))


@pytest.mark.parametrize("error", [TypeError("unhashable"), OverflowError("date value out of range"),
                                   MemoryError()], ids=["TypeError", "OverflowError", "MemoryError"])
def test_any_parser_exception_in_a_worker_is_a_rejection_naming_the_document(monkeypatch, error):
    def boom():
        raise error

    _poisoned(monkeypatch, boom)
    docs = _big_docs() + [_doc("poison.json", read_body(MRVL))]
    results = parse_many(docs, workers=2)
    assert [r.error is None for r in results] == [True, True, False]
    assert results[2].error.document == "poison.json"
    assert type(error).__name__ in results[2].error.reason


def test_a_dying_worker_loses_only_the_document_that_killed_it(monkeypatch):
    _poisoned(monkeypatch, lambda: os._exit(9))
    docs = [_doc(str(APPLE), read_body(APPLE)), _doc("poison.json", read_body(MRVL)),
            _doc(str(NVDA), read_body(NVDA)), _doc(str(TSM), read_body(TSM))]
    results = parse_many(docs, workers=2)
    assert [r.error is None for r in results] == [True, False, True, True]
    assert results[1].error.reason == DIED and results[1].error.document == "poison.json"
    assert [r.record.cik for r in results if r.record] == [320193, 1045810, 1046179]


def test_cli_load_html_among_big_companyfacts_exits_3_and_records_it(tmp_path):
    page = tmp_path / "CIK0000789019.json"  # a throttle page saved under a companyfacts name
    page.write_bytes(HTML)
    db = tmp_path / "w.duckdb"
    result = CliRunner().invoke(app, ["--db", str(db), "load", str(APPLE), str(page), str(NVDA)])
    assert result.exit_code == EXIT_PARTIAL, result.output
    con = connect(db, read_only=True)
    try:
        assert fetch_all(con, "SELECT uri, status FROM source_documents ORDER BY uri") == sorted(
            [(str(APPLE), "loaded"), (str(NVDA), "loaded"), (str(page), "rejected")])
        assert "HTML" in fetch_value(con, "SELECT reject_reason FROM source_documents WHERE status = 'rejected'")
        assert fetch_all(con, "SELECT DISTINCT cik FROM facts ORDER BY cik") == [(320193,), (1045810,)]
        assert fetch_all(con, "SELECT status, documents_loaded, documents_rejected FROM load_runs") == [
            ("partial", 2, 1)]
    finally:
        con.close()


# ----------------------------------------------------------------- values a column cannot hold


def _small() -> dict:
    """A small real payload: the dei taxonomy of MARVELL's companyfacts plus one us-gaap concept."""
    data = json.loads(read_body(MRVL))
    gaap = data["facts"]["us-gaap"]
    name = next(n for n, c in gaap.items() if "USD" in c["units"] and len(c["units"]["USD"]) > 3)
    data["facts"] = {"dei": data["facts"]["dei"], "us-gaap": {name: gaap[name]}}
    return data


def _with_fact(**changes) -> bytes:
    data = _small()
    concept = next(iter(data["facts"]["us-gaap"].values()))
    concept["units"]["USD"][0].update(changes)
    return json.dumps(data).encode()


BAD_VALUES = {
    "cik-2^31": lambda: json.dumps({**_small(), "cik": 2**31}).encode(),
    # annual 10-K periods: they become fiscal year ends, which the calendar extrapolates from
    "end-9999-12-31": lambda: _with_fact(end="9999-12-31", start="9999-01-01", form="10-K", fp="FY"),
    "end-0001-12-31": lambda: _with_fact(end="0001-12-31", start="0001-01-01", form="10-K", fp="FY"),
    "fy-3000000000": lambda: _with_fact(fy=3_000_000_000),
}


@pytest.mark.parametrize("name", list(BAD_VALUES))
def test_cli_value_out_of_range_rejects_that_document_only(tmp_path, name):
    bad = tmp_path / f"{name}.json"
    bad.write_bytes(BAD_VALUES[name]())
    db = tmp_path / "w.duckdb"
    result = CliRunner().invoke(app, ["--db", str(db), "load", str(TSM), str(bad)])
    assert result.exit_code == EXIT_PARTIAL, (result.output, result.exception)
    con = connect(db, read_only=True)
    try:
        assert fetch_all(con, "SELECT uri, status FROM source_documents ORDER BY status") == [
            (str(TSM), "loaded"), (str(bad), "rejected")]
        assert fetch_all(con, "SELECT DISTINCT cik FROM facts") == [(1046179,)]
        assert fetch_all(con, "SELECT status, documents_loaded, documents_rejected FROM load_runs") == [
            ("partial", 1, 1)]
    finally:
        con.close()


def _record_with(**changes) -> Parsed:
    """A parsed real record whose first fact gets ``changes`` AFTER the parser ran, so the loader
    meets the values whatever the parser checks."""
    from pipelines.companyfacts import parse_companyfacts

    body = json.dumps(_small()).encode()
    rec = parse_companyfacts(body, document="crafted.json")
    facts = rec.facts
    for column, value in changes.items():
        i = facts.schema.get_field_index(column)
        col = facts.column(i).to_pylist()
        col[0] = value
        facts = facts.set_column(i, facts.schema.field(i), pa.array(col, facts.schema.field(i).type))
    return Parsed(_doc("crafted.json", body + b" "), dataclasses.replace(rec, facts=facts))


ANNUAL = {"form": "10-K", "filing_fp": "FY"}


@pytest.mark.parametrize("changes", [
    {**ANNUAL, "period_start": "9999-01-01", "period_end": "9999-12-31"},
    {**ANNUAL, "period_start": "0001-01-01", "period_end": "0001-12-31"},
], ids=["annual-9999", "annual-0001"])
def test_loader_errors_reject_the_document_whatever_the_parser_let_through(warehouse, raw_dir, changes):
    from helpers import parse_document as parse_cf
    from pipelines.documents import read_local_document

    good = parse_cf(read_local_document(TSM, kind="companyfacts"))
    report = load_batch(warehouse, [_record_with(**changes), good], raw_dir=raw_dir)
    assert report.loaded == 1 and [u for u, _ in report.rejected] == ["crafted.json"], report.rejected
    assert fetch_all(warehouse, "SELECT status FROM source_documents ORDER BY source_document_id") == [
        ("rejected",), ("loaded",)]


def test_loader_rejects_a_cik_beyond_integer(warehouse, raw_dir):
    rec = _record_with(form="10-K")
    big = Parsed(rec.doc, dataclasses.replace(rec.record, cik=2**31))
    report = load_batch(warehouse, [big], raw_dir=raw_dir)
    assert report.status == "partial" and report.loaded == 0
    [(uri, reason)] = report.rejected
    assert uri == "crafted.json" and str(2**31) in reason
    assert fetch_all(warehouse, "SELECT status, cik FROM source_documents") == [("rejected", None)]


# --------------------------------------------------------------- parse of the next batch overlapped


def _overlapped_run(tmp_path, monkeypatch, docs, name: str, **kw):
    """``ingest`` in batches of 2 (so the next batch is parsed by ParseAhead's worker while one
    loads); returns the run's report, the connection and how many batches went to the worker."""
    from pipelines.parse import ParseAhead
    from warehouse.load.ingest import ingest

    submitted: list[int] = []
    real_submit = ParseAhead.submit

    def counting(self, batch):
        submitted.append(len(batch))
        return real_submit(self, batch)

    monkeypatch.setattr(ParseAhead, "submit", counting)
    con = connect(tmp_path / f"{name}.duckdb")
    report = ingest(con, docs, raw_dir=tmp_path / f"{name}.raw", command="bootstrap", batch_size=2, **kw)
    return report, con, submitted


def _facts_by_company(con) -> list[tuple]:
    return fetch_all(con, "SELECT cik, count(*), sum(hash(taxonomy, concept, unit, period_start, period_end,"
                          " value, accession, fiscal_year, fiscal_period)) FROM facts GROUP BY cik ORDER BY cik")


def test_overlapped_parse_rejects_a_bad_document_by_name_and_loses_nothing_else(tmp_path, monkeypatch):
    good = [_doc(str(p), read_body(p)) for p in (MRVL, TSM, APPLE)]
    docs = [good[0], _doc("throttle.json", HTML), good[1], _doc("truncated.json", read_body(NVDA)[:5000]), good[2]]
    report, con, submitted = _overlapped_run(tmp_path, monkeypatch, docs, "overlap")
    try:
        assert submitted == [2, 2, 1]  # every batch was parsed by the worker
        assert report.status == "partial" and report.loaded == 3
        assert [u for u, _ in report.rejected] == ["throttle.json", "truncated.json"]
        assert fetch_all(con, "SELECT uri, status FROM source_documents WHERE status = 'rejected' ORDER BY uri") == [
            ("throttle.json", "rejected"), ("truncated.json", "rejected")]
        overlapped = _facts_by_company(con)
        current = fetch_value(con, "SELECT count(*) FROM facts_current")
    finally:
        con.close()
    one_by_one, con, submitted = _overlapped_run(tmp_path, monkeypatch, good, "sequential", workers=1)
    try:
        assert submitted == [] and one_by_one.loaded == 3
        assert _facts_by_company(con) == overlapped and len(overlapped) == 3  # nothing else lost
        assert fetch_value(con, "SELECT count(*) FROM facts_current") == current
    finally:
        con.close()


def test_overlapped_parse_survives_a_worker_that_dies(tmp_path, monkeypatch):
    """The worker dies on one document: its batch is parsed again with each document isolated,
    that document is rejected (named, DIED), the next batch gets a fresh worker."""
    _poisoned(monkeypatch, lambda: os._exit(9))
    docs = [_doc(str(MRVL), read_body(MRVL)), _doc("poison.json", read_body(TSM)),
            _doc(str(APPLE), read_body(APPLE)), _doc(str(TSM), read_body(TSM))]
    report, con, submitted = _overlapped_run(tmp_path, monkeypatch, docs, "dies")
    try:
        assert submitted == [2, 2]
        assert report.rejected == [("poison.json", DIED)] and report.loaded == 3
        assert [c for c, *_ in _facts_by_company(con)] == [320193, 1046179, 1835632]
    finally:
        con.close()
