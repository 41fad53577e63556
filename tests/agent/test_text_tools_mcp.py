"""get_filing_section, search_filings and quote claims in a real MCP stdio session (`edgar-warehouse mcp`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from mcp_client import mcp_tools

from helpers import FIXTURES
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.store.db import connect, raw_dir_for

# the MCP server as a process (make check leaves it out, tests/conftest.py's rule): 8.2 s CPU with its
# warehouse and the server's (CPU of the test and its waited children, box at load ~30)
pytestmark = pytest.mark.slow

FILES = [FIXTURES / "sec/data.sec.gov/submissions/CIK0000320193.json.gz",
         FIXTURES / "filings/10-K_10-Q/0000320193-24-000123_aapl-20240928.htm.gz",
         FIXTURES / "filings/10-K_10-Q/0001045810-24-000029_nvda-20240128.htm.gz"]
QUOTE = "Greater China net sales decreased during 2024 compared to 2023 due primarily to lower net sales of iPhone and iPad."


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mcp_text") / "w.duckdb"
    con = connect(path)
    try:
        assert ingest(con, [read_local_document(p) for p in FILES], raw_dir=raw_dir_for(path),
                      command="load").rejected == []
    finally:
        con.close()
    return path


async def _session(db: Path) -> dict:
    async with mcp_tools(db) as (listed, call):
        out: dict = {"tools": listed}
        out["section"] = await call("get_filing_section", accession="0000320193-24-000123", item="1A", max_chars=300)
        out["unknown"] = await call("get_filing_section", accession="0000320193-24-000123", item="17")
        out["phrase"] = await call("search_filings", phrase="export controls", item="1A", limit=3)
        out["keywords"] = await call("search_filings", query="export controls China", limit=3)
        out["quote"] = await call("verify_claims", brief={"ticker": "AAPL", "claims": [
            {"id": "q1", "kind": "quote", "text": QUOTE, "accession": "0000320193-24-000123", "item": "7"},
            {"id": "q2", "kind": "quote", "text": QUOTE.replace("2023", "2022"), "accession": "0000320193-24-000123",
             "item": "7"}]})
    return out


@pytest.mark.timeout(300)
def test_text_tools_in_a_real_stdio_session(db):
    out = asyncio.run(_session(db))
    assert {"get_filing_section", "search_filings"} <= set(out["tools"])
    s = out["section"]
    assert s["heading"] == "Item 1A. Risk Factors" and len(s["text"]) == 300 and s["truncated"] and s["chars"] > 60_000
    assert s["confidence"] == 0.95 and s["confidence_reason"]
    assert s["receipt"]["document_url"].endswith("/000032019324000123/aapl-20240928.htm")
    assert s["receipt"]["byte_start"] < s["receipt"]["byte_end"]
    err = out["unknown"]["error"]
    assert err["kind"] == "no_data" and err["closest"][:4] == ["1", "1A", "1B", "1C"]
    assert out["phrase"]["hits"] and all(h["item"] == "1A" and h["cik"] == 1045810 for h in out["phrase"]["hits"])
    assert out["keywords"]["hits"][0]["accession"] == "0001045810-24-000029"
    claims = {c["id"]: c for c in out["quote"]["claims"]}
    assert claims["q1"]["status"] == "PASS" and claims["q2"]["status"] == "FAIL"
    assert "a changed number" in claims["q2"]["reason"]
