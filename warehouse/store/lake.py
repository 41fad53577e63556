"""The DuckLake backend: the same tables, views and macros, with the catalog in PostgreSQL and the data as Parquet.

Selected by configuration (``--backend ducklake`` on the CLI sets the same variables)::

    EDGAR_WAREHOUSE_BACKEND=ducklake
    EDGAR_WAREHOUSE_LAKE_CATALOG='postgres:dbname=lake host=127.0.0.1 port=5432 user=edgar'
    EDGAR_WAREHOUSE_LAKE_DATA=/srv/edgar/lake          # Parquet files (a folder, or s3://...:
                                                       # warehouse.store.object_store)
    EDGAR_WAREHOUSE_LAKE_READ_CATALOG='postgres:dbname=lake host=... user=edgar_reader'  # optional

Readers attach with the read catalog when one is given (a PostgreSQL role that may only SELECT the
catalog's tables: SECURITY.md, "The lake in production"), else with the writers' catalog.

Every connection is an in-memory DuckDB that loads the ``ducklake`` and ``postgres_scanner``
extensions from the pinned PyPI wheels (``scale`` extra; no download), ATTACHes the lake as
``lake`` and makes it the default catalog, so every SQL file of the warehouse runs unchanged.

* **Schema**: the same migrations (``schema/migrations``), made acceptable to DuckLake by
  ``lake_ddl`` (DuckLake has no sequences, PRIMARY KEY/UNIQUE or indexes: they are stripped, the
  columns, types, NOT NULLs and defaults stay), then the same definitions and dictionary. DuckLake
  1.5.5 cannot comment on a view's columns or on a macro: those comments are skipped (the
  dictionary still holds them; ``tests/warehouse/store/test_lake_backend.py`` notices when it can).
* **Writers** do not take the file's writer lock: several processes load at once with snapshot
  isolation. DuckLake commits optimistically; a commit that conflicts with one made meanwhile
  (DuckLake 1.5.5 compares tables: a transaction that deletes or updates rows of a table conflicts
  with every concurrent one that inserts into or deletes from it; two that only insert never do)
  raises, is rolled back, and is retried (``retry_on_conflict``, ``is_conflict``). Batches of
  companyfacts are planned never to conflict (``store.lake_writers``).
* **Readers** are read-only, pinned to the snapshot that was latest when they opened (every
  query of one reader sees the same state: before a concurrent commit, or after it, never half)
  and sandboxed like the DuckDB file's readers (no file or network access from SQL once attached).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import duckdb

from warehouse.errors import WarehouseError
from warehouse.schema.folder import schema_dir
from warehouse.schema.migrate import apply_definitions, apply_migrations
from warehouse.store.object_store import is_remote, prepare
from warehouse.store.sandbox import sandbox
from warehouse.store.secrets import catalog_password, redact, remember_secret

BACKEND_ENV = "EDGAR_WAREHOUSE_BACKEND"
CATALOG_ENV = "EDGAR_WAREHOUSE_LAKE_CATALOG"
DATA_ENV = "EDGAR_WAREHOUSE_LAKE_DATA"
READ_CATALOG_ENV = "EDGAR_WAREHOUSE_LAKE_READ_CATALOG"
BACKENDS = ("duckdb", "ducklake")
ALIAS = "lake"
CONFLICT_RETRIES = 25

T = TypeVar("T")


class LakeError(WarehouseError):
    """The DuckLake backend is misconfigured or its catalog cannot be reached (its text never holds a secret)."""

    def __init__(self, message: str):
        super().__init__(redact(message))


@dataclass(frozen=True)
class LakeConfig:
    """Where the lake is: its catalog (a DuckLake metadata connection string), its data path, and
    the catalog readers attach with (a read-only role; None: the writers' catalog)."""

    catalog: str
    data_path: str
    read_catalog: str | None = None

    def __post_init__(self) -> None:
        for text in (self.catalog, self.read_catalog or ""):
            remember_secret(catalog_password(text))

    def describe(self) -> str:
        """Where the lake is, passwords masked."""
        return redact(f"ducklake:{self.catalog} (data {self.data_path})")

    def catalog_for(self, *, read_only: bool) -> str:
        return (self.read_catalog or self.catalog) if read_only else self.catalog

    @property
    def raw_dir(self) -> Path | str:
        """Raw payloads: beside the data folder (or prefix: ``s3://b/lake`` -> ``s3://b/lake.raw``), never
        inside it (DuckLake's cleanup of orphaned files would delete what it did not write)."""
        if is_remote(self.data_path):
            return self.data_path.rstrip("/") + ".raw"
        data = Path(self.data_path.rstrip("/"))
        return data.with_name(data.name + ".raw")


def backend() -> str:
    """``$EDGAR_WAREHOUSE_BACKEND``: duckdb (default) or ducklake."""
    value = (os.environ.get(BACKEND_ENV) or "duckdb").strip().lower()
    if value not in BACKENDS:
        raise LakeError(f"{BACKEND_ENV}={value!r}: expected one of {', '.join(BACKENDS)}")
    return value


def lake_config() -> LakeConfig | None:
    """The configured lake, or None when the backend is the DuckDB file."""
    if backend() != "ducklake":
        return None
    catalog, data = os.environ.get(CATALOG_ENV, "").strip(), os.environ.get(DATA_ENV, "").strip()
    if not catalog or not data:
        raise LakeError(f"{BACKEND_ENV}=ducklake needs {CATALOG_ENV} (e.g. 'postgres:dbname=lake "
                        f"host=127.0.0.1 user=edgar') and {DATA_ENV} (the Parquet folder)")
    read = os.environ.get(READ_CATALOG_ENV, "").strip()
    return LakeConfig(_bare(catalog), data, _bare(read) or None)


def _bare(catalog: str) -> str:
    """A catalog string without its optional ``ducklake:`` prefix."""
    return catalog[len("ducklake:"):] if catalog.startswith("ducklake:") else catalog


# ----------------------------------------------------------------------------------- extensions


def extension_files() -> tuple[Path, Path]:
    """(ducklake, postgres_scanner) extension files of the installed wheels, for this DuckDB version.

    The postgres wheel ships ``postgres.duckdb_extension`` while DuckDB only loads it under its
    real name, so it is linked (or copied) once as ``postgres_scanner.duckdb_extension`` into a
    per-user folder."""
    version = f"v{duckdb.__version__}"
    found = []
    for package, name in (("duckdb_extension_ducklake", "ducklake"), ("duckdb_extension_postgres", "postgres")):
        try:
            module = __import__(package)
        except ImportError as exc:
            raise LakeError(f"the DuckLake backend needs the `scale` extra (pip install 'edgar-warehouse[scale]'):"
                            f" {package} is not installed") from exc
        path = Path(module.__file__).parent / "extensions" / version / f"{name}.duckdb_extension"
        if not path.exists():
            raise LakeError(f"{path}: missing; {package} must be the build for DuckDB {duckdb.__version__}")
        found.append(path)
    ducklake, postgres = found
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "edgar-warehouse" / "duckdb" / version
    scanner = folder / "postgres_scanner.duckdb_extension"
    if not scanner.exists() or scanner.stat().st_size != postgres.stat().st_size:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".postgres_scanner.{os.getpid()}.tmp"
        tmp.write_bytes(postgres.read_bytes())
        os.replace(tmp, scanner)
    return ducklake, scanner


def load_extensions(con: duckdb.DuckDBPyConnection) -> None:
    for path in extension_files():
        con.execute(f"LOAD '{_literal(str(path))}'")


def _literal(text: str) -> str:
    return text.replace("'", "''")


# ------------------------------------------------------------------------------------ connecting


def attach(con: duckdb.DuckDBPyConnection, cfg: LakeConfig, *, read_only: bool = False,
           snapshot: int | None = None) -> None:
    """ATTACH the lake as ``lake`` and make it the default catalog."""
    options = [f"DATA_PATH '{_literal(cfg.data_path)}'"]
    if snapshot is not None:
        options.append(f"SNAPSHOT_VERSION {int(snapshot)}")
    if read_only:
        options.append("READ_ONLY")
    for attempt in range(1, CONFLICT_RETRIES + 1):
        try:
            con.execute(f"ATTACH 'ducklake:{_literal(cfg.catalog_for(read_only=read_only))}' AS {ALIAS}"
                        f" ({', '.join(options)})")
            break
        except duckdb.Error as exc:
            # two processes attaching an empty catalog both create DuckLake's metadata tables: the
            # loser finds them made (PostgreSQL's duplicate error) and attaches the lake made
            if "Failed to initialize DuckLake" in str(exc) and attempt < CONFLICT_RETRIES:
                conflict_pause(attempt)
                continue
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise LakeError(f"{cfg.describe()}: cannot attach the lake ({redact(first)[:200]})") from exc
    con.execute(f"USE {ALIAS}")


def latest_snapshot(con: duckdb.DuckDBPyConnection) -> int:
    """The id of the lake's latest committed snapshot."""
    return con.execute(f"SELECT max(snapshot_id) FROM {ALIAS}.snapshots()").fetchone()[0]


def connect_lake(cfg: LakeConfig, *, read_only: bool = False, migrate: bool = True,
                 external_access: bool = False, snapshot: int | None = None) -> duckdb.DuckDBPyConnection:
    """A connection whose default catalog is the lake (see the module docstring).

    A writer gets pending migrations applied (retried on a conflict with another writer doing the
    same); a reader is read-only, pinned to ``snapshot`` (default: the latest) and sandboxed unless
    ``external_access``."""
    con = duckdb.connect()
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")
        load_extensions(con)
        prepare(con, cfg.data_path)  # httpfs and the S3 secret for an s3:// data path
        if read_only:
            if snapshot is None:
                attach(con, cfg, read_only=True)
                snapshot = latest_snapshot(con)
                con.execute("USE memory")
                con.execute(f"DETACH {ALIAS}")
            attach(con, cfg, read_only=True, snapshot=snapshot)
            if not external_access:
                # the lake's own Parquet files stay readable (read-only): nothing else is
                data = cfg.data_path.rstrip("/") + "/"
                con.execute(f"SET allowed_directories = ['{_literal(data)}']")
                sandbox(con)
        else:
            attach(con, cfg)
            if migrate:
                _upgrade_racing(con)
    except BaseException:
        con.close()
        raise
    return con


# ---------------------------------------------------------------------------------- conflicts


def is_conflict(exc: BaseException) -> bool:
    """A DuckLake commit refused because another transaction committed a conflicting change first."""
    return isinstance(exc, duckdb.TransactionException) and "conflict" in str(exc).lower()


def conflict_pause(attempt: int) -> None:
    """Randomised, growing pause before retrying a conflicting transaction (0.05 s .. ~2 s)."""
    time.sleep(random.uniform(0.5, 1.0) * min(2.0, 0.05 * 2 ** min(attempt, 6)))


def retry_on_conflict(fn: Callable[[], T], *, attempts: int = CONFLICT_RETRIES) -> T:
    """``fn()`` (which runs and commits its own transaction), again after a DuckLake commit conflict."""
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except duckdb.Error as exc:
            if not is_conflict(exc) or attempt == attempts:
                raise
            conflict_pause(attempt)
    raise AssertionError("unreachable")


# --------------------------------------------------------------------------------------- schema

# What DuckLake refuses in a migration: sequences and indexes (statements dropped), PRIMARY KEY and
# UNIQUE constraints and sequence defaults (stripped from CREATE TABLE; a key column keeps the NOT NULL
# its key implied).
_DROP = re.compile(r"^\s*(CREATE\s+(SEQUENCE|(UNIQUE\s+)?INDEX)|DROP\s+(SEQUENCE|INDEX))\b", re.IGNORECASE)
_CREATE_TABLE = re.compile(r"^(\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[\w.\"]+\s*)\((.*)\)\s*$",
                           re.IGNORECASE | re.DOTALL)
_TABLE_KEY = re.compile(r"^(?:CONSTRAINT\s+\w+\s+)?(PRIMARY\s+KEY|UNIQUE)\s*\(([^)]*)\)$", re.IGNORECASE)
_NEXTVAL = re.compile(r"\s+DEFAULT\s+nextval\s*\(\s*'[^']*'\s*\)", re.IGNORECASE)
_COLUMN_KEY = re.compile(r"\s+(PRIMARY\s+KEY|UNIQUE)\b", re.IGNORECASE)
_NOT_NULL = re.compile(r"\bNOT\s+NULL\b", re.IGNORECASE)


def _scan(sql: str, sep: str | None = None) -> list[str]:
    """Split ``sql`` at ``sep`` outside strings, comments and parentheses (``sep`` None: no split);
    comments are dropped."""
    out, cur, depth, i, n = [], [], 0, 0, len(sql)
    while i < n:
        ch = sql[i]
        if sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j
            continue
        if ch == "'":
            j = i + 1
            while j < n and not (sql[j] == "'" and not sql.startswith("''", j)):
                j += 2 if sql.startswith("''", j) else 1
            cur.append(sql[i:j + 1])
            i = j + 1
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if sep is not None and ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def split_statements(sql: str) -> list[str]:
    """The statements of a migration file, comments removed (split at ``;`` outside strings)."""
    return _scan(sql, ";")


def _create_table(stmt: str) -> str:
    m = _CREATE_TABLE.match(stmt)
    if not m:
        return stmt
    head, body = m.groups()
    keyed: set[str] = set()
    parts = []
    for part in _scan(body, ","):
        key = _TABLE_KEY.match(part)
        if key:
            if key.group(1).upper().startswith("PRIMARY"):
                keyed |= {c.strip().strip('"').lower() for c in key.group(2).split(",")}
            continue
        part = _NEXTVAL.sub("", part)
        if re.search(r"\sPRIMARY\s+KEY\b", part, re.IGNORECASE):
            keyed.add(part.split()[0].strip('"').lower())
        parts.append(_COLUMN_KEY.sub("", part))
    parts = [p + " NOT NULL" if p.split()[0].strip('"').lower() in keyed and not _NOT_NULL.search(p) else p
             for p in parts]
    return head + "(\n    " + ",\n    ".join(parts) + "\n)"


def lake_ddl(sql: str) -> str:
    """A migration as DuckLake accepts it: sequences and indexes dropped, PRIMARY KEY/UNIQUE
    constraints and sequence defaults stripped (key columns stay NOT NULL); every column, type,
    NOT NULL and literal default kept; other statements unchanged (comments removed)."""
    kept = [_create_table(stmt) for stmt in split_statements(sql) if not _DROP.match(stmt)]
    return "".join(k + ";\n" for k in kept)


# A write transaction on the lake updates this one row first (``serialise_writes``), so any two such
# transactions conflict and one of them is retried: the reads-then-writes of the small transactions (run
# records, tracking, company claims, id blocks: ``store.lake_writers``) and of batches of kinds that write
# shared rows stay correct with several writers, as they are with the DuckDB file's one writer. A batch of
# companyfacts does not take it: it writes only rows of the companies it claimed (``lake_writers``).
# Outside ``main`` (schema GUARD_SCHEMA, with the writers' bookkeeping): not part of the data contract.
GUARD_SCHEMA = "edgar_lake"
GUARD = f"{GUARD_SCHEMA}.write_guard"
CLAIMS = f"{GUARD_SCHEMA}.company_claims"
ID_BLOCKS = f"{GUARD_SCHEMA}.id_blocks"
RUN_BATCHES = f"{GUARD_SCHEMA}.run_batches"

# The bookkeeping tables warehouse.schema.migrate creates (with a PRIMARY KEY) made first, as DuckLake takes
# them, the write guard and the writers' bookkeeping (store.lake_writers).
_BOOKKEEPING = (
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER NOT NULL, name VARCHAR NOT NULL,"
    " sha256 VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)",
    "CREATE TABLE IF NOT EXISTS schema_definitions (name VARCHAR NOT NULL, kind VARCHAR NOT NULL,"
    " sha256 VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)",
    f"CREATE SCHEMA IF NOT EXISTS {GUARD_SCHEMA}",
    f"CREATE TABLE IF NOT EXISTS {GUARD} (writes BIGINT NOT NULL)",
    f"INSERT INTO {GUARD} SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM {GUARD})",
    f"CREATE TABLE IF NOT EXISTS {CLAIMS} (owner VARCHAR NOT NULL, cik INTEGER, host VARCHAR NOT NULL,"
    " pid INTEGER NOT NULL, claimed_at TIMESTAMP NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS {ID_BLOCKS} (name VARCHAR NOT NULL, last BIGINT NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS {RUN_BATCHES} (load_id VARCHAR NOT NULL, committed_at TIMESTAMP NOT NULL, loaded INT"
    " NOT NULL, unchanged INT NOT NULL, rejected INT NOT NULL, row_counts VARCHAR NOT NULL, error VARCHAR,"
    " conflicts INT NOT NULL)",
)


def is_lake(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the connection's default catalog is a DuckLake."""
    row = con.execute("SELECT type FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    return bool(row) and row[0] == "ducklake"


def serialise_writes(con: duckdb.DuckDBPyConnection) -> None:
    """Inside a write transaction on the lake: make it conflict with every concurrent one (see GUARD)."""
    con.execute(f"UPDATE {GUARD} SET writes = writes + 1")


def _upgrade_racing(con: duckdb.DuckDBPyConnection) -> list:
    """``upgrade_lake``, again when another process upgraded the lake meanwhile: its commit makes
    ours conflict, or makes a table we were creating exist already (then the applied migrations are
    read again and only what is still pending is applied)."""
    for attempt in range(1, CONFLICT_RETRIES + 1):
        try:
            return upgrade_lake(con)
        except (WarehouseError, duckdb.Error) as exc:
            cause = exc.__cause__ if isinstance(exc, WarehouseError) else exc
            raced = isinstance(cause, duckdb.Error) and (
                is_conflict(cause) or "already exists" in str(cause) or "conflict" in str(cause).lower())
            if not raced or attempt == CONFLICT_RETRIES:
                raise
            try:
                con.execute("ROLLBACK")
            except duckdb.Error:
                pass  # nothing was left open
        conflict_pause(attempt)
    raise AssertionError("unreachable")


def upgrade_lake(con: duckdb.DuckDBPyConnection) -> list:
    """Pending migrations (through ``lake_ddl``), then definitions and comments if anything changed."""
    root = schema_dir()
    con.execute("BEGIN TRANSACTION")
    try:
        for stmt in _BOOKKEEPING:
            con.execute(stmt)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")  # a conflict here has rolled back already: retried by _upgrade_racing
    # each schema transaction takes the write guard: DuckLake lets two appends to schema_migrations commit
    # side by side, so two processes applying a migration that creates no table (an UPDATE, an ALTER)
    # both recorded it (22 rows for 21 migrations, seen in test_two_processes_creating_the_same_fresh_lake)
    done = apply_migrations(con, root / "migrations", transform=lake_ddl, first=serialise_writes)
    apply_definitions(con, root, force=bool(done), lake=True, first=serialise_writes)
    return done

