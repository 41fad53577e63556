"""Standard facts' two ways of reading the facts public at ts (issue 13): now (ts at or after
9999-12-31) from the current rows loads keep (facts_current), earlier by ranking the companies'
versions public then (company_facts_as_of_only, the definition it had before). Both must give the
same rows, and company_standard_facts_as_of_only's standard_names / chain_concepts restrictions the
unrestricted rows of those concepts, on real recorded companyfacts and submissions (so known_from
comes from true acceptance times where the filings are loaded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import COMPANYFACTS_FILES, table_scans
from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.db import connect, fetch_all, fetch_value
from warehouse.load import Parsed, load_batch
from warehouse.sqlfiles import sql

FIX = Path(__file__).parents[1] / "fixtures" / "sec" / "data.sec.gov"
APPLE_SUBMISSIONS = FIX / "submissions" / "CIK0000320193.json.gz"
NOW = "TIMESTAMP '9999-12-31 00:00:00'"
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


def _differences(con, a: str, b: str, params=None) -> int:
    return fetch_value(con, f"SELECT count(*) FROM (({a}) EXCEPT ALL ({b}))", params) + \
        fetch_value(con, f"SELECT count(*) FROM (({b}) EXCEPT ALL ({a}))", params)


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


def test_now_reads_current_rows_only(con):
    """Now reads neither the versions nor the acceptance times; a past instant reads that company's versions."""
    cik = _ciks(con)[0]
    now = table_scans(con, f"SELECT * FROM company_standard_facts_as_of([{cik}], {NOW})")
    assert "facts" not in now and "accession_acceptance" not in now
    assert 0 < now["facts_current_rows"][1] <= fetch_value(con, "SELECT count(*) FROM facts_current WHERE cik = ?", [cik])
    past = table_scans(con, f"SELECT * FROM company_standard_facts_as_of([{cik}], {MIDDLE})")
    assert "facts_current_rows" not in past
    assert past["facts"][1] == fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [cik])


@pytest.mark.parametrize("ts", [NOW, MIDDLE])
def test_one_standard_concept_is_the_unrestricted_rows_of_it(con, ts):
    concepts = [c for (c,) in fetch_all(con, "SELECT DISTINCT standard_concept FROM standard_concepts ORDER BY 1")]
    assert len(concepts) > 10
    cik = _ciks(con)[0 if ts == NOW else 1]  # (each pair plans four macros: one company per instant)
    for name in concepts:
        chain = fetch_value(con, sql("agent/chain_concepts"), {"concept": name})
        restricted = f"SELECT * FROM company_standard_facts_as_of_only([{cik}], {ts}, $names, $chain)"
        whole = (f"SELECT * FROM company_standard_facts_as_of([{cik}], {ts})"
                 " WHERE list_contains($names, standard_concept)")
        assert _differences(con, restricted, whole, {"names": [name], "chain": chain}) == 0, (cik, name)


def test_as_of_restricted_to_the_chain_reads_only_its_tags(con):
    cik = _ciks(con)[0]
    chain = fetch_value(con, sql("agent/chain_concepts"), {"concept": "revenue"})
    scans = table_scans(con, f"SELECT * FROM company_standard_facts_as_of_only([{cik}], {MIDDLE}, ['revenue'], $chain)",
                        {"chain": chain})
    assert scans["facts"][1] == fetch_value(
        con, "SELECT count(*) FROM facts WHERE cik = ? AND list_contains(?, concept)", [cik, chain])
