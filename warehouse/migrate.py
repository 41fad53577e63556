"""Forward-only schema migrations: schema/NNNN_name.sql applied in order, one transaction each."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

from warehouse.db import WarehouseError, fetch_all

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def schema_dir() -> Path:
    """The migrations folder: EDGAR_WAREHOUSE_SCHEMA_DIR, else the repository's schema/."""
    env = os.environ.get("EDGAR_WAREHOUSE_SCHEMA_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "schema"


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
    folder = folder or schema_dir()
    found = []
    for p in sorted(folder.glob("*.sql")):
        m = _NAME.match(p.name)
        if not m:
            raise WarehouseError(f"{p}: migration files are named NNNN_name.sql")
        found.append(Migration(int(m.group(1)), m.group(2), p))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise WarehouseError(f"{folder}: two migrations share a version number")
    return found


def apply_migrations(con: duckdb.DuckDBPyConnection, folder: Path | None = None) -> list[Migration]:
    """Apply pending migrations; refuse to run when an applied file has changed since."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, sha256 VARCHAR NOT NULL,"
        " applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)"
    )
    con.execute("COMMENT ON TABLE schema_migrations IS 'One row per applied migration (grain: version): "
                "name and sha256 of the schema/NNNN_name.sql file; a changed applied file stops the warehouse.'")
    applied = {v: (n, s) for v, n, s in fetch_all(con, "SELECT version, name, sha256 FROM schema_migrations")}
    done = []
    for mig in discover(folder):
        if mig.version in applied:
            name, sha = applied[mig.version]
            if sha != mig.sha256:
                raise WarehouseError(
                    f"migration {mig.path.name} changed after it was applied (sha256 {sha[:12]} in the "
                    f"warehouse, {mig.sha256[:12]} on disk); migrations are forward-only: add a new file"
                )
            continue
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(mig.sql)
            con.execute(
                "INSERT INTO schema_migrations (version, name, sha256) VALUES (?, ?, ?)",
                [mig.version, mig.name, mig.sha256],
            )
        except duckdb.Error as exc:
            con.execute("ROLLBACK")
            raise WarehouseError(f"migration {mig.path.name} failed: {exc}") from exc
        con.execute("COMMIT")
        done.append(mig)
    return done


def applied_migrations(con: duckdb.DuckDBPyConnection) -> list[tuple[int, str]]:
    """(version, name) of every applied migration, in order."""
    return [(v, n) for v, n in fetch_all(con, "SELECT version, name FROM schema_migrations ORDER BY version")]
