"""Standard facts' two ways of reading the facts public at ts (issue 13): now (ts at or after
9999-12-31) from the current rows loads keep (facts_current), earlier by ranking the companies'
versions public then (company_facts_as_of_only, the definition it had before). Both must give the
same rows, and company_standard_facts_as_of_only's standard_names / chain_concepts restrictions the
unrestricted rows of those concepts, on real recorded companyfacts and submissions (so known_from
comes from true acceptance times where the filings are loaded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import COMPANYFACTS_FILES, NOW, each_table_scan, private_schema, table_scans
from helpers import differences as _differences
from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, load_batch
from warehouse.schema.sql_files import sql
from warehouse.store.db import connect, fetch_all, fetch_value

pytestmark = pytest.mark.slow  # builds and derives its own warehouses: 203 s CPU; make check leaves it out

FIX = Path(__file__).parents[2] / "fixtures" / "sec" / "data.sec.gov"
APPLE_SUBMISSIONS = FIX / "submissions" / "CIK0000320193.json.gz"
# after every known_from, before the sentinel: the ranking path over every version, i.e. the old
# definition of standard facts now (company_facts_as_of(ciks, ts) for every company's versions)
RANKED_NOW = "TIMESTAMP '9999-12-30 00:00:00'"
MIDDLE = "TIMESTAMP '2019-06-30 00:00:00'"


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    path = tmp_path_factory.mktemp("sfp") / "w.duckdb"
    c = connect(path)
    try:
        items = [Parsed(doc, parse_document(doc)[1])
                 for doc in map(read_local_document, [*COMPANYFACTS_FILES, APPLE_SUBMISSIONS])]
        report = load_batch(c, items, raw_dir=path.parent / "raw")
        assert report.status == "succeeded", report.summary()
    finally:
        c.close()
    c = connect(path, read_only=True)
    yield c
    c.close()


def _ciks(con) -> list[int]:
    return [c for (c,) in fetch_all(con, "SELECT DISTINCT cik FROM facts ORDER BY cik")]


def test_fixture_has_acceptance_times_and_derived_quarters(con):
    assert fetch_value(con, "SELECT count(*) FROM accession_acceptance a SEMI JOIN facts f USING (accession)") > 40
    assert fetch_value(con, f"SELECT count(*) FROM company_standard_facts_as_of(NULL, {NOW})"
                            " WHERE derivation <> 'reported'") > 0


def test_current_rows_path_equals_ranking_every_version(con):
    """Now from facts_current = the old definition (every version ranked), every company and each alone."""
    assert fetch_value(con, f"SELECT count(*) FROM company_standard_facts_as_of(NULL, {NOW})") > 1000
    assert _differences(con, f"SELECT * FROM company_standard_facts_as_of(NULL, {NOW})",
                        f"SELECT * FROM company_standard_facts_as_of(NULL, {RANKED_NOW})") == 0
    assert _differences(con, "SELECT * FROM standard_facts",
                        f"SELECT * FROM standard_facts_as_of({RANKED_NOW})") == 0
    for cik in _ciks(con)[:3]:
        assert _differences(con, f"SELECT * FROM company_standard_facts_as_of([{cik}], {NOW})",
                            f"SELECT * FROM company_standard_facts_as_of([{cik}], {RANKED_NOW})") == 0
    pair = _ciks(con)[:2]
    assert _differences(con, f"SELECT * FROM company_standard_facts_as_of({pair}, {NOW})",
                        f"SELECT * FROM standard_facts WHERE list_contains({pair}, cik)") == 0


def test_now_reads_current_rows_and_the_companys_chain_versions_only(con):
    """Now reads the values from the current rows, and for the prior values across tags (what each
    filing said: standard_value_timeline_of) the company's versions of chain tags only, never another
    company's; a past instant reads that company's versions."""
    cik = _ciks(con)[0]
    company = fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [cik])
    chain_versions = fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?"
                                      " AND concept IN (SELECT concept FROM standard_concepts)", [cik])
    now = table_scans(con, f"SELECT * FROM company_standard_facts_as_of([{cik}], {NOW})")
    assert 0 < now["facts_current_rows"][1] <= fetch_value(con, "SELECT count(*) FROM facts_current WHERE cik = ?", [cik])
    assert chain_versions <= company
    assert all(0 < out <= company for name, _, out in each_table_scan(
        con, f"SELECT * FROM company_standard_facts_as_of([{cik}], {NOW})") if name == "facts")
    past = each_table_scan(con, f"SELECT * FROM company_standard_facts_as_of([{cik}], {MIDDLE})")
    assert "facts_current_rows" not in {name for name, _, _ in past}
    assert all(0 < out <= company for name, _, out in past if name == "facts")  # the values, the timeline


@pytest.mark.parametrize("ts", [NOW, MIDDLE])
def test_one_standard_concept_is_the_unrestricted_rows_of_it(con, ts):
    concepts = [c for (c,) in fetch_all(con, "SELECT DISTINCT standard_concept FROM standard_concepts ORDER BY 1")]
    assert len(concepts) > 10
    cik = _ciks(con)[0 if ts == NOW else 1]  # (each pair plans four macros: one company per instant)
    for name in concepts:
        chain = fetch_value(con, sql("read/api/chain_concepts"), {"concept": name})
        restricted = f"SELECT * FROM company_standard_facts_as_of_only([{cik}], {ts}, $names, $chain)"
        whole = (f"SELECT * FROM company_standard_facts_as_of([{cik}], {ts})"
                 " WHERE list_contains($names, standard_concept)")
        assert _differences(con, restricted, whole, {"names": [name], "chain": chain}) == 0, (cik, name)


def test_as_of_restricted_to_the_chain_reads_only_its_tags(con):
    cik = _ciks(con)[0]
    chain = fetch_value(con, sql("read/api/chain_concepts"), {"concept": "revenue"})
    scans = each_table_scan(con, f"SELECT * FROM company_standard_facts_as_of_only([{cik}], {MIDDLE}, ['revenue'], $chain)",
                            {"chain": chain})
    tags = fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ? AND list_contains(?, concept)", [cik, chain])
    assert [out for name, _, out in scans if name == "facts"] == [tags, tags]  # the values, the timeline


# ---- the current standard facts kept as data (standard_facts_rows, migration 0016) ----------------

VINTAGES = Path(__file__).parents[2] / "fixtures" / "vintages" / "companyfacts"
APPLE, NVIDIA = 320193, 1045810
CF = FIX / "api" / "xbrl" / "companyfacts"


def _stored_equals_computed(con) -> int:
    """Rows stored and not computed plus rows computed and not stored, every company; the stored
    rows count (> 0)."""
    stored = fetch_value(con, "SELECT count(*) FROM standard_facts_rows")
    assert stored > 0
    assert _differences(con, "SELECT * FROM standard_facts_rows",
                        f"SELECT * FROM company_standard_facts_as_of(NULL, {NOW})") == 0
    return stored


def _company_rows(con, cik: int) -> list[tuple]:
    return fetch_all(con, "SELECT * EXCLUDE (inputs) FROM standard_facts_rows WHERE cik = ?"
                          " ORDER BY ALL", [cik])


def test_stored_rows_equal_the_computed_ones_after_every_load(tmp_path):
    """Older vintages first, then the current companyfacts (new versions: values restated, facts of
    another fiscal year or filing date), then the submissions (the facts' known_from moves from the
    filed-day fallback to the acceptance time): after each load the stored rows are what the rules
    compute now, and the companies whose facts changed got new rows."""
    path = tmp_path / "w.duckdb"
    steps = [
        [VINTAGES / "CIK0000320193__filed-max-2024-11-01.json.gz",
         VINTAGES / "CIK0001045810__filed-max-2024-11-20.json.gz"],
        [CF / "CIK0000320193.json.gz"],                        # Apple restated / re-filed
        [CF / "CIK0001045810.json.gz", APPLE_SUBMISSIONS],     # NVIDIA's new facts; Apple's facts move
        [FIX / "submissions" / "CIK0001045810.json.gz"],       # NVIDIA's facts move
    ]
    changed = [(), (APPLE,), (NVIDIA, APPLE), (NVIDIA,)]
    con = connect(path)
    try:
        before = {cik: [] for cik in (APPLE, NVIDIA)}
        for files, moved in zip(steps, changed, strict=True):
            items = [Parsed(doc, parse_document(doc)[1]) for doc in map(read_local_document, files)]
            report = load_batch(con, items, raw_dir=path.parent / "raw")
            assert report.status == "succeeded", report.summary()
            _stored_equals_computed(con)
            for cik in moved:
                after = _company_rows(con, cik)
                assert after != before[cik], f"step {files}: company {cik}'s standard facts did not change"
            before = {cik: _company_rows(con, cik) for cik in before}
        keys = fetch_all(con, "SELECT cik, standard_concept FROM standard_facts_rows ORDER BY rowid")
        assert keys == sorted(keys)  # stored by company and concept: a company's rows are read by key
    finally:
        con.close()


def test_a_warehouse_of_an_older_schema_gets_the_rows(tmp_path):
    """Migration 0016 on a warehouse that holds facts: the table is filled with what the rules
    compute now (schema/stored/standard_facts_rows.sql, run by warehouse.schema.migrate.apply_definitions
    for a table with no recorded basis)."""
    path = tmp_path / "w.duckdb"
    con = connect(path)
    try:
        items = [Parsed(doc, parse_document(doc)[1]) for doc in map(read_local_document, COMPANYFACTS_FILES[:2])]
        assert load_batch(con, items, raw_dir=path.parent / "raw").status == "succeeded"
        expected = _stored_equals_computed(con)
        # back to the schema before 0016 (the view that reads the table goes with it)
        con.execute("DROP VIEW standard_facts")
        con.execute("DROP TABLE standard_facts_rows")
        # (0020 adds the prior columns to the table 0016 creates: the schema before 0016 has neither)
        con.execute("DELETE FROM schema_migrations WHERE version IN (16, 20)")
        con.execute("DELETE FROM schema_definitions WHERE name = 'standard_facts_rows'")  # no basis yet
        con.execute("CHECKPOINT")
    finally:
        con.close()
    con = connect(path)
    try:
        assert fetch_value(con, "SELECT count(*) FROM schema_migrations WHERE version = 16") == 1
        assert _stored_equals_computed(con) == expected
        assert _differences(con, "SELECT * FROM standard_facts",
                            f"SELECT * FROM standard_facts_as_of({RANKED_NOW})") == 0
    finally:
        con.close()


def test_changed_rules_or_chains_recompute_the_stored_rows(tmp_path, monkeypatch):
    """A changed chain (standard_concepts.csv) or rule definition (ytd_steps_one_quarter), applied
    when a writer opens the warehouse, recomputes standard_facts_rows in the same transaction: the
    stored rows equal what the new definitions compute, for every company."""
    schema = private_schema(tmp_path, monkeypatch)
    path = tmp_path / "w.duckdb"
    con = connect(path)
    try:
        items = [Parsed(doc, parse_document(doc)[1]) for doc in map(read_local_document, COMPANYFACTS_FILES)]
        assert load_batch(con, items, raw_dir=path.parent / "raw").status == "succeeded"
        _stored_equals_computed(con)
        before = fetch_all(con, "SELECT * EXCLUDE (inputs) FROM standard_facts_rows ORDER BY ALL")
    finally:
        con.close()
    chains = schema / "definitions" / "standard_concepts.csv"
    lines = chains.read_text().splitlines(keepends=True)
    chains.write_text("".join(x for x in lines if ",RevenueFromContractWithCustomerExcludingAssessedTax," not in x))
    rule = schema / "definitions" / "ytd_steps_one_quarter.sql"
    for edit in (None, (rule, "BETWEEN 80 AND 100", "BETWEEN 80 AND 90")):
        if edit:
            edit[0].write_text(edit[0].read_text().replace(edit[1], edit[2]))
        con = connect(path)
        try:
            _stored_equals_computed(con)
            after = fetch_all(con, "SELECT * EXCLUDE (inputs) FROM standard_facts_rows ORDER BY ALL")
            assert after != before, f"{edit}: the change changed no standard fact (the test proves nothing)"
            before = after
            keys = fetch_all(con, "SELECT cik, standard_concept FROM standard_facts_rows ORDER BY rowid")
            assert keys == sorted(keys)
        finally:
            con.close()


def test_now_readers_read_the_stored_rows(con):
    """The "now" queries read standard_facts_rows by company, never the facts or (but for the receipt
    of the notebook's and the tools' file: the chain tags' current rows of that company) the current facts."""
    cik = _ciks(con)[0]
    chain = fetch_value(con, sql("read/api/chain_concepts"), {"concept": "revenue"})
    receipt = table_scans(con, sql("read/api/standard_facts_now"), {
        "cik": cik, "concept": "revenue", "fiscal_year": None, "fiscal_period": None, "chain_concepts": chain})
    assert 0 < receipt["facts_current_rows"][1] <= fetch_value(
        con, "SELECT count(*) FROM facts_current_rows WHERE cik = ? AND list_contains(?, concept)", [cik, chain])
    for name, params in (
            ("read/api/standard_facts_now", {"cik": cik, "concept": "revenue", "fiscal_year": None, "fiscal_period": None,
                                             "chain_concepts": chain}),
            ("agent/computed_values", {"cik": cik, "concept": "revenue", "fy": 2020, "fp": "Q4"}),
            ("read/standard/compare_concept", {"name": "revenue", "ciks": [cik], "fy": 2020, "fp": "FY"})):
        scans = table_scans(con, sql(name), params)
        assert "standard_facts_rows" in scans and "facts" not in scans, name
        assert "facts_current_rows" not in scans or name == "read/api/standard_facts_now", name
        assert scans["standard_facts_rows"][1] <= fetch_value(
            con, "SELECT count(*) FROM standard_facts_rows WHERE cik = ?", [cik]), name


@pytest.mark.parametrize("concept", [None, "revenue"])
def test_the_api_files_now_and_as_of_give_the_same_rows(con, concept):
    """warehouse/read/api.py reads api/standard_facts_now.sql (the stored rows) without as_of and
    api/standard_facts.sql (computed over the versions public then) with one: the same columns in the
    same order, and now the same rows as computing at the sentinel."""
    chain = fetch_value(con, sql("read/api/chain_concepts"), {"concept": concept})  # None: every chain's
    for cik in _ciks(con)[:3]:
        base = {"cik": cik, "concept": concept, "fiscal_year": None, "fiscal_period": None, "chain_concepts": chain}
        now = con.execute(sql("read/api/standard_facts_now"), base)
        cols = [d[0] for d in now.description]
        stored = now.fetchall()
        computed = con.execute(sql("read/api/standard_facts"), {**base, "as_of": None})
        assert [d[0] for d in computed.description] == cols
        assert stored and stored == computed.fetchall(), (cik, concept)
