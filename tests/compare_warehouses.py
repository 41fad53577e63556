"""Compare two warehouse files row for row: every table and view, all columns but run-specific ones.

    python tests/compare_warehouses.py before.duckdb after.duckdb [--ignore-column NAME ...]

Prints one line per relation (rows in each, rows only in one) and exits 1 when anything differs.
Columns that differ between two honest runs of the same input are left out of the comparison:
run ids and wall-clock times (``VOLATILE``). Schema bookkeeping (schema_migrations,
schema_definitions) is not data and is left out too. Both files are opened read-only, one at a time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb

VOLATILE = ("load_id", "flow_run_id", "started_at", "finished_at", "fetched_at", "computed_at",
            "applied_at", "checked_at")
BOOKKEEPING = ("schema_migrations", "schema_definitions")
_MAIN = "database_name = current_database() AND schema_name = 'main' AND NOT internal"


@dataclass(frozen=True)
class Difference:
    relation: str
    rows_a: int | None
    rows_b: int | None
    only_a: int
    only_b: int
    note: str = ""

    @property
    def same(self) -> bool:
        return not (self.only_a or self.only_b or self.note)

    def line(self) -> str:
        state = "same" if self.same else "DIFFERS"
        return (f"{state:8} {self.relation:34} rows {self.rows_a!s:>8} / {self.rows_b!s:<8}"
                f" only-in-first {self.only_a:<6} only-in-second {self.only_b:<6} {self.note}").rstrip()


def _export(db: Path | Callable[[], duckdb.DuckDBPyConnection], folder: Path,
            ignore: tuple[str, ...]) -> dict[str, tuple[list[str], int]]:
    """Every relation of ``db`` (a file, or a function opening a connection with file access, e.g.
    to a DuckLake) to ``folder``/<name>.parquet without the ignored columns."""
    folder.mkdir(parents=True, exist_ok=True)
    con = db() if callable(db) else duckdb.connect(str(db), read_only=True)
    try:
        con.execute("SET TimeZone = 'UTC'")
        names = [n for (n,) in con.execute(
            f"SELECT table_name FROM duckdb_tables() WHERE {_MAIN} UNION ALL"
            f" SELECT view_name FROM duckdb_views() WHERE {_MAIN} ORDER BY 1").fetchall() if n not in BOOKKEEPING]
        out = {}
        for name in names:
            cols = [c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() WHERE table_name = ?"
                                              f" AND {_MAIN} ORDER BY column_index", [name]).fetchall()
                    if c not in ignore]
            select = ", ".join(f'"{c}"' for c in cols)
            con.execute(f"COPY (SELECT {select} FROM {name}) TO '{folder / name}.parquet' (FORMAT parquet)")
            out[name] = (cols, con.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
        return out
    finally:
        con.close()


def compare(a: Path | Callable, b: Path | Callable, ignore: tuple[str, ...] = VOLATILE) -> list[Difference]:
    """One Difference per relation found in either file."""
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
        left, right = _export(a, Path(tmp) / "a", ignore), _export(b, Path(tmp) / "b", ignore)
        con = duckdb.connect()
        diffs = []
        for name in sorted(set(left) | set(right)):
            if name not in left or name not in right:
                diffs.append(Difference(name, left.get(name, (0, None))[1], right.get(name, (0, None))[1], 0, 0,
                                        "missing in " + ("first" if name not in left else "second")))
                continue
            (ca, na), (cb, nb) = left[name], right[name]
            if ca != cb:
                diffs.append(Difference(name, na, nb, 0, 0, f"columns differ: {ca} vs {cb}"))
                continue
            pa, pb = f"'{Path(tmp) / 'a' / name}.parquet'", f"'{Path(tmp) / 'b' / name}.parquet'"
            only_a = con.execute(f"SELECT count(*) FROM (FROM {pa} EXCEPT ALL FROM {pb})").fetchone()[0]
            only_b = con.execute(f"SELECT count(*) FROM (FROM {pb} EXCEPT ALL FROM {pa})").fetchone()[0]
            diffs.append(Difference(name, na, nb, only_a, only_b))
        con.close()
        return diffs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--ignore-column", action="append", default=[], help="also leave out this column")
    args = ap.parse_args(argv)
    diffs = compare(args.first, args.second, VOLATILE + tuple(args.ignore_column))
    for d in diffs:
        print(d.line())
    bad = [d for d in diffs if not d.same]
    print(f"{len(diffs) - len(bad)} of {len(diffs)} relations identical row for row"
          f" (ignored columns: {', '.join(VOLATILE + tuple(args.ignore_column))})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
