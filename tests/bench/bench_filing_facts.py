"""Benchmark: the cost of inline-XBRL filing facts and statements (issue 24 item 6).

Run: `.venv/bin/python tests/bench/bench_filing_facts.py [--runs 3] [--year-filings 26000]`. Uses the
inline-XBRL 10-K/10-Q documents vendored in tests/fixtures/filings/. Prints, per filing: facts (distinct,
numeric, dimensional), statements found and their lines, parse CPU (facts + statements, best of the runs);
then one load of them all into a fresh warehouse through the ingest path (CPU and wall), the stored bytes
of filing_facts / filing_statements / filing_statement_lines (DuckDB's own block count, after CHECKPOINT),
and what a year of 10-K/10-Q would cost at the measured per-filing means (``--year-filings``: EDGAR gets
about 7,000 10-Ks and 19,000 10-Qs a year). Figures on a shared, loaded machine: compare runs
interleaved, never across days.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
FILINGS = ROOT / "tests" / "fixtures" / "filings" / "10-K_10-Q"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    from pipelines.inline_xbrl import parse_inline_xbrl
    from pipelines.statements import find_statements

    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--year-filings", type=int, default=26_000)
    args = ap.parse_args()
    bodies = {}
    for p in sorted(FILINGS.glob("*.htm.gz")):
        body = gzip.decompress(p.read_bytes())
        if b"inlineXBRL" in body[:20_000]:
            bodies[p.name[:-3]] = body
    print(f"{'document':48} {'MB':>5} {'facts':>6} {'numeric':>7} {'dimens.':>7} {'stmts':>5} {'lines':>5} {'CPU s':>6}")
    totals = {"facts": 0, "dims": 0, "cpu": 0.0, "bytes": 0}
    for name, body in bodies.items():
        best = float("inf")
        for _ in range(args.runs):
            t = cpu()
            doc = parse_inline_xbrl(body, document=name)
            statements = find_statements(doc)
            best = min(best, cpu() - t)
        numeric = sum(f.kind == "numeric" for f in doc.facts)
        dims = sum(bool(f.dimensions) for f in doc.facts)
        lines = sum(len(s.lines) for s in statements)
        print(f"{name[:48]:48} {len(body) / 1e6:5.2f} {len(doc.facts):6} {numeric:7} {dims:7} {len(statements):5} "
              f"{lines:5} {best:6.3f}")
        totals["facts"] += len(doc.facts)
        totals["dims"] += dims
        totals["cpu"] += best
        totals["bytes"] += len(body)
    n = len(bodies)
    print(f"mean per filing: {totals['facts'] / n:,.0f} facts ({totals['dims'] / n:,.0f} dimensional), "
          f"{totals['bytes'] / n / 1e6:.2f} MB, parse {totals['cpu'] / n:.3f} s CPU")

    from pipelines.documents import Document
    from warehouse.load.ingest import ingest
    from warehouse.store.db import connect, raw_dir_for

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.duckdb"
        con = connect(path)
        docs = [Document(uri=f"{FILINGS}/{name}", origin="file", body=body) for name, body in bodies.items()]
        t, wall = cpu(), time.perf_counter()
        report = ingest(con, docs, raw_dir=raw_dir_for(path), command="load")
        load_cpu, load_wall = cpu() - t, time.perf_counter() - wall
        con.execute("CHECKPOINT")
        sizes = {}
        for table in ("filing_facts", "filing_statements", "filing_statement_lines"):
            blocks = con.execute("SELECT count(DISTINCT block_id) FROM pragma_storage_info(?)"
                                 " WHERE block_id IS NOT NULL", [table]).fetchone()[0]
            block_size = con.execute("SELECT block_size FROM pragma_database_size()").fetchone()[0]
            sizes[table] = blocks * block_size
        rows = {t: report.row_counts.get(t, 0) for t in sizes}
        con.close()
    print(f"load of {n} documents (ingest path, all kinds their bytes make: filing_document with its items, "
          f"facts, statements): {load_cpu:.2f} s CPU, {load_wall:.2f} s wall, {load_cpu / n:.3f} s CPU per document")
    for table, size in sizes.items():
        print(f"  {table:24} {rows[table]:7,} rows  {size / 1e6:6.2f} MB stored ({size / max(rows[table], 1):,.0f} B/row)")
    year = args.year_filings
    print(f"a year of 10-K/10-Q ({year:,} filings) at these means: {totals['facts'] / n * year / 1e6:.1f} M facts "
          f"({totals['dims'] / n * year / 1e6:.1f} M dimensional); stored, at the B/row above: filing_facts "
          f"{sizes['filing_facts'] / n * year / 1e9:.1f} GB, statement lines "
          f"{sizes['filing_statement_lines'] / n * year / 1e9:.1f} GB (DuckDB allocates 256 KB blocks: the small "
          f"tables here overstate theirs); raw documents {totals['bytes'] / n * year / 1e9:.1f} GB before gzip; "
          f"{load_cpu / n * year / 3600:.1f} CPU hours to load them (items and text included)")


if __name__ == "__main__":
    main()
