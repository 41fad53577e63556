"""Pydantic output models of the agent tools: receipts for every number, and errors as data."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Context, Decimal
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, PlainSerializer

from warehouse.schema.dictionary import Dictionary
from warehouse.schema.folder import DICTIONARY, schema_dir

#: The column dictionary: receipt fields that are warehouse columns take their description from it.
_COLUMNS = Dictionary.load(schema_dir() / DICTIONARY)


def said(relation: str, column: str) -> str:
    """The dictionary's one description of ``relation.column`` (a missing entry is a bug: KeyError)."""
    entry = _COLUMNS.describe(relation, column)
    if entry is None:
        raise KeyError(f"columns.toml has no description of {relation}.{column}")
    return entry.text

def _utc(value: datetime) -> datetime:
    """The warehouse keeps times as naive UTC; an agent gets them with their zone (…Z / +00:00)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


#: A point in time in UTC, always written with its zone so no reader takes it for local time.
UtcTime = Annotated[datetime, AfterValidator(_utc)]

def normalized(d: Decimal) -> Decimal:
    """``d`` without trailing zeros, exactly (``Decimal.normalize`` in the default context rounds to 28 digits)."""
    return d.normalize(Context(prec=max(len(d.as_tuple().digits), 1)))


#: An exact decimal, written in JSON as its plain digits (391035000000, 0.2021994), never a float.
Exact = Annotated[Decimal, PlainSerializer(lambda d: format(normalized(d), "f"), return_type=str, when_used="json")]


class ToolError(BaseModel):
    """What went wrong, and what the caller can do next (never an exception across the tool boundary)."""

    kind: Literal["ambiguous_company", "unknown_company", "unknown_concept", "unknown_metric", "no_data",
                  "unknown_table", "bad_argument", "query_failed"]
    message: str
    suggestion: str
    candidates: list[CompanyCandidate] = Field(default_factory=list, description="Companies the name could mean.")
    closest: list[str] = Field(default_factory=list, description="Closest concept, metric or table names.")
    fiscal_years_available: list[int] = Field(default_factory=list)


class CompanyCandidate(BaseModel):
    cik: int
    name: str
    tickers: list[str]
    score: float
    reason: str


class Company(BaseModel):
    cik: int
    name: str | None
    tickers: list[str] = Field(default_factory=list)


class ResolveResult(BaseModel):
    query: str
    status: Literal["resolved", "ambiguous", "not_found"]
    company: Company | None = None
    matched_by: str | None = None
    message: str
    error: ToolError | None = None


class Receipt(BaseModel):
    """Where one number comes from: enough to find it again in SEC's own filing."""

    cik: int
    company_name: str | None
    concept: str = Field(description="taxonomy:Concept of the fact (for a standard concept: the matched tag).")
    standard_concept: str | None = None
    matched_tag: str | None = None
    tags_tried: list[str] | None = None
    unit: str
    period_start: date | None
    period_end: date
    duration_class: str | None = None
    fiscal_year: int | None
    fiscal_period: str | None
    accession: str
    form: str | None
    filed: date | None
    acceptance_time: UtcTime | None = Field(description="When EDGAR accepted the filing (UTC), if filings knows it.")
    known_from: UtcTime | None = Field(default=None, description="When this version became public (UTC).")
    sec_url: str = Field(description="The filing's folder on www.sec.gov Archives.")
    restated: bool = Field(default=False, description=said("facts_current", "restated"))
    versions: int | None = Field(default=None, description=said("facts_ranked", "versions"))
    prior_value: Exact | None = Field(default=None, description=said("facts_ranked", "prior_value"))
    prior_accession: str | None = Field(default=None, description=said("facts_ranked", "prior_accession"))
    first_value: Exact | None = Field(default=None, description=said("facts_ranked", "first_value"))
    first_accession: str | None = Field(default=None, description=said("facts_ranked", "first_accession"))
    computed: bool = Field(description="True when the warehouse computed the number (not a tagged value).")
    derivation: str | None = Field(default=None, description="reported, or derived_q2/q3/q4 (YTD subtraction).")


class FactValue(BaseModel):
    value: Exact | None
    receipt: Receipt


class FactsResult(BaseModel):
    company: Company | None = None
    concept: str
    as_of: UtcTime | None = None
    facts: list[FactValue] = Field(default_factory=list)
    truncated: bool = False
    error: ToolError | None = None


class FactVersion(BaseModel):
    version: int
    value: Exact | None
    change_from_previous: Exact | None = Field(description=(
        "This value minus the value of the version just before it (0: a confirmation, the same value "
        "re-filed); the receipt's prior_value is the last DIFFERENT value."))
    receipt: Receipt


class FactHistoryResult(BaseModel):
    company: Company | None = None
    concept: str
    fiscal_year: int
    fiscal_period: str
    versions: list[FactVersion] = Field(default_factory=list)
    error: ToolError | None = None


class LineageEdge(BaseModel):
    role: str
    step: str
    standard_concept: str | None
    value: Exact | None
    input_metric_id: str | None
    revision: int | None
    receipt: Receipt


class DerivedMetric(BaseModel):
    metric_id: str
    metric: str
    value: Exact | None
    unit: str | None
    formula: str | None
    rule_version: str | None
    version: int | None
    null_reason: str | None
    flags: list[str] = Field(default_factory=list)
    fiscal_year: int
    fiscal_period: str
    period_start: date | None
    period_end: date | None
    known_from: UtcTime | None
    computed: bool = True
    lineage: list[LineageEdge] = Field(default_factory=list)


class DerivedMetricResult(BaseModel):
    company: Company | None = None
    metric: str
    as_of: UtcTime | None = None
    metrics: list[DerivedMetric] = Field(default_factory=list)
    error: ToolError | None = None


class CompareRow(BaseModel):
    cik: int
    company_name: str | None
    value: Exact | None
    unit: str | None
    fiscal_year: int
    fiscal_period: str
    period_start: date | None
    period_end: date | None
    matched_tag: str | None
    accession: str | None
    sec_url: str | None
    derivation: str | None
    computed: bool
    null_reason: str | None
    warnings: list[str]


class CompareResult(BaseModel):
    concept_or_metric: str
    fiscal_year: int
    rows: list[CompareRow] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    error: ToolError | None = None


class Filing(BaseModel):
    accession: str
    form: str
    filing_date: date | None
    acceptance_time: UtcTime | None
    report_date: date | None
    primary_document: str | None
    amends_accession: str | None
    superseded_by: str | None
    sec_url: str


class FilingsResult(BaseModel):
    company: Company | None = None
    filings: list[Filing] = Field(default_factory=list)
    truncated: bool = False
    error: ToolError | None = None


class StatementValue(BaseModel):
    period_start: date | None
    period_end: date | None
    value: Exact | None = Field(description="As shown: negative when printed in parentheses.")
    fact_value: Exact | None = Field(description="The fact's own XBRL value (a payment shown (1,234) is 1234).")
    shown_negative: bool
    dimensions: dict[str, str] = Field(default_factory=dict, description="axis -> member; empty: consolidated.")
    element_id: str | None = Field(description="Receipt: the fact's element id in the filing's document.")
    byte_offset: int = Field(description="Receipt: byte offset of the fact's element in the document.")


class StatementLine(BaseModel):
    label: str
    concept: str | None
    depth: int
    values: list[StatementValue] = Field(default_factory=list)


class StatementResult(BaseModel):
    accession: str
    statement: str
    title: str | None = None
    form: str | None = None
    cik: int | None = None
    document_sha256: str | None = Field(default=None, description="Receipt: the document the lines were read from.")
    sec_url: str | None = None
    lines: list[StatementLine] = Field(default_factory=list)
    error: ToolError | None = None


class BreakdownMember(BaseModel):
    member: str
    label: str = Field(description="The member's label: the document's own where a statement line shows it.")
    value: Exact
    element_id: str | None = Field(description="Receipt: the fact's element id in the filing's document.")
    subtotal: bool = Field(description="The member is the sum of other members (left out of members_sum).")


class BreakdownReconciling(BaseModel):
    member: str
    label: str
    value: Exact
    element_id: str | None


class BreakdownGapFact(BaseModel):
    concept: str
    value: Exact
    element_id: str | None
    label: str | None = Field(description="The statement line that shows the concept, when one does.")


class BreakdownPeriod(BaseModel):
    period_start: date | None
    period_end: date
    unit: str
    total: Exact | None = Field(description="The consolidated figure (no dimensions) of the period.")
    total_element_id: str | None
    members: list[BreakdownMember]
    members_sum: Exact
    gap: Exact | None = Field(description="total - members_sum; 0 when the parts add up.")
    sums_to_total: bool
    reconciling: list[BreakdownReconciling] = Field(
        default_factory=list, description="Business segments: the corporate, reconciling and elimination items the "
                                          "filing tags, what the segments leave to the total.")
    residual: Exact | None = Field(default=None, description="gap minus the reconciling items.")
    rounding: Exact | None = Field(default=None, description="Half a unit of each value's decimals, summed: how far "
                                                             "rounded parts may miss the total.")
    explained_by: list[BreakdownGapFact] = Field(
        default_factory=list, description="Facts of another concept, same period, whose value is the residual.")
    adds_up: bool = Field(default=False, description="The residual is within the rounding, or a fact names it.")
    note: str | None = None


class BreakdownResult(BaseModel):
    accession: str
    breakdown: str
    axis: str | None = None
    concept: str | None = None
    periods: list[BreakdownPeriod] = Field(default_factory=list)
    error: ToolError | None = None


class SegmentValue(BaseModel):
    fiscal_year: int | None = Field(description="The warehouse's fiscal year of the period (NULL: no standard fact of the company has it).")
    fiscal_period: str | None
    period_start: date | None
    period_end: date
    value: Exact
    unit: str
    concept: str
    accession: str = Field(description="Receipt: the latest filing that reports the period.")
    element_id: str | None = Field(description="Receipt: the fact's element id in that filing's document.")
    sec_url: str


class SegmentResult(BaseModel):
    segment: str
    company: Company | None = None
    axis: str | None = None
    member: str | None = None
    member_label: str | None = None
    values: list[SegmentValue] = Field(default_factory=list)
    error: ToolError | None = None


class InsiderTransaction(BaseModel):
    accession: str
    document_type: str | None
    table_kind: str
    line_number: int
    transaction_date: date | None
    transaction_code: str | None
    security_title: str | None
    shares: Exact | None
    price_per_share: Exact | None
    acquired_disposed: str | None
    shares_owned_following: Exact | None
    direct_indirect: str | None
    owner_names: list[str]
    filed: date | None
    acceptance_time: UtcTime | None
    from_amendment: bool | None
    sec_url: str


class InsiderResult(BaseModel):
    company: Company | None = None
    transactions: list[InsiderTransaction] = Field(default_factory=list)
    truncated: bool = False
    error: ToolError | None = None


class ColumnInfo(BaseModel):
    name: str
    data_type: str
    comment: str | None


class TableInfo(BaseModel):
    name: str
    kind: Literal["table", "view", "table_macro"]
    comment: str | None
    columns: list[ColumnInfo] = Field(default_factory=list)


class SchemaResult(BaseModel):
    tables: list[TableInfo] = Field(default_factory=list)
    error: ToolError | None = None


class QueryResult(BaseModel):
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    row_count: int = 0
    offset: int = 0
    truncated: bool = False
    cut_by: Literal["rows", "bytes"] | None = None
    next_offset: int | None = None
    max_rows: int
    error: ToolError | None = None


ToolError.model_rebuild()
