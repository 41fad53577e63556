"""Issue #22.3: companies tracked with text get the primary documents of their new 10-K/10-Q/8-K
filings from the nightly and the refresh, through the same SEC client, every request counted.

Tracked: Apple (320193) with text from 2024-11-01. The replay folders ``tests/fixtures/nights/text1``
and ``text2`` are built from real recorded SEC data by ``tests/fixtures/nights/make_nights.py``
(README: nights/); the 10-K's primary document is the vendored aapl-20240928.htm byte for byte.
The only fake is the HTTP transport (``SecClient.replay``); the request lists asserted are the ones
the run recorded in ``run_requests``.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path

from typer.testing import CliRunner

from flows.cli import app
from flows.nightly import nightly_flow
from flows.refresh import refresh_flow
from warehouse.load.tracking import run_requests
from warehouse.store.db import connect, fetch_all, fetch_value

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NIGHTS = FIXTURES / "nights"
APPLE, TEN_K = 320193, "0000320193-24-000123"
SUBS = f"https://data.sec.gov/submissions/CIK{APPLE:010d}.json"
PAGE = f"https://data.sec.gov/submissions/CIK{APPLE:010d}-submissions-001.json"
FACTS = f"https://data.sec.gov/api/xbrl/companyfacts/CIK{APPLE:010d}.json"
INDEX = "https://www.sec.gov/Archives/edgar/daily-index/2024/QTR4/form.20241101.idx"
DOC = "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"


def _requests(db: Path, load_id: str) -> Counter:
    with connect(db, read_only=True) as con:
        return Counter(run_requests(con, load_id))


def _golden_items() -> list[tuple[str, str]]:
    golden = json.loads((FIXTURES / "filings" / "golden.json").read_text())
    return [(i["item"], i["heading"]) for i in golden[f"10-K_10-Q/{TEN_K}_aapl-20240928.htm"]["items"]]


def _track_with_text(db: Path) -> None:
    tracked = CliRunner().invoke(app, ["--db", str(db), "track", "--cik", str(APPLE), "--with-text",
                                       "--text-since", "2024-11-01"])
    assert tracked.exit_code == 0, tracked.output
    assert "with text from 2024-11-01" in tracked.output
    with connect(db, read_only=True) as con:
        assert fetch_all(con, "SELECT cik, synced_through, text_since FROM tracked_companies") == [
            (APPLE, None, date(2024, 11, 1))]


def test_the_nightly_fetches_the_new_10k_of_a_company_tracked_with_text(prefect_harness, tmp_path):
    db = tmp_path / "w.duckdb"
    _track_with_text(db)

    # Night 1 (Fri 2024-11-01): fetched whole; nothing of Apple's filed since 2024-11-01 yet, so no
    # document (the window keeps a first fetch from pulling the company's history: 300+ filings).
    n1 = nightly_flow(db=str(db), replay=str(NIGHTS / "text1"), today=date(2024, 11, 1), insider_history_days=0)
    assert n1["status"] == "succeeded" and not n1["not_fetched"], n1
    assert _requests(db, n1["load_id"]) == Counter({(SUBS, 200): 1, (PAGE, 200): 1, (FACTS, 200): 1})
    with connect(db, read_only=True) as con:
        assert fetch_value(con, "SELECT count(*) FROM filing_documents") == 0
        assert fetch_value(con, "SELECT count(*) FROM filings WHERE form IN ('10-K', '10-Q', '8-K')") > 100

    # Night 2 (Mon 2024-11-04): the index of Fri 2024-11-01 lists Apple's 10-K (and an S-3ASR):
    # exactly the index, the submissions, the companyfacts (the 10-K is XBRL) and the 10-K's
    # primary document, once; the page is held.
    n2 = nightly_flow(db=str(db), replay=str(NIGHTS / "text2"), today=date(2024, 11, 4), insider_history_days=0)
    assert _requests(db, n2["load_id"]) == Counter({(INDEX, 200): 1, (SUBS, 200): 1, (FACTS, 200): 1, (DOC, 200): 1})
    assert n2["status"] == "succeeded" and n2["requests"] == 4 and n2["companies"] == [APPLE], n2
    assert n2["loaded"] == 3 and not n2["not_fetched"] and not n2["rejected"], n2
    with connect(db, read_only=True) as con:
        assert fetch_all(con, "SELECT accession, cik, form, document_url FROM filing_documents") == [
            (TEN_K, APPLE, "10-K", DOC)]
        assert fetch_all(con, "SELECT item, heading FROM filing_sections WHERE accession = ? ORDER BY ordinal",
                         [TEN_K]) == _golden_items()
        assert fetch_value(con, "SELECT kind FROM run_requests WHERE load_id = ? AND url = ?",
                           [n2["load_id"], DOC]) == "archive"
        assert fetch_value(con, "SELECT synced_through FROM tracked_companies") == date(2024, 11, 1)
    assert n2["row_counts"]["filing_sections"] == len(_golden_items())


def test_the_refresh_fetches_the_text_not_held_once(prefect_harness, tmp_path):
    db = tmp_path / "w.duckdb"
    _track_with_text(db)
    first = refresh_flow(db=str(db), ciks=[APPLE], replay=str(NIGHTS / "text2"), insiders=False)
    assert first["status"] == "succeeded" and not first["not_fetched"], first
    assert _requests(db, first["load_id"]) == Counter({(FACTS, 200): 1, (SUBS, 200): 1, (PAGE, 200): 1,
                                                       (DOC, 200): 1})
    assert first["requests"] == 4
    with connect(db, read_only=True) as con:
        assert fetch_value(con, "SELECT count(*) FROM filing_sections WHERE accession = ?", [TEN_K]) == len(
            _golden_items())
    again = refresh_flow(db=str(db), ciks=[APPLE], replay=str(NIGHTS / "text2"), insiders=False)
    assert _requests(db, again["load_id"]) == Counter({(FACTS, 200): 1, (SUBS, 200): 1, (PAGE, 200): 1})  # held

    # a company tracked without text gets no document
    db2 = tmp_path / "w2.duckdb"
    CliRunner().invoke(app, ["--db", str(db2), "track", "--cik", str(APPLE)])
    plain = refresh_flow(db=str(db2), ciks=[APPLE], replay=str(NIGHTS / "text2"), insiders=False)
    assert _requests(db2, plain["load_id"]) == Counter({(FACTS, 200): 1, (SUBS, 200): 1, (PAGE, 200): 1})
    with connect(db2, read_only=True) as con:
        assert fetch_value(con, "SELECT count(*) FROM filing_documents") == 0

