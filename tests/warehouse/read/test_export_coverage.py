"""Every table of a migrated warehouse is exported (export.PUBLIC) or deliberately left out with a reason (export.NOT_EXPORTED)."""

from __future__ import annotations

from warehouse.read.export import NOT_EXPORTED, PUBLIC
from warehouse.store.db import connect, fetch_all


def test_every_table_is_exported_or_deliberately_left_out(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    try:
        tables = {t for (t,) in fetch_all(con, "SELECT table_name FROM duckdb_tables()"
                                               " WHERE schema_name = 'main' AND NOT internal")}
        views = {v for (v,) in fetch_all(con, "SELECT view_name FROM duckdb_views()"
                                              " WHERE schema_name = 'main' AND NOT internal")}
    finally:
        con.close()
    forgotten = sorted(tables - set(PUBLIC) - set(NOT_EXPORTED))
    assert not forgotten, f"tables neither exported nor left out with a reason (warehouse/read/export.py): {forgotten}"
    assert not set(PUBLIC) & set(NOT_EXPORTED), "a table both exported and left out"
    assert set(NOT_EXPORTED) <= tables, f"left out but no such table: {sorted(set(NOT_EXPORTED) - tables)}"
    assert set(PUBLIC) <= tables | views, f"exported but no such relation: {sorted(set(PUBLIC) - tables - views)}"
    assert all(len(why) > 10 for why in NOT_EXPORTED.values())
