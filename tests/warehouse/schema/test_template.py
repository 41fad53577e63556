"""A new warehouse file copied from the machine's empty-schema template is the file its migrations make
(warehouse/schema/template.py): the same tables, columns, comments, views, macros and bookkeeping, its
own applied_at; a damaged or unwritable template never stops a new file; ``off`` builds none."""

from __future__ import annotations

import datetime as dt
import re
import time

import duckdb
import pytest

from warehouse.schema.template import CACHE_ENV, schema_key, template_path
from warehouse.store.db import connect

SCHEMA = {
    "tables": "SELECT table_name, sql FROM duckdb_tables() WHERE NOT temporary ORDER BY 1",
    "columns": "SELECT table_name, column_name, data_type, column_default, is_nullable, comment"
               " FROM duckdb_columns() WHERE NOT internal ORDER BY 1, 2",
    "views": "SELECT view_name, sql, comment FROM duckdb_views() WHERE NOT internal ORDER BY 1",
    "macros": "SELECT function_name, function_type, macro_definition, comment FROM duckdb_functions()"
              " WHERE NOT internal AND function_type LIKE '%macro%' ORDER BY 1, 3",
    "indexes": "SELECT index_name, table_name, sql FROM duckdb_indexes() ORDER BY 1",
    "sequences": "SELECT sequence_name, start_value FROM duckdb_sequences() ORDER BY 1",
    "migrations": "SELECT version, name, sha256 FROM schema_migrations ORDER BY 1",
    "definitions": "SELECT name, kind, sha256 FROM schema_definitions ORDER BY 1",
}


def _excludes_sorted(row: tuple) -> tuple:
    """DuckDB prints a view's ``EXCLUDE (a, b)`` in an order of its own per process: sorted here."""
    return tuple(re.sub(r"EXCLUDE \(([^()]*)\)", lambda m: "EXCLUDE (" + ", ".join(sorted(m.group(1).split(", ")))
                        + ")", v) if isinstance(v, str) else v for v in row)


def _schema(path) -> dict[str, list]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {k: [_excludes_sorted(r) for r in con.execute(q).fetchall()] for k, q in SCHEMA.items()}
    finally:
        con.close()


def _new_file(path):
    connect(path).close()


def test_a_file_from_the_template_is_the_file_its_migrations_make(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    _new_file(tmp_path / "first.duckdb")  # builds the template
    template = template_path()
    assert template is not None and template.exists()
    built = template.stat().st_mtime
    time.sleep(1.1)
    import warehouse.store.db as db

    copies: list[bool] = []
    real = db.start_from_template
    monkeypatch.setattr(db, "start_from_template", lambda p: copies.append(real(p)) or copies[-1])
    _new_file(tmp_path / "copied.duckdb")  # copied from it (a silent fall back to the migrations fails here)
    assert copies == [True] and template.stat().st_mtime == built
    monkeypatch.setenv(CACHE_ENV, "off")
    _new_file(tmp_path / "migrated.duckdb")
    copied, migrated = _schema(tmp_path / "copied.duckdb"), _schema(tmp_path / "migrated.duckdb")
    for part in SCHEMA:
        assert copied[part] == migrated[part], part
    assert len(copied["migrations"]) >= 21 and len(copied["columns"]) > 300
    # applied_at is when this file got its schema, not when the template was built
    con = duckdb.connect(str(tmp_path / "copied.duckdb"), read_only=True)
    stamps = {r[0] for r in con.execute("SELECT applied_at FROM schema_migrations UNION ALL "
                                        "SELECT applied_at FROM schema_definitions").fetchall()}
    con.close()
    built_at = dt.datetime.fromtimestamp(built, dt.UTC).replace(tzinfo=None)
    assert stamps and min(stamps) > built_at


def test_off_builds_no_template_and_a_damaged_one_is_rebuilt(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, "off")
    _new_file(tmp_path / "a.duckdb")
    assert not cache.exists()
    monkeypatch.setenv(CACHE_ENV, str(cache))
    template = template_path()
    assert template is not None
    template.parent.mkdir(parents=True)
    template.write_bytes(b"not a duckdb file" * 1000)
    _new_file(tmp_path / "b.duckdb")  # the damaged template is dropped; the file is made from migrations
    assert _schema(tmp_path / "b.duckdb") == _schema(tmp_path / "a.duckdb")
    assert not template.exists() or template.read_bytes()[:17] != b"not a duckdb file"
    _new_file(tmp_path / "c.duckdb")  # and the next new file builds it again
    assert template.exists() and template.read_bytes()[:17] != b"not a duckdb file"


def test_an_unwritable_cache_never_stops_a_new_file(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache folder cannot be made under a file")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    _new_file(tmp_path / "w.duckdb")
    assert len(_schema(tmp_path / "w.duckdb")["migrations"]) >= 21


def test_the_template_follows_the_schema(tmp_path, monkeypatch):
    import shutil

    from warehouse.schema.folder import schema_dir

    root = tmp_path / "schema"
    shutil.copytree(schema_dir(), root)
    assert schema_key(root) == schema_key()
    dictionary = root / "columns.toml"
    dictionary.write_text(dictionary.read_text() + "\n# a comment is a change of the file\n")
    assert schema_key(root) != schema_key()


@pytest.mark.parametrize("read_only", [True])
def test_a_reader_never_makes_a_file(tmp_path, monkeypatch, read_only):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    with pytest.raises(Exception, match="no warehouse here"):
        connect(tmp_path / "none.duckdb", read_only=read_only)
    assert not (tmp_path / "none.duckdb").exists() and not (tmp_path / "cache").exists()
