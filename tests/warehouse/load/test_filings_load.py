"""Submissions into the warehouse: exact per-company counts with pages, UTC acceptance, amendments, audits."""

from __future__ import annotations

import dataclasses
import gzip
import json
from datetime import datetime
from pathlib import Path

import pytest

from pipelines.documents import Document, read_local_document
from pipelines.errors import RejectedDocument
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, Rejected, load_batch
from warehouse.store.db import connect, fetch_all, fetch_value

FIX = Path(__file__).parents[2] / "fixtures"
SUB = FIX / "sec" / "data.sec.gov" / "submissions"
VINTAGE = FIX / "vintages" / "submissions"
FACTS = FIX / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"
FILES = FIX / "sec" / "www.sec.gov" / "files"

# main file -> its vendored page files; every company in the test set
COMPANIES = {
    320193: [],                                   # Apple: declares 1 page, not vendored -> incomplete
    1318605: ["CIK0001318605-submissions-001"],   # Tesla
    1324424: ["CIK0001324424-submissions-001"],   # Expedia
    749647: ["CIK0000749647-submissions-001"],    # Imunon
    1009672: ["CIK0001009672-submissions-001"],   # Carbo (Eastern-clock payloads)
    1494730: [],                                  # Elon Musk, an individual insider
    940418: [],                                   # Siemens AG, foreign filer
    1046179: [],                                  # TSM, foreign filer with a page not vendored
    350001: [],                                   # EDGAR test entity named with punctuation
}


def item(path: Path, **changes) -> Parsed | Rejected:
    doc = read_local_document(path)
    if changes:
        doc = dataclasses.replace(doc, **changes)
    try:
        return Parsed(doc, parse_document(doc)[1])
    except RejectedDocument as exc:
        return Rejected(doc, exc)


def raw_rows(path: Path) -> int:
    d = json.loads(gzip.decompress(path.read_bytes()))
    return len((d["filings"]["recent"] if "filings" in d else d)["accessionNumber"])


def all_items() -> list:
    items = []
    for cik, pages in COMPANIES.items():
        items.append(item(SUB / f"CIK{cik:010d}.json.gz"))
        items += [item(SUB / f"{p}.json.gz") for p in pages]
    items += [item(FILES / "company_tickers.json.gz"), item(FILES / "company_tickers_exchange.json.gz"),
              item(FACTS / "CIK0000320193.json.gz")]
    return items


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("filings") / "w.duckdb"
    con = connect(path)
    report = load_batch(con, all_items(), raw_dir=path.parent / "raw")
    assert report.status == "succeeded" and not report.rejected, report.summary()
    yield con
    con.close()


def test_exact_counts_per_company(db):
    for cik, pages in COMPANIES.items():
        expected = raw_rows(SUB / f"CIK{cik:010d}.json.gz") + sum(raw_rows(SUB / f"{p}.json.gz") for p in pages)
        got = fetch_value(db, "SELECT count(*) FROM filings WHERE cik = ?", [cik])
        assert got == expected, cik
        for p in pages:
            assert fetch_value(db, "SELECT count(*) FROM filings WHERE cik = ? AND page = ?", [cik, p + ".json"]) \
                == raw_rows(SUB / f"{p}.json.gz")
    counts = dict(fetch_all(db, "SELECT cik, count(*) FROM filings GROUP BY cik"))
    assert (counts[1318605], counts[1324424], counts[1494730], counts[940418], counts.get(350001, 0)) == \
        (1002 + 720, 1002 + 976, 166, 33, 0)
    # an insider's Form 4 is in both the insider's and the issuer's history
    shared = fetch_value(db, "SELECT count(*) FROM filings a JOIN filings b USING (accession)"
                             " WHERE a.cik = 1494730 AND b.cik = 1318605")
    assert shared > 50


def test_company_identity(db):
    row = fetch_all(db, "SELECT name, tickers, exchanges, fiscal_year_end, entity_type, sic, former_names[1].name"
                        " FROM companies WHERE cik = 320193")[0]
    assert row == ("Apple Inc.", ["AAPL"], ["Nasdaq"], "0926", "operating", "3571", "APPLE INC")
    assert fetch_value(db, "SELECT name FROM companies WHERE cik = 350001") == \
        "Company Name Three `!#$(),:;=.-;\\|@/{}&'\\WA\\"
    assert fetch_value(db, "SELECT tickers FROM companies WHERE cik = 1494730") == []
    assert fetch_value(db, "SELECT state_of_incorporation_description FROM companies WHERE cik = 940418") == "Germany"


def test_coverage_and_status(db):
    cov = {r[0]: r for r in fetch_all(db, "SELECT cik, filings_loaded, pages_declared, pages_loaded, pages_missing,"
                                          " complete FROM company_coverage")}
    assert cov[1318605] == (1318605, 1722, 1, 1, 0, True)
    assert cov[320193][2:] == (1, 0, 1, False)
    assert cov[1046179][4:] == (1, False)
    assert cov[350001][1:] == (0, 0, 0, 0, True)
    assert fetch_all(db, "SELECT filing_count, loaded_rows FROM submission_pages"
                         " WHERE page_name = 'CIK0001318605-submissions-001.json'") == [(720, 720)]


def test_true_utc_acceptance_time(db):
    assert fetch_all(db, "SELECT acceptance_time, acceptance_time_raw, acceptance_time_basis, filing_date"
                         " FROM filings WHERE accession = '0000320193-23-000106'") == \
        [(datetime(2023, 11, 2, 22, 8, 27), "2023-11-02T22:08:27.000Z", "sec_utc", datetime(2023, 11, 3).date())]
    # Carbo's payloads carry Eastern wall time under 'Z': 2020-12-30 16:xx EST -> +5 h
    bases = dict(fetch_all(db, "SELECT acceptance_time_basis, count(*) FROM filings WHERE cik = 1009672 GROUP BY 1"))
    assert set(bases) == {"eastern_converted", "date_only"}
    assert fetch_value(db, "SELECT count(*) FROM filings WHERE acceptance_time_basis = 'date_only'"
                           " AND acceptance_time IS NOT NULL") == 0


def test_ten_k_amendment_linked(db):
    amend = fetch_all(db, "SELECT form, amends_accession, amend_rule FROM filings"
                          " WHERE cik = 1318605 AND accession = '0001104659-25-042659'")
    assert amend == [("10-K/A", "0001628280-25-003063", "same_form_report_date")]
    assert fetch_value(db, "SELECT superseded_by FROM filings WHERE accession = '0001628280-25-003063'") == \
        "0001104659-25-042659"
    assert fetch_value(db, "SELECT superseded_by FROM filings WHERE accession = '0001104659-25-042659'"
                           " AND cik = 1318605") is None
    rules = {r for (r,) in fetch_all(db, "SELECT DISTINCT amend_rule FROM filings WHERE is_amendment")}
    assert rules <= {"same_form_report_date", "no_report_date", "no_original_loaded"} | \
        {r for r in rules if r.startswith("ambiguous_")}
    assert fetch_value(db, "SELECT count(*) FROM filings WHERE NOT is_amendment AND amend_rule IS NOT NULL") == 0


def test_facts_as_of_uses_acceptance_time(db):
    """Apple's FY2023 10-K facts are public from 22:08:27 UTC on 2023-11-02, not from the filed day end."""
    kv = fetch_all(db, "SELECT DISTINCT known_from, known_from_basis FROM fact_versions"
                       " WHERE accession = '0000320193-23-000106'")
    assert kv == [(datetime(2023, 11, 2, 22, 8, 27), "acceptance_time")]
    assert fetch_value(db, "SELECT count(*) FROM fact_versions WHERE cik = 320193"
                           " AND known_from_basis = 'filed_day_end'") > 0  # older accessions: page not loaded
    key = ("us-gaap", "RevenueFromContractWithCustomerExcludingAssessedTax", "2022-09-25", "2023-09-30")
    q = ("SELECT accession FROM facts_as_of(?) WHERE cik = 320193 AND taxonomy = ? AND concept = ?"
         " AND unit = 'USD' AND period_start = ? AND period_end = ?")
    assert fetch_all(db, q, ["2023-11-02 22:08:26", *key]) == []
    assert fetch_all(db, q, ["2023-11-02 22:08:27", *key]) == [("0000320193-23-000106",)]
    assert fetch_value(db, "SELECT count(*) FROM facts_current WHERE cik = 320193") > 1000


def test_coverage_audits(db):
    assert fetch_value(db, "SELECT count(*) FROM xbrl_filings_without_facts WHERE accession = '0000320193-23-000106'") == 0
    assert fetch_value(db, "SELECT count(*) FROM xbrl_filings_without_facts WHERE cik = 1318605"
                           " AND NOT company_has_facts") > 0
    unknown = fetch_all(db, "SELECT count(*), bool_and(company_submissions_loaded) FROM facts_unknown_to_filings"
                            " WHERE cik = 320193")[0]
    assert unknown[0] > 0 and unknown[1] is True
    cov = fetch_all(db, "SELECT xbrl_filings, xbrl_filings_with_facts, facts_accessions_unknown_to_filings"
                        " FROM company_coverage WHERE cik = 320193")[0]
    assert cov[0] >= cov[1] > 0 and cov[2] == unknown[0]


MY_OBJECTS = ["filings", "submission_pages", "company_observations", "company_tickers", "company_history",
              "tickers_current", "fact_versions", "xbrl_filings_without_facts", "facts_unknown_to_filings",
              "company_coverage", "companies"]


def test_every_table_view_and_column_has_a_comment(db):
    missing_cols = fetch_all(db, "SELECT table_name, column_name FROM duckdb_columns()"
                                 " WHERE table_name IN (SELECT unnest(?)) AND (comment IS NULL OR comment = '')",
                             [MY_OBJECTS])
    assert missing_cols == []
    commented = {n for (n,) in fetch_all(
        db, "SELECT table_name FROM duckdb_tables() WHERE comment IS NOT NULL UNION ALL"
            " SELECT view_name FROM duckdb_views() WHERE comment IS NOT NULL")}
    assert set(MY_OBJECTS) <= commented


def test_reload_adds_nothing(db, tmp_path):
    before = fetch_value(db, "SELECT count(*) FROM filings")
    report = load_batch(db, all_items(), raw_dir=tmp_path / "raw")
    assert report.loaded == 0 and report.unchanged == len(all_items())
    assert fetch_value(db, "SELECT count(*) FROM filings") == before


def test_bad_input_clear_errors_nothing_else_lost(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    html = Document(uri="https://data.sec.gov/submissions/CIK0000320193.json", origin="http",
                    body=b"<!DOCTYPE html><html>Request Rate Threshold Exceeded</html>", kind="submissions")
    items = [
        item(SUB / "CIK0001324424-submissions-001.json.gz"),      # page before its main file: loads
        item(SUB / "CIK0000789019.json.gz", expected_cik=320193),  # body about another company
        item(SUB / "CIK0001494730.json.gz"),                       # good
        _parse(html),                                              # HTML instead of JSON
        item(SUB / "CIK0000940418.json.gz"),                       # good
    ]
    report = load_batch(con, items, raw_dir=tmp_path / "raw")
    reasons = dict(report.rejected)
    assert report.status == "partial" and report.loaded == 3 and len(reasons) == 2
    assert "CIK 789019, but CIK 320193 was requested" in reasons[str(SUB / "CIK0000789019.json.gz")]
    assert "HTML" in reasons[html.uri]
    filings = dict(fetch_all(con, "SELECT cik, count(*) FROM filings GROUP BY cik"))
    assert filings.pop(1324424) > 0 and filings == {1494730: 166, 940418: 33}
    # the page waits, loaded but undeclared, for its main file (order independence)
    assert fetch_all(con, "SELECT declared, loaded, declared_by_source_document_id FROM submission_pages") == [
        (False, True, None)]
    assert fetch_value(con, "SELECT count(*) FROM source_documents WHERE status = 'rejected'") == 2
    con.close()


def _parse(doc: Document) -> Parsed | Rejected:
    try:
        return Parsed(doc, parse_document(doc)[1])
    except RejectedDocument as exc:
        return Rejected(doc, exc)


def test_page_after_main_in_same_batch_and_order_independence(tmp_path):
    """A page given before its main file in one batch still loads (load_batch puts mains first);
    payload order across batches does not matter."""
    def build(name, paths, *, one_batch):
        con = connect(tmp_path / f"{name}.duckdb")
        items = [item(p) for p in paths]
        for batch in ([items] if one_batch else [[it] for it in items]):
            assert load_batch(con, batch, raw_dir=tmp_path / "raw").status == "succeeded"
        return con

    new, old, old_page = (SUB / "CIK0000320193.json.gz", VINTAGE / "2023-08_jadchaar" / "CIK0000320193.json.gz",
                          VINTAGE / "2023-08_jadchaar" / "CIK0000320193-submissions-001.json.gz")
    a = build("a", [old_page, old, new], one_batch=True)
    b = build("b", [new, old, old_page], one_batch=False)
    snap = ("SELECT accession, acceptance_time, amends_accession, superseded_by, amend_rule"
            " FROM filings ORDER BY accession")
    assert fetch_all(a, snap) == fetch_all(b, snap)
    assert fetch_value(a, "SELECT count(*) FROM filings") == 1000 + 988 + 1000 - 765
    ident = "SELECT name, submissions_observed_at FROM companies"
    assert fetch_all(a, ident) == fetch_all(b, ident) == [("Apple Inc.", datetime(2026, 4, 23, 20, 31, 45))]
    a.close()
    b.close()


def test_company_history_records_changes(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    d = json.loads(gzip.decompress((SUB / "CIK0000320193.json.gz").read_bytes()))
    d["name"], d["tickers"] = "Apple Computer Inc", ["AAPL", "APCX"]
    d["filings"]["recent"] = {k: v[-300:] for k, v in d["filings"]["recent"].items()}  # an older as-of
    older = Document(uri="mutated-older.json", origin="file", body=json.dumps(d).encode(), kind="submissions")
    load_batch(con, [item(SUB / "CIK0000320193.json.gz")], raw_dir=tmp_path / "raw")
    load_batch(con, [_parse(older)], raw_dir=tmp_path / "raw")
    hist = fetch_all(con, "SELECT field, old_value, new_value, change_kind FROM company_history"
                          " WHERE cik = 320193 ORDER BY field, observed_at")
    assert ("name", "Apple Computer Inc", "Apple Inc.", "changed") in hist
    assert ("tickers", "AAPL,APCX", "AAPL", "changed") in hist
    # the older payload, loaded last, did not overwrite the latest identity
    assert fetch_all(con, "SELECT name, tickers FROM companies") == [("Apple Inc.", ["AAPL"])]
    con.close()


def test_a_page_of_another_company_renamed_as_this_ones_is_rejected(tmp_path):
    """A page names no company: Tesla's page saved under Expedia's page name loaded as Expedia's (720
    Tesla filings under CIK 1324424). Its declaration in Expedia's main file (976 filings from
    2005-04-25) betrays it; Expedia's own page then loads, and an older copy of a company's own page
    (test_page_after_main_in_same_batch_and_order_independence: Apple's of 2023) still does."""
    renamed = tmp_path / "CIK0001324424-submissions-001.json.gz"
    renamed.write_bytes((SUB / "CIK0001318605-submissions-001.json.gz").read_bytes())
    con = connect(tmp_path / "w.duckdb")
    report = load_batch(con, [item(SUB / "CIK0001324424.json.gz"), item(renamed)], raw_dir=tmp_path / "raw")
    assert report.status == "partial" and report.loaded == 1
    reason = fetch_value(con, "SELECT reject_reason FROM source_documents WHERE uri = ?", [str(renamed)])
    assert reason == ("page CIK0001324424-submissions-001.json disagrees with the main submissions file of CIK "
                      "1324424: its first filing is dated 2005-02-17 where the declared page starts 2005-04-25 "
                      "(another company's page?)")
    tesla = fetch_all(con, "SELECT accession FROM filings WHERE cik = 1324424 AND accession LIKE '0001318605-%'")
    assert tesla == []
    own = load_batch(con, [item(SUB / "CIK0001324424-submissions-001.json.gz")], raw_dir=tmp_path / "raw")
    assert own.status == "succeeded" and own.loaded == 1
    assert fetch_all(con, "SELECT loaded, loaded_rows, filing_count FROM submission_pages") == [(True, 976, 976)]
    con.close()
