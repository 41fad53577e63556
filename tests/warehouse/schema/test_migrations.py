"""Forward-only table migrations: applied once each with their sha256, refused when an applied file changed
(unless schema/superseded.toml lists the sha256 it was applied with)."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from warehouse.schema.folder import schema_dir
from warehouse.schema.migrate import apply_migrations, discover
from warehouse.store.db import WarehouseError, connect, fetch_all, fetch_value


@pytest.fixture
def schema_copy(tmp_path, monkeypatch):
    """A private copy of schema/ that the warehouse will use (EDGAR_WAREHOUSE_SCHEMA_DIR)."""
    folder = tmp_path / "schema"
    shutil.copytree(schema_dir(), folder)
    monkeypatch.setenv("EDGAR_WAREHOUSE_SCHEMA_DIR", str(folder))
    assert schema_dir() == folder
    return folder


def test_repository_schema_files_are_well_named_and_ordered():
    migs = discover()
    assert migs and migs[0].version == 1 and migs[0].name == "core"
    assert [m.version for m in migs] == sorted({m.version for m in migs})


def test_applied_once_with_sha256(tmp_path, schema_copy):
    con = connect(tmp_path / "w.duckdb")
    try:
        rows = fetch_all(con, "SELECT version, name, sha256, applied_at FROM schema_migrations ORDER BY version")
        files = sorted((schema_copy / "migrations").glob("*.sql"))
        assert [(v, n, s) for v, n, s, _ in rows] == [
            (int(p.name[:4]), p.stem[5:], hashlib.sha256(p.read_bytes()).hexdigest()) for p in files]
        assert all(a is not None for *_, a in rows)
        assert apply_migrations(con) == []  # nothing pending on the same connection
    finally:
        con.close()
    con = connect(tmp_path / "w.duckdb")  # re-connect applies nothing
    try:
        assert fetch_all(con, "SELECT version, name, sha256, applied_at FROM schema_migrations ORDER BY version") == rows
    finally:
        con.close()


def test_changed_applied_file_refused(tmp_path, schema_copy):
    connect(tmp_path / "w.duckdb").close()
    core = schema_copy / "migrations" / "0001_core.sql"
    core.write_text(core.read_text() + "\n-- an innocent-looking edit\n")
    with pytest.raises(WarehouseError, match=r"0001_core\.sql changed after it was applied"):
        connect(tmp_path / "w.duckdb")
    # nothing was applied or recorded on the way
    con = connect(tmp_path / "w.duckdb", migrate=False)
    try:
        assert fetch_value(con, "SELECT count(*) FROM schema_migrations") == len(discover(schema_copy / "migrations"))
    finally:
        con.close()


@pytest.mark.parametrize("bad_name", ["5_short.sql", "0004-dash.sql", "0004_Upper.sql", "0004_.sql", "abcd_x.sql"])
def test_badly_named_file_rejected(tmp_path, schema_copy, bad_name):
    (schema_copy / "migrations" / bad_name).write_text("SELECT 1;\n")
    with pytest.raises(WarehouseError, match="NNNN_name.sql") as exc:
        connect(tmp_path / "w.duckdb")
    assert bad_name in str(exc.value)


def test_duplicate_version_rejected(tmp_path, schema_copy):
    (schema_copy / "migrations" / "0001_again.sql").write_text("SELECT 1;\n")
    with pytest.raises(WarehouseError, match="share a version"):
        connect(tmp_path / "w.duckdb")


def test_new_migration_applied_later_and_only_it(tmp_path, schema_copy):
    connect(tmp_path / "w.duckdb").close()
    (schema_copy / "migrations" / "0999_extra.sql").write_text(
        "CREATE TABLE extra_t (a INTEGER);\n")
    con = connect(tmp_path / "w.duckdb")
    try:
        assert fetch_all(con, "SELECT version, name FROM schema_migrations WHERE version = 999") == [(999, "extra")]
        assert fetch_value(con, "SELECT count(*) FROM extra_t") == 0
    finally:
        con.close()


def test_failing_migration_rolls_back_entirely(tmp_path, schema_copy):
    connect(tmp_path / "w.duckdb").close()
    (schema_copy / "migrations" / "0999_broken.sql").write_text(
        "CREATE TABLE half_done (a INTEGER);\nINSERT INTO half_done VALUES (1);\nSELECT no_such_function();\n")
    with pytest.raises(WarehouseError, match="0999_broken.sql failed"):
        connect(tmp_path / "w.duckdb")
    con = connect(tmp_path / "w.duckdb", migrate=False)
    try:
        assert fetch_value(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'half_done'") == 0
        assert fetch_value(con, "SELECT count(*) FROM schema_migrations WHERE version = 999") == 0
    finally:
        con.close()


def test_readers_never_migrate(tmp_path, schema_copy):
    with pytest.raises(WarehouseError, match="no warehouse here"):
        connect(tmp_path / "missing.duckdb", read_only=True)
    connect(tmp_path / "w.duckdb").close()
    (schema_copy / "migrations" / "0999_extra.sql").write_text("CREATE TABLE extra_t (a INTEGER);\n")
    con = connect(tmp_path / "w.duckdb", read_only=True)
    try:
        assert fetch_value(con, "SELECT count(*) FROM schema_migrations WHERE version = 999") == 0
        assert fetch_value(con, "SELECT current_setting('TimeZone')") == "UTC"
    finally:
        con.close()


def test_superseded_sha256_is_accepted_and_no_other(tmp_path, schema_copy):
    """0001-0004 were squashed to tables only: a warehouse that applied the old files still opens."""
    connect(tmp_path / "w.duckdb").close()
    old = next(iter((schema_copy / "superseded.toml").read_text().split('"0001_core.sql" = ["')[1:]))[:64]
    con = connect(tmp_path / "w.duckdb", migrate=False)
    con.execute("UPDATE schema_migrations SET sha256 = ? WHERE version = 1", [old])
    con.close()
    connect(tmp_path / "w.duckdb").close()
    con = connect(tmp_path / "w.duckdb", migrate=False)
    con.execute("UPDATE schema_migrations SET sha256 = ? WHERE version = 1", ["0" * 64])
    con.close()
    with pytest.raises(WarehouseError, match=r"0001_core\.sql changed after it was applied"):
        connect(tmp_path / "w.duckdb")


def test_migrations_hold_tables_only():
    """Views, macros and comments are definitions and the dictionary now, never migrations."""
    for mig in discover():
        text = mig.sql.upper()
        for banned in ("CREATE VIEW", "CREATE OR REPLACE VIEW", "CREATE MACRO", "CREATE OR REPLACE MACRO",
                       "COMMENT ON"):
            assert banned not in text, f"{mig.path.name}: {banned}"


def test_migrations_another_process_applied_meanwhile_are_skipped(monkeypatch):
    """Two writers start on a fresh warehouse (the lake lets several): both read that every migration
    is pending, one applies them all, then the other starts. It must read again inside its own
    transaction and skip them (was: it ran them again: "already exists", or on the lake a migration
    recorded twice, or 0011 copying a table a later migration had widened: "has 17 columns but 18
    values were supplied", CI of 0e34e69)."""
    import duckdb

    from warehouse.schema import migrate

    first = duckdb.connect(":memory:")
    other = first.cursor()  # a second connection to the same database
    real_discover = migrate.discover
    raced = []

    def discover_then_race(folder=None):  # called once `first` has read what is applied
        if not raced:
            raced.append([])
            raced[0] = apply_migrations(other)  # the other writer, all of them, committed
        return real_discover(folder)
    monkeypatch.setattr(migrate, "discover", discover_then_race)
    assert apply_migrations(first) == []
    monkeypatch.undo()
    assert len(raced[0]) == len(discover())
    assert fetch_value(first, "SELECT count(*) FROM schema_migrations") == len(discover())
