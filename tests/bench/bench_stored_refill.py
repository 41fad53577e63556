"""Benchmark: a whole refill of the stored tables (schema/stored/, as a changed definition triggers it), CPU, wall and peak RSS.

Run: `.venv/bin/python tests/bench/bench_stored_refill.py DB [--table standard_facts_rows]
[--memory-limit 512MB] [--facts-per-fill N]` on a copy of a warehouse this checkout opened once for
writing (e.g. `edgar-warehouse --db copy init`). It refills each table (every table, in dependency
order, unless ``--table``) the way ``warehouse.schema.migrate.apply_definitions`` does when a definition it
reads changed (``warehouse.schema.stored_tables.refill``: company by company, about ``FACTS_PER_FILL`` facts at
a time), inside one transaction that is rolled back, and prints per table the rows, wall and CPU
seconds, and this process's peak RSS at the end. ``--facts-per-fill 0`` computes each table whole (one
chunk), for comparison. Prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_companyfacts import cpu_now  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("--table", action="append", help="refill only this stored table (repeatable)")
    ap.add_argument("--memory-limit", help="DuckDB memory_limit for the refill (default: DuckDB's)")
    ap.add_argument("--facts-per-fill", type=int, help="facts per chunk of companies (0: the whole table at once)")
    args = ap.parse_args(argv)
    from warehouse.schema import stored_tables
    from warehouse.schema.definitions import discover_definitions
    from warehouse.schema.folder import schema_dir
    from warehouse.store.db import connect, fetch_value

    if args.facts_per_fill is not None:
        stored_tables.FACTS_PER_FILL = args.facts_per_fill or 2**62
    root = schema_dir()
    stored = stored_tables.discover_stored(root / "stored", discover_definitions(root / "definitions"))
    con = connect(args.db)
    if args.memory_limit:
        con.execute("SET memory_limit = ?", [args.memory_limit])
    facts = fetch_value(con, "SELECT count(*) FROM facts")
    print(f"{args.db}: {facts:,} facts; FACTS_PER_FILL {stored_tables.FACTS_PER_FILL:,}; "
          f"memory_limit {fetch_value(con, 'SELECT current_setting(?)', ['memory_limit'])}")
    con.execute("BEGIN TRANSACTION")
    try:
        companies = stored_tables.chunks(con)
        for s in stored:
            if args.table and s.name not in args.table:
                continue
            wall, cpu = time.perf_counter(), cpu_now()
            stored_tables.refill(con, s, companies)
            wall, cpu = time.perf_counter() - wall, cpu_now() - cpu
            rows = fetch_value(con, f"SELECT count(*) FROM {s.name}")
            print(f"{s.name:24} {rows:>12,} rows  {wall:7.1f} s wall  {cpu:7.1f} s CPU")
    finally:
        con.execute("ROLLBACK")
        con.close()
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
