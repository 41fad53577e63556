"""Cost grows with the change, not with the warehouse (issue 13, item 1; DESIGN rule 10).

A load touches only the companies its documents name: loading company B leaves every row of
company A (facts, fiscal calendar, current facts, derived metrics and their lineage) untouched,
rowids included (nothing deleted and re-inserted), and the statements the load runs for B read
B's facts only: the company filter reaches the scan of ``facts`` (the rows the scan emits, from
DuckDB's own profile), it is not applied after computing every company. The current facts kept as
data (facts_current_rows, migration 0008) equal what facts_current_of computes from all versions.
"""

from __future__ import annotations

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, each_table_scan
from pipelines.documents import read_local_document
from warehouse.derive.metrics import chain_concepts
from warehouse.derive.steps import load_step
from warehouse.load.ingest import ingest
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for

A, B = 1045810, 1046179  # NVIDIA, TSMC
A_FILES = [COMPANYFACTS_DIR / "CIK0001045810.json.gz", FIXTURES / "sec/data.sec.gov/submissions/CIK0001045810.json.gz"]
B_FILES = [COMPANYFACTS_DIR / "CIK0001046179.json.gz", FIXTURES / "sec/data.sec.gov/submissions/CIK0001046179.json.gz"]

SNAPSHOTS = {
    "facts": "SELECT rowid, * FROM facts WHERE cik = $cik",
    "fiscal_calendar": "SELECT rowid, * FROM fiscal_calendar WHERE cik = $cik",
    "facts_current_rows": "SELECT rowid, * FROM facts_current_rows WHERE cik = $cik",
    "derived_metrics": "SELECT rowid, * FROM derived_metrics WHERE cik = $cik",
    "metric_lineage": "SELECT rowid, * FROM metric_lineage WHERE metric_id IN"
                      " (SELECT metric_id FROM derived_metrics WHERE cik = $cik)",
}


def _snapshot(con, cik: int) -> dict[str, list]:
    return {t: sorted(fetch_all(con, q, {"cik": cik}), key=lambda r: r[0]) for t, q in SNAPSHOTS.items()}


def _load(con, path, files) -> None:
    run = ingest(con, [read_local_document(f) for f in files], raw_dir=raw_dir_for(path), command="load")
    assert run.status == "succeeded" and run.rejected == [], run.summary()


@pytest.fixture(scope="module")
def two_companies(tmp_path_factory):
    path = tmp_path_factory.mktemp("scope") / "w.duckdb"
    con = connect(path)
    try:
        _load(con, path, A_FILES)
        before = _snapshot(con, A)
        _load(con, path, B_FILES)
        after = _snapshot(con, A)
    finally:
        con.close()
    return path, before, after


def test_loading_company_b_leaves_company_a_untouched(two_companies):
    path, before, after = two_companies
    for table, rows in before.items():
        assert rows, f"company A has no {table} rows: the test would prove nothing"
        assert after[table] == rows, f"{table}: loading company B rewrote company A's rows"
    con = connect(path, read_only=True)
    try:
        for cik in (A, B):
            assert fetch_value(con, "SELECT count(*) FROM derived_metrics WHERE cik = ?", [cik]) > 0
    finally:
        con.close()


def test_current_facts_kept_as_data_equal_the_computed_ones(two_companies):
    path, _, _ = two_companies
    con = connect(path, read_only=True)
    try:
        computed = fetch_value(con, "SELECT count(*) FROM facts_current_of(NULL)")
        assert computed > 0 and fetch_value(con, "SELECT count(*) FROM facts_current") == computed
        for a, b in (("facts_current", "facts_current_of(NULL)"), ("facts_current_of(NULL)", "facts_current")):
            assert fetch_value(con, f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})") == 0
        # the companies' rows are stored in key order (what a lookup by company and concept reads)
        keys = fetch_all(con, "SELECT cik, taxonomy, concept FROM facts_current_rows ORDER BY rowid")
        assert keys == sorted(keys)
    finally:
        con.close()


def _select_of(step: str) -> str:
    text = load_step(step).text
    return text[text.index("AS\nSELECT") + 3:]


@pytest.mark.parametrize("query, params", [
    (_select_of("derive/refresh/10_candidates"), {"ciks": [A], "chain_concepts": None}),  # metrics and checks
    (f"SELECT * FROM facts_current_of([{A}])", None),                               # current facts
])
def test_the_company_filter_reaches_the_facts_scan(two_companies, query, params):
    path, _, _ = two_companies
    con = connect(path, read_only=True)
    try:
        a_facts = fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [A])
        assert fetch_value(con, "SELECT count(*) FROM facts") > a_facts
        if params and "chain_concepts" in params:  # bound here (data); the chain filter reaches the scan too
            params = {**params, "chain_concepts": chain_concepts(con)}
            a_facts = fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ? AND list_contains(?, concept)",
                                  [A, params["chain_concepts"]])
        # every scan of facts emits that company's rows only (facts_current_of reads facts more than
        # once: its keys, the versions of the keys it ranks, the current and first rows by row id)
        scans = [out for table, _, out in each_table_scan(con, query, params) if table == "facts"]
        assert scans and max(scans) == a_facts
    finally:
        con.close()
