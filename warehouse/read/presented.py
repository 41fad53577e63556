"""A filing's statements as presented (filing_statements, filing_statement_lines) read back as one
document: the JSON the CLI prints, the MCP tool returns and the notebook API flattens."""

from __future__ import annotations

from typing import Any

import duckdb

from pipelines.statements import STATEMENTS

__all__ = ["STATEMENTS", "StatementNotFound", "statement"]
from warehouse.schema.sql_files import sql
from warehouse.store.db import WarehouseError, fetch_all


class StatementNotFound(WarehouseError, LookupError):
    """No such statement: an unknown kind, an accession not loaded, or a kind the filing does not print."""


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (int, str, bool)):
        return value
    if hasattr(value, "normalize"):  # Decimal: the exact number, no exponent, no trailing zeros
        return format(value.normalize(), "f")
    return str(value)


def statement(con: duckdb.DuckDBPyConnection, accession: str, kind: str) -> dict[str, Any]:
    """``{"title", "accession", "statement", "form", "cik", "document": {sha256, uri, table_byte_offset},
    "lines": [{"label", "concept", "depth", "values": [{"period_start", "period_end", "value", "fact_value",
    "shown_negative", "dimensions", "element_id", "byte_offset"}]}]}``; values are strings (exact decimals)."""
    if kind not in STATEMENTS:
        raise StatementNotFound(f"unknown statement {kind!r}: one of {', '.join(STATEMENTS)}")
    cur = con.execute(sql("read/api/statement"), {"accession": accession, "statement": kind})
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    if not rows:
        printed = [k for (k,) in fetch_all(con, "SELECT statement FROM filing_statements WHERE accession = ?"
                                                " ORDER BY byte_offset", [accession])]
        if printed:
            raise StatementNotFound(f"filing {accession} prints no {kind} statement that was found; it has: "
                                    f"{', '.join(printed)}")
        raise StatementNotFound(f"no statements of filing {accession}: its inline-XBRL document is not loaded "
                                "(edgar-warehouse load <its .htm>)")
    head = rows[0]
    return {
        "title": head["title"], "accession": head["accession"], "statement": kind, "form": head["form"],
        "cik": head["cik"],
        "document": {"sha256": head["sha256"], "uri": head["uri"], "table_byte_offset": head["table_byte_offset"]},
        "lines": [{
            "label": r["label"], "concept": r["concept"], "depth": r["depth"],
            "values": [{
                "period_start": _plain(c["period_start"]), "period_end": _plain(c["period_end"]),
                "value": _plain(c["value"]), "fact_value": _plain(c["fact_value"]),
                "shown_negative": c["shown_negative"], "dimensions": dict(c["dimensions"] or {}),
                "element_id": c["element_id"], "byte_offset": c["byte_offset"],
            } for c in r["cells"]],
        } for r in rows],
    }
