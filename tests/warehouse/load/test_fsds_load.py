"""Financial Statement Data Sets through the ingest path (issue 24 item 5): a quarterly zip's filings load
into filing_facts and filing_statements, a stopped run resumes where it stopped, and the values agree
with companyfacts of the same accessions within FSDS's month-end rounding of dates."""

from __future__ import annotations

import zipfile
from itertools import islice

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, small_fsds_zip
from pipelines.archive import documents
from pipelines.documents import read_local_document
from warehouse.derive.checks import run_check
from warehouse.load.ingest import ingest
from warehouse.read.presented import statement
from warehouse.store.db import connect, raw_dir_for

QUARTER = FIXTURES / "fsds/2009q3.zip"
# the 2009q3 10-Qs of the companies whose companyfacts are vendored (Apple, NVIDIA, Kimberly-Clark,
# Amphenol), and the zip's first two filings (Edison Mission Energy, Constellation Energy)
CIKS = {320193, 1045810, 55785, 820313}
FIRST = 2


def _small_zip(path):
    """2009q3.zip with only the six filings' rows (the real rows, byte for byte, in their order)."""
    return small_fsds_zip(QUARTER, path, CIKS, FIRST)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fsds")
    path, keep = _small_zip(folder / "2009q3.zip")
    db = folder / "w.duckdb"
    con = connect(db)
    # a run stopped after two filings ...
    first = ingest(con, islice(documents([path]), 2), raw_dir=raw_dir_for(db), command="load")
    # ... and the next run of the whole zip loads the rest only, with the companyfacts
    rest = ingest(con, [*documents([path]), *(read_local_document(COMPANYFACTS_DIR / f"CIK{c:010d}.json.gz")
                                               for c in sorted(CIKS))], raw_dir=raw_dir_for(db), command="load")
    yield con, path, keep, first, rest, raw_dir_for(db)
    con.close()


def test_a_stopped_run_resumes_and_every_value_is_stored_once(loaded):
    con, path, keep, first, rest, raw = loaded
    assert (first.loaded, first.rejected) == (2, [])
    assert (rest.unchanged, rest.loaded, rest.rejected) == (2, len(keep) - 2 + len(CIKS), [])
    with zipfile.ZipFile(path) as zf:
        num_rows = zf.read("num.txt").count(b"\n") - 1
    assert con.execute("SELECT count(*), count(DISTINCT accession) FROM filing_facts").fetchone() == (num_rows, len(keep))
    kinds = con.execute("SELECT kind, count(*) FROM source_documents WHERE kind = 'fsds_filing' GROUP BY kind").fetchall()
    assert kinds == [("fsds_filing", len(keep))]
    again = ingest(con, documents([path]), raw_dir=raw, command="load")  # nothing new: every filing known
    assert (again.unchanged, again.loaded) == (len(keep), 0)


def test_a_2009_statement_as_presented(loaded):
    con = loaded[0]
    doc = statement(con, "0001193125-09-153165", "income")
    assert (doc["form"], doc["cik"], doc["document"]["uri"]) == ("10-Q", 320193, "2009q3.zip:0001193125-09-153165")
    assert [line["label"] for line in doc["lines"][:4]] == ["Net sales", "Cost of sales", "Gross margin",
                                                            "Research and development"]
    sales = doc["lines"][0]["values"][0]
    assert (sales["period_start"], sales["period_end"], sales["value"]) == ("2009-04-01", "2009-06-30", "8337000000")
    kinds = con.execute("SELECT list(DISTINCT statement ORDER BY statement) FROM filing_statements "
                        "WHERE accession = '0001193125-09-153165'").fetchone()[0]
    assert kinds == ["balance", "cash_flow", "income"]


def test_fsds_values_agree_with_companyfacts_within_the_date_rounding(loaded):
    con = loaded[0]
    compared, differ = con.execute("""
        WITH ff AS (
            SELECT f.* FROM filing_facts f JOIN source_documents d USING (source_document_id)
            WHERE d.kind = 'fsds_filing' AND cardinality(f.dimensions) = 0 AND f.value IS NOT NULL
        ),
        pairs AS (  -- FSDS rounds dates to month ends: the companyfacts period within 15 days of each end
            SELECT ff.accession, ff.concept, ff.period_end, ff.period_start, ff.value, list(DISTINCT x.value) AS cf
            FROM ff JOIN facts x ON x.accession = ff.accession AND x.taxonomy || ':' || x.concept = ff.concept
                AND x.unit = ff.unit AND abs(x.period_end - ff.period_end) <= 15
                AND (x.period_start IS NULL) = (ff.period_start IS NULL)
                AND (ff.period_start IS NULL OR abs(x.period_start - ff.period_start) <= 15)
            GROUP BY ALL
        )
        SELECT count(*), count(*) FILTER (WHERE NOT list_contains(cf, value)) FROM pairs""").fetchone()
    assert compared > 600 and differ == 0  # 668 values of the four 10-Qs, none different
    # the inline-XBRL agreement check leaves FSDS filings out (their dates are rounded)
    fsds = {r[0] for r in con.execute("SELECT DISTINCT accession FROM filing_facts").fetchall()}
    assert not [r for r in run_check(con, "filing_facts_agree_with_companyfacts") if r["accession"] in fsds]


@pytest.mark.slow
def test_both_vendored_zips_load_whole(tmp_path):
    db = tmp_path / "w.duckdb"
    con = connect(db)
    report = ingest(con, documents([QUARTER, FIXTURES / "fsds/2010q2.zip"]), raw_dir=raw_dir_for(db),
                    command="load", batch_size=200)
    assert (report.loaded, report.rejected) == (435 + 522, [])
    assert con.execute("SELECT count(*), count(DISTINCT accession) FROM filing_facts").fetchone() == (262_694, 957)
    con.close()
