"""Every table of the warehouse, one row each: exported as Parquet or why not, and what `status` counts in it.

The export's public data contract (``warehouse.read.export``) and the totals of ``edgar-warehouse
status`` (``warehouse.read.queries.status_totals``) are generated from ``TABLES``; a document kind's
row (``warehouse.load.kinds``) names the tables it writes, each a row here. The rows sit in the
schema wing, below both readers and writers, and import nothing: `status` never pays for a parser.
tests/warehouse/read/test_export_coverage.py: every table of a migrated warehouse has a row, every
row is a table or view, every kind's tables have rows.

Status lines come out in the order of the rows (then of each row's counts); a relation an older
warehouse lacks is left out of both.
"""

from __future__ import annotations

from dataclasses import dataclass

EXPORTED = True


@dataclass(frozen=True)
class Count:
    """One line of `status`'s totals: ``label`` and the rows of the relation that match ``where``
    (an SQL condition of ours, empty = every row)."""

    label: str
    where: str = ""


@dataclass(frozen=True)
class Table:
    """A table (or a view) of the warehouse: ``export`` is ``EXPORTED`` (in the public data
    contract, written in the order of the rows, hive-partitioned by ``partition_by`` when given) or
    the reason it is left out (any table can still be exported by name: `export --table`);
    ``status`` is what `status` counts in it."""

    name: str
    export: bool | str
    status: tuple[Count, ...] = ()
    partition_by: str | None = None


def _n(label: str, where: str = "") -> tuple[Count, ...]:
    return (Count(label, where),)


_STATUS_VIEW = "a status view (what `status` counts), not data of its own"

TABLES: tuple[Table, ...] = (
    # what every warehouse holds
    Table("companies", EXPORTED, _n("companies")),
    Table("facts", EXPORTED, _n("fact versions (facts)"), partition_by="fiscal_year"),
    Table("facts_current", EXPORTED, _n("current facts (facts_current)")),
    Table("fact_restatements", EXPORTED, _n("restatements (fact_restatements)")),
    Table("source_documents", EXPORTED, (Count("source documents loaded", "status = 'loaded'"),
                                         Count("source documents rejected", "status = 'rejected'"))),
    Table("load_runs", EXPORTED, _n("load runs")),
    # filing history (submissions, tickers)
    Table("filings", EXPORTED, (Count("filings (one row per cik, accession)"),
                                Count("filings amended (superseded_by set)", "superseded_by IS NOT NULL"))),
    Table("xbrl_filings_without_facts", _STATUS_VIEW, _n("XBRL filings without facts")),
    Table("facts_unknown_to_filings", _STATUS_VIEW, _n("fact accessions unknown to filings")),
    Table("company_tickers", EXPORTED, _n("registry tickers")),
    # insider filings (Forms 3/4/5)
    Table("insider_filings", EXPORTED, _n("insider filings (Forms 3/4/5)")),
    Table("insider_owners", EXPORTED, _n("insider owners")),
    Table("insider_transactions", EXPORTED, _n("insider transaction lines")),
    Table("insider_holdings", EXPORTED, _n("insider holding lines")),
    Table("insider_footnotes", EXPORTED, _n("insider footnotes")),
    Table("insider_footnote_refs", EXPORTED),
    # derived metrics
    Table("derived_metrics", EXPORTED, _n("derived metric versions")),
    Table("metric_lineage", EXPORTED, _n("metric lineage edges")),
    # filing documents: text, items, inline-XBRL facts, printed statements
    Table("filing_documents", EXPORTED, _n("filing documents (10-K, 10-Q, 8-K)")),
    Table("filing_sections", EXPORTED, _n("filing items (filing_sections)")),
    Table("filing_terms", "the keyword index of filing_sections for `search` (term, accession, item, tf): "
                          "rebuilt from the sections by pipelines/filing_search.py's rule, no data of its own"),
    Table("filing_facts", EXPORTED, _n("inline-XBRL facts (filing_facts)")),
    Table("filing_statements", EXPORTED, _n("printed statements (filing_statements)")),
    Table("filing_statement_lines", EXPORTED, _n("printed statement lines")),
    # the rest of the public contract
    Table("concepts", EXPORTED),
    Table("fiscal_calendar", EXPORTED),
    Table("fact_versions", EXPORTED, partition_by="fiscal_year"),
    Table("standard_facts", EXPORTED),
    # left out, each with its reason
    Table("facts_current_rows", "stored rows of the view facts_current, exported under that name"),
    Table("fact_restatements_rows", "stored rows of the view fact_restatements, exported under that name"),
    Table("standard_facts_rows", "stored rows of the view standard_facts, exported under that name"),
    Table("accession_acceptance", "a lookup kept for fact_versions.known_from (exported within fact_versions)"),
    Table("company_observations", "what each submissions file said about its company: the input of companies' "
                                  "history"),
    Table("fact_repeated_keys", "an audit of keys a payload repeats (the facts themselves are exported)"),
    Table("submission_pages", "which pages of a company's submissions history are loaded (completeness "
                              "bookkeeping)"),
    Table("check_results", "the data-quality checks' record per load (operations; `edgar-warehouse checks` "
                           "reads it)"),
    Table("check_company_results", "the data-quality checks' record per load and company (operations)"),
    Table("run_requests", "the nightly's HTTP request log (operations)"),
    Table("tracked_companies", "the nightly's tracked universe (operations)"),
    Table("standard_concepts", "reference rows shipped as schema/definitions/standard_concepts.csv (the file is "
                               "the source)"),
    Table("schema_migrations", "schema bookkeeping"),
    Table("schema_definitions", "schema bookkeeping"),
)
BY_NAME: dict[str, Table] = {t.name: t for t in TABLES}
PUBLIC: tuple[str, ...] = tuple(t.name for t in TABLES if t.export is EXPORTED)  # the export's default, in order
NOT_EXPORTED: dict[str, str] = {t.name: t.export for t in TABLES if isinstance(t.export, str)}
PARTITIONED: dict[str, str] = {t.name: t.partition_by for t in TABLES if t.partition_by}
