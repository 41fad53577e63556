"""Benchmark: p50/p95 of the agent- and API-facing queries on a warehouse (prints figures; not a test).

Usage::

    python tests/bench/bench_queries.py --db edgar.duckdb [--synthetic-filings 5000000] [--runs 100] [--budget 60]

Times, over ``--runs`` random (company, concept, period) picks taken from the warehouse itself:

* point-in-time value: one fact from ``facts_as_of(ts)`` (what was public at ts);
* a company's current facts: every row of ``facts_current`` for one CIK;
* restatement history: ``fact_restatements`` of one company and concept;
* a metric with lineage: one ``derived_metrics_current`` row and its ``metric_lineage`` edges;

then (``--all``) every shipped query an agent tool or the notebook API runs (warehouse/sql/agent/,
warehouse/sql/read/api/, warehouse/sql/read/standard/compare_*), with the same picks, fetched as their callers
fetch (agent tools: Python rows; the notebook API: Arrow, which Polars wraps without copying).
``company_current_facts`` is timed four ways: as Python rows through ``warehouse.read.queries.run_query`` (what
the CLI's ``sql``, the agent's ``query`` tool and Python callers get: converted column by column,
``warehouse.read.pyrows``), as DuckDB's own ``fetchall`` (per-value conversion, for reference), ``arrow``, and
the page the agent's ``query`` tool fetches (``run_query(max_rows=QUERY_MAX_ROWS)``: its row limit). Each query
prints wall p50/p95 (the goal) and CPU p50/p95 (this process, DuckDB's threads included: on a
shared box the wall figure counts other processes' time, the CPU figure does not).

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
import pyarrow  # noqa: F401  (loaded, as in the MCP server and notebooks: warehouse.read.pyrows' path)

sys.path.insert(0, str(Path(__file__).parents[2]))
from warehouse.agent.schema_tools import QUERY_MAX_ROWS  # noqa: E402
from warehouse.read.queries import run_query  # noqa: E402
from warehouse.schema.sql_files import sql  # noqa: E402

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
        "SELECT m.*, l.* FROM derived_metrics_current m"
        " LEFT JOIN metric_lineage l ON l.cik = m.cik AND l.metric_id = m.metric_id"  # lineage is kept by company
        " WHERE m.cik = ? AND m.metric = 'free_cash_flow' AND m.fiscal_year = ?",
        lambda p: [p["cik"], p["fiscal_year"]]),
}


#: every shipped read query of the agent tools (rows) and the notebook API (arrow): name -> (sql file,
#: parameters from a pick, fetch). The picks are real (company, concept, period) of the warehouse.
SHIPPED = {
    "read/api/facts (current)": ("read/api/facts", lambda p: {"cik": p["cik"], "tags": None, "as_of": None,
                                                    "fiscal_year": None, "fiscal_period": None}, "arrow"),
    "read/api/facts (concept)": ("read/api/facts", lambda p: {"cik": p["cik"], "tags": [p["tag"]], "as_of": None,
                                                    "fiscal_year": None, "fiscal_period": None}, "arrow"),
    "read/api/facts (as_of)": ("read/api/facts", lambda p: {"cik": p["cik"], "tags": [p["tag"]], "as_of": p["as_of"],
                                                  "fiscal_year": None, "fiscal_period": None}, "arrow"),
    "read/api/fact_versions": ("read/api/fact_versions", lambda p: {"cik": p["cik"], "tags": [p["tag"]], "as_of": None,
                                                          "fiscal_year": None, "fiscal_period": None}, "arrow"),
    "read/api/restatements (company)": ("read/api/restatements", lambda p: {"cik": p["cik"], "concept": None, "taxonomy": None,
                                                                  "fiscal_year": None}, "arrow"),
    "read/api/restatements (concept)": ("read/api/restatements", lambda p: {"cik": p["cik"], "concept": p["concept"],
                                                                  "taxonomy": None, "fiscal_year": None}, "arrow"),
    "read/api/standard_facts (current)": ("read/api/standard_facts_now", lambda p: {  # warehouse/read/api.py's file when no as_of
        "cik": p["cik"], "concept": "revenue", "fiscal_year": None, "fiscal_period": None, "chain_concepts": p["chain"]},
        "arrow"),
    "read/api/standard_facts (as_of)": ("read/api/standard_facts", lambda p: {
        "cik": p["cik"], "concept": "revenue", "chain_concepts": p["chain"], "as_of": p["as_of"], "fiscal_year": None, "fiscal_period": None},
        "arrow"),
    "read/api/metrics (current)": ("read/api/metrics", lambda p: {"cik": p["cik"], "metric": None, "as_of": None,
                                                        "fiscal_year": None, "fiscal_period": None}, "arrow"),
    "read/api/metrics (as_of)": ("read/api/metrics", lambda p: {"cik": p["cik"], "metric": None, "as_of": p["as_of"],
                                                      "fiscal_year": None, "fiscal_period": None}, "arrow"),
    "read/api/lineage": ("read/api/lineage", lambda p: {"metric_ids": [p["metric_id"]], "cik": p["cik"],
                                                      "concepts": p["lineage_concepts"]}, "arrow"),
    "read/api/filings": ("read/api/filings", lambda p: {"cik": p["cik"], "form": None, "since": None, "limit": None},
                         "arrow"),
    "read/api/companies": ("read/api/companies", lambda p: {}, "arrow"),
    "read/api/insider_transactions": ("read/api/insider_transactions", lambda p: {"cik": p["cik"], "codes": None,
                                                                        "since": None, "limit": None}, "arrow"),
    "read/api/insider_trades": ("read/api/insider_trades", lambda p: {"cik": p["cik"], "since": None}, "arrow"),
    "read/api/standard_facts (get_facts)": ("read/api/standard_facts_now", lambda p: {
        "cik": p["cik"], "concept": "revenue", "fiscal_year": p["fiscal_year"], "fiscal_period": "FY",
        "chain_concepts": p["chain"]}, "rows"),
    "read/api/fact_versions (get_fact_history)": ("read/api/fact_versions", lambda p: {
        "cik": p["cik"], "tags": [p["tag"]], "fiscal_year": None, "fiscal_period": None, "as_of": p["as_of"]}, "rows"),
    "read/api/metrics (get_derived_metric)": ("read/api/metrics", lambda p: {
        "cik": p["cik"], "metric": "free_cash_flow", "fiscal_year": p["fiscal_year"], "fiscal_period": "FY",
        "as_of": None}, "rows"),
    "agent/computed_values": ("agent/computed_values", lambda p: {
        "cik": p["cik"], "concept": "revenue", "fy": p["fiscal_year"], "fp": "Q4"}, "rows"),
    "agent/reported_tags": ("agent/reported_tags", lambda p: {
        "cik": p["cik"], "concept": "revenue", "fy": p["fiscal_year"], "fp": "FY"}, "rows"),
    "read/api/filings (list_filings)": ("read/api/filings", lambda p: {
        "cik": p["cik"], "form": "10-K", "since": None, "limit": 201}, "rows"),
    "read/api/insider_transactions (get_insider_transactions)": ("read/api/insider_transactions", lambda p: {
        "cik": p["cik"], "since": None, "codes": None, "limit": 201}, "rows"),
    "agent/insider_lines": ("agent/insider_lines", lambda p: {"accession": p["accession"]}, "rows"),
    "read/standard/compare_concept": ("read/standard/compare_concept", lambda p: {
        "name": "revenue", "ciks": p["ciks"], "fy": p["fiscal_year"], "fp": "FY"}, "rows"),
    "read/standard/compare_metric": ("read/standard/compare_metric", lambda p: {
        "name": "free_cash_flow", "ciks": p["ciks"], "fy": p["fiscal_year"], "fp": "FY"}, "rows"),
    "read/standard/compare_year_ends": ("read/standard/compare_year_ends", lambda p: {
        "ciks": p["ciks"], "fy": p["fiscal_year"]}, "rows"),
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
        # what the submissions loader does for every filing it stores (warehouse/sql/load/submissions/)
        con.execute("""INSERT INTO accession_acceptance
                       SELECT accession, max(acceptance_time) FROM filings
                       WHERE load_id = 'bench-synthetic' AND acceptance_time IS NOT NULL GROUP BY accession""")


def picks(con: duckdb.DuckDBPyConnection, runs: int, seed: int) -> list[dict]:
    rows = con.execute(
        "SELECT cik, concept, unit, CAST(period_end AS VARCHAR), fiscal_year, CAST(known_from AS VARCHAR),"
        " taxonomy, accession"
        " FROM fact_versions USING SAMPLE reservoir(2000 ROWS) REPEATABLE (42)").fetchall()
    if not rows:
        sys.exit("the warehouse holds no facts")
    metric_ids = dict(con.execute("SELECT cik, arg_max(metric_id, known_from) FROM derived_metrics"
                                  " WHERE metric = 'free_cash_flow' GROUP BY cik").fetchall())
    chain = con.execute(sql("read/api/chain_concepts"), {"concept": "revenue"}).fetchone()[0]
    ciks = sorted({r[0] for r in rows})
    rnd = random.Random(seed)
    out = []
    for _ in range(runs):
        cik, concept, unit, period_end, fy, known, taxonomy, accession = rnd.choice(rows)
        out.append({"cik": cik, "concept": concept, "unit": unit, "period_end": period_end,
                    "fiscal_year": fy, "as_of": known, "tag": f"{taxonomy}:{concept}", "accession": accession,
                    "metric_id": metric_ids.get(cik, ""), "ciks": [cik, rnd.choice(ciks)], "chain": chain})
    for p in out:  # what get_derived_metric and lineage() ask before read/api/lineage
        p["lineage_concepts"] = con.execute(sql("read/api/lineage_concepts"),
                                           {"metric_ids": [p["metric_id"]], "cik": p["cik"]}).fetchone()[0]
    return out


def time_query(con: duckdb.DuckDBPyConnection, query: str, params, fetch: str, plist: list[dict],
               budget: float) -> tuple[list[float], list[float]]:
    """Milliseconds per run, wall and CPU (this process, every DuckDB thread included: the figure
    that holds on a shared box), each sorted; fetched as rows (Python tuples) or one Arrow table."""
    def run(p: dict) -> None:
        if fetch == "page":  # what the agent's query tool fetches (warehouse/agent/schema_tools.py)
            run_query(con, query, params(p), max_rows=QUERY_MAX_ROWS)
            return
        if fetch == "run_query":  # Python rows as the CLI's sql and Python callers get them
            run_query(con, query, params(p))
            return
        cur = con.execute(query, params(p))
        cur.fetchall() if fetch == "rows" else cur.to_arrow_table()

    run(plist[0])  # warm
    times, cpu = [], []
    started = time.perf_counter()
    for p in plist:
        t0, c0 = time.perf_counter(), time.process_time()
        run(p)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        if time.perf_counter() - started > budget:
            break
    return sorted(times), sorted(cpu)


def p95(times: list[float]) -> float:
    return times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--synthetic-filings", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds per query at most: a slower query reports the runs it finished")
    ap.add_argument("--all", action="store_true",
                    help="also every shipped agent-tool and notebook-API query (warehouse/sql/agent, api)")
    ap.add_argument("--only", default="", help="time only the queries whose name contains this")
    ap.add_argument("--threads", type=int, default=0, help="DuckDB threads of the reading connection (0: DuckDB's default)")
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
        if args.threads:
            con.execute(f"SET threads = {args.threads}")
        facts, filings = con.execute("SELECT (SELECT count(*) FROM facts), (SELECT count(*) FROM filings)").fetchone()
        print(f"{db}: {facts:,} facts, {filings:,} filings; {args.runs} runs per query")
        plist = picks(con, args.runs, args.seed)
        timed = [(name, query, params, "run_query" if name == "company_current_facts" else "rows")
                 for name, (query, params) in QUERIES.items()]
        current = QUERIES["company_current_facts"]
        timed.insert(2, ("company_current_facts duckdb fetchall", *current, "rows"))
        timed.insert(3, ("company_current_facts arrow", *current, "arrow"))
        timed.insert(4, (f"company_current_facts {QUERY_MAX_ROWS} rows", *current, "page"))
        if args.all:
            timed += [(name, sql(file), params, fetch) for name, (file, params, fetch) in SHIPPED.items()]
        for name, query, params, fetch in (t for t in timed if args.only in t[0]):
            times, cpu = time_query(con, query, params, fetch, plist, args.budget)
            cut = "" if len(times) == len(plist) else f", only {len(times)} runs within --budget {args.budget:.0f} s"
            print(f"  {name:36s} p50 {statistics.median(times):8.1f} ms   p95 {p95(times):8.1f} ms   "
                  f"CPU p50 {statistics.median(cpu):7.1f} p95 {p95(cpu):7.1f} ms   "
                  f"(goal p95 < 50 ms: {'met' if p95(times) < 50 else 'MISSED'}{cut})", flush=True)
        con.close()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
