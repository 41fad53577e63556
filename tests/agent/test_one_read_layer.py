"""One read layer (issue 23.4): the notebook API (warehouse/read/api.py) and the MCP tools
(warehouse/agent/tools.py) answer the same question from the same SQL file with the same meaning,
on the agent warehouse (real Apple and NVIDIA companyfacts, submissions and Forms 4). Each test asks
both surfaces one question and compares the rows; the tools are called in-process, and one real
stdio session (`edgar-warehouse mcp`) asks list_filings."""

from __future__ import annotations

import asyncio
from datetime import date

import polars as pl
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
    """filings, insider transactions, derived metrics and their lineage, standard facts (now, as of),
    facts, fact versions: one file each, under read/api/."""
    agent = set(sql_names("agent"))
    assert not {"filings", "insider_transactions", "derived_metric", "standard_facts", "standard_facts_as_of",
                "chain_concepts", "fact_versions", "lineage", "lineage_concepts"} & agent, agent


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


def test_lineage_is_the_same_edges_with_the_same_receipts(wh, con):
    """A metric's lineage: the notebook's lineage() rows are get_derived_metric's edges (role, step,
    fact version, value, the filing's form and acceptance time)."""
    for company, metric, fy, fp in (("AAPL", "free_cash_flow", 2025, "FY"), ("AAPL", "ttm_revenue", 2024, "Q3"),
                                    ("NVDA", "gross_margin", 2024, "Q4")):
        tool = tools.get_derived_metric(con, company, metric, fy, fp)
        assert tool.error is None and tool.metrics, (metric, tool.error)
        for m in tool.metrics:
            got = sorted((e.role, e.step, e.value, e.receipt.accession, e.revision, e.receipt.form,
                          e.receipt.acceptance_time, e.input_metric_id) for e in m.lineage)
            frame = wh.lineage(m.metric_id)
            assert got == sorted(frame.select("role", "step", "value", "accession", "revision", "form",
                                              "acceptance_time", "input_metric_id").rows()) and got, m.metric_id


@pytest.mark.parametrize("as_of", [None, "2010-02-01T00:00:00", "2022-01-01T00:00:00"])
@pytest.mark.parametrize(("company", "tag", "fy", "fp"), [
    ("AAPL", "us-gaap:SalesRevenueNet", 2009, "FY"), ("AAPL", "us-gaap:NetIncomeLoss", 2009, None),
    ("NVDA", "us-gaap:Revenues", None, "FY")])
def test_facts_of_a_tag_are_the_same_latest_versions_with_the_same_receipts(wh, con, company, tag, fy, fp, as_of):
    """get_facts for a tag gives the notebook's facts() rows, each with the same receipt (versions,
    restated, prior, first value, acceptance time), now and at two instants."""
    notebook = wh.facts(company, tag, as_of=as_of, fiscal_year=fy, fiscal_period=fp)
    tool = tools.get_facts(con, company, tag, fy, fp, as_of=as_of)
    if notebook.is_empty():
        assert tool.error is not None and tool.error.kind == "no_data"
        return
    assert tool.error is None and not tool.truncated and len(tool.facts) == notebook.height
    keys = ["unit", "period_start", "period_end", "accession", "form", "filed", "acceptance_time", "known_from",
            "versions", "restated", "prior_value", "prior_accession", "first_value", "first_accession", "company_name"]
    def key(row: tuple) -> tuple:  # unit, period: one fact each
        return tuple(str(v) for v in row[1:4])
    got = sorted([(f.value, *(getattr(f.receipt, k) for k in keys)) for f in tool.facts], key=key)
    assert got == sorted(notebook.select("value", *keys).rows(), key=key)
    assert {f.receipt.concept for f in tool.facts} == {tag}


@pytest.mark.parametrize(("company", "tag", "fy", "fp"), [
    ("AAPL", "us-gaap:SalesRevenueNet", 2009, "FY"), ("AAPL", "us-gaap:NetIncomeLoss", 2020, "Q2"),
    ("NVDA", "us-gaap:Revenues", 2021, "FY")])
def test_fact_versions_are_the_same_versions_in_the_same_order_of_publication(wh, con, company, tag, fy, fp):
    """get_fact_history's versions are the notebook's fact_versions() rows: each version's number,
    value, filing and prior value, restatements included."""
    notebook = wh.fact_versions(company, tag, fiscal_year=fy, fiscal_period=fp)
    tool = tools.get_fact_history(con, company, tag, fy, fp)
    assert tool.error is None and notebook.height == len(tool.versions) > 0
    got = sorted((v.receipt.unit, str(v.receipt.period_start), v.receipt.period_end, v.version, v.value,
                  v.receipt.accession, v.receipt.prior_value, v.receipt.restated) for v in tool.versions)
    expected = sorted((r["unit"], str(r["period_start"]), r["period_end"], r["version_number"], r["value"],
                       r["accession"], r["prior_value"], r["restated"]) for r in notebook.iter_rows(named=True))
    assert got == expected


RECEIPT = ["cik", "standard_concept", "taxonomy", "matched_tag", "tags_tried", "unit", "period_start", "period_end",
           "duration_class", "fiscal_year", "fiscal_period", "accession", "form", "filed", "acceptance_time",
           "known_from", "derivation", "versions", "restated", "prior_value", "prior_accession", "first_value",
           "first_accession", "company_name"]


@pytest.mark.parametrize("as_of", [None, "2021-06-01T00:00:00", "2024-11-02T00:00:00"])
@pytest.mark.parametrize(("company", "concept", "fy", "fp"), [
    ("AAPL", "revenue", 2020, None), ("AAPL", "net_income", None, "Q4"), ("NVDA", "revenue", 2021, None),
    ("NVDA", "operating_cash_flow", 2020, "FY")])
def test_standard_facts_are_the_same_values_with_the_same_receipts(wh, con, company, concept, fy, fp, as_of):
    """Each value and its receipt (the matched tag's versions, restated, prior and first value, the
    filing's acceptance time): the notebook's frame row for row, now and as of two instants."""
    notebook = wh.standard_facts(company, concept, as_of=as_of, fiscal_year=fy, fiscal_period=fp)
    tool = tools.get_facts(con, company, concept, fy, fp, as_of=as_of)
    if notebook.is_empty():
        assert tool.error is not None and tool.error.kind == "no_data"
        return
    assert tool.error is None and not tool.truncated
    got = []
    for f in tool.facts:
        r = f.receipt.model_dump()
        r["taxonomy"], _, r["matched_tag"] = r["concept"].partition(":")
        got.append(tuple([f.value, *(r[k] for k in RECEIPT)]))
    expected = notebook.select("value", *RECEIPT).rows()

    def key(row: tuple) -> tuple:  # unit, period, class: one row each
        return tuple(str(row[1 + RECEIPT.index(k)]) for k in ("unit", "period_start", "period_end", "duration_class"))
    assert sorted(got, key=key) == sorted(expected, key=key)
    assert "reported" in notebook["derivation"]


def test_the_notebook_asks_every_standard_concept_at_once(wh):
    """concept=None: every concept of the company, each row its receipt (the chain concepts of every chain)."""
    every = wh.standard_facts("NVDA", fiscal_year=2024, fiscal_period="FY")
    one = wh.standard_facts("NVDA", "revenue", fiscal_year=2024, fiscal_period="FY")
    assert every["standard_concept"].n_unique() > 10
    assert every.filter(pl.col("standard_concept") == "revenue").rows() == one.rows()
    assert every.filter(pl.col("derivation") == "reported")["versions"].null_count() == 0


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


@pytest.mark.parametrize("as_of", ["2010-02-01 00:00:00", "2019-06-30 00:00:00"])
def test_the_as_of_facts_are_what_facts_as_of_says(con, as_of):
    """read/api/facts.sql reads an instant's facts as the latest of facts_ranked_as_of (the tools'
    rule; the notebook read facts_as_of): every key's value, accession and known_from the same."""
    key = "cik, taxonomy, concept, unit, period_start, period_end, value, accession, form, filed, known_from"
    for cik in (320193, 1045810):
        ranked = f"SELECT {key} FROM facts_ranked_as_of(CAST($ts AS TIMESTAMP)) WHERE cik = $cik AND version_number = versions"
        as_of_rows = f"SELECT {key} FROM facts_as_of(CAST($ts AS TIMESTAMP)) WHERE cik = $cik"
        params = {"ts": as_of, "cik": cik}
        assert con.execute(f"SELECT count(*) FROM ({as_of_rows})", params).fetchone()[0] > 100
        for a, b in ((ranked, as_of_rows), (as_of_rows, ranked)):
            assert con.execute(f"SELECT count(*) FROM ({a} EXCEPT ALL {b})", params).fetchone()[0] == 0
