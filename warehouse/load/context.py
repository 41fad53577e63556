"""What a document kind's loader is given and returns: ``LoadContext`` (provenance to stamp) and the loader signatures."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from pipelines.documents import Document
from warehouse.store.db import unregister


@dataclass(frozen=True)
class LoadContext:
    """What a loader needs to stamp provenance on its rows."""

    load_id: str
    source_document_id: int
    doc: Document


Loader = Callable[[duckdb.DuckDBPyConnection, LoadContext, Any], dict[str, int]]
# Stores several records of different companies at once, as a Loader would one by one; one count each.
ManyLoader = Callable[[duckdb.DuckDBPyConnection, Sequence[tuple[LoadContext, Any]]], list[dict[str, int]]]


def insert_arrow(con: duckdb.DuckDBPyConnection, name: str, tbl: Any) -> int:
    """Insert an Arrow table into table ``name`` by column name; the rows inserted."""
    if not tbl.num_rows:
        return 0
    view = f"_arrow_{name}"
    con.register(view, tbl)
    try:
        con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM {view}")
    finally:
        unregister(con, view)
    return tbl.num_rows
