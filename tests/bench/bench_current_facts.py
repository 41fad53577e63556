"""Benchmark: the current-facts refresh of a load (facts_current_rows for a batch's companies), CPU seconds.

Run: `.venv/bin/python tests/bench/bench_current_facts.py DB [--companies 25] [--runs 5]` on a
warehouse built by a bootstrap (e.g. `bench_scale.py --scales 10 --batch-size 25` leaves
``wh-10x.duckdb`` under its ``--work`` folder; copy it first: opening it applies this checkout's
definitions). It recomputes the rows of the first ``--companies`` companies the way a load does
(``warehouse.load.batch.refresh_current_facts``, the writer's settings) inside a transaction that is
rolled back, ``--runs`` times, and prints the best and median CPU seconds of this process (every
DuckDB thread) and the facts per CPU second. Prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def cpu_now() -> float:
    t = os.times()
    return t.user + t.system


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("--companies", type=int, default=25, help="the first N companies by CIK (a bootstrap batch)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    from warehouse.load.batch import BatchReport, refresh_current_facts
    from warehouse.load.ingest import configure_writer
    from warehouse.store.db import connect, fetch_all, fetch_value

    con = connect(args.db)
    configure_writer(con)
    ciks = [c for (c,) in fetch_all(con, "SELECT DISTINCT cik FROM facts ORDER BY 1 LIMIT ?", [args.companies])]
    facts = fetch_value(con, "SELECT count(*) FROM facts WHERE list_contains(?, cik)", [ciks])
    cpu, wall = [], []
    for _ in range(args.runs):
        report = BatchReport(load_id="bench")
        report.ciks.update(ciks)
        con.execute("BEGIN TRANSACTION")
        c0, t0 = cpu_now(), time.perf_counter()
        refresh_current_facts(con, report)
        cpu.append(cpu_now() - c0)
        wall.append(time.perf_counter() - t0)
        con.execute("ROLLBACK")
    con.close()
    print(f"current facts refresh of {len(ciks)} companies ({facts:,} facts), {args.runs} runs: CPU best "
          f"{min(cpu):.3f} s, median {statistics.median(cpu):.3f} s = {facts / min(cpu):,.0f} facts/CPU-s; "
          f"wall best {min(wall):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
