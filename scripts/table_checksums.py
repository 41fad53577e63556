"""Checksums of every table and view of a warehouse built from the vendored SEC data: a refactor prints the same.

    python scripts/table_checksums.py [--work DIR]        # build DIR/w.duckdb, print one line per relation
    python scripts/table_checksums.py --db FILE           # checksums of an existing warehouse only

Builds with the command line itself (``python -m flows.cli load``, the code of whatever checkout
``flows`` and ``warehouse`` import from), so the same script measures the code before and after a
move: copy the vendored data to ``DIR/data`` (one path for both runs: source_documents records it),
load tests/fixtures/sec, form4, vintages and filings in one run, then hash every relation of the main schema
(tables and views) without the columns that differ between two honest runs (run ids, wall clocks,
known_from where it is the load's clock: ``_value``).
A line: name, rows, an order-independent hash of the rows; the last line hashes the lines.
Layout-independent by design: it imports nothing of the project, so it runs against any checkout.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
DATA = ("sec", "form4", "vintages", "filings")
# differ between two runs of the same input by design: run ids, the wall clock of the run
VOLATILE = {"load_id", "flow_run_id", "started_at", "finished_at", "fetched_at", "computed_at", "applied_at",
            "checked_at", "observed_at", "submissions_observed_at", "pid", "host"}
MAIN = "database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary"


def build(work: Path) -> Path:
    """A warehouse of the vendored data at ``work``/w.duckdb, loaded by the checkout's own CLI."""
    shutil.rmtree(work, ignore_errors=True)
    data = work / "data"
    for name in DATA:
        shutil.copytree(ROOT / "tests" / "fixtures" / name, data / name)
    db = work / "w.duckdb"
    env = {**os.environ, "EDGAR_WAREHOUSE_DB": str(db)}
    run = subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), "load",
                          *(str(data / name) for name in DATA)], cwd=Path.cwd(), env=env,
                         capture_output=True, text=True, timeout=1800)
    # the vendored data holds documents the warehouse rejects by design (bare Form 4 XML without an
    # accession, a daily index): the run ends "partial", with its own exit code; anything else is a failure
    con = duckdb.connect(str(db), read_only=True) if db.exists() else None
    status = con.execute("SELECT string_agg(status, ',') FROM load_runs").fetchone()[0] if con else None
    if con:
        con.close()
    if status not in ("succeeded", "partial"):
        raise SystemExit(f"load failed (exit {run.returncode}, runs {status}):\n{run.stdout}\n{run.stderr}")
    print(f"load: exit {run.returncode}, run {status}; {run.stdout.strip().splitlines()[-1]}", file=sys.stderr)
    return db


def _value(column: str, columns: list[str]) -> str | None:
    """What of ``column`` is hashed: known_from is the wall clock of the load where SEC gave no
    acceptance time (basis ``correction_fetched_at``): hashed where its basis says it is not, and not
    at all in a relation that does not say (facts_current: fact_versions holds the same values)."""
    if column != "known_from":
        return f'"{column}"'
    if "known_from_basis" not in columns:
        return None
    return "CASE WHEN known_from_basis LIKE '%fetched_at' THEN NULL ELSE known_from END"


def checksums(db: Path) -> list[tuple[str, int, int]]:
    """(relation, rows, hash) for every table and view of ``db``'s main schema, by name."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute("SET TimeZone = 'UTC'")
        names = [n for (n,) in con.execute(
            f"SELECT table_name FROM duckdb_tables() WHERE {MAIN} UNION ALL "
            f"SELECT view_name FROM duckdb_views() WHERE {MAIN} ORDER BY 1").fetchall()]
        out = []
        for name in names:
            cols = [c for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE table_name = ? AND schema_name = 'main'"
                " ORDER BY column_index", [name]).fetchall() if c not in VOLATILE]
            packed = ", ".join(f'"{c}" := {_value(c, cols)}' for c in cols if _value(c, cols))
            rows, digest = con.execute(f'SELECT count(*), coalesce(sum(hash(struct_pack({packed}))), 0) '
                                       f'FROM "{name}"').fetchone()
            out.append((name, int(rows), int(digest)))
        return out
    finally:
        con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path("/tmp/edgar-table-checksums"))
    ap.add_argument("--db", type=Path, help="checksum this warehouse instead of building one")
    args = ap.parse_args()
    db = args.db or build(args.work)
    lines = [f"{name:40} {rows:>9} {digest:>22}" for name, rows, digest in checksums(db)]
    print("\n".join(lines))
    print(f"{'ALL':40} {len(lines):>9} {hashlib.sha256(chr(10).join(lines).encode()).hexdigest()[:22]:>22}")


if __name__ == "__main__":
    main()
