"""accession_acceptance (migration 0005) keeps each accession's acceptance time as data, in step with filings,
so fact_versions.known_from no longer aggregates all of filings per query (issue 13, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import differences
from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, load_batch
from warehouse.store.db import connect, fetch_all, fetch_value

FIX = Path(__file__).parents[2] / "fixtures" / "sec" / "data.sec.gov"
TESLA = [FIX / "submissions" / "CIK0001318605.json.gz", FIX / "submissions" / "CIK0001318605-submissions-001.json.gz"]
MUSK = [FIX / "submissions" / "CIK0001494730.json.gz"]  # his Forms 4 are listed under Tesla too
APPLE = [FIX / "submissions" / "CIK0000320193.json.gz", FIX / "api" / "xbrl" / "companyfacts" / "CIK0000320193.json.gz"]

AGGREGATE = """SELECT accession, max(acceptance_time) AS acceptance_time FROM filings
               WHERE acceptance_time IS NOT NULL GROUP BY accession"""
# fact_versions.known_from as it was computed before 0005: from the aggregate over filings, per query
KNOWN_FROM_BEFORE = f"""
SELECT f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.accession, f.payload_vintage,
       coalesce(a.acceptance_time, CAST(f.filed + INTERVAL 1 DAY + INTERVAL 5 HOUR AS TIMESTAMP)) AS known_from
FROM facts f LEFT JOIN ({AGGREGATE}) a USING (accession)"""


def _load(path: Path, *batches: list[Path]) -> None:
    con = connect(path)
    try:
        for files in batches:
            items = [Parsed(doc, parse_document(doc)[1]) for doc in map(read_local_document, files)]
            report = load_batch(con, items, raw_dir=path.parent / "raw")
            assert report.status == "succeeded", report.summary()
    finally:
        con.close()


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory) -> tuple[Path, Path]:
    one = tmp_path_factory.mktemp("one") / "w.duckdb"
    _load(one, TESLA + MUSK + APPLE)  # one batch: an accession listed twice in one transaction
    other = tmp_path_factory.mktemp("other") / "w.duckdb"
    _load(other, APPLE[1:], MUSK, TESLA, APPLE[:1])  # facts before filings, the insider before the issuer
    return one, other


def test_table_is_the_filings_aggregate_whatever_the_order(warehouses):
    for path in warehouses:
        con = connect(path, read_only=True)
        try:
            assert fetch_value(con, "SELECT count(*) FROM accession_acceptance") > 2500
            assert fetch_value(con, "SELECT count(*) - count(DISTINCT accession) FROM accession_acceptance") == 0
            assert differences(con, "SELECT * FROM accession_acceptance", AGGREGATE) == 0
            shared = fetch_value(con, "SELECT count(*) FROM filings a JOIN filings b USING (accession)"
                                      " WHERE a.cik = 1494730 AND b.cik = 1318605")
            assert shared > 50
        finally:
            con.close()


def test_known_from_unchanged(warehouses):
    for path in warehouses:
        con = connect(path, read_only=True)
        try:
            now = """SELECT cik, taxonomy, concept, unit, period_start, period_end, accession, payload_vintage,
                            known_from FROM fact_versions WHERE revision = 0"""
            assert fetch_value(con, "SELECT count(*) FROM fact_versions WHERE known_from_basis = 'acceptance_time'") > 0
            assert differences(con, now, KNOWN_FROM_BEFORE) == 0
        finally:
            con.close()


def test_migration_backfills_a_warehouse_that_already_holds_filings(warehouses, tmp_path):
    import shutil

    path = tmp_path / "w.duckdb"
    shutil.copy(warehouses[0], path)
    con = connect(path, migrate=False)  # as if 0005 had never run
    con.execute("DROP TABLE accession_acceptance; DELETE FROM schema_migrations WHERE version = 5")
    con.close()
    con = connect(path)
    try:
        assert fetch_all(con, "SELECT version FROM schema_migrations WHERE version = 5") == [(5,)]
        assert differences(con, "SELECT * FROM accession_acceptance", AGGREGATE) == 0
        assert fetch_value(con, "SELECT count(*) FROM accession_acceptance") > 2500
    finally:
        con.close()
