"""Tables whose rows definitions compute (schema/stored/): recomputed for every company, company by company, when a definition they read changes."""

from __future__ import annotations

import pytest

from helpers import COMPANYFACTS_FILES, NOW, differences, load_files, private_schema
from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.errors import SchemaError
from warehouse.load.batch import Parsed, load_batch
from warehouse.schema import stored_tables
from warehouse.schema.definitions import discover_definitions
from warehouse.schema.folder import schema_dir
from warehouse.store.db import connect, fetch_all, fetch_value

COMPUTED = {  # each stored table and the whole computation of its rows by its definitions
    "facts_current_rows": "SELECT * FROM facts_current_of(NULL)",
    "fact_restatements_rows": "SELECT * FROM fact_restatements_of(NULL)",
    "standard_facts_rows": f"SELECT * FROM company_standard_facts_as_of(NULL, {NOW})",
}


def _differences(con, table: str) -> int:
    return differences(con, f"SELECT * FROM {table}", COMPUTED[table])


def _stale(con, *, orphans: bool = False) -> dict[str, int]:
    """Rows of every stored table made wrong (as rows computed by older rules would be): every other
    row deleted (``orphans``: and one row given to a company with no facts). Returns how many rows
    each table holds."""
    for table in COMPUTED:
        con.execute(f"DELETE FROM {table} WHERE rowid % 2 = 0")
        if orphans:
            con.execute(f"INSERT INTO {table} SELECT * REPLACE (99 AS cik) FROM {table} LIMIT 1")
    return {t: fetch_value(con, f"SELECT count(*) FROM {t}") for t in COMPUTED}


@pytest.fixture
def warehouse(tmp_path, monkeypatch):
    """Three companies loaded, with a private copy of schema/ the warehouse uses."""
    schema = private_schema(tmp_path, monkeypatch)
    path = tmp_path / "w.duckdb"
    con = connect(path)
    try:
        assert load_files(con, COMPANYFACTS_FILES[:3], tmp_path / "raw").status == "succeeded"
        for table in COMPUTED:
            assert fetch_value(con, f"SELECT count(*) FROM {table}") > 0, table
            assert _differences(con, table) == 0, table
    finally:
        con.close()
    return path, schema


def _touch(definition) -> None:
    """A changed definition (its sha256 changes; what it computes does not)."""
    definition.write_text(definition.read_text() + "-- changed\n")


def test_a_changed_definition_recomputes_every_table_that_reads_it_company_by_company(warehouse, monkeypatch):
    """fact_version_order is read by facts_current_of and fact_restatements_of, and through the
    current facts by the standard facts: a change to it recomputes all three tables, each company's
    rows apart (a chunk of one company here), the current facts first."""
    path, schema = warehouse
    con = connect(path)
    try:
        _stale(con, orphans=True)
        companies = fetch_value(con, "SELECT count(DISTINCT cik) FROM facts")
        assert all(_differences(con, t) > 0 for t in COMPUTED)
    finally:
        con.close()
    _touch(schema / "definitions" / "fact_version_order.sql")
    chunks: list[list[int]] = []
    run = stored_tables._run
    monkeypatch.setattr(stored_tables, "FACTS_PER_FILL", 1)
    monkeypatch.setattr(stored_tables, "_run", lambda c, name, st, ciks: (chunks.append(ciks), run(c, name, st, ciks)))
    con = connect(path)
    try:
        for table in COMPUTED:
            assert _differences(con, table) == 0, table
            keys = fetch_all(con, f"SELECT cik FROM {table} ORDER BY rowid")
            assert keys == sorted(keys), f"{table}: a company's rows are not read by key"
    finally:
        con.close()
    assert len(chunks) == 3 * companies and all(len(c) == 1 for c in chunks)


def test_a_changed_rule_of_the_standard_facts_recomputes_only_them(warehouse):
    """ytd_steps_one_quarter is read by the standard facts only: their rows are computed again, the
    current facts and restatements (which it does not change) are left as they are."""
    path, schema = warehouse
    con = connect(path)
    try:
        held = _stale(con)
    finally:
        con.close()
    _touch(schema / "definitions" / "ytd_steps_one_quarter.sql")
    con = connect(path)
    try:
        assert _differences(con, "standard_facts_rows") == 0
        for table in ("facts_current_rows", "fact_restatements_rows"):
            assert fetch_value(con, f"SELECT count(*) FROM {table}") == held[table], table
    finally:
        con.close()


def _stored_folder(tmp_path, files: dict[str, str]):
    folder = tmp_path / "stored"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.sql").write_text(text)
    return folder


def test_a_stored_file_that_computes_no_companys_rows_is_refused(tmp_path):
    defs = discover_definitions(schema_dir() / "definitions")
    folder = _stored_folder(tmp_path, {"facts_current_rows": "-- reads: facts_current_of\n"
                                                             "INSERT INTO facts_current_rows SELECT * FROM facts_current_of(NULL)\n"})
    with pytest.raises(SchemaError, match=r"facts_current_rows.sql: computes no company's rows \(\$ciks\)"):
        stored_tables.discover_stored(folder, defs)


def test_stored_tables_that_read_each_other_are_refused(tmp_path):
    defs = discover_definitions(schema_dir() / "definitions")
    folder = _stored_folder(tmp_path, {"a_rows": "-- reads: b_rows\nSELECT $ciks\n",
                                       "b_rows": "-- reads: a_rows\nSELECT $ciks\n"})
    with pytest.raises(SchemaError, match="stored tables that read each other"):
        stored_tables.discover_stored(folder, defs)


def test_a_table_is_refilled_after_the_stored_tables_it_reads_and_its_basis_carries_theirs():
    root = schema_dir()
    stored = stored_tables.discover_stored(root / "stored", discover_definitions(root / "definitions"))
    order = [s.name for s in stored]
    assert order.index("facts_current_rows") < order.index("fact_restatements_rows")
    assert order.index("facts_current_rows") < order.index("standard_facts_rows")
    by_name = {s.name: s for s in stored}
    assert "facts_current_rows" in by_name["standard_facts_rows"].reads  # through the view facts_current
    assert "fact_version_order" in by_name["standard_facts_rows"].reads


def test_a_refill_runs_under_the_writers_memory_limit(tmp_path, monkeypatch):
    """Schema upgrades hold EDGAR_WAREHOUSE_MEMORY_LIMIT (the whole standard-facts fill needed 5 GB
    at 100x with DuckDB's default of 80 % of RAM); the setting before comes back after."""
    monkeypatch.setenv("EDGAR_WAREHOUSE_MEMORY_LIMIT", "300MB")
    monkeypatch.setenv("EDGAR_WAREHOUSE_SCHEMA_CACHE", "off")  # the file made from its migrations here
    seen: list[str] = []
    refill = stored_tables.refill

    def watched(con, stored, companies):
        seen.append(fetch_value(con, "SELECT current_setting('memory_limit')"))
        refill(con, stored, companies)

    monkeypatch.setattr("warehouse.schema.migrate.refill", watched)
    con = connect(tmp_path / "w.duckdb")  # a new warehouse: every stored table filled (empty)
    try:
        assert seen == ["286.1 MiB"] * 3
        assert fetch_value(con, "SELECT current_setting('memory_limit')") != "286.1 MiB"
    finally:
        con.close()


def test_loads_keep_every_stored_table_in_dependency_order(tmp_path, monkeypatch):
    """A load runs the file of every stored table for the companies it changed, a table after the
    stored tables it reads: a new file in schema/stored/ that loads did not keep would fail here."""
    root = schema_dir()
    order = [s.name for s in stored_tables.discover_stored(root / "stored", discover_definitions(root / "definitions"))]
    con = connect(tmp_path / "w.duckdb")
    try:
        kept: list[str] = []
        run = stored_tables._run
        monkeypatch.setattr(stored_tables, "_run", lambda c, name, st, ciks: (kept.append(name), run(c, name, st, ciks)))
        doc = read_local_document(COMPANYFACTS_FILES[0])
        assert load_batch(con, [Parsed(doc, parse_document(doc)[1])], raw_dir=tmp_path / "raw").status == "succeeded"
    finally:
        con.close()
    assert kept == order
