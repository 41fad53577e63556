"""Agreement of filing_facts with companyfacts (issue 24): every non-dimensional fact of the vendored
inline-XBRL filings equals the companyfacts version of the same accession; a changed value is listed."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, read_body
from pipelines.documents import read_local_document
from warehouse.derive.checks import run_check
from warehouse.load.ingest import ingest
from warehouse.store.db import connect, fetch_value, raw_dir_for

CHECK = "filing_facts_agree_with_companyfacts"
FILINGS = sorted(p for p in (FIXTURES / "filings").glob("*/*.htm.gz") if b"inlineXBRL" in read_body(p)[:20_000])
# the companies whose companyfacts are vendored: Apple, NVIDIA, Procter & Gamble, Alphabet
COMPANYFACTS = [COMPANYFACTS_DIR / f"CIK{cik:010d}.json.gz" for cik in (320193, 1045810, 80424, 1652044)]
APPLE_10K = FIXTURES / "filings/10-K_10-Q/0000320193-25-000079_aapl-20250927.htm.gz"


def _warehouse(path, docs):
    con = connect(path)
    report = ingest(con, docs + [read_local_document(p) for p in COMPANYFACTS], raw_dir=raw_dir_for(path),
                    command="load")
    assert report.rejected == []
    return con


@pytest.fixture(scope="module")
def agreed(tmp_path_factory):
    con = _warehouse(tmp_path_factory.mktemp("agree") / "w.duckdb", [read_local_document(p) for p in FILINGS])
    yield con
    con.close()


def test_every_non_dimensional_fact_agrees_with_companyfacts(agreed):
    assert run_check(agreed, CHECK) == []
    # ... and that is a comparison, not an empty join: 8 of the filings are in the vendored companyfacts
    # (Apple 3, NVIDIA 2, P&G 2, Alphabet 1),
    # and their standard-taxonomy facts all have a companyfacts twin
    compared = fetch_value(agreed, """
        SELECT count(*) FROM filing_facts ff JOIN facts f ON f.accession = ff.accession
          AND f.taxonomy = ff.taxonomy AND f.concept = split_part(ff.concept, ':', 2) AND f.unit = ff.unit
          AND f.period_end = ff.period_end AND f.period_start IS NOT DISTINCT FROM ff.period_start
          AND f.value = ff.value
        WHERE cardinality(ff.dimensions) = 0""")
    assert compared > 3000
    assert fetch_value(agreed, "SELECT count(DISTINCT ff.accession) FROM filing_facts ff"
                               " WHERE ff.accession IN (SELECT accession FROM facts)") == 8
    # SEC's one known difference: the company's own concepts are in the filing, not in companyfacts
    assert fetch_value(agreed, "SELECT count(*) FROM filing_facts WHERE taxonomy = 'aapl' AND fact_kind = 'numeric'"
                               " AND cardinality(dimensions) = 0") > 0


def test_a_changed_value_is_listed(tmp_path):
    doc = read_local_document(APPLE_10K)
    # total net sales FY2025 (f-78, 416,161) shown as 416,162 in the income statement's cell
    at = doc.body.index(b'id="f-78"')
    end = doc.body.index(b">", at) + 1
    assert doc.body[end:end + 7] == b"416,161"
    changed = dataclasses.replace(doc, body=doc.body[:end] + b"416,162" + doc.body[end + 7:])
    con = _warehouse(tmp_path / "w.duckdb", [changed])
    try:
        rows = run_check(con, CHECK)
    finally:
        con.close()
    assert [(r["accession"], r["concept"], r["filing_value"], r["companyfacts_values"], r["disagreement"],
             r["element_id"]) for r in rows] == [
        ("0000320193-25-000079", "RevenueFromContractWithCustomerExcludingAssessedTax", Decimal("416162000000"),
         [Decimal("416161000000")], "value_differs", "f-78")]
