"""Store an InlineXbrlDocument (a filing's inline-XBRL primary document) in filing_facts, and its
statements as presented in filing_statements and filing_statement_lines.

Runs inside the batch transaction of ``warehouse.load.batch.load_batch``: the Arrow table is built first (a
bad value rejects the document before anything is inserted), then inserted in one statement. One
inline document per accession: a later document of a loaded accession adds nothing, so the table does
not depend on the order documents arrive in.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from warehouse.load.context import LoadContext
from warehouse.store.db import fetch_value, unregister

if TYPE_CHECKING:
    from pipelines.inline_xbrl import InlineXbrlDocument

TABLE = "filing_facts"
TABLES = (TABLE, "filing_statements", "filing_statement_lines")
_SCHEMA = pa.schema([
    ("accession", pa.string()), ("fact_number", pa.int32()), ("cik", pa.int32()), ("form", pa.string()),
    ("fact_kind", pa.string()), ("concept", pa.string()), ("taxonomy", pa.string()),
    ("value", pa.decimal128(38, 10)), ("text_value", pa.string()), ("displayed", pa.string()),
    ("is_nil", pa.bool_()), ("unit", pa.string()), ("period_type", pa.string()),
    ("period_start", pa.string()), ("period_end", pa.string()),
    ("dimensions", pa.map_(pa.string(), pa.string())), ("decimals", pa.string()), ("scale", pa.int32()),
    ("sign", pa.string()), ("format", pa.string()), ("context_id", pa.string()), ("element_id", pa.string()),
    ("byte_offset", pa.int64()), ("occurrences", pa.int32()), ("inconsistent", pa.bool_()),
    ("problem", pa.string()), ("source_document_id", pa.int64()), ("load_id", pa.string()),
])
_STATEMENTS = pa.schema([
    ("accession", pa.string()), ("statement", pa.string()), ("cik", pa.int32()), ("form", pa.string()),
    ("title", pa.string()), ("byte_offset", pa.int64()), ("score", pa.int32()), ("line_count", pa.int32()),
    ("source_document_id", pa.int64()), ("load_id", pa.string()),
])
_CELL = pa.struct([
    ("period_start", pa.date32()), ("period_end", pa.date32()), ("value", pa.decimal128(38, 10)),
    ("fact_value", pa.decimal128(38, 10)), ("shown_negative", pa.bool_()),
    ("dimensions", pa.map_(pa.string(), pa.string())), ("concept", pa.string()), ("element_id", pa.string()),
    ("byte_offset", pa.int64()),
])
_LINES = pa.schema([
    ("accession", pa.string()), ("statement", pa.string()), ("line_number", pa.int32()), ("label", pa.string()),
    ("concept", pa.string()), ("depth", pa.int32()), ("indent", pa.float64()), ("cells", pa.list_(_CELL)),
    ("source_document_id", pa.int64()), ("load_id", pa.string()),
])
_LIMIT = Decimal(10) ** 28  # DECIMAL(38, 10): 28 integer digits, 10 after the point


def _storable(value: Decimal | None) -> tuple[Decimal | None, str | None]:
    """The value as DECIMAL(38, 10) holds it exactly, or (None, why not)."""
    if value is None:
        return None, None
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -10 and value != value.quantize(Decimal("1e-10")):
        return None, f"value {value} has more than 10 digits after the point: not stored rounded"
    if abs(value) >= _LIMIT:
        return None, f"value {value} has more than 28 integer digits"
    return value, None


def build_table(ctx: LoadContext, record: InlineXbrlDocument) -> pa.Table:
    """filing_facts rows of one document as an Arrow table (validates; inserts nothing)."""
    rows: dict[str, list] = {name: [] for name in _SCHEMA.names}
    for n, f in enumerate(record.facts, start=1):
        value, why = _storable(f.value)
        row = {
            "accession": record.accession, "fact_number": n, "cik": record.cik, "form": record.form,
            "fact_kind": f.kind, "concept": f.concept, "taxonomy": f.concept.partition(":")[0] or "",
            "value": value, "text_value": f.text, "displayed": f.displayed, "is_nil": f.nil, "unit": f.unit,
            "period_type": f.period_type, "period_start": f.period_start, "period_end": f.period_end,
            "dimensions": list(f.dimensions), "decimals": f.decimals, "scale": f.scale, "sign": f.sign,
            "format": f.format, "context_id": f.context_id, "element_id": f.element_id,
            "byte_offset": f.byte_offset, "occurrences": f.occurrences, "inconsistent": f.inconsistent,
            "problem": f.problem or why, "source_document_id": ctx.source_document_id, "load_id": ctx.load_id,
        }
        for name in _SCHEMA.names:
            rows[name].append(row[name])
    return pa.table(rows, schema=_SCHEMA)


def _date(text: str | None):
    from datetime import date

    return date.fromisoformat(text) if text else None


def build_statement_tables(ctx: LoadContext, record: InlineXbrlDocument) -> tuple[pa.Table, pa.Table]:
    """filing_statements and filing_statement_lines rows of one document (validates; inserts nothing)."""
    prov = {"source_document_id": ctx.source_document_id, "load_id": ctx.load_id}
    statements, lines = [], []
    for s in record.statements:
        statements.append({"accession": record.accession, "statement": s.statement, "cik": record.cik,
                           "form": record.form, "title": s.title, "byte_offset": s.byte_offset, "score": s.score,
                           "line_count": len(s.lines), **prov})
        for n, line in enumerate(s.lines, start=1):
            cells = [{"period_start": _date(v.period_start), "period_end": _date(v.period_end),
                      "value": _storable(v.value)[0], "fact_value": _storable(v.fact_value)[0],
                      "shown_negative": v.shown_negative, "dimensions": list(v.dimensions), "concept": v.concept,
                      "element_id": v.element_id, "byte_offset": v.byte_offset} for v in line.values]
            lines.append({"accession": record.accession, "statement": s.statement, "line_number": n,
                          "label": line.label, "concept": line.concept, "depth": line.depth, "indent": line.indent,
                          "cells": cells, **prov})
    return pa.Table.from_pylist(statements, schema=_STATEMENTS), pa.Table.from_pylist(lines, schema=_LINES)


def _insert(con: duckdb.DuckDBPyConnection, name: str, table: pa.Table, select: str = "*") -> int:
    if not table.num_rows:
        return 0
    con.register(f"_{name}_arrow", table)
    try:
        con.execute(f"INSERT INTO {name} BY NAME SELECT {select} FROM _{name}_arrow")
    finally:
        unregister(con, f"_{name}_arrow")
    return table.num_rows


def load_inline_xbrl(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: InlineXbrlDocument) -> dict[str, int]:
    """Insert one filing's facts and statements (table -> rows inserted); an accession already loaded adds none."""
    if fetch_value(con, "SELECT count(*) FROM filing_facts WHERE accession = ?", [record.accession]):
        return dict.fromkeys(TABLES, 0)
    facts = build_table(ctx, record)
    statements, lines = build_statement_tables(ctx, record)
    return {
        TABLE: _insert(con, TABLE, facts, "* REPLACE (period_start::DATE AS period_start, period_end::DATE AS period_end)"),
        "filing_statements": _insert(con, "filing_statements", statements),
        "filing_statement_lines": _insert(con, "filing_statement_lines", lines),
    }
