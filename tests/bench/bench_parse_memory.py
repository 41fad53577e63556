"""Benchmark: peak memory of parsing one big companyfacts payload (default ~200 MB) built from real facts.

Run: `.venv/bin/python tests/bench/bench_parse_memory.py [--mb 200]`. The payload is Apple's real
companyfacts with its concepts repeated under numbered names until it reaches the size; it is
parsed in a fresh child process, which prints its peak RSS (ru_maxrss) before and after parsing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPLE = ROOT / "tests" / "fixtures" / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts" / "CIK0000320193.json.gz"

CHILD = """
import resource, sys, time
sys.path.insert(0, {root!r})
from pipelines.companyfacts import parse_companyfacts
body = open({path!r}, "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
cf = parse_companyfacts(body, document={path!r})
took = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{{len(body) / 1e6:.0f}} MB, {{cf.fact_count:,}} facts: parsed in {{took:.1f}} s; peak RSS {{peak / 1024:.0f}} MB "
      f"(body read: {{before / 1024:.0f}} MB; Arrow facts table {{cf.facts.nbytes / 1e6:.0f}} MB)")
"""


def build(mb: int, out: Path) -> None:
    data = json.loads(gzip.decompress(APPLE.read_bytes()))
    base = data["facts"]["us-gaap"]
    size = len(json.dumps(base, separators=(",", ":")))
    copies = max(1, mb * 1_000_000 // size)
    data["facts"]["us-gaap"] = {f"{name}{'' if i == 0 else f'_{i}'}": c for i in range(copies) for name, c in base.items()}
    out.write_text(json.dumps(data, separators=(",", ":")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp:
        path = Path(tmp) / "CIK0000320193.json"
        build(args.mb, path)
        subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(path))], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
