"""Quote claims in `verify`: verbatim in the cited item of the cited filing, or a FAIL that says why and where."""

from __future__ import annotations

import pytest

from helpers import FIXTURES
from pipelines.documents import read_local_document
from warehouse.agent.verify import verify_brief
from warehouse.load.ingest import ingest
from warehouse.store.db import connect, raw_dir_for

K2024 = "0000320193-24-000123"
K2025 = "0000320193-25-000079"
FILES = [FIXTURES / "sec/data.sec.gov/submissions/CIK0000320193.json.gz",
         FIXTURES / "filings/10-K_10-Q/0000320193-24-000123_aapl-20240928.htm.gz",
         FIXTURES / "filings/10-K_10-Q/0000320193-25-000079_aapl-20250927.htm.gz"]
TRUE = "Greater China net sales decreased during 2024 compared to 2023 due primarily to lower net sales of iPhone and iPad."


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    db = tmp_path_factory.mktemp("quotes") / "w.duckdb"
    c = connect(db)
    report = ingest(c, [read_local_document(p) for p in FILES], raw_dir=raw_dir_for(db), command="load")
    assert report.rejected == []
    yield c
    c.close()


def verdict(con, text: str, accession: str = K2024, item: str = "7") -> tuple[str, str]:
    report = verify_brief(con, {"ticker": "AAPL", "claims": [
        {"id": "q", "kind": "quote", "text": text, "accession": accession, "item": item}]})
    assert report.error is None, report.error
    return report.claims[0].status, report.claims[0].reason


def test_a_true_quote_passes_normalised(con):
    assert verdict(con, TRUE)[0] == "PASS"
    typed = "greater china NET SALES decreased during 2024 compared to 2023 due primarily to\n lower net sales"
    status, reason = verdict(con, typed)
    assert status == "PASS" and f"10-K {K2024} Item 7." in reason and "aapl-20240928.htm" in reason
    curly = "The Company’s fiscal year is the 52- or 53-week period"
    assert verdict(con, curly.replace("’", "'").replace("-", "\u2013"))[0] == "PASS"


def test_the_wrong_item_fails_naming_the_item_that_says_it(con):
    status, reason = verdict(con, TRUE, item="1A")
    assert status == "FAIL" and "not in item 1A: the filing says it in Item 7." in reason


def test_the_wrong_filing_fails_naming_the_filing_that_says_it(con):
    only_2025 = "The following summarizes factors that could have a material adverse effect on the Company"
    status, reason = verdict(con, only_2025, item="1A")
    assert status == "FAIL" and f"not in filing {K2024}: it is in 10-K {K2025} item 1A" in reason


def test_a_changed_number_and_a_swapped_word_are_caught(con):
    status, reason = verdict(con, TRUE.replace("compared to 2023", "compared to 2022"))
    assert status == "FAIL" and "a changed number: the quote says '2022' where the filing says '2023'" in reason
    status, reason = verdict(con, TRUE.replace("decreased", "increased"))
    assert status == "FAIL" and "a changed word: the quote says 'increased' where the filing says 'decreased'" in reason


def test_a_paraphrase_fails(con):
    status, reason = verdict(con, "Sales in China fell in 2024 because fewer iPhones and iPads were sold there.")
    assert status == "FAIL" and "a paraphrase is not a quote" in reason


def test_an_unknown_item_or_filing_fails_with_what_is_held(con):
    assert "its items: 1, 1A" in verdict(con, TRUE, item="17")[1]
    assert "is not held" in verdict(con, TRUE, accession="0000320193-99-000001")[1]
