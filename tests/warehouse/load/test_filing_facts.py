"""filing_facts: the vendored inline-XBRL filings load through the one ingest path; every numeric fact an
independent reader finds is in the table with its exact value and dimensions; reloads and order change nothing."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from ixbrl_reference import disagreements, reference_numeric_facts

from helpers import FIXTURES, read_body
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.store.db import fetch_all, fetch_value

FILINGS = sorted(p for p in (FIXTURES / "filings").glob("*/*.htm.gz")  # the inline-XBRL ones (2019 on)
                 if b"inlineXBRL" in read_body(p)[:20_000])


@pytest.fixture(scope="module")
def facts_warehouse(tmp_path_factory):
    from warehouse.store.db import connect, raw_dir_for

    path = tmp_path_factory.mktemp("ff") / "w.duckdb"
    con = connect(path)
    report = ingest(con, [read_local_document(p) for p in FILINGS], raw_dir=raw_dir_for(path), command="load")
    assert (report.loaded, report.rejected) == (len(FILINGS), [])
    yield con, report
    con.close()


def test_every_numeric_fact_is_in_filing_facts_exactly(facts_warehouse):
    con, _ = facts_warehouse
    assert set(fetch_all(con, "SELECT DISTINCT kind FROM source_documents")) == {("filing_document",)}
    for path in FILINGS:
        stored = [(c, s, e, [(d["key"], d["value"]) for d in dims], u, v, n, bad) for c, s, e, dims, u, v, n, bad in
                  fetch_all(con, """
                SELECT concept, period_start::VARCHAR, period_end::VARCHAR, map_entries(dimensions), unit, value,
                       occurrences, inconsistent
                FROM filing_facts WHERE accession = ? AND fact_kind = 'numeric'""", [path.name[:20]])]
        assert stored or "8-K" in str(path), path.name  # the 8-Ks carry cover-page text facts only
        assert disagreements(reference_numeric_facts(read_body(path)), stored) == [], path.name


def test_receipts_and_columns(facts_warehouse):
    con, report = facts_warehouse
    row = fetch_all(con, """
        SELECT f.cik, f.form, f.value, f.unit, f.decimals, f.scale, f.element_id, f.byte_offset, f.occurrences,
               cardinality(f.dimensions), s.sha256, s.accession, s.cik
        FROM filing_facts f JOIN source_documents s USING (source_document_id)
        WHERE f.accession = '0000320193-25-000079' AND f.concept = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'
          AND f.period_start = DATE '2024-09-29' AND cardinality(f.dimensions) = 0""")
    assert row == [(320193, "10-K", Decimal("416161000000"), "USD", "-6", 6, "f-78", 492891, 4, 0,
                    row[0][10], "0000320193-25-000079", 320193)]
    body = read_body(FIXTURES / "filings/10-K_10-Q/0000320193-25-000079_aapl-20250927.htm.gz")
    assert body[492891:].startswith(b'<ix:nonFraction') and b'id="f-78"' in body[492891:493200]
    iphone = fetch_value(con, """
        SELECT value FROM filing_facts WHERE accession = '0000320193-25-000079'
          AND dimensions['srt:ProductOrServiceAxis'] = 'aapl:IPhoneMember' AND cardinality(dimensions) = 1
          AND concept = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax' AND period_start = '2024-09-29'""")
    assert iphone == Decimal("209586000000")
    assert report.row_counts["filing_facts"] == fetch_value(con, "SELECT count(*) FROM filing_facts")
    assert fetch_value(con, "SELECT count(*) FROM filing_facts WHERE problem IS NOT NULL") == 0
    assert fetch_value(con, "SELECT count(*) FROM filing_facts WHERE fact_kind = 'text' AND value IS NOT NULL") == 0
    assert fetch_value(con, "SELECT text_value FROM filing_facts WHERE accession = '0000320193-24-000005'"
                            " AND concept = 'dei:DocumentType'") == "8-K"
    comments = fetch_value(con, "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'filing_facts'"
                                " AND comment IS NULL")
    assert comments == 0


def test_reload_and_another_copy_add_nothing(facts_warehouse, tmp_path):
    con, _ = facts_warehouse
    before = fetch_value(con, "SELECT count(*) FROM filing_facts")
    again = ingest(con, [read_local_document(FILINGS[0])], raw_dir=tmp_path, command="load")
    assert (again.unchanged, again.loaded) == (1, 0)
    # the same filing in other bytes (one trailing newline) loads as a document, adds no facts
    doc = read_local_document(FILINGS[0])
    other = dataclasses.replace(doc, body=doc.body + b"\n", uri=doc.uri + ".copy")
    third = ingest(con, [other], raw_dir=tmp_path, command="load")
    assert third.loaded == 1 and third.row_counts["filing_facts"] == 0
    assert fetch_value(con, "SELECT count(*) FROM filing_facts") == before


def test_a_document_without_accession_is_rejected_with_its_reason(warehouse, raw_dir):
    doc = read_local_document(FILINGS[0])
    nameless = dataclasses.replace(doc, uri="/somewhere/aapl-20240928.htm")
    report = ingest(warehouse, [nameless], raw_dir=raw_dir, command="load")
    assert report.loaded == 0 and "no accession" in report.rejected[0][1]
    given = dataclasses.replace(nameless, accession="0000320193-24-000123")
    assert ingest(warehouse, [given], raw_dir=raw_dir, command="load").row_counts["filing_facts"] > 0
