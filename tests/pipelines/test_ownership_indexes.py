"""EDGAR daily index parsing (form/master/company.idx) and Form 3/4/5 discovery de-duplicated by accession."""

from __future__ import annotations

import gzip
from datetime import date
from pathlib import Path

import pytest

from pipelines.errors import RejectedDocument
from pipelines.indexes import IndexEntry, ownership_accessions, ownership_filings, parse_daily_index

IDX = Path(__file__).resolve().parents[1] / "fixtures" / "idx"


def load(name: str) -> list[IndexEntry]:
    return parse_daily_index((IDX / name).read_bytes(), document=name)


@pytest.mark.parametrize(("name", "rows", "ownership", "first"), [
    ("master.20181231.idx.gz", 2619, 385,
     IndexEntry(1000228, "HENRY SCHEIN INC", "4", date(2018, 12, 31),
                "edgar/data/1000228/0001209191-18-064398.txt", "0001209191-18-064398")),
    ("form.20200318.idx.gz", 4084, 1036,
     IndexEntry(1806014, "DLP Positive Note Fund LLC", "1-A", date(2020, 3, 18),
                "edgar/data/1806014/0001140361-20-006155.txt", "0001140361-20-006155")),
    ("company.20221003.idx.gz", 4925, 1126,
     IndexEntry(1700461, "1st stREIT Office Inc.", "1-A POS", date(2022, 10, 3),
                "edgar/data/1700461/0001104659-22-105357.txt", "0001104659-22-105357")),
])
def test_parse_each_layout(name, rows, ownership, first):
    entries = load(name)
    assert len(entries) == rows
    assert entries[0] == first
    assert all(e.accession for e in entries)
    accs = ownership_accessions(entries)
    assert len(accs) == ownership == len(set(accs))
    # listed once per associated CIK: more index rows than filings
    assert sum(1 for e in entries if e.form_type in ("3", "4", "5", "3/A", "4/A", "5/A")) > ownership


def test_form_types_with_spaces_and_amendments_survive_fixed_width():
    forms = {e.form_type for e in load("company.20221003.idx.gz")}
    assert {"SC 13D/A", "1-A POS", "4/A", "3"} <= forms
    assert {f.form_type for f in ownership_filings(load("form.20200318.idx.gz"))} == {"3", "3/A", "4", "4/A"}


def test_one_filing_listed_under_each_cik_is_one_accession():
    filings = {f.accession: f for f in ownership_filings(load("form.20200318.idx.gz"))}
    f = filings["0000899243-20-008926"]
    assert f.ciks == (1770787, 1731509, 1805808) and f.form_type == "3"
    assert f.archive_path == "edgar/data/1770787/000089924320008926/0000899243-20-008926.txt"


def test_plain_text_and_garbage():
    body = gzip.decompress((IDX / "master.20181231.idx.gz").read_bytes())
    assert len(parse_daily_index(body, document="m.idx")) == 2619
    with pytest.raises(RejectedDocument, match="no column header"):
        parse_daily_index(b"hello\nworld\n", document="x.idx")
    with pytest.raises(RejectedDocument, match="expected 5"):
        parse_daily_index(body + b"1|broken line\n", document="m.idx")


def _plain(name: str) -> bytes:
    return gzip.decompress((IDX / name).read_bytes())


@pytest.mark.parametrize("name", ["master.20181231.idx.gz", "form.20200318.idx.gz", "company.20221003.idx.gz"])
def test_truncated_index_is_rejected_not_half_loaded(name):
    """Issue 8 bug 3: a daily index cut short loaded the rows before the cut with no error."""
    body = _plain(name)
    for cut in (len(body) // 2, len(body) - 7, len(body) - 1):  # mid-file, inside the last file name, its newline
        with pytest.raises(RejectedDocument) as exc:
            parse_daily_index(body[:cut], document=name)
        assert exc.value.document == name and "truncated" in exc.value.reason
    half = gzip.compress(body)[: len(gzip.compress(body)) // 2]
    with pytest.raises(RejectedDocument, match="corrupt gzip"):
        parse_daily_index(half, document=name)


@pytest.mark.parametrize(("change", "reason"), [
    (lambda b: b[: b.index(b"\n", b.index(b"-----")) + 1], "lists no filings"),
    (lambda b: b.replace(b"0001140361-20-006155.txt", b"0001140361-20-0", 1), "is not edgar/data/<cik>/<accession>.txt"),
    (lambda b: b.replace(b"edgar/data/1806014/0001140361-20-006155.txt", b"", 1), "line 11"),
    (lambda b: b.replace(b"20200318    edgar/data/1806014", b"99991231    edgar/data/1806014", 1),
     "line 11: date filed '9999-12-31' is after 2100-12-31"),
    (lambda b: b.replace(b"1806014     20200318    edgar/data/1806014", b"1806015     20200318    edgar/data/1806014", 1),
     "line 11: CIK 1806015 but file name"),
])
def test_broken_rows_reject_the_whole_index(change, reason):
    body = change(_plain("form.20200318.idx.gz"))
    with pytest.raises(RejectedDocument) as exc:
        parse_daily_index(body, document="form.idx")
    assert reason in exc.value.reason
