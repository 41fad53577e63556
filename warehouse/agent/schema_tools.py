"""Agent tools over the catalogue and raw SQL: describe_schema (DuckDB's own comments) and a read-only,
one-statement, row- and time-limited query."""

from __future__ import annotations

import duckdb

from warehouse.agent.models import ColumnInfo, QueryResult, SchemaResult, TableInfo, ToolError
from warehouse.agent.receipts import closest, rows
from warehouse.read.queries import QueryError, QueryRefused, QueryTimeout, run_query
from warehouse.schema.sql_files import sql

#: Rows and bytes of JSON ``query`` returns at most (a page; ``next_offset`` fetches the next), and
#: seconds a statement may run before it is interrupted.
QUERY_MAX_ROWS = 1000
QUERY_MAX_BYTES = 64_000
QUERY_SECONDS = 10.0

def describe_schema(con: duckdb.DuckDBPyConnection, table: str | None = None) -> SchemaResult:
    """Every public table, view and table macro with its comment; with ``table``, its columns too."""
    try:
        objects = rows(con, sql("agent/schema_objects"))
        if table is None:
            return SchemaResult(tables=[TableInfo(**o) for o in objects])
        match = [o for o in objects if o["name"] == table] or [o for o in objects if o["name"].lower() == table.lower()]
        if not match:
            return SchemaResult(error=ToolError(
                kind="unknown_table", message=f"no table, view or table macro named {table!r}",
                closest=closest(table, [o["name"] for o in objects]),
                suggestion="Call describe_schema() without a table to list them all."))
        obj = match[0]
        cols = rows(con, "SELECT column_name AS name, data_type, comment FROM duckdb_columns() "
                         "WHERE table_name = ? AND schema_name = 'main' ORDER BY column_index", [obj["name"]])
        if obj["kind"] == "table_macro":
            params = con.execute("SELECT parameters FROM duckdb_functions() WHERE function_name = ? LIMIT 1",
                                 [obj["name"]]).fetchone()
            obj = {**obj, "comment": (obj["comment"] or "") + f" Parameters: {', '.join(params[0] if params else [])}."}
        return SchemaResult(tables=[TableInfo(**obj, columns=[ColumnInfo(**c) for c in cols])])
    except duckdb.Error as exc:
        return SchemaResult(error=ToolError(kind="query_failed", message=str(exc), suggestion="Try again without a table."))


def query(con: duckdb.DuckDBPyConnection, sql_text: str, offset: int = 0, max_rows: int = QUERY_MAX_ROWS,
          max_bytes: int = QUERY_MAX_BYTES, timeout_seconds: float | None = None) -> QueryResult:
    """Run ONE statement that only reads through ``warehouse.read.queries.run_query``: rows from ``offset``
    on, at most ``max_rows`` of them and ``max_bytes`` of JSON (``truncated``, ``cut_by`` and
    ``next_offset`` say so), interrupted after ``timeout_seconds`` (default ``QUERY_SECONDS``). The
    connection is read-only and sandboxed (no files, no network, settings locked)."""
    timeout_seconds = QUERY_SECONDS if timeout_seconds is None else timeout_seconds

    def failed(kind: str, message: str, suggestion: str) -> QueryResult:
        return QueryResult(max_rows=max_rows, error=ToolError(kind=kind, message=message, suggestion=suggestion))  # type: ignore[arg-type]

    try:
        result = run_query(con, sql_text, timeout=timeout_seconds, max_rows=max_rows, max_bytes=max_bytes,
                           offset=offset)
    except QueryRefused as exc:
        return failed("bad_argument", str(exc), "Send one SELECT at a time; describe_schema lists tables and columns.")
    except QueryTimeout as exc:
        return failed("query_failed", str(exc), "Narrow the query (filter by cik, concept, fiscal_year) or aggregate.")
    except QueryError as exc:
        return failed("query_failed", str(exc),
                      "The connection is read-only and sandboxed; describe_schema lists tables and columns.")
    return QueryResult(columns=result.columns, rows=[list(r) for r in result.rows], row_count=len(result.rows),
                       offset=offset, truncated=result.truncated, cut_by=result.cut_by,
                       next_offset=result.next_offset, max_rows=max_rows)
