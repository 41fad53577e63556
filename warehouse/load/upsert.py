"""Insert-or-update one row without ON CONFLICT: an UPDATE by key, then an anti-join INSERT.

DuckLake refuses PRIMARY KEY constraints (so ``ON CONFLICT`` has nothing to act on) and sequences;
the ingest path therefore writes every keyed row with statements that run the same on a DuckDB file
and on a DuckLake catalog. The caller is the one writer, inside its batch's transaction, so the
UPDATE-then-INSERT pair cannot race.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import duckdb


def upsert_row(con: duckdb.DuckDBPyConnection, table: str, keys: Sequence[str], row: Mapping[str, Any], *,
               update: Sequence[str] | None = None, casts: Mapping[str, str] | None = None) -> None:
    """Make ``table`` hold ``row`` at its key: update the columns ``update`` (default: every non-key
    column of ``row``) of the row with the same ``keys``, or insert ``row`` when there is none.
    ``casts`` gives a SQL type for parameters DuckDB cannot infer (lists of structs...)."""
    casts = casts or {}
    update = [c for c in row if c not in keys] if update is None else list(update)
    params = {f"p{i}": v for i, v in enumerate(row.values())}
    ref = {c: f"$p{i}" + (f"::{casts[c]}" if c in casts else "") for i, c in enumerate(row)}
    where = " AND ".join(f"{k} = {ref[k]}" for k in keys)
    if update:
        used = {f"p{i}": v for i, (c, v) in enumerate(row.items()) if c in keys or c in update}
        con.execute(f"UPDATE {table} SET {', '.join(f'{c} = {ref[c]}' for c in update)} WHERE {where}", used)
    con.execute(f"INSERT INTO {table} ({', '.join(row)}) SELECT {', '.join(ref[c] for c in row)}"
                f" WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE {where})", params)
