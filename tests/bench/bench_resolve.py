"""Prints the CPU time of resolving names against the vendored ticker files (~10k companies); not a test.

    .venv/bin/python tests/bench/bench_resolve.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipelines.documents import read_local_document  # noqa: E402
from pipelines.parse import parse_document  # noqa: E402
from warehouse.load.batch import Parsed, load_batch  # noqa: E402
from warehouse.read.resolve import resolve  # noqa: E402
from warehouse.store.db import connect  # noqa: E402

FILES = ROOT / "tests" / "fixtures" / "sec" / "www.sec.gov" / "files"
QUERIES = ["Apple", "Taiwan Semiconductor", "Berkshre Hathaway", "microsoft", "Marvel", "AAPL", "320193"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        con = connect(Path(tmp) / "w.duckdb")
        docs = [read_local_document(FILES / n) for n in ("company_tickers.json.gz", "company_tickers_exchange.json.gz")]
        load_batch(con, [Parsed(d, parse_document(d)[1]) for d in docs], raw_dir=Path(tmp) / "raw")
        print(f"{'query':<24} {'status':<10} CPU ms min / median of {args.runs}")
        for q in QUERIES:
            times, r = [], None
            for _ in range(args.runs):
                t = time.process_time()
                r = resolve(con, q)
                times.append((time.process_time() - t) * 1000)
            print(f"{q:<24} {r.status:<10} {min(times):7.1f} / {statistics.median(times):7.1f}")
        con.close()


if __name__ == "__main__":
    main()
