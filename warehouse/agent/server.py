"""The MCP server (official SDK, stdio): the agent tools of :mod:`warehouse.agent.tools`, read-only.

Each call opens the published warehouse read-only and sandboxed (``warehouse.store.db.reader``), answers,
and closes it again, so a long session always reads the latest published state. Every answer is the
tool's pydantic model as JSON (structured content, and the same text for clients without it); every
failure, a bad argument included, is data in its ``error`` field ({kind, message, suggestion}),
never an exception across the boundary: the process outlives anything a caller sends. Arguments are
bounded (``Name``, ``Names``, ``SqlText``...). No output schemas are listed (they were 40 KB of the
49 KB every agent read in ``tools/list``); the descriptions say what comes back.

A new tool is one function under ``@read_tool(server, db_path)``: its first parameter is the
connection, the rest are the tool's (bounded) arguments, it returns a model with an ``error`` field.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import duckdb
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SdkToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

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
    SegmentResult,
    StatementResult,
    ToolError,
)
from warehouse.agent.text_tools import SearchFilingsResult, SectionResult
from warehouse.agent.verify import Brief, VerifyReport, verify_brief
from warehouse.schema.migrate import schema_dir
from warehouse.schema.vocabulary import vocabulary_lists
from warehouse.store.db import WarehouseError, reader

log = logging.getLogger(__name__)

INSTRUCTIONS = """SEC EDGAR fact warehouse (read-only). Every number comes with its receipt: CIK, company,
concept (and matched_tag/tags_tried for standard concepts), unit, period, fiscal year/period, accession,
form, filed, acceptance time, SEC URL, restated/prior value, and computed=true when the warehouse
derived it. Companies: ticker, CIK or name (ambiguous names return candidates, never a guess).
Concepts: standard (revenue, net_income, operating_cash_flow, ...) or taxonomy:Concept (us-gaap:Revenues).
Margins and growth are fractions (0.1369 = 13.69 %). Every answer is JSON; a failure, a bad argument
included, comes back in `error` {kind, message, suggestion}. Before publishing numbers, check them with
verify_claims."""

#: Bounded arguments: a name (company, concept, metric, form, table), a list of names, SQL text.
Name = Annotated[str, Field(max_length=200)]
Names = Annotated[list[Name], Field(min_length=1, max_length=50)]
Codes = Annotated[list[Annotated[str, Field(max_length=4)]], Field(max_length=20)]
Year = Annotated[int, Field(ge=1900, le=2200)]
SqlText = Annotated[str, Field(max_length=20_000)]
Offset = Annotated[int, Field(ge=0, le=10_000_000)]
Words = Annotated[str, Field(max_length=1_000)]
Hits = Annotated[int, Field(ge=1, le=text_tools.MAX_HITS)]
SectionChars = Annotated[int, Field(ge=1, le=200_000)]

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)


def answer(model: BaseModel) -> CallToolResult:
    """A tool's model as the call's result: structured content and the same JSON as text."""
    return CallToolResult(content=[TextContent(type="text", text=model.model_dump_json(exclude_none=True))],
                          structured_content=model.model_dump(mode="json"))


class Failed(BaseModel):
    """The answer of a call that failed before its tool could build its own model (bad arguments, a
    missing warehouse, a bug): only the error."""

    error: ToolError


def _argument_errors(exc: ValidationError) -> str:
    """pydantic's errors in one line, without the caller's values or documentation links."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()[:10])


def _untitled(schema: Any) -> Any:
    """A JSON schema without pydantic's ``title`` of every property (its name already says it)."""
    if isinstance(schema, dict):
        return {k: _untitled(v) for k, v in schema.items()
                if not (k == "title" and isinstance(v, str))}
    return [_untitled(v) for v in schema] if isinstance(schema, list) else schema


class EdgarServer(MCPServer):
    """MCPServer whose argument errors are answered like every other failure (``Failed``), not as the
    SDK's text with pydantic's links; its tools listed with compact input schemas."""

    async def list_tools(self) -> list[Any]:
        return [t.model_copy(update={"input_schema": _untitled(t.input_schema)}) for t in await super().list_tools()]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except SdkToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                message = f"{name}: {_argument_errors(cause)}"
                suggestion = "Fix the arguments named; tools/list gives each tool's input schema."
            elif name not in {t.name for t in await self.list_tools()}:
                message, suggestion = f"no tool named {name[:100]!r}", "tools/list names every tool."
            else:
                raise
            return answer(Failed(error=ToolError(kind="bad_argument", message=message, suggestion=suggestion)))


def read_tool(server: MCPServer, db_path: str | Path) -> Callable[..., Any]:
    """Register ``fn(con, **arguments) -> model`` as a read-only tool named after it: each call opens
    ``db_path`` read-only and sandboxed, and any failure becomes ``Failed`` (logged, never raised).
    ``@tool(description=...)``: a description built at run time instead of the docstring."""
    def register(fn: Callable[..., BaseModel] | None = None, *, description: str | None = None) -> Any:
        if fn is None:
            return lambda f: register(f, description=description)
        signature = inspect.signature(fn, eval_str=True)

        @functools.wraps(fn)
        def run(**arguments: Any) -> CallToolResult:
            try:
                with reader(db_path) as con:
                    return answer(fn(con, **arguments))
            except WarehouseError as exc:
                error = ToolError(kind="query_failed", message=str(exc),
                                  suggestion="The warehouse is missing or damaged; check the --db path.")
            except (duckdb.Error, Exception) as exc:  # a bug or a DuckDB failure a tool did not expect
                log.exception("tool %s failed", fn.__name__)
                error = ToolError(kind="query_failed", message=f"{type(exc).__name__}: {str(exc)[:500]}",
                                  suggestion="Try other arguments; this call failed inside the server.")
            return answer(Failed(error=error))

        run.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=list(signature.parameters.values())[1:], return_annotation=inspect.Signature.empty)
        server.add_tool(run, name=fn.__name__, description=description or inspect.getdoc(fn), annotations=_READ_ONLY,
                        structured_output=False)
        return run
    return register


def build_server(db_path: str | Path) -> EdgarServer:
    """An MCPServer whose tools read ``db_path`` (opened read-only per call)."""
    server = EdgarServer(name="edgar-warehouse", instructions=INSTRUCTIONS)
    tool = read_tool(server, db_path)
    names = vocabulary_lists(schema_dir())  # the tool descriptions name what exists, from its one source

    @tool
    def resolve_company(con: duckdb.DuckDBPyConnection, query: Name) -> ResolveResult:
        """Ticker, CIK or company name -> {status, company: {cik, name, tickers}}, or the candidates and no guess."""
        return tools.resolve_company(con, query)

    @tool(description=(
        f"Values of `concept` for a company: {{facts: [{{value, receipt}}]}}. concept: a standard concept "
        f"({', '.join(names['standard_concepts'].names)}) or taxonomy:Concept (us-gaap:Revenues). "
        "fiscal_period: FY or Q1..Q4. as_of: ISO time (UTC), the values public then."))
    def get_facts(con: duckdb.DuckDBPyConnection, company: Name, concept: Name, fiscal_year: Year | None = None,
                  fiscal_period: Name | None = None, as_of: Name | None = None) -> FactsResult:
        """Values of a concept with receipts (the description, generated above, lists the standard concepts)."""
        return tools.get_facts(con, company, concept, fiscal_year, fiscal_period, as_of)

    @tool
    def get_fact_history(con: duckdb.DuckDBPyConnection, company: Name, concept: Name, fiscal_year: Year,
                         fiscal_period: Name) -> FactHistoryResult:
        """Every published version of a fact for one fiscal period (restatements, amendments), oldest first:
        {versions: [{version, value, change_from_previous, receipt}]}."""
        return tools.get_fact_history(con, company, concept, fiscal_year, fiscal_period)

    @tool(description=(
        f"A derived metric ({', '.join(names['metrics'].names)}): {{metrics: [{{value, formula, rule_version, "
        "lineage: [{role, value, receipt}]}]}}."))
    def get_derived_metric(con: duckdb.DuckDBPyConnection, company: Name, metric: Name, fiscal_year: Year,
                           fiscal_period: Name = "FY", as_of: Name | None = None) -> DerivedMetricResult:
        """A derived metric with its lineage (the description, generated above, lists the metrics)."""
        return tools.get_derived_metric(con, company, metric, fiscal_year, fiscal_period, as_of)

    @tool
    def compare_companies(con: duckdb.DuckDBPyConnection, concept_or_metric: Name, companies: Names,
                          fiscal_year: Year) -> CompareResult:
        """A standard concept or derived metric for up to 50 companies in each one's fiscal year: {rows, warnings}
        (periods, matched tags or currencies that do not line up)."""
        return tools.compare_companies(con, concept_or_metric, companies, fiscal_year)

    @tool
    def list_filings(con: duckdb.DuckDBPyConnection, company: Name, form: Name | None = None,
                     since: date | None = None) -> FilingsResult:
        """The company's filings, newest first: {filings: [{accession, form, filing_date, acceptance_time, sec_url}]}."""
        return tools.list_filings(con, company, form, since)

    @tool
    def get_statement(con: duckdb.DuckDBPyConnection, accession: Name, statement: Name) -> StatementResult:
        """A filing's statement as the company presents it (statement: income, balance, cash_flow, equity,
        comprehensive): its lines in printed order with labels, concept, depth and every column shown; each
        value with its receipt (element id and byte offset in the filing's document)."""
        return tools.get_statement(con, accession, statement)

    @tool
    def get_breakdown(con: duckdb.DuckDBPyConnection, accession: Name, breakdown: Name,
                      concept: Name | None = None) -> BreakdownResult:
        """A filing's revenue (or `concept`, e.g. us-gaap:OperatingIncomeLoss) by business_segment,
        product_or_service or geography: each member with its label and receipt, the members' sum against
        the consolidated total and any gap named; subtotal members (the sum of others) are marked."""
        return tools.get_breakdown(con, accession, breakdown, concept)

    @tool
    def get_segment(con: duckdb.DuckDBPyConnection, company: Name, segment: Name,
                    concept: Name = "revenue") -> SegmentResult:
        """One segment, product or region of a company (a member's QName or name, e.g. Data Center, iPhone,
        Americas) over time: {values: [{fiscal_year, fiscal_period, period_start, period_end, value, unit,
        accession, element_id}]} of revenue (or `concept`), each period as the latest filing says it."""
        return tools.get_segment(con, company, segment, concept)

    @tool
    def get_insider_transactions(con: duckdb.DuckDBPyConnection, company: Name, since: date | None = None,
                                 codes: Codes | None = None) -> InsiderResult:
        """Form 3/4/5 lines with the company as issuer (amendment-aware), newest first: {transactions}.
        codes: P purchase, S sale, A grant, M exercise, F tax withholding, G gift, ..."""
        return tools.get_insider_transactions(con, company, since, codes)

    @tool
    def verify_claims(con: duckdb.DuckDBPyConnection, brief: Brief) -> VerifyReport:
        """Check a brief's numbers: reported claims against the filing cited, derived claims recomputed,
        insider claims against Form 4 lines, quote claims verbatim in the item of the filing cited, every
        number in the texts backed by a claim: {passed, claims, orphan_numbers}. Percentages in percent
        (17.8 = 17.8 %)."""
        return verify_brief(con, brief)

    @tool
    def get_filing_section(con: duckdb.DuckDBPyConnection, accession: Name, item: Name,
                           max_chars: SectionChars = text_tools.DEFAULT_MAX_CHARS) -> SectionResult:
        """One item of a held 10-K/10-Q/8-K (item 1A, 7, II-1A for a 10-Q, 2.02 for an 8-K) as printed:
        heading, text (cut at max_chars: truncated says so), flags, extraction confidence, receipt with
        the document URL and byte offsets. An unknown item lists the filing's items in error.closest."""
        return text_tools.get_filing_section(con, accession, item, max_chars)

    @tool
    def search_filings(con: duckdb.DuckDBPyConnection, query: Words | None = None, phrase: Words | None = None,
                       cik: int | None = None, form: Name | None = None, item: Name | None = None,
                       filed_from: date | None = None, filed_to: date | None = None,
                       limit: Hits = 10) -> SearchFilingsResult:
        """Full-text search of the held filings' items: ranked keywords (query) or an exact phrase
        (case, whitespace, quotes, dashes normalised); filters cik, form (10-K, 10-Q, 8-K), item, filed
        dates. Hits: accession, item, snippet, offsets, document URL."""
        return text_tools.search_filings(con, query, phrase, cik, form, item, filed_from, filed_to, limit)

    @tool
    def describe_schema(con: duckdb.DuckDBPyConnection, table: Name | None = None) -> SchemaResult:
        """Tables, views and table macros with their comments; with `table`, its columns, types and comments."""
        return schema_tools.describe_schema(con, table)

    @tool
    def query(con: duckdb.DuckDBPyConnection, sql: SqlText, offset: Offset = 0) -> QueryResult:
        """One SELECT (DuckDB dialect; no file or network access), stopped after 10 s: {columns, rows, truncated,
        next_offset}. A page holds at most 1000 rows and 64 KB; when truncated, call again with
        offset=next_offset (ORDER BY for stable pages)."""
        return schema_tools.query(con, sql, offset)

    return server


def serve_stdio(db_path: str | Path) -> None:
    """Run the MCP server on stdin/stdout until the client closes it."""
    if not Path(db_path).exists():
        raise WarehouseError(f"{db_path}: no warehouse here (run `edgar-warehouse --db {db_path} init` first)")
    build_server(db_path).run("stdio")


__all__ = ["EdgarServer", "build_server", "read_tool", "serve_stdio"]
