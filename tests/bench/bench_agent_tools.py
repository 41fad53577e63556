"""Benchmark: p50/p95 latency of each agent tool as the MCP server runs it (prints figures; not a test).

Usage::

    python tests/bench/bench_agent_tools.py [--db PATH] [--runs 20]

Without ``--db`` it builds the agent test warehouse (tests/agent/agent_warehouse.py: Apple and NVIDIA
companyfacts + submissions, ticker files, two Forms 4) in a temporary folder. Each call opens the
warehouse read-only, runs the tool and closes it, exactly as ``edgar-warehouse mcp`` does per call;
the open is timed on its own line too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "agent")]

from agent_warehouse import build_agent_warehouse  # noqa: E402
from test_agent_verify import TRUE_BRIEF  # noqa: E402

from warehouse.agent import schema_tools, tools  # noqa: E402
from warehouse.agent.verify import verify_brief  # noqa: E402
from warehouse.store.db import reader  # noqa: E402

CALLS = {
    "open (read-only, sandboxed)": lambda con: None,
    "resolve_company AAPL": lambda con: tools.resolve_company(con, "AAPL"),
    "resolve_company 'Apple' (ambiguous)": lambda con: tools.resolve_company(con, "Apple"),
    "get_facts revenue FY2024": lambda con: tools.get_facts(con, "AAPL", "revenue", 2024, "FY"),
    "get_facts revenue (all periods)": lambda con: tools.get_facts(con, "AAPL", "revenue"),
    "get_facts us-gaap:SalesRevenueNet as_of": lambda con: tools.get_facts(
        con, "AAPL", "us-gaap:SalesRevenueNet", 2009, "FY", as_of="2010-02-01"),
    "get_fact_history revenue FY2009": lambda con: tools.get_fact_history(con, "AAPL", "revenue", 2009, "FY"),
    "get_derived_metric free_cash_flow": lambda con: tools.get_derived_metric(con, "AAPL", "free_cash_flow", 2025),
    "compare_companies revenue AAPL NVDA": lambda con: tools.compare_companies(con, "revenue", ["AAPL", "NVDA"], 2024),
    "list_filings 10-K": lambda con: tools.list_filings(con, "AAPL", "10-K"),
    "get_insider_transactions": lambda con: tools.get_insider_transactions(con, "AAPL"),
    "verify_claims (9 claims)": lambda con: verify_brief(con, json.dumps(TRUE_BRIEF)),
    "describe_schema facts": lambda con: schema_tools.describe_schema(con, "facts"),
    "query count by cik": lambda con: schema_tools.query(con, "SELECT cik, count(*) FROM facts GROUP BY cik"),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    db = args.db
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="agent-bench-")) / "w.duckdb"
        build_agent_warehouse(db)
    print(f"{db}: {args.runs} runs per tool, a fresh read-only connection per call (as the MCP server)")
    print(f"{'tool':45s} {'p50 ms':>8s} {'p95 ms':>8s}")
    for name, fn in CALLS.items():
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            with reader(db) as con:
                fn(con)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"{name:45s} {statistics.median(times):8.0f} {p95:8.0f}")


if __name__ == "__main__":
    main()
