"""Standard breakdowns (issue 24 item 4): revenue by business segment, product or service and geography
from filing_facts' dimensions, the parts' sum checked against the consolidated total, gaps named."""

from __future__ import annotations

import pytest

from helpers import FIXTURES
from pipelines.documents import read_local_document
from warehouse.agent import tools
from warehouse.load.ingest import ingest
from warehouse.read.breakdowns import BreakdownNotFound, breakdown, readable
from warehouse.store.db import connect, raw_dir_for

FILINGS = ["0000320193-25-000079_aapl-20250927", "0001045810-24-000029_nvda-20240128",
           "0001652044-25-000014_goog-20241231", "0000080424-25-000076_pg-20250630"]


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    path = tmp_path_factory.mktemp("breakdowns") / "w.duckdb"
    c = connect(path)
    docs = [read_local_document(FIXTURES / f"filings/10-K_10-Q/{f}.htm.gz") for f in FILINGS]
    assert ingest(c, docs, raw_dir=raw_dir_for(path), command="load").rejected == []
    yield c
    c.close()


def _latest(con, accession, name):
    return breakdown(con, accession, name)["periods"][0]


def test_a_segment_breakdown_sums_to_its_total_or_names_the_gap_for_each_filing(con):
    apple = _latest(con, "0000320193-25-000079", "business_segment")
    assert (apple["total"], apple["members_sum"], apple["sums_to_total"]) == ("416161000000", "416161000000", True)
    assert [m["label"] for m in apple["members"]] == ["Americas", "Europe", "Greater China", "Rest Of Asia Pacific",
                                                      "Japan"]
    nvidia = _latest(con, "0001045810-24-000029", "business_segment")
    assert (nvidia["total"], nvidia["sums_to_total"]) == ("60922000000", True)
    alphabet = _latest(con, "0001652044-25-000014", "business_segment")  # hedging gains are no segment's
    assert (alphabet["total"], alphabet["members_sum"], alphabet["gap"]) == ("350018000000", "349807000000", "211000000")
    assert "differ from the total by 211000000" in alphabet["note"]
    pg = _latest(con, "0000080424-25-000076", "business_segment")  # Corporate is not a reportable segment
    assert (pg["total"], pg["members_sum"], pg["gap"]) == ("84284000000", "83489000000", "795000000")


def test_subtotal_members_are_set_aside_and_labels_come_from_the_document(con):
    products = _latest(con, "0000320193-25-000079", "product_or_service")
    subtotal = [m for m in products["members"] if m["subtotal"]]
    # ProductMember (iPhone + Mac + iPad + Wearables) is a subtotal; its label is the income statement's line
    assert [(m["member"], m["label"]) for m in subtotal] == [("us-gaap:ProductMember", "Products")]
    assert products["sums_to_total"] and products["members_sum"] == "416161000000"
    geo = _latest(con, "0001045810-24-000029", "geography")
    assert geo["sums_to_total"] and {m["member"] for m in geo["members"]} >= {"country:US", "country:TW"}
    assert readable("aapl:GreaterChinaSegmentMember") == "Greater China"


def test_unknown_breakdowns_and_the_mcp_tool(con):
    with pytest.raises(BreakdownNotFound, match="one of business_segment"):
        breakdown(con, "0000320193-25-000079", "by_color")
    with pytest.raises(BreakdownNotFound, match="no product_or_service breakdown"):
        breakdown(con, "0001652044-25-000014", "product_or_service")
    result = tools.get_breakdown(con, "0001045810-24-000029", "product_or_service")
    assert result.error is None and result.periods[0].sums_to_total
    assert {m.label for m in result.periods[0].members} >= {"Data Center", "Gaming"}
    assert tools.get_breakdown(con, "0001045810-24-000029", "by_color").error.kind == "bad_argument"
