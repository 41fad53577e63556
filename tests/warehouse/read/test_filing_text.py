"""Reading filing text: one filing's items, phrase search (normalised), ranked keywords, filters, the CLI."""

from __future__ import annotations

import dataclasses
import json
from datetime import date

import pytest
from typer.testing import CliRunner

from flows.cli import EXIT_NOT_FOUND, app
from helpers import FIXTURES
from pipelines.documents import read_local_document
from pipelines.filing_search import phrase_terms
from warehouse.load.ingest import ingest
from warehouse.read.filing_text import (
    FilingTextError,
    Filters,
    search_keywords,
    search_phrase,
    section,
    sections,
)
from warehouse.schema.sql_files import sql
from warehouse.store.db import connect, raw_dir_for

FILINGS = FIXTURES / "filings"
AAPL_10K = FILINGS / "10-K_10-Q/0000320193-24-000123_aapl-20240928.htm.gz"
NVDA_10K = FILINGS / "10-K_10-Q/0001045810-24-000029_nvda-20240128.htm.gz"
MERCK = FILINGS / "10-K_10-Q/0000950130-96-000896.txt.gz"
AXP = FILINGS / "10-K_10-Q/0001193125-09-041008_d10k.htm.gz"
AAPL_10Q = FILINGS / "10-K_10-Q/0000320193-25-000073_aapl-20250628.htm.gz"
APPLE_SUB = FIXTURES / "sec/data.sec.gov/submissions/CIK0000320193.json.gz"
runner = CliRunner()


@pytest.fixture(scope="module")
def held(tmp_path_factory):
    db = tmp_path_factory.mktemp("text") / "w.duckdb"
    con = connect(db)
    docs = [read_local_document(p) for p in (AAPL_10K, NVDA_10K, MERCK, APPLE_SUB)]
    docs.append(dataclasses.replace(read_local_document(AXP), expected_cik=4962))
    report = ingest(con, docs, raw_dir=raw_dir_for(db), command="load")
    assert report.rejected == []
    yield con, db
    con.close()


def test_sections_in_order_and_one_item(held):
    con, _ = held
    rows = sections(con, "0000950130-96-000896")
    assert [r["item"] for r in rows] == [str(n) for n in range(1, 15)]
    one = section(con, "0000320193-24-000123", "item 1c")
    assert one["heading"] == "Item 1C. Cybersecurity" and one["document_url"].endswith("/aapl-20240928.htm")
    assert section(con, "0001193125-09-041008", "12")["item"] == "10"  # "ITEMS 10, 11, 12 and 13."
    with pytest.raises(FilingTextError, match=r"has no item '17'; its items: 1, 1A, 1B, 1C, 2, "):
        section(con, "0000320193-24-000123", "17")
    with pytest.raises(FilingTextError, match="not held"):
        sections(con, "0000000000-00-000000")


def test_phrase_search_normalises_case_whitespace_quotes_and_dashes(held):
    con, _ = held
    printed = "The Company’s business, reputation, results of operations"  # as in Apple's Item 1A
    typed = "the company's BUSINESS,\n  reputation, results of operations"
    for phrase in (printed, typed):
        hits = search_phrase(con, phrase)
        assert [(h.accession, h.item) for h in hits][:1] == [("0000320193-24-000123", "1A")]
    h = search_phrase(con, typed)[0]
    text = section(con, h.accession, h.item)["text"]
    assert text[h.match_start:h.match_end] == printed
    assert h.filed == date(2024, 11, 1)  # from the filings row of the accession (the document has no header)
    assert h.snippet.startswith("[The Company’s business, reputation, results of operations]")
    dash = search_phrase(con, "Item 1A—Risk Factors") + search_phrase(con, "year-over-year")
    assert all(h.accession for h in dash)
    assert search_phrase(con, "the company’s business, reputation, results of operation, financial") == []


def test_a_phrase_is_found_in_whole_words_where_its_terms_stand_together(held):
    con, _ = held
    assert search_phrase(con, "export controls", limit=5) and search_phrase(con, "xport controls") == []
    # the index's candidates: items where the terms stand at the phrase's distances, not every item
    # holding them (the texts of those only are read and matched)
    pairs = phrase_terms("risk factors")
    candidates = con.execute(sql("read/filing_text/search_phrase"), {
        "terms": [t for t, _ in pairs], "places": [p for _, p in pairs], **Filters().params()}).fetchall()
    holding = con.execute("SELECT count(*) FROM (SELECT accession, item FROM filing_terms WHERE term IN "
                          "('risk', 'factor') GROUP BY ALL HAVING count(*) = 2)").fetchone()[0]
    hits = search_phrase(con, "risk factors", limit=1000)
    assert len(hits) <= len(candidates) < holding
    assert {(h.accession, h.item) for h in hits} <= {(r[0], r[1]) for r in candidates}


def test_items_loaded_before_word_positions_are_still_found(tmp_path):
    db = tmp_path / "w.duckdb"
    with connect(db) as con:
        ingest(con, [read_local_document(NVDA_10K)], raw_dir=raw_dir_for(db), command="load")
        with_positions = [(h.accession, h.item, h.match_start) for h in search_phrase(con, "export controls", limit=100)]
        con.execute("UPDATE filing_terms SET pos = NULL")  # as rows loaded before migration 0027 are
        assert [(h.accession, h.item, h.match_start) for h in search_phrase(con, "export controls", limit=100)] \
            == with_positions != []


def test_the_loader_keeps_the_index_sorted_by_term_as_it_grows(tmp_path, monkeypatch):
    from warehouse.load import filing_documents

    monkeypatch.setattr(filing_documents, "CLUSTER_FROM", 1_000)  # instead of a million rows
    assert [filing_documents.cluster_step(n) for n in (999, 1_000, 1_249, 1_250, 1_562, 1_563)] == [0, 1, 1, 2, 2, 3]
    db = tmp_path / "w.duckdb"
    with connect(db) as con:
        first = ingest(con, [read_local_document(NVDA_10K)], raw_dir=raw_dir_for(db), command="load")
        assert first.row_counts["filing_terms_sorted"] == 1  # from 0 to ~6,000 rows: past the first step
        terms = [t for (t,) in con.execute("SELECT term FROM filing_terms ORDER BY rowid").fetchall()]
        assert terms == sorted(terms) and len(terms) > 1_000
        hits = search_phrase(con, "export controls", limit=100)
        ingest(con, [read_local_document(AAPL_10K)], raw_dir=raw_dir_for(db), command="load")
        assert {(h.accession, h.item) for h in hits} <= {(h.accession, h.item) for h in
                                                         search_phrase(con, "export controls", limit=100)}


def test_filters_company_form_item_and_dates(held):
    con, _ = held
    assert {h.cik for h in search_phrase(con, "export controls", limit=100)} == {1045810}
    assert search_phrase(con, "export controls", Filters(cik=320193)) == []
    only_1a = search_phrase(con, "export controls", Filters(item="1A"), limit=100)
    assert only_1a and {h.item for h in only_1a} == {"1A"}
    merck = search_phrase(con, "Annual Report to stockholders", Filters(form="10-K"), limit=100)
    assert {h.accession for h in merck} == {"0000950130-96-000896"}  # 10-K matches its family (10-K405)
    assert search_phrase(con, "Annual Report to stockholders", Filters(form="10-Q")) == []
    assert {h.accession for h in search_phrase(con, "The Company", Filters(filed_from=date(2024, 10, 1)),
                                                limit=200)} == {"0000320193-24-000123"}


def test_ranked_keywords_put_the_right_item_first(held):
    con, _ = held
    hits = search_keywords(con, "export controls China")
    assert (hits[0].accession, hits[0].item) == ("0001045810-24-000029", "1A")
    assert hits[0].score >= hits[-1].score
    assert any(f"[{w}" in hits[0].snippet.lower() for w in ("export", "control", "china"))
    with pytest.raises(FilingTextError, match="no words"):
        search_keywords(con, "the of and")


def test_the_index_is_current_after_each_load(held):
    con, _ = held
    assert search_phrase(con, "Insider Trading Arrangements", Filters(form="10-Q")) == []
    ingest(con, [read_local_document(AAPL_10Q)], raw_dir=raw_dir_for(held[1]), command="load")
    got = search_phrase(con, "Insider Trading Arrangements", Filters(form="10-Q"))
    assert [(h.accession, h.item) for h in got] == [("0000320193-25-000073", "II-5")]


def test_the_company_report_folds_the_latest_10k_items(held):
    from warehouse.read.api import Warehouse
    from warehouse.read.report import render_report

    page = render_report(Warehouse(held[0]), 320193)
    assert '<section id="text"><h2>Latest 10-K: 10-K 0000320193-24-000123 filed 2024-11-01</h2>' in page
    assert page.count("<details><summary>Item ") == 23 and "<summary>Item 6. [Reserved] <span" in page


def test_cli_section_and_search(held):
    con, db = held
    con.close()  # the CLI opens the file itself (the last test of this module)
    r = runner.invoke(app, ["--db", str(db), "section", "0000950130-96-000896", "--format", "json"])
    assert r.exit_code == 0, r.output
    body = json.loads(r.output)
    assert body["document_url"].endswith("/0000950130-96-000896.txt") and body["cik"] == 64978
    assert [i["item"] for i in body["items"]] == [str(n) for n in range(1, 15)]
    assert set(body["items"][0]) >= {"item", "heading", "text", "flags", "confidence", "byte_start", "byte_end"}
    r = runner.invoke(app, ["--db", str(db), "section", "0000320193-24-000123", "17"])
    assert r.exit_code == EXIT_NOT_FOUND and "its items: 1, 1A" in r.output
    r = runner.invoke(app, ["--db", str(db), "search", "--phrase", "export controls", "--cik", "1045810",
                            "--item", "1A", "--format", "json"])
    assert r.exit_code == 0, r.output
    hits = json.loads(r.output)["hits"]
    assert hits and all(h["item"] == "1A" and h["document_url"].endswith("nvda-20240128.htm") for h in hits)
