"""Benchmark: p50/p95 of the agent- and API-facing queries on a warehouse (prints figures; not a test).

Usage::

    python tests/bench/bench_queries.py --db edgar.duckdb [--synthetic-filings 5000000] [--runs 100] [--budget 60]

Times, over ``--runs`` random (company, concept, period) picks taken from the warehouse itself:

* point-in-time value: one fact from ``facts_as_of(ts)`` (what was public at ts);
* a company's current facts: every row of ``facts_current`` for one CIK;
* restatement history: ``fact_restatements`` of one company and concept;
* a metric with lineage: one ``derived_metrics_current`` row and its ``metric_lineage`` edges.

``--synthetic-filings N`` first copies the warehouse and adds N synthetic rows to ``filings`` (other
companies' accessions, so no fact changes) to show how the views behave once ``filings`` is the
size of EDGAR's (the cost issue asks for >= 5M rows). The original file is never written.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import duckdb

QUERIES = {
    "point_in_time_value": (
        "SELECT value, accession, known_from FROM facts_as_of(?::TIMESTAMP)"
        " WHERE cik = ? AND concept = ? AND unit = ? AND period_end = ?",
        lambda p: [p["as_of"], p["cik"], p["concept"], p["unit"], p["period_end"]]),
    "company_current_facts": (
        "SELECT * FROM facts_current WHERE cik = ?", lambda p: [p["cik"]]),
    "restatement_history": (
        "SELECT * FROM fact_restatements WHERE cik = ? AND concept = ?", lambda p: [p["cik"], p["concept"]]),
    "metric_with_lineage": (
        "SELECT m.*, l.* FROM derived_metrics_current m LEFT JOIN metric_lineage l USING (metric_id)"
        " WHERE m.cik = ? AND m.metric = 'free_cash_flow' AND m.fiscal_year = ?",
        lambda p: [p["cik"], p["fiscal_year"]]),
}


def add_synthetic_filings(con: duckdb.DuckDBPyConnection, n: int) -> None:
    """N filings of made-up companies (CIK 1.9e9 + i % 19000), never matching a fact's accession."""
    con.execute(f"""
        INSERT INTO filings (cik, accession, form, base_form, is_amendment, filing_date, acceptance_time,
                             source_document_id, load_id)
        SELECT 1900000000 + (i % 19000), printf('%010d-%02d-%06d', 1900000000 + (i % 19000), i // 1000000, i % 1000000),
               '8-K', '8-K', false, DATE '2010-01-01' + CAST(i % 5000 AS INTEGER),
               TIMESTAMP '2010-01-01 14:00:00' + to_days(CAST(i % 5000 AS INTEGER)), 0, 'bench-synthetic'
        FROM range({int(n)}) t(i)""")
    if con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'accession_acceptance'").fetchone()[0]:
        # what the submissions loader does for every filing it stores (warehouse/sql/submissions/)
        con.execute("""INSERT INTO accession_acceptance
                       SELECT accession, max(acceptance_time) FROM filings
                       WHERE load_id = 'bench-synthetic' AND acceptance_time IS NOT NULL GROUP BY accession""")


def picks(con: duckdb.DuckDBPyConnection, runs: int, seed: int) -> list[dict]:
    rows = con.execute(
        "SELECT cik, concept, unit, CAST(period_end AS VARCHAR), fiscal_year, CAST(known_from AS VARCHAR)"
        " FROM fact_versions USING SAMPLE reservoir(2000 ROWS) REPEATABLE (42)").fetchall()
    if not rows:
        sys.exit("the warehouse holds no facts")
    rnd = random.Random(seed)
    out = []
    for _ in range(runs):
        cik, concept, unit, period_end, fy, known = rnd.choice(rows)
        out.append({"cik": cik, "concept": concept, "unit": unit, "period_end": period_end,
                    "fiscal_year": fy, "as_of": known})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--synthetic-filings", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds per query at most: a slower query reports the runs it finished")
    args = ap.parse_args(argv)
    db = args.db
    tmp = None
    if args.synthetic_filings:
        tmp = Path(tempfile.mkdtemp(prefix="bench-q-"))
        db = tmp / "q.duckdb"
        shutil.copy(args.db, db)
        con = duckdb.connect(str(db))
        t0 = time.perf_counter()
        add_synthetic_filings(con, args.synthetic_filings)
        con.execute("CHECKPOINT")
        con.close()
        print(f"added {args.synthetic_filings:,} synthetic filings in {time.perf_counter() - t0:.1f} s")
    try:
        con = duckdb.connect(str(db), read_only=True)
        con.execute("SET TimeZone = 'UTC'")
        facts, filings = con.execute("SELECT (SELECT count(*) FROM facts), (SELECT count(*) FROM filings)").fetchone()
        print(f"{db}: {facts:,} facts, {filings:,} filings; {args.runs} runs per query")
        plist = picks(con, args.runs, args.seed)
        for name, (sql, params) in QUERIES.items():
            con.execute(sql, params(plist[0])).fetchall()  # warm
            times = []
            started = time.perf_counter()
            for p in plist:
                t0 = time.perf_counter()
                con.execute(sql, params(p)).fetchall()
                times.append((time.perf_counter() - t0) * 1000)
                if time.perf_counter() - started > args.budget:
                    break
            times.sort()
            p95 = times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]
            cut = "" if len(times) == len(plist) else f", only {len(times)} runs within --budget {args.budget:.0f} s"
            print(f"  {name:24s} p50 {statistics.median(times):8.1f} ms   p95 {p95:8.1f} ms   "
                  f"(goal p95 < 50 ms: {'met' if p95 < 50 else 'MISSED'}{cut})")
        con.close()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
