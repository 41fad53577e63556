"""A new DuckDB warehouse file starts as a copy of this machine's empty-schema template (PostgreSQL's template1, for DuckDB).

Creating the schema of a new file (21 migrations, ~120 definitions, ~950 comments, one checkpoint)
costs 0.4-0.5 s CPU, a tenth of a whole `load` of the 8 vendored companyfacts files. The result is
the same bytes for every new file of one schema and one DuckDB version, so it is built once per
machine, kept in a cache folder (``EDGAR_WAREHOUSE_SCHEMA_CACHE``, default
``$XDG_CACHE_HOME/edgar-warehouse`` or ``~/.cache/edgar-warehouse``; ``off`` builds every file from
its migrations as before) under a name that is the sha256 of every schema file and the DuckDB version,
and copied (3.7 MB: milliseconds) to where the new file goes. The copy then goes through the usual
``upgrade``, which finds nothing to do but to give its bookkeeping rows this file's time as
``applied_at`` (when the file got its schema), straight into the file as every schema transaction.

The template is built by the same ``upgrade`` a new file would run, in a file of its own name in the
cache folder, renamed into place when complete: processes building it at once each rename a whole
file. A template that cannot be built or copied (a read-only home, a full disk) is skipped: the new
file is made from the migrations, as before, and nothing fails because of the cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import duckdb

from warehouse.schema.folder import schema_dir

CACHE_ENV = "EDGAR_WAREHOUSE_SCHEMA_CACHE"
# the files whose bytes make the schema of a new file
_PARTS = ("migrations", "definitions", "stored", "columns.toml", "superseded.toml")


def schema_key(root: Path | None = None) -> str:
    """sha256 of every file that makes a new file's schema (path and bytes), of the code that applies
    them (warehouse/schema/*.py, warehouse/sql/schema/) and of DuckDB's version."""
    root = root or schema_dir()
    h = hashlib.sha256(f"duckdb {duckdb.__version__}\n".encode())
    for part in _PARTS:
        path = root / part
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for f in files:
            if f.exists() and "__pycache__" not in f.parts:
                h.update(f"{f.relative_to(root).as_posix()}\n".encode())
                h.update(hashlib.sha256(f.read_bytes()).digest())
    # and the code that applies them (a change to how comments or definitions are applied is a new schema)
    code = Path(__file__).resolve().parent
    for f in sorted([*code.glob("*.py"), *(code.parents[1] / "warehouse" / "sql" / "schema").rglob("*.sql")]):
        h.update(f"{f.name}\n".encode())
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def cache_dir() -> Path | None:
    """The folder templates are kept in, or None when ``EDGAR_WAREHOUSE_SCHEMA_CACHE=off``."""
    env = os.environ.get(CACHE_ENV, "").strip()
    if env.lower() == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "edgar-warehouse"


def template_path(root: Path | None = None) -> Path | None:
    """Where the template of the schema in ``root`` is kept (whether built or not)."""
    folder = cache_dir()
    return None if folder is None else folder / f"schema-{schema_key(root)[:24]}.duckdb"


def _build(path: Path, root: Path) -> None:
    from warehouse.schema.migrate import upgrade

    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    part.unlink(missing_ok=True)
    try:
        con = duckdb.connect(str(part))
        try:
            con.execute("SET TimeZone = 'UTC'")
            upgrade(con, root)
        finally:
            con.close()
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
        part.with_name(part.name + ".wal").unlink(missing_ok=True)


def start_from_template(db: Path, root: Path | None = None) -> bool:
    """Copy the schema template to ``db`` (which must not exist), building the template first when
    this machine has none for this schema. False, and ``db`` left absent, when no template could be
    had (the caller then makes the file from the migrations)."""
    root = root or schema_dir()
    try:
        path = template_path(root)
        if path is None:
            return False
        if not path.exists():
            _build(path, root)
        part = db.with_name(f"{db.name}.template.part")
        shutil.copyfile(path, part)
        os.replace(part, db)
        return True
    except (OSError, duckdb.Error):
        try:
            db.with_name(f"{db.name}.template.part").unlink(missing_ok=True)
        except OSError:
            pass
        return False


def forget_template(db: Path, root: Path | None = None) -> None:
    """``db`` was copied from a template DuckDB cannot open: remove both (the next new file builds
    the template again)."""
    path = template_path(root)
    for p in (db, db.with_name(db.name + ".wal")) + ((path,) if path else ()):
        try:
            p.unlink(missing_ok=True)
        except OSError:
            pass
