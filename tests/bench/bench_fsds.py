"""Benchmark: the cost of SEC's Financial Statement Data Sets as a bulk source (issue 24 items 5 and 6).

Run: `.venv/bin/python tests/bench/bench_fsds.py [ZIP ...] [--group 500] [--split-only] [--year-filings 26000]` (default:
the two vendored quarters, tests/fixtures/fsds/2009q3.zip and 2010q2.zip). Prints, per zip: its filings,
values (num rows) and dimensional values per filing, statements and lines per filing; the CPU of splitting
the zip into one document per filing and the peak Python memory it held (tracemalloc: one group of
filings' rows at a time, not num.txt), the parse CPU per filing; then one load of all of them into a
fresh warehouse through the ingest path (CPU of this process and of the parse workers, wall), the stored
bytes per row of filing_facts and filing_statement_lines (DuckDB's blocks after CHECKPOINT) and what a
year of 10-K/10-Q at these per-filing means would cost. Figures on a shared, loaded machine: compare
runs interleaved, never across days.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
import tracemalloc
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
ZIPS = [ROOT / "tests" / "fixtures" / "fsds" / "2009q3.zip", ROOT / "tests" / "fixtures" / "fsds" / "2010q2.zip"]


def cpu(children: bool = False) -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) if children else (resource.RUSAGE_SELF,):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def main() -> None:
    from pipelines.fsds import DEFAULT_GROUP, filing_bundles, parse_fsds_filing

    ap = argparse.ArgumentParser()
    ap.add_argument("zips", nargs="*", type=Path, default=ZIPS)
    ap.add_argument("--group", type=int, default=DEFAULT_GROUP)
    ap.add_argument("--year-filings", type=int, default=26_000)
    ap.add_argument("--split-only", action="store_true", help="the per-zip figures only, no load")
    args = ap.parse_args()
    totals = {"filings": 0, "facts": 0, "dims": 0, "lines": 0, "parse": 0.0}
    print(f"{'zip':12} {'MB':>5} {'filings':>7} {'values':>8} {'/filing':>7} {'dimens.':>7} {'stmts':>6} {'lines':>6} "
          f"{'split s':>7} {'peak MB':>7} {'parse ms/filing':>15}")
    for path in args.zips:
        tracemalloc.start()
        t = cpu()
        bundles = 0
        with zipfile.ZipFile(path) as zf:
            for _ in filing_bundles(path, zf, group=args.group):
                bundles += 1
        split_cpu = cpu() - t
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        facts = dims = statements = lines = 0
        parse = 0.0
        with zipfile.ZipFile(path) as zf:
            for name, body in filing_bundles(path, zf, group=args.group):
                t = cpu()
                f = parse_fsds_filing(body, document=name)  # type: ignore[arg-type]
                parse += cpu() - t
                facts += len(f.facts)
                dims += sum(bool(x.dimensions) for x in f.facts)
                statements += len(f.statements)
                lines += sum(len(s.lines) for s in f.statements)
        print(f"{path.name:12} {path.stat().st_size / 1e6:5.2f} {bundles:7} {facts:8,} {facts / bundles:7.0f} "
              f"{dims / bundles:7.0f} {statements / bundles:6.2f} {lines / bundles:6.1f} {split_cpu:7.2f} "
              f"{peak / 1e6:7.1f} {parse / bundles * 1000:15.2f}")
        totals["filings"] += bundles
        totals["facts"] += facts
        totals["dims"] += dims
        totals["lines"] += lines
        totals["parse"] += parse

    if args.split_only:
        return
    from pipelines.archive import documents
    from warehouse.load.ingest import ingest
    from warehouse.store.db import connect, raw_dir_for

    n = totals["filings"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.duckdb"
        con = connect(path)
        t, wall = cpu(children=True), time.perf_counter()
        report = ingest(con, documents(args.zips), raw_dir=raw_dir_for(path), command="load", batch_size=200)
        load_cpu, load_wall = cpu(children=True) - t, time.perf_counter() - wall
        con.execute("CHECKPOINT")
        block_size = con.execute("SELECT block_size FROM pragma_database_size()").fetchone()[0]
        sizes = {}
        for table in ("filing_facts", "filing_statement_lines"):
            blocks = con.execute("SELECT count(DISTINCT block_id) FROM pragma_storage_info(?)"
                                 " WHERE block_id IS NOT NULL", [table]).fetchone()[0]
            rows = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            sizes[table] = (blocks * block_size, rows)
        con.close()
    print(f"load of {n} filings ({report.loaded} loaded, {len(report.rejected)} rejected; ingest path, batches of "
          f"200): {load_cpu:.1f} s CPU (parse workers included), {load_wall:.1f} s wall, "
          f"{load_cpu / n * 1000:.0f} ms CPU per filing")
    for table, (size, rows) in sizes.items():
        print(f"  {table:24} {rows:8,} rows  {size / 1e6:6.2f} MB stored ({size / max(rows, 1):,.0f} B/row)")
    year = args.year_filings
    facts_per, dims_per = totals["facts"] / n, totals["dims"] / n
    print(f"a year of 10-K/10-Q ({year:,} filings) at these 2009-2010 means: {facts_per * year / 1e6:.1f} M values "
          f"({dims_per * year / 1e6:.2f} M dimensional), filing_facts "
          f"{sizes['filing_facts'][0] / n * year / 1e9:.2f} GB, statement lines "
          f"{sizes['filing_statement_lines'][0] / n * year / 1e9:.2f} GB, {load_cpu / n * year / 3600:.1f} CPU hours "
          "(later quarters tag the notes in detail: several times the values per filing)")


if __name__ == "__main__":
    main()
