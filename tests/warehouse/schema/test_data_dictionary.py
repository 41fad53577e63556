"""The data dictionary lives in the database: every table, view, column and table macro has a COMMENT.

Run on both backends (the DuckDB file and DuckLake). DuckLake 1.5.5 cannot comment on a view's columns
or on a macro: on the lake those are asserted to be exactly what is missing, and that DuckLake still
refuses them (so the day it can, these tests say so)."""

from __future__ import annotations

import duckdb
import pytest

from helpers import BACKENDS, fresh_warehouse, on_lake
from scripts.data_dictionary import DEFAULT, generate
from warehouse.store.db import fetch_all


@pytest.fixture(scope="module", params=BACKENDS)
def con(request, tmp_path_factory, backend_of):
    c = fresh_warehouse(backend_of(request.param), tmp_path_factory.mktemp("dd"))
    yield c
    c.close()


MAIN = "database_name = current_database() AND schema_name = 'main' AND NOT internal"


def _relations(con) -> dict[str, str]:
    rows = fetch_all(con, f"SELECT table_name, 'table' FROM duckdb_tables() WHERE {MAIN} AND NOT temporary"
                          f" UNION ALL SELECT view_name, 'view' FROM duckdb_views() WHERE {MAIN} AND NOT temporary")
    return {name: kind for name, kind in rows if name != "schema_migrations"}


def test_contract_names_exist(con):
    rel = _relations(con)
    for name in ("source_documents", "load_runs", "companies", "facts", "fiscal_calendar", "concepts"):
        assert rel.get(name) == "table", name
    for name in ("facts_current", "fact_restatements", "fact_versions"):
        assert rel.get(name) == "view", name
    macros = {n for (n,) in fetch_all(con, f"SELECT function_name FROM duckdb_functions() WHERE {MAIN}"
                                           " AND function_type = 'table_macro'")}
    assert "facts_as_of" in macros


def test_every_table_and_view_has_a_comment(con):
    rel = _relations(con)
    rows = fetch_all(con, f"SELECT table_name, comment FROM duckdb_tables() WHERE {MAIN}"
                          f" UNION ALL SELECT view_name, comment FROM duckdb_views() WHERE {MAIN}")
    missing = sorted(f"{rel[n]} {n}" for n, c in rows if n in rel and not (c or "").strip())
    assert not missing, "no COMMENT ON: " + ", ".join(missing)


def test_every_column_has_a_comment(con):
    rel = _relations(con)
    rows = fetch_all(con, f"SELECT table_name, column_name, comment FROM duckdb_columns() WHERE {MAIN}"
                          " ORDER BY table_name, column_index")
    missing: dict[str, list[str]] = {}
    for table, column, comment in rows:
        if table in rel and not (comment or "").strip():
            if on_lake(con) and rel[table] == "view":
                continue  # DuckLake: "Cannot comment on columns for entry ... - it is not a table"
            missing.setdefault(f"{rel[table]} {table}", []).append(column)
    assert not missing, "columns without COMMENT ON: " + "; ".join(
        f"{t} ({len(c)}): {', '.join(c)}" for t, c in sorted(missing.items()))


def test_every_macro_has_a_comment(con):
    rows = fetch_all(con, f"SELECT DISTINCT function_name, function_type, comment FROM duckdb_functions()"
                          f" WHERE {MAIN} AND function_type IN ('macro', 'table_macro')")
    assert rows
    if on_lake(con):
        with pytest.raises(duckdb.BinderException, match="Unsupported catalog type for SET COMMENT"):
            con.execute(f"COMMENT ON MACRO {rows[0][0]} IS 'x'")
        return
    missing = sorted(f"{t} {n}" for n, t, c in rows if not (c or "").strip())
    assert not missing, "no COMMENT ON MACRO: " + ", ".join(missing)


def test_the_generated_data_dictionary_in_docs_is_current():
    """docs/data-dictionary.md is what a fresh warehouse's comments and the vocabulary lists say now."""
    assert DEFAULT.read_text(encoding="utf-8") == generate(), (
        f"{DEFAULT.name} is stale: run `make docs` (python scripts/data_dictionary.py) and commit it")
