"""Read-side SQL for the CLI, notebooks and agents: ONE statement that only reads (DuckDB's own parser
decides: ``admit``), under a time limit, a row limit and a byte limit, answered as a ``Result``
(column names and rows as tuples, converted column by column where DuckDB's own per-value
conversion is slow: ``warehouse.read.pyrows``; ``warehouse.read.api`` gives Polars)."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import duckdb

from warehouse.errors import WarehouseError
from warehouse.read.pyrows import Rows, execute, fetch_rows, row_chunks
from warehouse.schema.sql_files import sql
from warehouse.store.db import abandon, fetch_all, quote_ident

T = TypeVar("T")

DEFAULT_TIMEOUT = float(os.environ.get("EDGAR_WAREHOUSE_SQL_TIMEOUT") or 30.0)   # seconds per statement
DEFAULT_MAX_ROWS = int(os.environ.get("EDGAR_WAREHOUSE_SQL_MAX_ROWS") or 100_000)  # rows fetched per statement
#: Longest SQL text a caller may send (the parser's work and memory grow with it).
MAX_QUERY_CHARS = 100_000
#: Seconds an interrupted statement gets to stop before its caller is answered anyway (a statement
#: DuckDB cannot interrupt, one huge value built in one call, then ends in the background).
STOP_GRACE = 1.0

#: Table functions a sandboxed statement may call, besides the warehouse's own table macros: they
#: make rows or read the catalogue. Every other one reads files (read_*, glob, parquet_*), runs SQL
#: text the parser never saw (query, query_table, json_execute_serialized_sql) or changes the
#: database or the process (checkpoint, enable_logging, enable_profiling, truncate_duckdb_logs).
#: Not ``duckdb_databases``: its path column holds the lake's catalog connection string (a password, if
#: one was given in it); ``SHOW DATABASES`` names the databases. No ``postgres_*`` or ``ducklake_*``
#: function: on the lake they would run SQL on the catalog's PostgreSQL (``pg_read_file``...).
READING_TABLE_FUNCTIONS = frozenset({
    "range", "generate_series", "unnest", "json_each", "json_tree", "duckdb_columns", "duckdb_constraints",
    "duckdb_dependencies", "duckdb_functions", "duckdb_indexes", "duckdb_keywords",
    "duckdb_schemas", "duckdb_sequences", "duckdb_tables", "duckdb_types", "duckdb_views", "pragma_table_info",
    "pragma_show", "pragma_version", "pragma_platform", "icu_calendar_names", "pg_timezone_names"})
#: Scalar functions refused even inside a SELECT (they write: the log).
WRITING_FUNCTIONS = frozenset({"write_log"})
#: A table name that is a file name: DuckDB would read the file by "replacement scan" (FROM 'x.csv');
#: the database file and its WAL stay readable even with external access off.
_FILE_NAME = re.compile(r"[./\\:~]")
#: DuckLake's metadata catalog (``__ducklake_metadata_<alias>``, the PostgreSQL database itself, every
#: schema of it, pg_catalog included): a table named in it by catalog or schema is refused.
_LAKE_METADATA = re.compile(r"^__ducklake_metadata_", re.IGNORECASE)
_MACROS = "SELECT function_name FROM duckdb_functions() WHERE function_type = 'table_macro' AND NOT internal"


class QueryError(WarehouseError):
    """A query the user or a tool sent failed (syntax, unknown column, read-only violation...)."""


class QueryRefused(QueryError):
    """The call did not hold exactly one statement that only reads (refused before it ran)."""


class QueryTimeout(QueryError):
    """A statement ran past its time limit and was interrupted."""


@dataclass(frozen=True)
class Result:
    """Column names and rows of one statement; ``truncated`` when more rows than given existed (cut by
    the row limit, or by the byte limit: ``cut_by``), ``next_offset`` the offset that fetches the rest."""

    columns: list[str]
    rows: list[tuple]
    truncated: bool = False
    cut_by: Literal["rows", "bytes"] | None = None
    next_offset: int | None = None


def one_statement(con: duckdb.DuckDBPyConnection, query: str) -> duckdb.Statement:
    """DuckDB's own parser splits ``query``; anything but exactly one statement is refused (a tool
    that sends "select 1; select 2" must not silently get only the last answer)."""
    if len(query) > MAX_QUERY_CHARS:
        raise QueryRefused(f"refused: the SQL text is {len(query):,} characters, at most {MAX_QUERY_CHARS:,} are accepted")
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as exc:
        raise QueryError(f"{type(exc).__name__}: {exc}") from exc
    if len(statements) != 1:
        raise QueryRefused(f"refused: one SQL statement per call, got {len(statements)}: send them one at a time")
    return statements[0]


def admit(con: duckdb.DuckDBPyConnection, query: str) -> duckdb.Statement:
    """The one statement of ``query`` if it only reads, else QueryRefused naming why. DuckDB's parser
    decides: the statement's type must be SELECT (no COPY, EXPORT, CALL, PRAGMA, SET, ATTACH, EXPLAIN,
    DML or DDL), it must serialise as a plain SELECT (``json_serialize_sql``: PRAGMAs DuckDB rewrites
    into SELECTs do not), and every table function in it, subqueries included, must be one of
    ``READING_TABLE_FUNCTIONS`` or a table macro of the warehouse; no table may be named by a file name."""
    statement = one_statement(con, query)
    if statement.type != duckdb.StatementType.SELECT:
        raise QueryRefused(f"refused: only statements that read are accepted (SELECT, WITH, FROM, VALUES, SHOW, "
                           f"DESCRIBE, SUMMARIZE), not {statement.type.name}")
    try:
        serialised = con.execute("SELECT json_serialize_sql(?)", [statement.query]).fetchone()
        tree = json.loads(serialised[0] if serialised else "{}")
    except RecursionError:
        raise QueryRefused("refused: the statement nests too deep to be checked (hundreds of levels)") from None
    if tree.get("error"):
        raise QueryRefused(f"refused: only plain SELECT statements are accepted ({tree.get('error_message')})")
    macros: set[str] | None = None
    for kind, name in _references(tree["statements"]):
        if kind == "table function" and name not in READING_TABLE_FUNCTIONS:
            macros = {r[0] for r in con.execute(_MACROS).fetchall()} if macros is None else macros
            if name not in macros:
                raise QueryRefused(f"refused: table function {name}() is not allowed (only range, unnest, json_each, "
                                   f"the duckdb_* catalogue functions and the warehouse's table macros)")
        elif kind == "function" and name in WRITING_FUNCTIONS:
            raise QueryRefused(f"refused: function {name}() is not allowed: it writes")
        elif kind == "table" and _FILE_NAME.search(name):
            raise QueryRefused(f"refused: {name!r} names a file, not a table: no file access from SQL")
        elif kind == "catalog" and _LAKE_METADATA.match(name):
            raise QueryRefused(f"refused: {name} is the lake's catalog database, not the warehouse: "
                               f"readers read the warehouse's tables only")
    return statement


def _references(node: Any) -> Iterator[tuple[str, str]]:
    """("table function" | "function" | "table" | "catalog", name) of every reference (a table's
    catalog and schema are both yielded as "catalog": ``x.t`` may name either) in a serialised statement
    (iterative: a deeply nested statement cannot exhaust the stack)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            kind = n.get("type")
            if kind == "TABLE_FUNCTION" and isinstance(n.get("function"), dict):
                yield "table function", str(n["function"].get("function_name", "")).lower()
                stack.extend(n["function"].get("children") or [])
                stack.extend(v for k, v in n.items() if k != "function")
                continue
            if kind == "BASE_TABLE":
                yield "table", str(n.get("table_name", ""))
                for qualifier in ("catalog_name", "schema_name"):
                    yield "catalog", str(n.get(qualifier) or "")
            elif n.get("class") == "FUNCTION":
                yield "function", str(n.get("function_name", "")).lower()
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def same_catalog_cursor(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """A cursor of ``con`` whose default catalog and schema are ``con``'s: a cursor starts in the
    database's own default, so on the lake (``USE lake``) unqualified names found nothing."""
    ((catalog, schema),) = fetch_all(con, "SELECT current_database(), current_schema()")
    cur = con.cursor()
    cur.execute(f"USE {quote_ident(catalog)}.{quote_ident(schema)}")
    return cur


def _execute(con: duckdb.DuckDBPyConnection, query: str, params: list | dict | None, timeout: float | None,
             consume: Callable[[Rows], T]) -> T:
    """Run ``query`` on a cursor of ``con`` in a worker thread and ``consume`` its result there; after
    ``timeout`` seconds interrupt it, and answer QueryTimeout at most ``STOP_GRACE`` later even when
    DuckDB cannot stop it (``db.abandon``: the cursor is closed when it ends, ``con`` closes without
    waiting). Every DuckDB failure is a QueryError."""
    cur = same_catalog_cursor(con)
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = consume(execute(cur, query, params))
        except BaseException as exc:  # noqa: BLE001 (handed to the caller's thread, raised there)
            box["error"] = exc

    worker = threading.Thread(target=work, name="edgar-sql", daemon=True)
    worker.start()
    worker.join(timeout if timeout and timeout > 0 else None)
    fired = worker.is_alive()
    if fired:
        cur.interrupt()
        worker.join(STOP_GRACE)
        if worker.is_alive():
            abandon(con, cur, worker)
            raise _timed_out(timeout)
    cur.close()
    exc = box.get("error")
    if exc is None:
        return box["value"]
    if isinstance(exc, duckdb.Error):
        if fired or isinstance(exc, duckdb.InterruptException):
            raise _timed_out(timeout) from exc
        raise QueryError(f"{type(exc).__name__}: {exc}") from exc
    raise exc


def _timed_out(timeout: float | None) -> QueryTimeout:
    limit = f"the {timeout:g} s statement time limit" if timeout else "an interrupt"
    return QueryTimeout(f"stopped after {limit} (narrow the query, or give it more time)")


def _columns(cur: Rows) -> list[str]:
    return [d[0] for d in cur.description] if cur.description else []


def run_query(con: duckdb.DuckDBPyConnection, query: str, params: list | dict | None = None, *,
              timeout: float | None = DEFAULT_TIMEOUT, max_rows: int | None = None,
              max_bytes: int | None = None, offset: int = 0, trusted: bool = False) -> Result:
    """Execute ONE statement that only reads (``admit``; ``trusted``: our own SQL, not checked) and
    fetch its rows (none left open): stopped after ``timeout`` seconds; rows from ``offset`` on, at
    most ``max_rows`` of them and at most ``max_bytes`` of JSON (``truncated``/``cut_by`` say it was
    cut, ``next_offset`` where the rest begins). Every failure is a QueryError (QueryTimeout for
    the time limit, QueryRefused for a statement that could write)."""
    if not trusted:
        admit(con, query)

    def consume(cur: Rows) -> Result:
        columns = _columns(cur)
        if max_rows is None and max_bytes is None and not offset:
            return Result(columns, fetch_rows(cur))
        if max_bytes is None and not offset and max_rows is not None:
            rows = fetch_rows(cur, max_rows + 1)
            cut = len(rows) > max_rows
            return Result(columns, rows[:max_rows], truncated=cut, cut_by="rows" if cut else None,
                          next_offset=max_rows if cut else None)
        return _page(cur, columns, max_rows, max_bytes, offset)

    return _execute(con, query, params, timeout, consume)


def _page(cur: Rows, columns: list[str], max_rows: int | None, max_bytes: int | None,
          offset: int) -> Result:
    """Rows ``offset``.. of ``cur``'s result until ``max_rows`` rows or ``max_bytes`` of JSON; a row
    larger than ``max_bytes`` by itself is a QueryError (no page could hold it)."""
    rows: list[tuple] = []
    size, skipped = 0, 0
    for chunk in row_chunks(cur, 64):
        if skipped < offset:
            take = min(len(chunk), offset - skipped)
            skipped += take
            chunk = chunk[take:]
        for row in chunk:
            if max_rows is not None and len(rows) >= max_rows:
                return Result(columns, rows, True, "rows", offset + len(rows))
            grown = size + len(json.dumps(row, default=str))
            if max_bytes is not None and grown > max_bytes:
                if not rows:
                    raise QueryError(f"row {offset + 1:,} alone is {grown:,} bytes, more than the {max_bytes:,} "
                                     f"a page may hold: select fewer or shorter columns (left(text, 1000))")
                return Result(columns, rows, True, "bytes", offset + len(rows))
            rows.append(row)
            size = grown
    return Result(columns, rows)


def stream_query(con: duckdb.DuckDBPyConnection, query: str, write: Callable[[list[str], list[tuple]], None],
                 params: list | dict | None = None, *, timeout: float | None = DEFAULT_TIMEOUT,
                 max_rows: int | None = None) -> Result:
    """Execute ONE statement that only reads and hand its rows to ``write(columns, rows)`` chunk by chunk
    (called once with no rows for an empty result), at most ``max_rows`` rows; the Result holds no rows,
    only whether the stream was cut (``truncated``) and after how many (``next_offset``)."""
    admit(con, query)

    def consume(cur: Rows) -> Result:
        columns, n = _columns(cur), 0
        write(columns, [])
        for chunk in row_chunks(cur, 10_000):
            if max_rows is not None and n + len(chunk) > max_rows:
                write(columns, chunk[:max_rows - n])
                return Result(columns, [], True, "rows", max_rows)
            write(columns, chunk)
            n += len(chunk)
        return Result(columns, [])

    return _execute(con, query, params, timeout, consume)


def run_arrow(con: duckdb.DuckDBPyConnection, query: str, params: list | dict | None = None, *,
              timeout: float | None = DEFAULT_TIMEOUT, max_rows: int | None = None) -> Any:
    """Execute ONE statement that only reads and fetch it as an Arrow table (the notebook API's
    frames), under the time limit; more than ``max_rows`` rows is a QueryError naming the limit."""
    admit(con, query)

    def consume(cur: Rows) -> Any:
        import pyarrow as pa

        reader = cur.to_arrow_reader(min(max_rows + 1, 1 << 20) if max_rows else 1 << 20)
        batches, n = [], 0
        for batch in reader:
            batches.append(batch)
            n += batch.num_rows
            if max_rows is not None and n > max_rows:
                raise QueryError(f"more than {max_rows:,} rows (max_rows={max_rows}): aggregate or filter in "
                                 f"SQL, or pass a larger max_rows (None = no limit)")
        return pa.Table.from_batches(batches, schema=reader.schema)

    return _execute(con, query, params, timeout, consume)


def run_named(con: duckdb.DuckDBPyConnection, name: str, params: list | dict | None = None) -> Result:
    """Run a shipped query file, e.g. ``run_named(con, "read/status/companies")`` (our own SQL: no time
    limit; a reader never holds up a writer, so a slow status on a big warehouse harms nobody)."""
    return run_query(con, sql(name), params, timeout=None, trusted=True)


def company_ciks(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Every company the warehouse holds (the nightly refresh covers them all)."""
    return [r[0] for r in run_named(con, "read/status/company_ciks").rows]


def status_totals(con: duckdb.DuckDBPyConnection, relations: set[str]) -> Result:
    """`status`'s totals: one row per count of ``warehouse.schema.tables`` (in its order) whose
    relation is among ``relations`` (an older warehouse lacks some)."""
    from warehouse.schema.tables import TABLES

    parts, params = [], []
    for table in TABLES:
        if table.name in relations:
            for count in table.status:
                where = f" WHERE {count.where}" if count.where else ""
                parts.append(f"SELECT ? AS what, count(*) AS n FROM {quote_ident(table.name)}{where}")
                params.append(count.label)
    return run_query(con, " UNION ALL ".join(parts), params, timeout=None, trusted=True)


def status_sections(con: duckdb.DuckDBPyConnection) -> list[tuple[str, Result]]:
    """The sections `edgar-warehouse status` prints, in order; optional ones appear once their
    tables exist (coverage comes with the filings migration)."""
    names = {r[0] for r in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE NOT internal"
        " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    totals = status_totals(con, names)
    sections = [("Totals", totals), ("Companies", run_named(con, "read/status/companies"))]
    views = names
    if "company_coverage" in views:
        sections.append(("Filings coverage", run_query(con, "SELECT * FROM company_coverage ORDER BY cik", timeout=None, trusted=True)))
    sections.append(("Recent load runs", run_named(con, "read/status/recent_runs")))
    rejected = run_named(con, "read/status/rejected")
    if rejected.rows:
        sections.append(("Rejected documents", rejected))
    return sections


def lineage_params(con: duckdb.DuckDBPyConnection, cik: int | None, metric_ids: list[str]) -> dict[str, Any]:
    """read/api/lineage.sql's parameters for some metric versions of one company (the notebook's
    lineage() and the MCP tool get_derived_metric): with the concepts their edges cite
    (read/api/lineage_concepts.sql), which the file filters the fact versions on."""
    params: dict[str, Any] = {"cik": cik, "metric_ids": metric_ids}
    found = con.execute(sql("read/api/lineage_concepts"), params).fetchone()
    return {**params, "concepts": found[0] if found else []}
