"""Standard breakdowns (issue 24 item 4): revenue by business segment, product or service and geography
from filing_facts' dimensions, the parts' sum checked against the consolidated total, gaps named."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES
from pipelines.documents import read_local_document
from warehouse.agent import tools
from warehouse.load.ingest import ingest
from warehouse.read.breakdowns import BreakdownNotFound, breakdown
from warehouse.read.compare import compare
from warehouse.read.growth import growth
from warehouse.read.segments import SegmentNotFound
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
    # Alphabet's hedging gains are no segment's: the gap is the value of the fact the filing tags them with
    alphabet = _latest(con, "0001652044-25-000014", "business_segment")
    assert (alphabet["total"], alphabet["members_sum"], alphabet["gap"]) == ("350018000000", "349807000000", "211000000")
    assert [e["concept"] for e in alphabet["explained_by"]] == ["us-gaap:GainLossOnOilAndGasHedgingActivity"]
    assert "differ from the total by 211000000: the value of us-gaap:GainLossOnOilAndGasHedgingActivity" in alphabet["note"]
    # P&G's Corporate is no reportable segment: the filing tags it as a reconciling item, and what is left
    # (1 million) is within the rounding of seven values given in millions
    pg = _latest(con, "0000080424-25-000076", "business_segment")
    assert (pg["total"], pg["members_sum"], pg["gap"]) == ("84284000000", "83489000000", "795000000")
    assert [(r["member"], r["label"], r["value"]) for r in pg["reconciling"]] == [
        ("us-gaap:CorporateNonSegmentMember", "Corporate Non Segment", "794000000")]
    assert (pg["residual"], pg["rounding"]) == ("1000000", "3500000")
    # each of the four adds up: exactly, or with the remainder the filing itself names
    assert [b["adds_up"] for b in (apple, nvidia, alphabet, pg)] == [True] * 4
    untagged = _latest(con, "0001652044-25-000014", "geography")  # the same hedging gains, outside regions
    assert untagged["adds_up"] and untagged["explained_by"][0]["value"] == "211000000"


def test_subtotal_members_are_set_aside_and_labels_come_from_the_document(con):
    products = _latest(con, "0000320193-25-000079", "product_or_service")
    subtotal = [m for m in products["members"] if m["subtotal"]]
    # ProductMember (iPhone + Mac + iPad + Wearables) is a subtotal; its label is the income statement's line
    assert [(m["member"], m["label"]) for m in subtotal] == [("us-gaap:ProductMember", "Products")]
    assert products["sums_to_total"] and products["members_sum"] == "416161000000"
    geo = _latest(con, "0001045810-24-000029", "geography")
    assert geo["sums_to_total"] and {m["member"] for m in geo["members"]} >= {"country:US", "country:TW"}
    assert con.execute("SELECT readable_member('aapl:GreaterChinaSegmentMember')").fetchone()[0] == "Greater China"


def test_unknown_breakdowns_and_the_mcp_tool(con):
    with pytest.raises(BreakdownNotFound, match="one of business_segment"):
        breakdown(con, "0000320193-25-000079", "by_color")
    with pytest.raises(BreakdownNotFound, match="no product_or_service breakdown"):
        breakdown(con, "0001652044-25-000014", "product_or_service")
    result = tools.get_breakdown(con, "0001045810-24-000029", "product_or_service")
    assert result.error is None and result.periods[0].sums_to_total and result.periods[0].adds_up
    pg = tools.get_breakdown(con, "0000080424-25-000076", "business_segment").periods[0]
    assert pg.adds_up and [r.label for r in pg.reconciling] == ["Corporate Non Segment"]
    assert {m.label for m in result.periods[0].members} >= {"Data Center", "Gaming"}
    assert tools.get_breakdown(con, "0001045810-24-000029", "by_color").error.kind == "bad_argument"


@pytest.fixture(scope="module")
def with_companyfacts(con, tmp_path_factory):
    """The same warehouse plus Apple's and NVIDIA's companyfacts (their fiscal calendar) and Apple's FY2024 10-K."""
    docs = [read_local_document(COMPANYFACTS_DIR / f"CIK{cik:010d}.json.gz") for cik in (320193, 1045810)]
    docs.append(read_local_document(FIXTURES / "filings/10-K_10-Q/0000320193-24-000123_aapl-20240928.htm.gz"))
    assert ingest(con, docs, raw_dir=tmp_path_factory.mktemp("cf"), command="load").rejected == []
    return con


def test_the_fact_members_view_names_members_by_the_document_or_the_qname(con):
    named = dict(con.execute("""SELECT member, any_value(member_label) FROM filing_fact_members
                                WHERE accession = '0000320193-25-000079' AND axis = 'srt:ProductOrServiceAxis'
                                GROUP BY member""").fetchall())
    assert named["us-gaap:ProductMember"] == "Products" and named["aapl:IPhoneMember"] == "IPhone"
    # an equity statement's members are its columns: its lines ("Issuance of common stock") name no member
    equity = con.execute("""SELECT count(*) FROM filing_fact_members
                            WHERE axis = 'us-gaap:StatementEquityComponentsAxis' AND label_printed""").fetchone()
    assert equity == (0,)
    # one row per dimension: a fact with two dimensions is in the view twice, once per axis
    assert con.execute("SELECT count(*) FROM filing_fact_members").fetchone()[0] == \
        con.execute("SELECT sum(cardinality(dimensions)) FROM filing_facts").fetchone()[0] > 0


def test_growth_and_compare_on_a_segment(with_companyfacts):
    con = with_companyfacts
    iphone = growth(con, "revenue", 320193, 2024, 2025, segment="iphone")  # by its name, any case
    # both years from the FY2025 10-K (the latest filing reporting them): 209,586 / 201,183 - 1
    assert (iphone["member"], iphone["from_value"], iphone["to_value"], iphone["to_element_id"]) == \
        ("aapl:IPhoneMember", Decimal("201183000000"), Decimal("209586000000"), "f-377")
    assert iphone["value"] == Decimal("0.0417679426") and iphone["from_accession"] == "0000320193-25-000079"
    data_center = growth(con, "sales", 1045810, 2023, 2024, segment="nvda:DataCenterMember")
    assert (data_center["from_value"], data_center["to_value"]) == (Decimal("15005000000"), Decimal("47525000000"))
    missing = growth(con, "revenue", 320193, 2019, 2025, segment="iPhone")
    assert missing["value"] is None and missing["null_reason"] == "no FY value of the segment for fiscal year 2019"
    rows = compare(con, "revenue", [320193, 1045810], 2024, segment="country:US")
    assert [(r["cik"], r["value"], r["member_label"]) for r in rows] == [
        (320193, Decimal("142196000000"), "US"), (1045810, Decimal("26966000000"), "US")]
    assert any("period ends differ by 244 days" in w for w in rows[0]["warnings"])  # Sep vs Jan year ends
    with pytest.raises(SegmentNotFound, match="no revenue facts for a member named 'Toasters'"):
        growth(con, "revenue", 320193, 2024, 2025, segment="Toasters")
    result = tools.get_segment(con, "320193", "Services")
    assert result.error is None and result.member == "us-gaap:ServiceMember" and result.member_label == "Services"
    fy2025 = [v for v in result.values if (v.fiscal_year, v.fiscal_period) == (2025, "FY")]
    assert [(v.value, v.accession) for v in fy2025] == [(Decimal("109158000000"), "0000320193-25-000079")]
    assert tools.get_segment(con, "320193", "Toasters").error.kind == "no_data"
