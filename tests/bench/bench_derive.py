"""Benchmark: CPU of one derive step (``warehouse.derive.batch.derive_batch``) per batch, by SQL step (prints figures; not a test).

Usage::

    .venv/bin/python tests/bench/bench_derive.py --db COPY.duckdb [--runs 3] [--batch 25]

On a COPY of a warehouse (``/work/bench/wh-10x-m.duckdb``: ``cp`` it first; the first writer open
re-applies changed definitions and may refill ``standard_facts_rows``), it runs ``derive_batch`` for a
batch of ``--batch`` companies and for one company (what a changed company's load derives), each in a
transaction rolled back afterwards, ``--runs`` times on different companies, and prints the CPU
(this process, every DuckDB thread) of the whole step and of each declared SQL step over 5 ms
(``stored/standard_facts_rows``: the stored current standard facts; ``refresh/*``: the metrics'
standard-value timeline; ``metrics/*``: the rule files), min and median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))
sys.path.insert(0, str(Path(__file__).parent))
from bench_companyfacts import timed_sql_steps  # noqa: E402

import warehouse.derive.batch as derive  # noqa: E402
from warehouse.store.db import connect  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=25)
    args = ap.parse_args(argv)
    with timed_sql_steps(clock=time.process_time) as spent:
        return _run(args, spent)


def _run(args: argparse.Namespace, spent: dict[str, float]) -> int:
    con = connect(args.db)
    ciks = [c for (c,) in con.execute("SELECT DISTINCT cik FROM facts_current_rows ORDER BY cik").fetchall()]
    figures: dict[tuple[str, str], list[float]] = defaultdict(list)
    for i in range(args.runs):
        start = (i * args.batch) % len(ciks)
        for label, group in ((f"{args.batch} companies", (ciks[start:] + ciks[:start])[:args.batch]),
                             ("1 company", [ciks[(i * 7) % len(ciks)]])):
            spent.clear()
            con.execute("BEGIN")
            c0 = time.process_time()
            derive.derive_batch(con, load_id="bench", ciks=group, document_ids=[], restated=[], check=True)
            spent["derive_batch (whole)"] = time.process_time() - c0
            con.execute("ROLLBACK")
            for name, cpu in spent.items():
                figures[(label, name)].append(cpu * 1000)
    print(f"{args.db}: {len(ciks)} companies; CPU ms, min / median of {args.runs} runs")
    for (label, name), cpu in sorted(figures.items()):
        if statistics.median(cpu) >= 5:
            print(f"  {label:14s} {name:34s} {min(cpu):7.0f} {statistics.median(cpu):7.0f}")
    con.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
