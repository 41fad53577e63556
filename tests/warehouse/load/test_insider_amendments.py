"""4/A handling with hand-made amendments (no real 4/A in the samples; see tests/fixtures/README_form4.md).

Originals are never deleted; a 4/A is linked to its original whatever the arrival order; a 4/A
carrying transaction lines supersedes the original's lines of that table; a holdings-only 4/A
supersedes nothing.
"""

from __future__ import annotations

import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.ownership import parse_ownership
from warehouse.load.batch import Parsed, load_batch
from warehouse.store.db import connect, fetch_all, fetch_value

HAND = Path(__file__).resolve().parents[2] / "fixtures" / "form4_handmade"
ORIGINAL, AMEND_TX, AMEND_HOLD = "9999999999-24-000001", "9999999999-24-000002", "9999999999-24-000003"
BEST = "issuer+same_owners+period+original_filed_date"


def item(accession: str) -> Parsed:
    doc = read_local_document(HAND / f"{accession}.txt", kind="ownership")
    return Parsed(doc, parse_ownership(doc.body, document=doc.uri))


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """A freshly migrated empty warehouse file, copied per test (migrating is the slow part)."""
    path = tmp_path_factory.mktemp("template") / "w.duckdb"
    connect(path).close()
    return path


@pytest.fixture
def con(tmp_path, migrated):
    shutil.copy(migrated, tmp_path / "w.duckdb")
    c = connect(tmp_path / "w.duckdb")
    yield c
    c.close()


def load(con, tmp_path, *accessions):
    report = load_batch(con, [item(a) for a in accessions], raw_dir=tmp_path / "raw")
    assert report.status == "succeeded", report.summary()
    return report


def links(con):
    return fetch_all(con, "SELECT accession, amends_accession, amendment_rule FROM insider_filings"
                          " WHERE document_type LIKE '%/A' ORDER BY accession")


def effective(con):
    return fetch_all(con, """SELECT accession, line_number, shares, price_per_share, from_amendment
                             FROM insider_transactions_effective ORDER BY line_number""")


def test_holdings_only_amendment_does_not_wipe_the_trades(con, tmp_path):
    load(con, tmp_path, ORIGINAL, AMEND_HOLD)
    assert links(con) == [(AMEND_HOLD, ORIGINAL, BEST)]
    assert effective(con) == [(ORIGINAL, 1, Decimal("1000"), Decimal("10.50"), False),
                              (ORIGINAL, 2, Decimal("500"), Decimal("10.75"), False)]
    assert fetch_value(con, "SELECT count(*) FROM insider_holdings WHERE accession = ?", [AMEND_HOLD]) == 1
    assert fetch_value(con, "SELECT lines FROM insider_open_market_filings WHERE accession = ?", [ORIGINAL]) == 2


def test_amendment_before_original_links_when_the_original_arrives(con, tmp_path):
    load(con, tmp_path, AMEND_TX)
    assert links(con) == [(AMEND_TX, None, links(con)[0][2])]
    assert links(con)[0][2].startswith("unlinked")
    assert [r[0] for r in effective(con)] == [AMEND_TX, AMEND_TX]  # stands alone until its original loads
    load(con, tmp_path, ORIGINAL)
    assert links(con) == [(AMEND_TX, ORIGINAL, BEST)]
    assert effective(con) == [(AMEND_TX, 1, Decimal("1000"), Decimal("10.50"), True),
                              (AMEND_TX, 2, Decimal("500"), Decimal("11.25"), True)]
    # the original's rows are kept
    assert fetch_value(con, "SELECT count(*) FROM insider_transactions WHERE accession = ?", [ORIGINAL]) == 2
    sup = fetch_value(con, "SELECT max(superseded_filings) FROM insider_transactions_effective")
    assert sup == 1
    line2 = fetch_all(con, """SELECT price_per_share, price_is_weighted_average, price_range_low, price_range_high,
                                     side FROM insider_open_market WHERE line_number = 2""")
    assert line2 == [(Decimal("11.25"), True, Decimal("11.00"), Decimal("11.50"), "sale")]
    per_filing = fetch_all(con, "SELECT accession, sold_shares FROM insider_open_market_filings")
    assert per_filing == [(AMEND_TX, Decimal("1500"))]


def test_all_three_in_one_batch(con, tmp_path):
    load(con, tmp_path, AMEND_HOLD, ORIGINAL, AMEND_TX)
    assert links(con) == [(AMEND_TX, ORIGINAL, BEST), (AMEND_HOLD, ORIGINAL, BEST)]
    assert [(r[0], r[3]) for r in effective(con)] == [(AMEND_TX, Decimal("10.50")), (AMEND_TX, Decimal("11.25"))]
    assert fetch_value(con, "SELECT count(*) FROM insider_transactions") == 4


def test_original_from_a_bare_xml_links_by_period(con, tmp_path):
    """A bare XML has no filing date: the link falls back to issuer + owners + period and says so."""
    txt = (HAND / f"{ORIGINAL}.txt").read_bytes()
    xml = re.search(rb"<XML>\s*(.*?)\s*</XML>", txt, re.S).group(1)
    bare = tmp_path / f"{ORIGINAL}_form4.xml"
    bare.write_bytes(xml)
    doc = read_local_document(bare, kind="ownership")
    rec = parse_ownership(doc.body, document=doc.uri)
    assert (rec.accession, rec.filed) == (ORIGINAL, None)
    load_batch(con, [Parsed(doc, rec), item(AMEND_TX)], raw_dir=tmp_path / "raw")
    assert links(con) == [(AMEND_TX, ORIGINAL, "issuer+same_owners+period(original_filed_date_unknown)")]
    cand = fetch_all(con, "SELECT candidate_rank, same_rule_candidates FROM insider_amendment_candidates")
    assert cand == [(1, 1)]
