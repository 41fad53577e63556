"""Benchmark: companyfacts end to end (parse + versions + fiscal years + store) vs edgartools.

Run with `make bench`. Loads the 8 byte-exact companyfacts files of ../shared/edgar-samples
(or the vendored copies when ../shared is absent) into a fresh DuckDB warehouse, prints
facts/second, then times edgartools' EntityFactsParser.parse_company_facts(...).to_dataframe()
on the same files (when edgartools is installed) and prints the ratio. Best of N runs each.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "edgar-samples" / "companyfacts"
VENDORED = ROOT / "tests" / "fixtures" / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"


def source_files() -> list[Path]:
    files = sorted(SHARED.glob("CIK*.json"))
    return files or sorted(VENDORED.glob("CIK*.json.gz"))


def read(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def run_ours(files: list[Path], workers: int, derive: bool) -> tuple[float, int]:
    from pipelines.documents import Document
    from warehouse.db import connect, fetch_value
    from warehouse.ingest import ingest

    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        con = connect(tmp / "bench.duckdb")
        bodies = [(str(f), read(f)) for f in files]
        t0 = time.perf_counter()
        docs = [Document(uri=u, origin="file", body=b, kind="companyfacts") for u, b in bodies]
        report = ingest(con, docs, raw_dir=tmp / "bench.raw", command="bench", workers=workers, derive=derive)
        elapsed = time.perf_counter() - t0
        facts = fetch_value(con, "SELECT count(*) FROM facts")
        assert not report.rejected, report.rejected
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE fiscal_year IS NULL") == 0
        con.close()
        return elapsed, facts
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_edgartools(files: list[Path]) -> tuple[float, int] | None:
    try:
        from edgar.entity.parser import EntityFactsParser
    except ImportError:
        return None
    bodies = [read(f) for f in files]
    t0 = time.perf_counter()
    rows = 0
    for body in bodies:
        facts = EntityFactsParser.parse_company_facts(json.loads(body))
        rows += len(facts.to_dataframe())
    return time.perf_counter() - t0, rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2, help="parser processes (the machine has 2 cores)")
    args = ap.parse_args()
    files = source_files()
    if not files:
        print("no companyfacts files found", file=sys.stderr)
        return 1
    size = sum(len(read(f)) for f in files)
    print(f"{len(files)} companyfacts files, {size / 1e6:.1f} MB, from {files[0].parent}")
    ours = [run_ours(files, args.workers, derive=False) for _ in range(args.runs)]
    times = [t for t, _ in ours]
    facts = ours[0][1]
    best = min(times)
    print(f"edgar-warehouse ingest: {facts} facts in {best:.3f} s best / {statistics.median(times):.3f} s "
          f"median of {args.runs} -> {facts / best:,.0f} facts/s (parse x{args.workers} processes + versions + "
          f"fiscal calendar + DuckDB store + raw payloads)")
    full = [run_ours(files, args.workers, derive=True)[0] for _ in range(args.runs)]
    print(f"edgar-warehouse ingest + derived metrics + checks (what every load does): {min(full):.3f} s best "
          f"/ {statistics.median(full):.3f} s median")
    et = [run_edgartools(files) for _ in range(args.runs)]
    if et[0] is None:
        print("edgartools not installed (pip install -e '.[bench]'): no ratio")
        return 0
    et_best = min(t for t, _ in et)
    print(f"edgartools EntityFactsParser.parse_company_facts + to_dataframe: {et[0][1]} rows in "
          f"{et_best:.3f} s best of {args.runs} -> {et[0][1] / et_best:,.0f} rows/s")
    print(f"ratio: {et_best / best:.1f}x edgartools for ingest (target 20x); "
          f"{et_best / min(full):.1f}x including derived metrics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
