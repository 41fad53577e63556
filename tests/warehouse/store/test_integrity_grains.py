"""integrity_problems checks the declared grain of EVERY table: a table without one is a problem, and a
duplicate in any table is found, the four the check used to skip (prose grains) included."""

from __future__ import annotations

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for
from warehouse.store.integrity import _tables, declared_grains, grain_problems, integrity_problems


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    path = tmp_path_factory.mktemp("grains") / "w.duckdb"
    con = connect(path)
    docs = [read_local_document(p) for p in (COMPANYFACTS_DIR / "CIK0000320193.json.gz",
                                             FIXTURES / "form4/0000320193-22-000061.txt")]
    report = ingest(con, docs, raw_dir=raw_dir_for(path), command="load")
    assert (report.loaded, report.rejected) == (2, [])
    yield con, path
    con.close()


def test_every_table_declares_its_grain_as_a_list_of_its_columns(loaded):
    con, path = loaded
    grains = declared_grains(con)
    assert set(grains) == set(_tables(con)) and grain_problems(con, grains) == []
    assert grains["insider_footnote_refs"] == ["accession", "table_name", "table_kind", "line_number", "xml_element",
                                               "footnote_id"]
    assert integrity_problems(con, raw_dir_for(path)) == []


def test_a_declared_grain_is_the_primary_key_where_the_table_has_one(loaded):
    """source_documents and load_runs are keyed in a DuckDB file (the key refuses a duplicate); on the
    lake, which takes no PRIMARY KEY, their grain check is what finds one."""
    con, _ = loaded
    keys = dict(fetch_all(con, "SELECT table_name, constraint_column_names FROM duckdb_constraints()"
                               " WHERE constraint_type = 'PRIMARY KEY'"))
    grains = declared_grains(con)
    assert {t: set(grains[t]) for t in keys} == {t: set(k) for t, k in keys.items()}
    assert keys["source_documents"] == ["source_document_id"] and keys["load_runs"] == ["load_id"]


@pytest.mark.parametrize("table", ["insider_footnote_refs", "fact_restatements_rows"])
def test_a_duplicate_in_a_formerly_skipped_unkeyed_table_is_a_problem(loaded, table):
    con, path = loaded
    assert fetch_value(con, f"SELECT count(*) FROM {table}") > 0
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(f"INSERT INTO {table} SELECT * FROM {table} LIMIT 1")
        problems = integrity_problems(con, raw_dir_for(path))
    finally:
        con.execute("ROLLBACK")
    grain = ", ".join(declared_grains(con)[table])
    assert f"{table}: 1 values of its grain ({grain}) occur more than once" in problems, problems


def test_a_table_without_a_declared_grain_is_a_problem(loaded):
    con, _ = loaded
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("CREATE TABLE no_grain (a INTEGER)")
        con.execute("COMMENT ON TABLE no_grain IS 'One row per something (grain: b)'")  # b is no column
        problems = grain_problems(con, declared_grains(con))
    finally:
        con.execute("ROLLBACK")
    assert [p for p in problems if p.startswith("no_grain:")] == [
        "no_grain: no grain declared (its description in schema/columns.toml needs '(grain: a, b)', naming its "
        "columns)"]
    assert not fetch_all(con, "SELECT 1 FROM duckdb_tables() WHERE table_name = 'no_grain'")
