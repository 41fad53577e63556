"""The MCP server (official SDK, stdio): the agent tools of :mod:`warehouse.agent.tools`, read-only.

Each call opens the published warehouse read-only and sandboxed (``warehouse.store.db.reader``), answers,
and closes it again, so a long session always reads the latest published state. Tool results are pydantic
models (structured output with a JSON schema); failures come back in their ``error`` field.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TypeVar

import duckdb
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from warehouse.agent import schema_tools, text_tools, tools
from warehouse.agent.models import (
    BreakdownResult,
    CompareResult,
    DerivedMetricResult,
    FactHistoryResult,
    FactsResult,
    FilingsResult,
    InsiderResult,
    QueryResult,
    ResolveResult,
    SchemaResult,
    StatementResult,
    ToolError,
)
from warehouse.agent.text_tools import SearchFilingsResult, SectionResult
from warehouse.agent.verify import Brief, VerifyReport, verify_brief
from warehouse.schema.migrate import schema_dir
from warehouse.schema.vocabulary import vocabulary_lists
from warehouse.store.db import WarehouseError, reader

T = TypeVar("T")

INSTRUCTIONS = """SEC EDGAR fact warehouse (read-only). Every number comes with its receipt: CIK, company,
concept (and matched_tag/tags_tried for standard concepts), unit, period, fiscal year/period, accession,
form, filed, acceptance time, SEC URL, restated/prior value, and computed=true when the warehouse
derived it. Companies: ticker, CIK or name (ambiguous names return candidates, never a guess).
Concepts: standard (revenue, net_income, operating_cash_flow, ...) or taxonomy:Concept (us-gaap:Revenues).
Margins and growth are fractions (0.1369 = 13.69 %). Errors come back in `error` with a suggestion.
Before publishing numbers, check them with verify_claims."""

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)


def build_server(db_path: str | Path) -> MCPServer:
    """An MCPServer whose tools read ``db_path`` (opened read-only per call)."""
    server = MCPServer(name="edgar-warehouse", instructions=INSTRUCTIONS)
    names = vocabulary_lists(schema_dir())  # the tool descriptions name what exists, from its one source

    def call(fn: Callable[[duckdb.DuckDBPyConnection], T], on_error: Callable[[ToolError], T]) -> T:
        try:
            with reader(db_path) as con:
                return fn(con)
        except WarehouseError as exc:
            return on_error(ToolError(kind="query_failed", message=str(exc),
                                      suggestion="The warehouse is missing or damaged; check the --db path."))

    @server.tool(annotations=_READ_ONLY)
    def resolve_company(query: str) -> ResolveResult:
        """Ticker, CIK or company name -> one company (CIK, name, tickers), or the candidates and no guess."""
        return call(lambda con: tools.resolve_company(con, query),
                    lambda e: ResolveResult(query=query, status="not_found", message=e.message, error=e))

    @server.tool(annotations=_READ_ONLY, description=(
        f"Values of `concept` for a company, each with its receipt. concept: a standard concept "
        f"({', '.join(names['standard_concepts'].names)}) or taxonomy:Concept (us-gaap:Revenues). "
        "fiscal_period: FY or Q1..Q4. as_of: an ISO time (UTC); the values that were public then."))
    def get_facts(company: str, concept: str, fiscal_year: int | None = None, fiscal_period: str | None = None,
                  as_of: str | None = None) -> FactsResult:
        """Values of a concept with receipts (the description, generated above, lists the standard concepts)."""
        return call(lambda con: tools.get_facts(con, company, concept, fiscal_year, fiscal_period, as_of),
                    lambda e: FactsResult(concept=concept, error=e))

    @server.tool(annotations=_READ_ONLY)
    def get_fact_history(company: str, concept: str, fiscal_year: int, fiscal_period: str) -> FactHistoryResult:
        """Every published version of a fact for one fiscal period (restatements, amendments), oldest first."""
        return call(lambda con: tools.get_fact_history(con, company, concept, fiscal_year, fiscal_period),
                    lambda e: FactHistoryResult(concept=concept, fiscal_year=fiscal_year,
                                                fiscal_period=fiscal_period, error=e))

    @server.tool(annotations=_READ_ONLY, description=(
        f"A derived metric ({', '.join(names['metrics'].names)}): value, formula, rule version and "
        "lineage to the exact fact versions used."))
    def get_derived_metric(company: str, metric: str, fiscal_year: int, fiscal_period: str = "FY",
                           as_of: str | None = None) -> DerivedMetricResult:
        """A derived metric with its lineage (the description, generated above, lists the metrics)."""
        return call(lambda con: tools.get_derived_metric(con, company, metric, fiscal_year, fiscal_period, as_of),
                    lambda e: DerivedMetricResult(metric=metric, error=e))

    @server.tool(annotations=_READ_ONLY)
    def compare_companies(concept_or_metric: str, companies: list[str], fiscal_year: int) -> CompareResult:
        """One row per company for a standard concept or derived metric in each company's fiscal year,
        with warnings when periods, matched tags or currencies do not line up."""
        return call(lambda con: tools.compare_companies(con, concept_or_metric, companies, fiscal_year),
                    lambda e: CompareResult(concept_or_metric=concept_or_metric, fiscal_year=fiscal_year, error=e))

    @server.tool(annotations=_READ_ONLY)
    def list_filings(company: str, form: str | None = None, since: date | None = None) -> FilingsResult:
        """The company's filings, newest first: form, filing date, acceptance time (UTC), amendment links, SEC URL."""
        return call(lambda con: tools.list_filings(con, company, form, since), lambda e: FilingsResult(error=e))

    @server.tool(annotations=_READ_ONLY)
    def get_statement(accession: str, statement: str) -> StatementResult:
        """A filing's statement as the company presents it (statement: income, balance, cash_flow, equity,
        comprehensive): its lines in printed order with the company's labels, concept, depth and every column
        shown; each value with its receipt (element id and byte offset in the filing's document)."""
        return call(lambda con: tools.get_statement(con, accession, statement),
                    lambda e: StatementResult(accession=accession, statement=statement, error=e))

    @server.tool(annotations=_READ_ONLY)
    def get_breakdown(accession: str, breakdown: str, concept: str | None = None) -> BreakdownResult:
        """A filing's revenue (or `concept`, e.g. us-gaap:OperatingIncomeLoss) by business_segment,
        product_or_service or geography: each member with its label and receipt, the members' sum against
        the consolidated total and any gap named; subtotal members (the sum of others) are marked."""
        return call(lambda con: tools.get_breakdown(con, accession, breakdown, concept),
                    lambda e: BreakdownResult(accession=accession, breakdown=breakdown, error=e))

    @server.tool(annotations=_READ_ONLY)
    def get_insider_transactions(company: str, since: date | None = None,
                                 codes: list[str] | None = None) -> InsiderResult:
        """Form 3/4/5 transaction lines with the company as issuer (amendment-aware), newest first.
        codes: P purchase, S sale, A grant, M exercise, F tax withholding, G gift, ..."""
        return call(lambda con: tools.get_insider_transactions(con, company, since, codes),
                    lambda e: InsiderResult(error=e))

    @server.tool(annotations=_READ_ONLY)
    def verify_claims(brief: Brief) -> VerifyReport:
        """Check a brief's numbers: reported claims against the exact filing cited, derived claims
        recomputed from their formula, insider claims against Form 4 lines, quote claims verbatim in the
        item of the filing cited, and every number in the texts and summary backed by a claim. Percentages are written in percent (17.8 = 17.8 %)."""
        return call(lambda con: verify_brief(con, brief),
                    lambda e: VerifyReport(ticker=brief.ticker, passed=False, error=e))

    @server.tool(annotations=_READ_ONLY)
    def get_filing_section(accession: str, item: str, max_chars: int = text_tools.DEFAULT_MAX_CHARS) -> SectionResult:
        """One item of a held 10-K/10-Q/8-K (item 1A, 7, II-1A for a 10-Q, 2.02 for an 8-K) as printed:
        heading, text (cut at max_chars: truncated says so), flags, extraction confidence, receipt with
        the document URL and byte offsets. An unknown item lists the filing's items in error.closest."""
        return call(lambda con: text_tools.get_filing_section(con, accession, item, max_chars),
                    lambda e: SectionResult(error=e))

    @server.tool(annotations=_READ_ONLY)
    def search_filings(query: str | None = None, phrase: str | None = None, cik: int | None = None,
                       form: str | None = None, item: str | None = None, filed_from: date | None = None,
                       filed_to: date | None = None, limit: int = 10) -> SearchFilingsResult:
        """Full-text search of the held filings' items: ranked keywords (query) or an exact phrase
        (case, whitespace, quotes, dashes normalised); filters cik, form (10-K, 10-Q, 8-K), item, filed
        dates. Hits: accession, item, snippet, offsets, document URL."""
        return call(lambda con: text_tools.search_filings(con, query, phrase, cik, form, item, filed_from, filed_to,
                                                          limit),
                    lambda e: SearchFilingsResult(mode="phrase" if phrase else "keywords", error=e))

    @server.tool(annotations=_READ_ONLY)
    def describe_schema(table: str | None = None) -> SchemaResult:
        """Tables, views and table macros with their comments; with `table`, its columns, types and comments."""
        return call(lambda con: schema_tools.describe_schema(con, table), lambda e: SchemaResult(error=e))

    @server.tool(annotations=_READ_ONLY)
    def query(sql: str) -> QueryResult:
        """One read-only SQL statement (DuckDB dialect; no file or network access), at most 1000 rows,
        interrupted after 10 s."""
        return call(lambda con: schema_tools.query(con, sql),
                    lambda e: QueryResult(max_rows=schema_tools.QUERY_MAX_ROWS, error=e))

    return server


def serve_stdio(db_path: str | Path) -> None:
    """Run the MCP server on stdin/stdout until the client closes it."""
    if not Path(db_path).exists():
        raise WarehouseError(f"{db_path}: no warehouse here (run `edgar-warehouse --db {db_path} init` first)")
    build_server(db_path).run("stdio")


__all__ = ["build_server", "serve_stdio"]
