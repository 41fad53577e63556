"""One read layer (issue 23.4): the notebook API (warehouse/read/api.py) and the MCP tools
(warehouse/agent/tools.py) answer the same question from the same SQL file with the same meaning,
on the agent warehouse (real Apple and NVIDIA companyfacts, submissions and Forms 4). Each test asks
both surfaces one question and compares the rows; the tools are called in-process, and one real
stdio session (`edgar-warehouse mcp`) asks list_filings."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest
from mcp_client import call_ok, mcp_session

from warehouse.agent import tools
from warehouse.api import open_warehouse
from warehouse.schema.sql_files import sql_names


@pytest.fixture(scope="module")
def wh(agent_db):
    with open_warehouse(agent_db) as w:
        yield w


def test_the_agent_has_no_query_file_of_its_own_for_a_question_the_notebook_answers():
    """filings, insider transactions, derived metrics: one file each, under read/api/."""
    agent = set(sql_names("agent"))
    assert not {"filings", "insider_transactions", "derived_metric"} & agent, agent


@pytest.mark.parametrize("form", ["10-K", "10-k", "8-k"])
def test_filings_of_a_form_any_case_are_the_same_rows(wh, con, form):
    """A form matched case-insensitively on both surfaces (the notebook matched it exactly before,
    so ``form="10-k"`` raised 'unknown form' there while list_filings found the 10-Ks)."""
    notebook = wh.filings("AAPL", form=form, since="2015-01-01")
    tool = tools.list_filings(con, "AAPL", form=form, since="2015-01-01")
    assert tool.error is None and not tool.truncated
    assert notebook.height > 0
    assert [(f.accession, f.form, f.filing_date, f.acceptance_time) for f in tool.filings] == \
        notebook.select("accession", "form", "filing_date", "acceptance_time").rows()
    assert {f.upper().split("/")[0] for f in notebook["form"]} == {form.upper().split("/")[0]}


def test_insider_transactions_are_the_same_rows_with_owner_names_a_list(wh, con):
    """Newest first, owners as a list on both surfaces (the notebook joined them with '; ' and listed
    the oldest first)."""
    for codes in (None, ["s"], ["P", "S"]):
        notebook = wh.insider_transactions("AAPL", codes=codes)
        tool = tools.get_insider_transactions(con, "AAPL", codes=codes)
        assert tool.error is None and notebook.height == len(tool.transactions) > 0
        keys = ["accession", "table_kind", "line_number", "transaction_date", "transaction_code", "shares",
                "owner_names"]
        assert [tuple(getattr(t, k) for k in keys) for t in tool.transactions] == notebook.select(keys).rows()
    dates = [d for d in notebook["transaction_date"] if d is not None]
    assert dates == sorted(dates, reverse=True)
    assert notebook.schema["owner_names"].inner == notebook.schema["accession"]  # a list of names
    since = wh.insider_transactions("NVDA", since=date(2023, 1, 1))
    assert since.height == len(tools.get_insider_transactions(con, "NVDA", since="2023-01-01").transactions) > 0


@pytest.mark.parametrize("as_of", [None, "2021-06-01T00:00:00"])
def test_derived_metrics_are_the_same_versions(wh, con, as_of):
    for metric, fy, fp in (("free_cash_flow", 2025, "FY"), ("net_margin", 2020, "FY"), ("revenue_growth_yoy", 2020, "Q4")):
        notebook = wh.metrics("AAPL", metric, as_of=as_of, fiscal_year=fy, fiscal_period=fp)
        tool = tools.get_derived_metric(con, "AAPL", metric, fy, fp, as_of=as_of)
        if notebook.is_empty():
            assert tool.error is not None and tool.error.kind == "no_data", (metric, fy, fp)
            continue
        assert tool.error is None
        got = sorted((m.metric_id, m.value, m.unit, m.period_end, m.known_from, m.version) for m in tool.metrics)
        assert got == sorted(notebook.select("metric_id", "value", "unit", "period_end", "known_from", "version").rows())
    assert not wh.metrics("AAPL", "free_cash_flow", as_of="2024-01-01", fiscal_year=2025).height


@pytest.mark.slow  # the MCP server as a process (make check leaves it out)
@pytest.mark.timeout(300)
def test_one_mcp_session_over_stdio_lists_the_notebooks_filings(agent_db, wh):
    """The MCP server as a process: list_filings over stdio gives the notebook's rows (lower-case form)."""
    async def ask() -> dict:
        async with mcp_session(agent_db) as session:
            return await call_ok(session, "list_filings", company="NVDA", form="10-k", since="2018-01-01")

    answer = asyncio.run(ask())
    notebook = wh.filings("NVDA", form="10-k", since="2018-01-01")
    assert notebook.height > 0
    assert [f["accession"] for f in answer["filings"]] == notebook["accession"].to_list()
