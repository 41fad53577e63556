"""Company identity with history: SEC's former names resolve to the company and say they are former."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, load_batch
from warehouse.read.resolve import resolve
from warehouse.store.db import connect

FIX = Path(__file__).parents[2] / "fixtures" / "sec"
META = 1326801


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    path = tmp_path_factory.mktemp("identity") / "w.duckdb"
    c = connect(path)
    paths = [FIX / "www.sec.gov" / "files" / "company_tickers.json.gz",
             FIX / "data.sec.gov" / "submissions" / "CIK0001326801.json.gz",
             FIX / "data.sec.gov" / "submissions" / "CIK0000320193.json.gz"]
    docs = [read_local_document(p) for p in paths]
    report = load_batch(c, [Parsed(d, parse_document(d)[1]) for d in docs], raw_dir=path.parent / "raw")
    assert report.status == "succeeded", report.summary()
    yield c
    c.close()


def test_resolve_finds_meta_by_its_former_name_and_says_so(con):
    r = resolve(con, "Facebook")
    assert r.resolved and r.cik == META and r.matched_by == "name"
    assert "former name 'Facebook Inc' (2005-05-06 to 2021-10-27)" in r.message
    assert r.name.upper().startswith("META PLATFORMS")


def test_current_names_still_win_over_former_ones(con):
    assert resolve(con, "Meta Platforms").cik == META


def test_company_history_holds_former_names_with_dates(con):
    from warehouse.store.db import fetch_all
    rows = fetch_all(con, "SELECT old_value, new_value, CAST(observed_at AS DATE), change_kind FROM company_history"
                          " WHERE cik = ? AND change_kind = 'former_name'", [META])
    assert [(o, n, str(d), k) for o, n, d, k in rows] == [
        ("Facebook Inc", "Meta Platforms, Inc.", "2021-10-28", "former_name")]


def test_coverage_audit_defaults_to_forms_with_financial_statements(con):
    from warehouse.store.db import fetch_all
    forms = {f for (f,) in fetch_all(con, "SELECT DISTINCT form FROM xbrl_filings_without_facts")}
    assert forms and forms <= {"10-K", "10-Q", "20-F", "40-F", "10-K/A", "10-Q/A", "20-F/A", "40-F/A", "10-KT", "10-QT"}
    other = {f for (f,) in fetch_all(con, "SELECT DISTINCT form FROM xbrl_filings_without_facts_all"
                                          " WHERE NOT carries_financial_statements")}
    assert "8-K" in other
