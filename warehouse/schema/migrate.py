"""Bring a warehouse to the schema: forward-only table migrations, then definitions and comments re-applied.

The schema folder (``schema_dir()``) holds:

- ``migrations/NNNN_name.sql``: tables, sequences and their data changes, applied once each, in
  order, recorded with their sha256 in ``schema_migrations``; the pending ones of a DuckDB file in
  one transaction (a new warehouse's: one commit, not a checkpoint each; one that
  fails leaves the schema as it was), of a lake one transaction each. An applied file
  that changes afterwards stops the warehouse, unless ``superseded.toml`` lists the sha256 it was
  applied with (a documented squash, e.g. 0001-0004 lost their views and comments to definitions).
- ``definitions/*.sql``: views, macros and reference rows (see warehouse/schema/definitions.py), and
- ``columns.toml``: the column dictionary (see warehouse/schema/dictionary.py);
- ``stored/<table>.sql``: the rows of a table that definitions compute, for the companies ``$ciks``;
  loads run it for the companies they change, and it runs for every company in the definitions'
  transaction whenever a definition it reads changed, or the table is new (see warehouse/schema/stored_tables.py).

Definitions and every COMMENT ON are re-applied together, in one transaction, whenever a migration
was applied or a definition's or the dictionary's sha256 differs from the one recorded in
``schema_definitions``. Every schema transaction commits straight into the database file, never into
the write-ahead log: DuckDB 1.5.x cannot replay a WAL that holds ``COMMENT ON COLUMN`` of a table with
a ``DEFAULT nextval(...)`` column (source_documents), so a process killed after such a commit would
leave a file that never opens again. ``checkpoint_threshold = 0`` makes DuckDB checkpoint at commit
instead of logging (no WAL is written at all), and a CHECKPOINT follows for good measure.

Constraints, for a backend that refuses them (DuckLake: only NOT NULL; no PRIMARY KEY, UNIQUE,
CHECK, sequences, indexes or non-literal defaults). They are stated in these places only, so
constraint-free DDL can be generated from the same files:

- ``PRIMARY KEY`` (column-level ``col TYPE PRIMARY KEY`` or a table-level ``PRIMARY KEY (...)`` line)
  in the ``CREATE TABLE`` statements of ``migrations/*.sql`` and of ``schema_migrations`` /
  ``schema_definitions`` (warehouse/sql/schema/bookkeeping/);
- one sequence: ``CREATE SEQUENCE source_document_id_seq`` and the column default
  ``DEFAULT nextval('source_document_id_seq')`` of ``source_documents`` (0001). The ingest path no
  longer relies on it: it assigns ``source_document_id`` itself (max + 1, the one writer);
- literal defaults (``DEFAULT 0``) in 0001, 0004, 0007, and ``DEFAULT current_timestamp`` of the two
  bookkeeping tables (warehouse/sql/schema/bookkeeping/; their inserts here pass ``applied_at``
  explicitly, so the default can go).

No load statement relies on a constraint: inserts are anti-joins (``INSERT ... SELECT ... WHERE NOT
EXISTS``), keyed rows are written by ``warehouse.load.upsert.upsert_row`` (UPDATE, then anti-join INSERT),
never ``ON CONFLICT``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb

from warehouse.errors import SchemaError
from warehouse.memory import bound_memory
from warehouse.schema.definitions import Definition, discover_definitions
from warehouse.schema.folder import DICTIONARY, schema_dir
from warehouse.schema.sql_files import sql
from warehouse.schema.stored_tables import KIND as STORED
from warehouse.schema.stored_tables import chunks, discover_stored, refill

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    @property
    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


def discover(folder: Path | None = None) -> list[Migration]:
    """The migrations in ``folder`` (default: the schema folder's migrations/), in version order."""
    folder = folder or schema_dir() / "migrations"
    found = []
    for p in sorted(folder.glob("*.sql")):
        m = _NAME.match(p.name)
        if not m:
            raise SchemaError(f"{p}: migration files are named NNNN_name.sql")
        found.append(Migration(int(m.group(1)), m.group(2), p))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise SchemaError(f"{folder}: two migrations share a version number")
    return found


def superseded(folder: Path) -> dict[str, set[str]]:
    """File name -> sha256 values an applied migration may still carry (squashed files), from
    ``superseded.toml`` beside the migrations folder."""
    import tomllib

    path = folder.parent / "superseded.toml"
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {name: set(shas) for name, shas in data.get("superseded", {}).items()}


@contextmanager
def _straight_to_file(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Commits inside checkpoint at once instead of writing the WAL (see the module docstring); the
    writer's memory limit holds meanwhile (warehouse.memory.bound_memory: a refill of stored tables at
    100x held 1.8 GB without it)."""
    before = con.execute("SELECT current_setting('checkpoint_threshold'), current_setting('memory_limit')").fetchall()[0]
    con.execute("SET checkpoint_threshold = '0b'")
    bound_memory(con)
    try:
        yield
        con.execute("CHECKPOINT")
    finally:
        con.execute(f"SET checkpoint_threshold = '{before[0]}'")
        con.execute(f"SET memory_limit = '{before[1]}'")


def apply_migrations(con: duckdb.DuckDBPyConnection, folder: Path | None = None, *,
                     transform: Callable[[str], str] | None = None, together: bool = False,
                     first: Callable[[duckdb.DuckDBPyConnection], None] | None = None) -> list[Migration]:
    """Apply pending table migrations; refuse to run when an applied file has changed since.
    ``transform`` rewrites each file's SQL for another backend (warehouse.store.lake.lake_ddl);
    ``together``: all pending ones in one transaction (a failure rolls them all back), else one each;
    ``first``: run at the start of each transaction (the lake's ``serialise_writes``: two processes
    applying the same migration conflict, one of them retries, instead of both recording it)."""
    folder = folder or schema_dir() / "migrations"
    con.execute(sql("schema/bookkeeping/schema_migrations"))
    applied = {v: (n, s) for v, n, s in con.execute("SELECT version, name, sha256 FROM schema_migrations").fetchall()}
    accepted: dict[str, set[str]] | None = None  # superseded.toml, read only when an applied file differs
    pending = []
    for mig in discover(folder):
        if mig.version in applied:
            name, sha = applied[mig.version]
            if sha != mig.sha256 and accepted is None:
                accepted = superseded(folder)
            if sha != mig.sha256 and sha not in (accepted or {}).get(mig.path.name, ()):
                raise SchemaError(
                    f"migration {mig.path.name} changed after it was applied (sha256 {sha[:12]} in the "
                    f"warehouse, {mig.sha256[:12]} on disk); migrations are forward-only: add a new file"
                )
            continue
        pending.append(mig)
    done: list[Migration] = []
    for group in [pending] if together and pending else [[mig] for mig in pending]:
        con.execute("BEGIN TRANSACTION")
        try:
            if first is not None:
                first(con)
            # what this transaction's snapshot says is applied: another process (on the lake) may have
            # applied some since they were read, and a later one may have changed the tables they read
            now = {v for (v,) in con.execute("SELECT version FROM schema_migrations").fetchall()}
            group = [mig for mig in group if mig.version not in now]
            for mig in group:
                try:
                    con.execute(transform(mig.sql) if transform else mig.sql)
                    con.execute(
                        "INSERT INTO schema_migrations (version, name, sha256, applied_at)"
                        " VALUES (?, ?, ?, CAST(current_timestamp AS TIMESTAMP))",
                        [mig.version, mig.name, mig.sha256],
                    )
                except duckdb.Error as exc:
                    raise SchemaError(f"migration {mig.path.name} failed: {exc}") from exc
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
        done += group
    return done


def _recorded(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, str]]:
    con.execute(sql("schema/bookkeeping/schema_definitions"))
    return {n: (k, s) for n, k, s in con.execute("SELECT name, kind, sha256 FROM schema_definitions").fetchall()}


def apply_definitions(con: duckdb.DuckDBPyConnection, root: Path | None = None, *, force: bool = False,
                      lake: bool = False,
                      first: Callable[[duckdb.DuckDBPyConnection], None] | None = None) -> bool:
    """Re-apply every definition and every COMMENT ON in one transaction when any of them changed
    (or ``force``); drop what a removed definition had created. True when something was applied.
    ``lake``: DuckLake, which cannot comment on a view's columns or a macro (those are skipped);
    ``first``: as for ``apply_migrations``."""
    from warehouse.schema.dictionary import Dictionary, dictionary_sha256, live_schema

    root = root or schema_dir()
    defs = discover_definitions(root / "definitions")
    dictionary_path = root / DICTIONARY
    wanted = {d.name: (d.kind, d.sha256) for d in defs}
    wanted[DICTIONARY] = ("dictionary", dictionary_sha256(dictionary_path))
    stored = discover_stored(root / "stored", defs)
    wanted.update({s.name: (STORED, s.basis) for s in stored})
    recorded = _recorded(con)
    if recorded == wanted and not force:
        return False  # up to date: the check costs file hashes and one small read, no TOML parse

    dictionary = Dictionary.load(dictionary_path)
    con.execute("BEGIN TRANSACTION")
    try:
        if first is not None:
            first(con)
        for name, (kind, _) in recorded.items():
            if name not in wanted:
                gone = Definition(name, kind, (), "", "", root).drop_sql()
                if gone:
                    con.execute(gone)
        for d in defs:
            _execute(con, d.sql, d.path.name)
        # one call for the ~950 comments (each its own call cost ~0.1 s more in all; the error names the file)
        comments = dictionary.comment_statements(live_schema(con), view_columns_and_macros=not lake)
        if comments:
            _execute(con, ";\n".join(comments), DICTIONARY)
        companies: list[list[int]] | None = None  # counted once, for every table refilled
        for s in stored:  # rows computed with other definitions than these (or never): computed again
            if recorded.get(s.name) != wanted[s.name]:
                try:
                    companies = chunks(con) if companies is None else companies
                    refill(con, s, companies)
                except duckdb.Error as exc:
                    raise SchemaError(f"stored/{s.path.name} failed: {exc}") from exc
        con.execute("DELETE FROM schema_definitions")
        # one statement (executemany ran one INSERT per row: ~0.3 s for ~120 rows)
        con.execute("INSERT INTO schema_definitions (name, kind, sha256, applied_at)"
                    " SELECT unnest($names), unnest($kinds), unnest($shas), CAST(current_timestamp AS TIMESTAMP)",
                    {"names": list(wanted), "kinds": [k for k, _ in wanted.values()],
                     "shas": [s for _, s in wanted.values()]})
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return True


def _execute(con: duckdb.DuckDBPyConnection, sql: str, source: str) -> None:
    try:
        con.execute(sql)
    except duckdb.Error as exc:
        raise SchemaError(f"{source} failed: {exc}") from exc


def upgrade(con: duckdb.DuckDBPyConnection, root: Path | None = None, *, copied: bool = False) -> list[Migration]:
    """Pending migrations, then definitions and comments if anything changed; nothing left in the WAL.
    ``copied``: the file is a copy of the schema template (warehouse/schema/template.py) just made,
    whose bookkeeping rows then say when this file got its schema."""
    root = root or schema_dir()
    with _straight_to_file(con):
        done = apply_migrations(con, root / "migrations", together=True)
        apply_definitions(con, root, force=bool(done))
        if copied:
            for table in ("schema_migrations", "schema_definitions"):
                con.execute(f"UPDATE {table} SET applied_at = CAST(current_timestamp AS TIMESTAMP)")
    return done


def applied_migrations(con: duckdb.DuckDBPyConnection) -> list[tuple[int, str]]:
    """(version, name) of every applied migration, in order."""
    return [(v, n) for v, n in con.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()]
