"""A scripted MCP client session over real stdio (the SDK's client, `edgar-warehouse mcp` as the server)."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
from pathlib import Path

import pytest
from mcp_client import mcp_session, mcp_tools
from test_agent_verify import TRUE_BRIEF, _planted

pytestmark = pytest.mark.slow  # the MCP server as a process (make check leaves it out)

TOOLS = {"resolve_company", "get_facts", "get_fact_history", "get_derived_metric", "compare_companies",
         "list_filings", "get_statement", "get_breakdown", "get_segment", "get_insider_transactions", "verify_claims", "describe_schema", "query",
         "get_filing_section", "search_filings"}


async def _session(db: Path) -> dict:
    """Run the whole scripted conversation; return what each step answered (structured content)."""
    async with mcp_tools(db) as (listed, call):
        out: dict = {"tools": listed}
        out["resolve"] = await call("resolve_company", query="AAPL")
        out["fact"] = await call("get_facts", company="320193", concept="revenue", fiscal_year=2024,
                                 fiscal_period="FY")
        out["restated"] = await call("get_facts", company="AAPL", concept="us-gaap:SalesRevenueNet",
                                     fiscal_year=2009, fiscal_period="FY", as_of="2010-02-01T00:00:00")
        out["metric"] = await call("get_derived_metric", company="AAPL", metric="free_cash_flow", fiscal_year=2025)
        out["verify_true"] = await call("verify_claims", brief=TRUE_BRIEF)
        out["verify_planted"] = await call("verify_claims", brief=_planted(rev24={"value": 391053000000}))
        out["ambiguous"] = await call("get_facts", company="Apple", concept="revenue", fiscal_year=2024)
        out["query"] = await call("query", sql="SELECT count(*) AS n FROM filings WHERE cik = 320193")
    return out


@pytest.mark.timeout(300)
def test_scripted_mcp_session_over_stdio(agent_db):
    out = asyncio.run(_session(agent_db))

    assert set(out["tools"]) == TOOLS
    assert all(t.annotations.read_only_hint for t in out["tools"].values())
    assert "receipt" in out["tools"]["get_facts"].description  # what comes back is said, no output schema
    listed = sum(len(t.model_dump_json(by_alias=True, exclude_none=True)) for t in out["tools"].values())
    assert listed < 16_000, listed  # 64 KB for these 13 tools before, 51 KB of it output schemas (issue 22 item 5)

    assert out["resolve"]["status"] == "resolved" and out["resolve"]["company"]["cik"] == 320193

    fact = out["fact"]["facts"][0]
    receipt = fact["receipt"]
    assert fact["value"] == "391035000000"  # exact digits, never a float
    assert receipt["cik"] == 320193 and receipt["company_name"] == "Apple Inc."
    assert receipt["matched_tag"] == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    assert receipt["tags_tried"] and receipt["unit"] == "USD"
    assert (receipt["period_start"], receipt["period_end"]) == ("2023-10-01", "2024-09-28")
    assert (receipt["fiscal_year"], receipt["fiscal_period"]) == (2024, "FY")
    assert (receipt["accession"], receipt["form"], receipt["filed"]) == ("0000320193-25-000079", "10-K", "2025-10-31")
    assert receipt["acceptance_time"] == "2025-10-31T10:01:26Z"  # UTC, said with its zone
    assert receipt["sec_url"] == "https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/"
    assert receipt["computed"] is False and receipt["restated"] is False

    restated = out["restated"]["facts"][0]
    assert restated["value"] == "42905000000" and restated["receipt"]["form"] == "10-K/A"
    assert restated["receipt"]["restated"] is True
    assert restated["receipt"]["prior_value"] == "36537000000"
    assert restated["receipt"]["prior_accession"] == "0001193125-09-214859"

    metric = out["metric"]["metrics"][0]
    assert metric["value"] == "98767000000" and metric["computed"] is True
    assert metric["formula"] == "operating_cash_flow - capital_expenditure"
    assert metric["rule_version"] == "free_cash_flow.v1"
    assert {e["role"] for e in metric["lineage"]} == {"operating_cash_flow", "capital_expenditure"}
    assert {e["receipt"]["accession"] for e in metric["lineage"]} == {"0000320193-25-000079"}

    assert out["verify_true"]["passed"] is True
    assert all(c["status"] == "PASS" for c in out["verify_true"]["claims"])
    planted = {c["id"]: c for c in out["verify_planted"]["claims"]}
    assert out["verify_planted"]["passed"] is False
    assert planted["rev24"]["status"] == "FAIL" and "does not match" in planted["rev24"]["reason"]

    amb = out["ambiguous"]
    assert amb["facts"] == [] and amb["error"]["kind"] == "ambiguous_company"
    assert 320193 in {c["cik"] for c in amb["error"]["candidates"]} and amb["error"]["suggestion"]

    assert out["query"]["columns"] == ["n"] and out["query"]["rows"][0][0] > 0


async def _hostile_session(db: Path) -> tuple[list[tuple[str, dict, dict | None]], bool]:
    """Send what a hostile or careless caller sends, each followed by a call that must still work;
    return (what was sent, what came back, the follow-up's answer) and whether the server lives on."""
    logs = db.parent / "logs"
    hostile: list[tuple[str, dict]] = [
        ("query", {"sql": f"CALL enable_logging(storage='file', storage_path='{logs}')"}),
        ("query", {"sql": f"SELECT * FROM enable_logging(storage='file', storage_path='{logs}')"}),
        ("query", {"sql": f"COPY (SELECT 'pwned' AS x) TO '{db}' (FORMAT csv, USE_TMP_FILE false)"}),
        ("query", {"sql": "SELECT sleep_ms(60000)"}),
        ("query", {"sql": "x" * 30_000}),
        ("query", {"sql": 42}),
        ("query", {}),
        ("query", {"sql": "SELECT 1", "offset": -1}),
        ("get_facts", {"company": "AAPL", "concept": "revenue", "fiscal_year": "twenty"}),
        ("get_facts", {"company": "A" * 10_000, "concept": "revenue"}),
        ("compare_companies", {"concept_or_metric": "revenue", "companies": ["AAPL"] * 3000, "fiscal_year": 2024}),
        ("compare_companies", {"concept_or_metric": "revenue", "companies": [], "fiscal_year": 2024}),
        ("get_insider_transactions", {"company": "AAPL", "codes": ["S" * 100]}),
        ("list_filings", {"company": "AAPL", "since": "yesterday"}),
        ("verify_claims", {"brief": {"ticker": "AAPL"}}),
        ("describe_schema", {"table": ["facts"]}),
        ("no_such_tool", {"x": 1}),
    ]
    seen: list[tuple[str, dict, dict | None]] = []
    async with mcp_session(db) as session:
        for name, arguments in hostile:
            result = await session.call_tool(name, arguments)
            assert result.structured_content is not None, (name, result.content)
            follow = await session.call_tool("query", {"sql": "SELECT count(*) AS n FROM companies"})
            seen.append((name, result.structured_content, follow.structured_content))
        alive = (await session.call_tool("resolve_company", {"query": "AAPL"})).structured_content["status"] == "resolved"
    return seen, alive


@pytest.mark.timeout(300)
def test_the_server_survives_anything_a_caller_sends(agent_db, tmp_path):
    """`CALL enable_logging(storage='file', ...)` killed the server (terminate called after throwing
    duckdb::PermissionException); `COPY ... TO '<db>'` truncated the warehouse through the query tool;
    bad arguments came back as pydantic's text with links; 3,000 companies ran 88 s."""
    db = tmp_path / "w.duckdb"
    shutil.copy(agent_db, db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    seen, alive = asyncio.run(_hostile_session(db))
    assert alive
    for name, answer, follow in seen:
        error = answer["error"]
        assert error and error["kind"] in {"bad_argument", "query_failed"} and error["message"] and error["suggestion"], (name, answer)
        assert "pydantic" not in error["message"] and "http" not in error["message"], error["message"]
        assert follow["rows"] and follow["rows"][0][0] > 0, (name, follow)
    messages = [answer["error"]["message"] for _, answer, _ in seen]
    assert all(m.startswith("refused: ") for m in messages[:3]), messages[:3]
    assert "time limit" in messages[3]
    assert "companies" in messages[10] and "at most 50" in messages[10]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb"]  # no WAL, no log file
