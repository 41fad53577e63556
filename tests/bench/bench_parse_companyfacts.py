"""Benchmark: parse_companyfacts alone (bytes -> Arrow record) on the sample companyfacts files.

Run: `.venv/bin/python tests/bench/bench_parse_companyfacts.py [--runs 5] [--profile]`. Uses the 8
byte-exact files of ../shared/edgar-samples/companyfacts (the vendored copies when ../shared is
absent), decompressed in memory first, and prints the best total seconds over the runs, facts/s
and, with --profile, the top functions of one run. Single process: this measures parser CPU.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent.parent / "shared" / "edgar-samples" / "companyfacts"
SHARED_ALT = ROOT.parent / "shared" / "edgar-samples" / "companyfacts"
VENDORED = ROOT / "tests" / "fixtures" / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"


def source_files() -> list[Path]:
    for folder in (SHARED_ALT, SHARED):
        files = sorted(folder.glob("CIK*.json"))
        if files:
            return files
    return sorted(VENDORED.glob("CIK*.json.gz"))


def read(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def main() -> int:
    from pipelines.companyfacts import parse_companyfacts

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    files = source_files()
    bodies = [(str(f), read(f)) for f in files]
    best, best_cpu, facts = float("inf"), float("inf"), 0
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        facts = sum(parse_companyfacts(b, document=u).fact_count for u, b in bodies)
        best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, time.process_time() - c0)
    mb = sum(len(b) for _, b in bodies) / 1e6
    print(f"parse_companyfacts: {len(bodies)} files, {mb:.1f} MB, {facts:,} facts: best of {args.runs} "
          f"{best:.3f} s wall, {best_cpu:.3f} s CPU ({facts / best_cpu:,.0f} facts per CPU second)")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for u, b in bodies:
            parse_companyfacts(b, document=u)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
