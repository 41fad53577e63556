"""Python rows of a DuckDB result, the values DuckDB's ``fetchall`` gives, converted column by column.

DuckDB turns every value into a Python object one at a time; a DECIMAL costs ~2.7 us that way (a
``decimal.Decimal`` built from the value's text), so a company's ~15-20k current facts (three DECIMAL
columns) took ~130 ms of CPU as tuples against ~19 ms as Arrow. Here the result is fetched as Arrow
and each column converted in one pass: DECIMAL as its exact text (Arrow's cast, the same digits and
scale DuckDB prints) into ``Decimal``, DATE and TIMESTAMP through numpy, strings, integers, doubles
and booleans as they are. Columns of one type are converted together through one dictionary of their
distinct values (``_pylists``): each distinct value becomes one Python object that every row holding
it refers to (a company's ~15k current facts hold ~8k distinct values in three DECIMAL columns and
~900 distinct strings in thirteen), so fewer objects are built and freed. Only results whose every column has one of those types take this path
(``FAST_TYPES``); any other type (lists, structs, intervals, time zones, HUGEINT, ...) is left to
DuckDB's own conversion, so a row is always what ``fetchall`` would have returned
(tests/warehouse/read/test_pyrows.py compares them value by value and type by type).

pyarrow and numpy are imported only by a process that already holds them (the MCP server, a
notebook): a one-shot CLI ``sql`` would pay more to import them (~0.2 s) than they save.

A statement is run with ``execute`` (not the cursor's own): DuckDB 2.x gives an executed cursor's result
as Arrow only after copying every row of it (``to_arrow_reader`` reads the result to its end first), so
a row limit or a page no longer bounded the work (``SELECT * FROM range(10000000000)`` with 5 rows asked
for ran into the time limit); there the Arrow reader comes from the statement's relation, which streams.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from decimal import Decimal
from typing import Any, Protocol

import duckdb

#: DuckDB types converted column by column (DECIMAL(p,s) by its prefix); anything else: DuckDB's fetch.
FAST_TYPES = frozenset({"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT",
                        "UINTEGER", "UBIGINT", "DOUBLE", "VARCHAR", "DATE", "TIMESTAMP"})
#: below this many rows DuckDB's own conversion is as cheap (Arrow has a fixed cost per result)
MIN_ROWS = 256
#: Python's date and datetime range, as days and microseconds since 1970-01-01
_DAYS = (-719162, 2932896)
_MICROS = (-62135596800000000, 253402300799999999)


#: DuckDB 2.x streams Arrow from a relation only; 1.5 streams an executed cursor's (and runs a relation
#: that has parameters when it binds it: the whole result).
_ARROW_FROM_RELATION = int(duckdb.__version__.split(".")[0]) >= 2


class Rows(Protocol):
    """A statement's result as ``fetch_rows`` and ``row_chunks`` read it: an executed cursor, or ``execute``'s."""

    @property
    def description(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def fetchmany(self, size: int = ...) -> list[Any]: ...
    def to_arrow_reader(self, batch_size: int = ...) -> Any: ...


class _Streamed:
    """One statement on DuckDB 2.x: Arrow from its relation (streamed), rows from the cursor running it
    (``fetchmany`` streams there; the statement is run once, by whichever is asked first)."""

    def __init__(self, cur: duckdb.DuckDBPyConnection, relation: Any, query: str, params: list | dict | None):
        self._cur, self._relation, self._query, self._params = cur, relation, query, params
        self.description = relation.description
        self._executed: duckdb.DuckDBPyConnection | None = None

    def to_arrow_reader(self, batch_size: int = 1 << 20) -> Any:
        return self._relation.to_arrow_reader(batch_size)

    def fetchall(self) -> list[Any]:
        return self._rows().fetchall()

    def fetchmany(self, size: int = 1) -> list[Any]:
        return self._rows().fetchmany(size)

    def _rows(self) -> duckdb.DuckDBPyConnection:
        if self._executed is None:
            self._executed = self._cur.execute(self._query, self._params or [])
        return self._executed


def execute(cur: duckdb.DuckDBPyConnection, query: str, params: list | dict | None = None) -> Rows:
    """Run ONE statement (a SELECT: ``queries.admit``, or our own) on ``cur`` for ``fetch_rows`` and
    ``row_chunks``: the executed cursor, but on DuckDB 2.x, in a process that holds pyarrow, the
    statement's relation for Arrow (an executed cursor's Arrow is a copy of its whole result there)."""
    if _ARROW_FROM_RELATION and "pyarrow" in sys.modules:
        relation = cur.sql(query, params=params or None)
        if relation is not None:
            return _Streamed(cur, relation, query, params)
    return cur.execute(query, params or [])


def columnar(cur: Rows) -> bool:
    """Whether ``cur``'s result may be converted column by column (every column of a FAST type, and
    pyarrow already loaded in this process)."""
    if not cur.description or "pyarrow" not in sys.modules:
        return False
    return all(str(d[1]) in FAST_TYPES or str(d[1]).startswith("DECIMAL(") for d in cur.description)


def fetch_rows(cur: Rows, max_rows: int | None = None) -> list[tuple]:
    """Every row of ``cur``'s result (at most ``max_rows``), as ``fetchall``/``fetchmany`` give them."""
    if not columnar(cur):
        return cur.fetchall() if max_rows is None else cur.fetchmany(max_rows)
    import pyarrow as pa

    reader = cur.to_arrow_reader(max(MIN_ROWS, min(max_rows or 1 << 20, 1 << 20)))
    batches, n = [], 0
    for batch in reader:
        batches.append(batch)
        n += batch.num_rows
        if max_rows is not None and n >= max_rows:
            break
    table = pa.Table.from_batches(batches, schema=reader.schema)
    if max_rows is not None:
        table = table.slice(0, max_rows)
    if table.num_rows == 0:
        return []
    columns = _pylists(table)
    collecting = gc.isenabled()
    gc.disable()  # every new tuple would count towards a collection: half the time of building them
    try:
        return list(zip(*columns, strict=True))
    finally:
        if collecting:
            gc.enable()


def _pylists(table: Any) -> list[list]:
    """Every column of ``table`` as Python values. Columns of one Arrow type (except DOUBLE and
    BOOLEAN) are encoded against one dictionary of their distinct values: each distinct value is
    converted once and every row refers to it (a company's facts repeat accessions, dates, units and
    values across rows and columns: value and first_value are mostly equal), which saves building,
    and later freeing, one object per row and column."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    out: list[list | None] = [None] * table.num_columns
    by_type: dict[Any, list[int]] = {}
    for i, col in enumerate(table.columns):
        t = col.type
        if pa.types.is_floating(t) or pa.types.is_boolean(t):  # -0.0 and NaNs keep their bits; bools are singletons
            out[i] = _pylist(col)
        else:
            by_type.setdefault(t, []).append(i)
    n = table.num_rows
    for t, at in by_type.items():
        joined = pa.chunked_array([c for i in at for c in table.column(i).chunks], type=t).combine_chunks()
        encoded = pc.dictionary_encode(joined)
        distinct = encoded.dictionary
        values = np.empty(len(distinct) + 1, dtype=object)  # the last one: None, where a row is null
        values[:-1] = _pylist(distinct)
        every = values[pc.fill_null(encoded.indices, len(distinct)).to_numpy()]
        for k, i in enumerate(at):
            out[i] = every[k * n:(k + 1) * n].tolist()
    return out


def _pylist(col: Any) -> list:
    """One Arrow column as the Python values DuckDB gives for its type."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    t = col.type
    if pa.types.is_decimal(t):
        text = pc.cast(col, pa.string()).to_numpy(zero_copy_only=False)
        return list(map(Decimal, text)) if col.null_count == 0 else [None if s is None else Decimal(s) for s in text]
    if pa.types.is_date32(t) or (pa.types.is_timestamp(t) and t.unit == "us" and t.tz is None):
        lo, hi = (v.as_py() for v in pc.min_max(col.cast(pa.int32() if pa.types.is_date32(t) else pa.int64())).values())
        bounds = _DAYS if pa.types.is_date32(t) else _MICROS
        if lo is not None and (lo < bounds[0] or hi > bounds[1]):  # infinity, years past 9999 or BC
            return [r[0] for r in duckdb.from_arrow(pa.table({"v": col})).fetchall()]  # DuckDB's own rule
        return col.to_numpy(zero_copy_only=False).astype(object).tolist()
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return col.to_numpy(zero_copy_only=False).tolist()
    if col.null_count == 0:
        return col.to_numpy().tolist()
    values = pc.fill_null(col, False if pa.types.is_boolean(t) else 0).to_numpy().tolist()
    for i in np.flatnonzero(col.is_null().to_numpy(zero_copy_only=False)).tolist():
        values[i] = None
    return values


def row_chunks(cur: Rows, rows: int) -> Iterator[list[tuple]]:
    """``cur``'s rows in chunks of at most ``rows`` (one Arrow reader, converted column by column when
    ``columnar``), for callers that stop early or stream: nothing beyond the chunk asked for is fetched."""
    if not columnar(cur):
        while chunk := cur.fetchmany(rows):
            yield chunk
        return
    import pyarrow as pa

    reader = cur.to_arrow_reader(max(rows, 1))
    for batch in reader:
        if batch.num_rows:
            yield list(zip(*_pylists(pa.Table.from_batches([batch])), strict=True))
