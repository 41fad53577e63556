"""Every table of a migrated warehouse has a row in warehouse/schema/tables.py: exported, or left out with a reason."""

from __future__ import annotations

from warehouse.load.kinds import KINDS
from warehouse.read.export import plan
from warehouse.schema.tables import BY_NAME, NOT_EXPORTED, PUBLIC, TABLES
from warehouse.store.db import connect, fetch_all


def test_every_table_is_exported_or_deliberately_left_out(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    try:
        tables = {t for (t,) in fetch_all(con, "SELECT table_name FROM duckdb_tables()"
                                               " WHERE schema_name = 'main' AND NOT internal")}
        views = {v for (v,) in fetch_all(con, "SELECT view_name FROM duckdb_views()"
                                              " WHERE schema_name = 'main' AND NOT internal")}
        exported = list(plan(con, None, None))
    finally:
        con.close()
    forgotten = sorted(tables - set(BY_NAME))
    assert not forgotten, f"tables neither exported nor left out with a reason (warehouse/schema/tables.py): {forgotten}"
    assert len(BY_NAME) == len(TABLES), "a table with two rows"
    assert set(BY_NAME) <= tables | views, f"rows of no such relation: {sorted(set(BY_NAME) - tables - views)}"
    assert all(len(why) > 10 for why in NOT_EXPORTED.values())
    assert exported == list(PUBLIC)  # the export's default is the rows marked exported, in their order
    assert {t for k in KINDS for t in k.tables} <= set(BY_NAME)


def test_the_filing_documents_tables_are_exported_but_their_search_index_is_not():
    assert {"filing_documents", "filing_sections", "filing_facts", "filing_statements",
            "filing_statement_lines"} <= set(PUBLIC)
    assert "filing_terms" in NOT_EXPORTED
