"""The agent tools as plain functions on real vendored data: receipts, errors as data, read-only limits."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from warehouse.agent import schema_tools, tools

APPLE, NVIDIA = 320193, 1045810


def test_resolve_company_resolves_a_ticker_and_refuses_to_guess_an_ambiguous_name(con):
    ok = tools.resolve_company(con, "aapl")
    assert ok.status == "resolved" and ok.company.cik == APPLE and ok.company.name == "Apple Inc."
    amb = tools.resolve_company(con, "Apple")
    assert amb.status == "ambiguous" and amb.company is None
    assert amb.error.kind == "ambiguous_company"
    assert {c.cik for c in amb.error.candidates} >= {APPLE, 1418121}  # Apple Inc., Apple Hospitality REIT


def test_get_facts_standard_concept_carries_a_full_receipt(con):
    res = tools.get_facts(con, "AAPL", "revenue", 2024, "FY")
    assert res.error is None and len(res.facts) == 1
    fact = res.facts[0]
    r = fact.receipt
    assert fact.value == Decimal("391035000000")
    assert (r.cik, r.company_name, r.standard_concept, r.unit) == (APPLE, "Apple Inc.", "revenue", "USD")
    assert r.matched_tag == r.concept == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    assert r.tags_tried and r.tags_tried[-1] == r.matched_tag
    assert (str(r.period_start), str(r.period_end), r.fiscal_year, r.fiscal_period) == (
        "2023-10-01", "2024-09-28", 2024, "FY")
    # the latest filing that reported it: the FY2025 10-K (a comparative), accepted 2025-10-31 10:01:26 UTC
    assert (r.accession, r.form, str(r.filed)) == ("0000320193-25-000079", "10-K", "2025-10-31")
    assert r.acceptance_time == datetime(2025, 10, 31, 10, 1, 26, tzinfo=UTC)
    assert r.sec_url == "https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/"
    # the FY2025 10-K re-filed the value unchanged: a confirmation, so there is no prior (different) value
    assert r.prior_value is None and r.prior_accession is None and not r.restated
    assert r.first_accession == "0000320193-24-000123" and r.first_value == fact.value and r.versions == 2
    assert r.computed is False and r.derivation == "reported"


def test_restated_fact_carries_its_prior_and_first_value_and_as_of_sees_the_past(con):
    now = tools.get_facts(con, "AAPL", "us-gaap:SalesRevenueNet", 2009, "FY")
    assert now.error is None and len(now.facts) == 1
    r = now.facts[0].receipt
    assert now.facts[0].value == Decimal("42905000000") and r.restated and r.versions == 4
    assert r.first_value == Decimal("36537000000") and r.first_accession == "0001193125-09-214859"
    after_amendment = tools.get_facts(con, "AAPL", "us-gaap:SalesRevenueNet", 2009, "FY", as_of="2010-02-01")
    r = after_amendment.facts[0].receipt
    assert (r.accession, r.form, r.prior_value, r.prior_accession) == (
        "0001193125-10-012091", "10-K/A", Decimal("36537000000"), "0001193125-09-214859")
    before = tools.get_facts(con, "AAPL", "us-gaap:SalesRevenueNet", 2009, "FY", as_of="2010-01-01")
    assert before.facts[0].value == Decimal("36537000000") and not before.facts[0].receipt.restated


def test_receipt_prior_is_the_last_different_value_not_the_previous_version(con):
    """Issue 9: the receipts computed prior_value as lag(value), the previous version: NVIDIA's FY2024
    basic EPS (12.05, split 10-for-1 to 1.21 by the FY2025 10-K, re-filed as 1.21 by the FY2026 10-K)
    came back with prior 1.21, the confirmation itself. The prior is the last DIFFERENT value (issue 11,
    facts_ranked), in get_facts for a tag and for a standard concept, and in the history."""
    for concept in ("us-gaap:EarningsPerShareBasic", "eps_basic"):
        res = tools.get_facts(con, "NVDA", concept, 2024, "FY")
        assert res.error is None and len(res.facts) == 1, res
        fact, r = res.facts[0], res.facts[0].receipt
        assert (fact.value, r.accession, str(r.period_end)) == (Decimal("1.21"), "0001045810-26-000021", "2024-01-28")
        assert (r.prior_value, r.prior_accession) == (Decimal("12.05"), "0001045810-24-000029"), concept
        assert r.restated and r.versions == 3 and r.first_value == Decimal("12.05")
    history = tools.get_fact_history(con, "NVDA", "us-gaap:EarningsPerShareBasic", 2024, "FY")
    assert [(v.version, v.value, v.change_from_previous, v.receipt.prior_value) for v in history.versions] == [
        (1, Decimal("12.05"), None, None), (2, Decimal("1.21"), Decimal("-10.84"), Decimal("12.05")),
        (3, Decimal("1.21"), Decimal("0"), Decimal("12.05"))]
    before_confirmation = tools.get_facts(con, "NVDA", "eps_basic", 2024, "FY", as_of="2025-12-31T00:00:00+00:00")
    r = before_confirmation.facts[0].receipt
    assert (r.accession, r.prior_value, r.versions) == ("0001045810-25-000023", Decimal("12.05"), 2)


def test_as_of_with_a_zone_is_converted_to_utc_and_times_come_back_with_their_zone(con):
    """An as_of of 05:59 at UTC-5 is 10:59 UTC: after Apple's FY2025 10-K (accepted 10:01:26 UTC);
    04:59 at UTC-5 (09:59 UTC) is before it. Times in receipts carry their zone (UTC)."""
    after = tools.get_facts(con, "AAPL", "revenue", 2024, "FY", as_of="2025-10-31T05:59:00-05:00")
    before = tools.get_facts(con, "AAPL", "revenue", 2024, "FY", as_of="2025-10-31T04:59:00-05:00")
    assert after.facts[0].receipt.accession == "0000320193-25-000079"
    assert before.facts[0].receipt.accession == "0000320193-24-000123"
    assert after.as_of == datetime(2025, 10, 31, 10, 59, tzinfo=UTC)
    assert after.facts[0].receipt.known_from.tzinfo is not None


def test_fact_history_lists_every_version_in_publication_order(con):
    res = tools.get_fact_history(con, "AAPL", "revenue", 2009, "FY")
    assert res.error is None
    assert [(v.version, v.value, v.receipt.form) for v in res.versions][:2] == [
        (1, Decimal("36537000000"), "10-K"), (2, Decimal("42905000000"), "10-K/A")]
    assert res.versions[1].change_from_previous == Decimal("6368000000")
    assert all(v.receipt.matched_tag == "us-gaap:SalesRevenueNet" for v in res.versions)


def test_computed_quarter_is_flagged_computed(con):
    q4 = tools.get_facts(con, "AAPL", "revenue", 2024, "Q4").facts
    quarter = [f for f in q4 if f.receipt.duration_class == "quarter"]
    assert quarter and quarter[0].receipt.computed and quarter[0].receipt.derivation == "derived_q4"
    history = tools.get_fact_history(con, "AAPL", "revenue", 2024, "Q4")
    assert history.error.kind == "no_data" and "computed by the warehouse" in history.error.message


def test_derived_metric_with_formula_rule_version_and_lineage_to_fact_versions(con):
    res = tools.get_derived_metric(con, "AAPL", "free_cash_flow", 2025)
    assert res.error is None and len(res.metrics) == 1
    m = res.metrics[0]
    assert m.value == Decimal("98767000000") and m.computed
    assert m.formula == "operating_cash_flow - capital_expenditure" and m.rule_version == "free_cash_flow.v1"
    roles = {e.role: e for e in m.lineage}
    assert set(roles) == {"operating_cash_flow", "capital_expenditure"}
    for e in m.lineage:
        assert e.receipt.accession == "0000320193-25-000079" and e.receipt.form == "10-K"
        assert e.receipt.acceptance_time is not None and e.receipt.computed is False
    assert m.value == roles["operating_cash_flow"].value - roles["capital_expenditure"].value


def test_errors_come_back_as_data_with_suggestions(con):
    typo = tools.get_facts(con, "AAPL", "Revnue")
    assert typo.error.kind == "unknown_concept" and typo.error.closest[0] == "revenue"
    tag_typo = tools.get_facts(con, "AAPL", "us-gaap:Revenue")
    assert tag_typo.error.kind == "unknown_concept" and "us-gaap:Revenues" in tag_typo.error.closest
    # plain-English names and case are the vocabulary's (warehouse.schema.vocabulary), not errors
    assert tools.get_facts(con, "AAPL", "Sales", 2024, "FY").concept == "revenue"
    metric_asked = tools.get_facts(con, "AAPL", "free_cash_flow", 2024)
    assert metric_asked.error.kind == "unknown_concept" and "get_derived_metric" in metric_asked.error.suggestion
    assert tools.get_derived_metric(con, "AAPL", "FCF", 2025).metrics[0].metric == "free_cash_flow"
    old = tools.get_facts(con, "AAPL", "revenue", 1990)
    assert old.error.kind == "no_data" and 2024 in old.error.fiscal_years_available
    assert 1990 not in old.error.fiscal_years_available
    metric = tools.get_derived_metric(con, "AAPL", "revenue", 2024)
    assert metric.error.kind == "unknown_metric" and "standard concept" in metric.error.message
    ebitda = tools.compare_companies(con, "ebitda_adjusted", ["AAPL"], 2024)
    assert ebitda.error.kind == "unknown_metric"
    ambiguous = tools.get_facts(con, "Apple", "revenue", 2024)
    assert ambiguous.error.kind == "ambiguous_company" and ambiguous.facts == []
    bad_period = tools.get_facts(con, "AAPL", "revenue", 2024, "H1")
    assert bad_period.error.kind == "bad_argument"


def test_compare_companies_rows_and_warnings(con):
    res = tools.compare_companies(con, "revenue", ["AAPL", "NVDA"], 2024)
    assert res.error is None and [r.cik for r in res.rows] == [APPLE, NVIDIA]
    assert res.rows[0].value == Decimal("391035000000") and res.rows[1].value == Decimal("60922000000")
    assert any("period ends differ" in w for w in res.warnings)
    assert res.rows[0].sec_url.startswith("https://www.sec.gov/Archives/edgar/data/320193/")


def test_filings_and_insider_transactions(con):
    tenk = tools.list_filings(con, "AAPL", form="10-K", since="2024-01-01")
    assert [f.accession for f in tenk.filings] == ["0000320193-25-000079", "0000320193-24-000123"]
    assert tenk.filings[0].acceptance_time == datetime(2025, 10, 31, 10, 1, 26, tzinfo=UTC)
    sales = tools.get_insider_transactions(con, "AAPL", codes=["s"])
    assert len(sales.transactions) == 7 and sum(t.shares for t in sales.transactions) == Decimal("25000")
    assert sales.transactions[0].owner_names == ["Adams Katherine L."]
    none = tools.get_insider_transactions(con, "AAPL", since="2030-01-01")
    assert none.error.kind == "no_data"


def test_describe_schema_reads_duckdbs_own_comments(con):
    everything = schema_tools.describe_schema(con)
    names = {t.name: t for t in everything.tables}
    assert names["facts"].kind == "table" and names["facts_as_of"].kind == "table_macro"
    facts = schema_tools.describe_schema(con, "facts_current").tables[0]
    assert facts.kind == "view" and {c.name for c in facts.columns} >= {"value", "restated", "prior_value"}
    assert all(c.comment for c in facts.columns)
    wrong = schema_tools.describe_schema(con, "fact")
    assert wrong.error.kind == "unknown_table" and "facts" in wrong.error.closest


def test_query_is_one_statement_read_only_sandboxed_row_and_time_limited(con, tmp_path):
    ok = schema_tools.query(con, "SELECT cik, count(*) AS n FROM facts GROUP BY cik ORDER BY cik")
    assert ok.error is None and ok.rows == [[APPLE, 24579], [NVIDIA, 26903]]
    capped = schema_tools.query(con, "SELECT * FROM range(5000)", max_rows=10)
    assert capped.truncated and capped.row_count == 10 and len(capped.rows) == 10
    assert capped.cut_by == "rows" and capped.next_offset == 10
    two = schema_tools.query(con, "SELECT 1; SELECT 2")
    assert two.error.kind == "bad_argument"
    leak = tmp_path / "leak.csv"
    for refused in ("DELETE FROM facts", f"COPY facts TO '{leak}'", "SET enable_external_access = true",
                    "CALL enable_logging()"):
        answer = schema_tools.query(con, refused)
        assert answer.error.kind == "bad_argument" and answer.error.message.startswith("refused: "), refused
    assert not leak.exists()
    slow = schema_tools.query(con, "SELECT sum(hash(i)) FROM range(100000000000) t(i)", timeout_seconds=0.5)
    assert slow.error.kind == "query_failed" and "time limit" in slow.error.message


def test_query_pages_are_capped_in_bytes_and_say_where_the_next_begins(con):
    """1,000 rows of 1 MB each passed the row cap (420,000 characters for 1,000 rows of facts)."""
    import json

    sql = "SELECT range AS i, repeat('x', 1000) AS pad FROM range(1000) ORDER BY i"
    first = schema_tools.query(con, sql)
    assert first.truncated and first.cut_by == "bytes" and 0 < first.row_count < 1000
    assert len(json.dumps(first.rows)) <= schema_tools.QUERY_MAX_BYTES
    seen, page = list(first.rows), first
    while page.truncated:
        page = schema_tools.query(con, sql, offset=page.next_offset)
        assert page.error is None and page.offset == len(seen)
        seen += page.rows
    assert [r[0] for r in seen] == list(range(1000))  # every row once, in order
    huge = schema_tools.query(con, "SELECT repeat('x', 1000000) AS s FROM range(3)")
    assert huge.error.kind == "query_failed" and "more than the 64,000 a page may hold" in huge.error.message
    assert huge.rows == []


def test_standard_facts_now_from_current_rows_equal_the_ranking_path(con):
    """read/api/standard_facts_now.sql (now: receipts from facts_current) gives the rows of
    read/api/standard_facts.sql asked for now (receipts ranked from every version), for every
    standard concept of both companies: versions, restated, prior and first values included."""
    from warehouse.agent.tools import _chain_concepts
    from warehouse.schema.sql_files import sql

    names = [r[0] for r in con.execute("SELECT DISTINCT standard_concept FROM standard_concepts ORDER BY 1").fetchall()]
    compared = restated = 0
    for cik in (APPLE, NVIDIA):
        for name in names:
            params = {"cik": cik, "concept": name, "fiscal_year": None, "fiscal_period": None,
                      "chain_concepts": _chain_concepts(con, name)}
            now = con.execute(sql("read/api/standard_facts_now"), params).fetchall()
            ranked = con.execute(sql("read/api/standard_facts"), {**params, "as_of": None}).fetchall()
            assert sorted(map(repr, now)) == sorted(map(repr, ranked)), (cik, name)
            compared += len(now)
            restated += sum(1 for r in now if r[20])  # restated
    assert compared > 1000 and restated > 10, (compared, restated)
