"""10-K/10-Q/8-K documents through the one ingest path: tables, the company from wherever it is said, rebuild."""

from __future__ import annotations

import dataclasses
import json

import pytest

from helpers import FIXTURES
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.store.db import connect, fetch_all, fetch_value
from warehouse.store.raw_documents import loaded_documents

FILINGS = FIXTURES / "filings"
GOLDEN = json.loads((FILINGS / "golden.json").read_text())
SUBMISSIONS = FIXTURES / "sec" / "data.sec.gov" / "submissions"
PICKED = ["10-K_10-Q/0000320193-24-000123_aapl-20240928.htm",  # inline XBRL: CIK on its cover
          "10-K_10-Q/0000950130-96-000896.txt",  # 1990s full submission: CIK in its SEC header
          "8-K/0000912057-00-002128.txt",
          "10-K_10-Q/0001564590-18-004771_crr-10k_20171231.htm",  # no CIK: the filings row of its accession
          "10-K_10-Q/0000950134-09-003967_f51597e10vk.htm"]  # no CIK anywhere: rejected by name
JNJ = "10-K_10-Q/0000200406-17-000006_form10-k20170101.htm"  # no CIK: `load --cik 200406`


def docs(rels, **kw):
    return [dataclasses.replace(read_local_document(FILINGS / f"{r}.gz"), **kw) for r in rels]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("filings")
    db = tmp / "w.duckdb"
    con = connect(db)
    carbo = [read_local_document(p) for p in sorted(SUBMISSIONS.glob("CIK0001009672*.json.gz"))]
    first = ingest(con, [*carbo, *docs(PICKED)], raw_dir=tmp / "raw", command="load")
    second = ingest(con, docs([JNJ], expected_cik=200406), raw_dir=tmp / "raw", command="load")
    yield con, db, tmp, first, second
    con.close()


def test_each_document_loads_with_its_items(loaded):
    con, *_ = loaded
    rows = fetch_all(con, "SELECT accession, cik, cik_source, form, envelope, section_count, document_url"
                          " FROM filing_documents ORDER BY accession")
    assert rows == [
        ("0000200406-17-000006", 200406, "expected", "10-K", "sgml_wrapper", 21,
         "https://www.sec.gov/Archives/edgar/data/200406/000020040617000006/form10-k20170101.htm"),
        ("0000320193-24-000123", 320193, "inline_xbrl", "10-K", "inline_xbrl", 23,
         "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"),
        ("0000912057-00-002128", 320193, "sec_header", "8-K", "full_submission", 2,
         "https://www.sec.gov/Archives/edgar/data/320193/000091205700002128/0000912057-00-002128.txt"),
        ("0000950130-96-000896", 64978, "sec_header", "10-K405", "full_submission", 14,
         "https://www.sec.gov/Archives/edgar/data/64978/000095013096000896/0000950130-96-000896.txt"),
        ("0001564590-18-004771", 1009672, "filings", "10-K", "sgml_wrapper", 21,
         "https://www.sec.gov/Archives/edgar/data/1009672/000156459018004771/crr-10k_20171231.htm"),
    ]
    for rel in [*PICKED[:4], JNJ]:
        acc = GOLDEN[rel]["accession"]
        got = fetch_all(con, "SELECT item, heading FROM filing_sections WHERE accession = ? ORDER BY ordinal", [acc])
        assert got == [(i["item"], i["heading"]) for i in GOLDEN[rel]["items"]]
    assert fetch_all(con, "SELECT DISTINCT kind FROM source_documents WHERE kind <> 'submissions_page'"
                          " AND kind <> 'submissions'") == [("filing_document",)]


def test_sections_lead_back_to_the_raw_bytes(loaded):
    con, _, tmp, *_ = loaded
    from warehouse.store.raw_payloads import read_raw

    raw_path, sha = fetch_all(con, "SELECT d.raw_path, d.sha256 FROM source_documents d JOIN filing_documents f"
                                   " USING (source_document_id) WHERE f.accession = '0000950130-96-000896'")[0]
    body = read_raw(tmp / "raw", raw_path)
    start, end, heading = fetch_all(con, "SELECT byte_start, byte_end, heading FROM filing_sections"
                                         " WHERE accession = '0000950130-96-000896' AND item = '3'")[0]
    assert body[start:end].startswith(heading.encode()) and b"ITEM 4." in body[end:end + 200]
    assert fetch_value(con, "SELECT sha256 FROM filing_documents WHERE accession = '0000950130-96-000896'") == sha


def test_a_document_naming_no_company_is_rejected_by_name_and_the_rest_loads(loaded):
    _, _, _, first, second = loaded
    assert first.rejected == [(str(FILINGS / f"{PICKED[4]}.gz"),
                               "accession 0000950134-09-003967: the document names no company; load it with --cik N")]
    assert second.rejected == []


def test_keyword_index_is_written_with_the_items(loaded):
    con, *_ = loaded
    n = fetch_value(con, "SELECT count(*) FROM filing_terms WHERE accession = '0000320193-24-000123'"
                         " AND item = '1A' AND term = 'tariff'")
    assert n == 1
    assert fetch_value(con, "SELECT count(*) FROM filing_sections s WHERE term_count <> "
                            "(SELECT coalesce(sum(tf), 0) FROM filing_terms t"
                            "  WHERE t.accession = s.accession AND t.item = s.item)") == 0


def test_rebuild_gives_identical_tables(loaded, tmp_path):
    con, _, tmp, *_ = loaded
    payloads = list(loaded_documents(con, tmp / "raw"))
    new = connect(tmp_path / "rebuilt.duckdb")
    try:
        ingest(new, payloads, raw_dir=tmp_path / "raw", command="rebuild")
        for table, cols in (("filing_documents", "accession, cik, form, sha256, text, document_url, exhibits"),
                            ("filing_sections", "accession, item, ordinal, heading, text, byte_start, byte_end,"
                                                " flags, covers, confidence"),
                            ("filing_terms", "term, accession, item, tf, pos")):
            a = fetch_all(con, f"SELECT {cols} FROM {table} ORDER BY ALL")
            b = fetch_all(new, f"SELECT {cols} FROM {table} ORDER BY ALL")
            assert a == b, table
    finally:
        new.close()


def test_a_second_payload_of_the_same_filing_keeps_the_preferred_one(tmp_path):
    """The SGML-wrapped primary document of the 2000 Apple 8-K, cut out of its full submission, and
    the submission itself: whichever loads first, the full submission's rows stay."""
    full = read_local_document(FILINGS / "8-K" / "0000912057-00-002128.txt.gz")
    body = full.body
    start = body.index(b"<DOCUMENT>")
    alone = dataclasses.replace(full, uri="0000912057-00-002128_8k.txt",
                                body=body[start:body.index(b"</DOCUMENT>") + len(b"</DOCUMENT>")],
                                expected_cik=320193)
    got = []
    for n, order in enumerate(([alone, full], [full, alone])):
        con = connect(tmp_path / f"{n}.duckdb")
        try:
            for d in order:
                ingest(con, [d], raw_dir=tmp_path / f"raw{n}", command="load")
            got.append(fetch_all(con, "SELECT envelope, sha256, section_count FROM filing_documents"))
        finally:
            con.close()
    assert got[0] == got[1] == [("full_submission", full.sha256, 2)]
