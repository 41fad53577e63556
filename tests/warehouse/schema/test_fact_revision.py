"""fact_revision (schema/definitions/fact_revision.sql): a version's place among the values its fact key
carries under one accession, in payload order. Its windows are partitioned by (cik, taxonomy, concept)
only; these tests hold it to the rule itself (a count of the earlier payloads' values of the same key
and accession) on Apple's two real vintages, where SEC re-issued 56 values under old accessions, and
on versions made up to carry three values under one accession and keys without a start date."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from helpers import COMPANYFACTS_DIR, VINTAGES_DIR, load_files
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
APPLE_OLD = VINTAGES_DIR / "CIK0000320193__filed-max-2024-11-01.json.gz"
DEFINITION = Path(__file__).parents[3] / "schema" / "definitions" / "fact_revision.sql"
KEY = "cik, taxonomy, concept, unit, period_start, period_end, accession"

#: the rule, without a window: how many values of the same key and accession came in earlier payloads
BY_THE_RULE = f"""
    SELECT {KEY}, value, payload_vintage, source_document_id,
           (SELECT count(*) FROM facts e
            WHERE e.cik = f.cik AND e.taxonomy = f.taxonomy AND e.concept = f.concept AND e.unit = f.unit
              AND e.period_start IS NOT DISTINCT FROM f.period_start AND e.period_end = f.period_end
              AND e.accession = f.accession
              AND (e.payload_vintage, e.source_document_id) < (f.payload_vintage, f.source_document_id)) AS revision
    FROM facts f"""


@pytest.fixture(scope="module", params=["old_new", "new_old"])
def vintages(request, tmp_path_factory) -> Path:
    """Apple's older vintage and its current payload, loaded in one order or the other."""
    files = [APPLE_OLD, APPLE] if request.param == "old_new" else [APPLE, APPLE_OLD]
    path = tmp_path_factory.mktemp(request.param) / "w.duckdb"
    con = connect(path)
    try:
        for f in files:
            load_files(con, [f], raw_dir_for(path))
    finally:
        con.close()
    return path


def test_revisions_of_real_vintages_follow_the_rule(vintages):
    con = connect(vintages, read_only=True)
    try:
        assert fetch_value(con, "SELECT count(*) FROM fact_versions WHERE revision > 0") == 56
        # no payload carries a key twice under one accession here: the rule's count is exact
        assert fetch_value(con, f"SELECT count(*) FROM (SELECT {KEY}, source_document_id FROM facts"
                                f" GROUP BY ALL HAVING count(*) > 1)") == 0
        got = f"SELECT {KEY}, value, payload_vintage, source_document_id, revision FROM fact_versions"
        assert fetch_value(con, "SELECT count(*) FROM facts") == fetch_value(con, f"SELECT count(*) FROM ({got})")
        for a, b in ((got, BY_THE_RULE), (BY_THE_RULE, got)):
            assert fetch_value(con, f"SELECT count(*) FROM ({a} EXCEPT ALL {b})") == 0
        # and what reads revision: a correction is public from our fetch of it, and is the key's current value
        # where its accession is the key's latest
        assert fetch_all(con, "SELECT DISTINCT known_from_basis FROM fact_versions WHERE revision > 0") == [
            ("correction_fetched_at",)]
    finally:
        con.close()


def test_three_values_under_one_accession_and_keys_without_a_start():
    """Made-up versions, interleaved in storage order: three payloads re-issue one key's value under
    one accession (revisions 0, 1, 2), other accessions and units of the same concept stay 0, a key
    without period_start is its own key."""
    con = duckdb.connect()
    con.execute(DEFINITION.read_text())
    con.execute("""CREATE TABLE facts AS SELECT * FROM (VALUES
        (1, 'us-gaap', 'Revenues', 'USD', DATE '2020-01-01', DATE '2020-12-31', 'a-2', 3, 30, 12.0),
        (1, 'us-gaap', 'Revenues', 'USD', DATE '2020-01-01', DATE '2020-12-31', 'a-1', 1, 10, 10.0),
        (1, 'us-gaap', 'Revenues', 'EUR', DATE '2020-01-01', DATE '2020-12-31', 'a-1', 2, 20, 9.0),
        (1, 'us-gaap', 'Revenues', 'USD', DATE '2020-01-01', DATE '2020-12-31', 'a-2', 1, 10, 11.0),
        (1, 'us-gaap', 'Revenues', 'USD', NULL, DATE '2020-12-31', 'a-2', 2, 20, 1.0),
        (1, 'us-gaap', 'Revenues', 'USD', DATE '2020-01-01', DATE '2020-12-31', 'a-2', 2, 20, 11.5),
        (1, 'us-gaap', 'Revenues', 'USD', NULL, DATE '2020-12-31', 'a-2', 1, 10, 2.0),
        (1, 'us-gaap', 'Assets', 'USD', NULL, DATE '2020-12-31', 'a-2', 1, 10, 5.0),
        (2, 'us-gaap', 'Revenues', 'USD', DATE '2020-01-01', DATE '2020-12-31', 'a-2', 2, 20, 7.0)
    ) t(cik, taxonomy, concept, unit, period_start, period_end, accession, payload_vintage, source_document_id,
        value)""")
    got = con.execute(f"""SELECT {KEY}, value, fact_revision(cik, taxonomy, concept, unit, period_start,
                                 period_end, accession, payload_vintage, source_document_id) AS revision
                          FROM facts ORDER BY ALL""").fetchall()
    assert [(r[3], r[4] is None, r[6], float(r[7]), r[8]) for r in got if r[0] == 1 and r[2] == "Revenues"] == [
        ("EUR", False, "a-1", 9.0, 0),
        ("USD", False, "a-1", 10.0, 0),
        ("USD", False, "a-2", 11.0, 0), ("USD", False, "a-2", 11.5, 1), ("USD", False, "a-2", 12.0, 2),
        ("USD", True, "a-2", 1.0, 1), ("USD", True, "a-2", 2.0, 0),
    ]
    assert [r[8] for r in got if r[0] == 2 or r[2] == "Assets"] == [0, 0]
    assert got == con.execute(f"SELECT {KEY}, value, revision FROM ({BY_THE_RULE}) ORDER BY ALL").fetchall()
