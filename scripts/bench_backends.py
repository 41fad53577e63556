"""Load time on both storage backends: the DuckDB file and DuckLake (catalog in a PostgreSQL on loopback).

    .venv/bin/python scripts/bench_backends.py [N_FILES]

Loads the first N vendored companyfacts files (default 4; tests/fixtures/sec/...) with the real CLI:
once into a DuckDB file, once into a fresh lake, then into another fresh lake from two processes at
once (the files split between them), and prints wall-clock seconds for each. Starts and stops its own
PostgreSQL (scripts/pg_loopback.py). Figures, not assertions: docs/architecture.md quotes them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scripts import pg_loopback  # noqa: E402

FILES = sorted((REPO / "tests/fixtures/sec/data.sec.gov/api/xbrl/companyfacts").glob("*.json.gz"))
CLI = str(Path(sys.executable).parent / "edgar-warehouse")


def run(env: dict[str, str], *groups: list[Path], db: Path) -> float:
    start = time.perf_counter()
    procs = [subprocess.Popen([CLI, "--db", str(db), "load", *map(str, g)], env={**os.environ, **env},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for g in groups]
    for p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            raise SystemExit(f"load failed: {err[-2000:]}")
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    files = FILES[:n]
    work = Path(tempfile.mkdtemp(prefix="edgar-bench-"))
    work.chmod(0o755)  # the postgres user (when we are root) must reach its folder inside
    pg = work / "pg"
    port = pg_loopback.free_port()
    pg_loopback.start(pg, port)
    try:
        def lake(name: str) -> dict[str, str]:
            return {"EDGAR_WAREHOUSE_BACKEND": "ducklake", "EDGAR_WAREHOUSE_LAKE_CATALOG":
                    pg_loopback.createdb(pg, port, name), "EDGAR_WAREHOUSE_LAKE_DATA": str(work / name)}

        file_s = run({"EDGAR_WAREHOUSE_BACKEND": "duckdb"}, files, db=work / "w.duckdb")
        one_s = run(lake("one"), files, db=work / "unused")
        two_s = run(lake("two"), files[0::2], files[1::2], db=work / "unused")
        print(f"{n} companyfacts files (CLI load, one run each):")
        print(f"  DuckDB file                  {file_s:6.1f} s")
        print(f"  DuckLake, one process        {one_s:6.1f} s")
        print(f"  DuckLake, two processes      {two_s:6.1f} s (files split between them, both land)")
    finally:
        pg_loopback.stop(pg)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
