"""Benchmark: several writer processes loading the 8 vendored companyfacts into one DuckLake, 1, 2, 4 workers.

Run: `.venv/bin/python tests/bench/bench_lake_writers.py [--workers 1,2,4] [--repeats 1] [--batch-size 1]
[--work /tmp/bench-lake-writers]`. Prints figures; it is not a test (the test is
tests/warehouse/store/test_lake_writers.py). It starts a PostgreSQL on loopback (scripts/pg_loopback.py)
for the catalogs, then, per repeat and per worker count (interleaved, so a busy box hurts them alike):

* a fresh lake (its own catalog database and data folder), its schema made by ``edgar-warehouse init``
  (not timed: migrations are not what scales);
* the 8 files of tests/fixtures/sec/data.sec.gov/api/xbrl/companyfacts dealt to N worker processes by
  company (worker i takes files i, i+N, ...), each ``edgar-warehouse load --batch-size B FILES``, all
  started at once; wall time from the first start to the last exit, CPU of the workers (their rusage);
* then, read from the lake: documents loaded against documents given (lost writes: must be 0), the
  batches redone after a DuckLake commit conflict (``edgar_lake.run_batches.conflicts``; a lake written
  by code without that bookkeeping prints "n/a"), the runs' statuses, and every table and view compared
  with the lake of the first 1-worker load (source document ids, which follow commit order, and each
  run's row_counts, which depend on which run first brought a shared concept, left out).

A line: workers, wall s, documents/min, facts/s, worker CPU s, conflicts, lost, relations equal.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
BIN = Path(sys.executable).parent
FILES = sorted((ROOT / "tests/fixtures/sec/data.sec.gov/api/xbrl/companyfacts").glob("CIK*.json.gz"))


def lake_env(folder: Path, port: int, name: str, data_root: Path) -> dict[str, str]:
    from scripts import pg_loopback

    return {"EDGAR_WAREHOUSE_BACKEND": "ducklake",
            "EDGAR_WAREHOUSE_LAKE_CATALOG": pg_loopback.createdb(folder, port, name),
            "EDGAR_WAREHOUSE_LAKE_DATA": str(data_root / name)}


def opener(env: dict[str, str]):
    """A function opening the lake of ``env`` read-only with file access (for compare_warehouses)."""
    def open_it():
        from warehouse.store.lake import LakeConfig, connect_lake

        return connect_lake(LakeConfig(env["EDGAR_WAREHOUSE_LAKE_CATALOG"].removeprefix("ducklake:"),
                                       env["EDGAR_WAREHOUSE_LAKE_DATA"]), read_only=True, external_access=True)
    return open_it


def run_workers(env: dict[str, str], workers: int, batch_size: int) -> tuple[float, float]:
    """(wall s, CPU s of the workers) of ``workers`` processes loading FILES dealt by company."""
    full = {**os.environ, **env}
    init = subprocess.run([str(BIN / "edgar-warehouse"), "init"], env=full, capture_output=True, text=True)
    if init.returncode:
        raise SystemExit(f"init failed: {init.stderr[-2000:]}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    procs = [subprocess.Popen([str(BIN / "edgar-warehouse"), "load", "--batch-size", str(batch_size),
                               *map(str, FILES[i::workers])], env=full, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(workers)]
    for p in procs:
        _, err = p.communicate()
        if p.returncode:
            raise SystemExit(f"a worker failed ({p.returncode}): {err[-3000:]}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def outcome(env: dict[str, str]) -> dict:
    """What the lake holds after a run: documents, facts, conflicts, run statuses."""
    con = opener(env)()
    try:
        one = lambda sql: con.execute(sql).fetchone()[0]  # noqa: E731
        conflicts: int | str
        try:
            conflicts = int(one("SELECT coalesce(sum(conflicts), 0) FROM edgar_lake.run_batches"))
        except Exception:  # noqa: BLE001 - a lake written by code without the column
            conflicts = "n/a"
        return {"loaded": one("SELECT count(*) FROM source_documents WHERE status = 'loaded'"),
                "distinct_ids": one("SELECT count(DISTINCT source_document_id) = count(*) FROM source_documents"),
                "facts": one("SELECT count(*) FROM facts"),
                "statuses": sorted(r[0] for r in con.execute("SELECT status FROM load_runs").fetchall()),
                "conflicts": conflicts}
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--batch-size", type=int, default=1)
    ap.add_argument("--work", type=Path, default=Path("/tmp/bench-lake-writers"))
    args = ap.parse_args(argv)
    from compare_warehouses import VOLATILE, compare

    from scripts import pg_loopback

    counts = [int(n) for n in args.workers.split(",")]
    shutil.rmtree(args.work, ignore_errors=True)
    pg = Path(f"/tmp/blw-pg-{os.getpid()}")  # short: the Unix socket path must fit 107 bytes
    port = pg_loopback.free_port()
    pg_loopback.start(pg, port)
    reference: dict[str, str] | None = None
    ignore = VOLATILE + ("pid", "host", "row_counts", "source_document_id")
    print(f"{len(FILES)} companyfacts, --batch-size {args.batch_size}; {os.cpu_count()} cores on this machine"
          f" (load average {os.getloadavg()[0]:.1f} at the start)")
    print("workers  wall_s  docs/min  facts/s  cpu_s  conflicts  lost  equal_to_1_worker")
    try:
        for r in range(args.repeats):
            for n in counts:
                env = lake_env(pg, port, f"lake_{n}_{r}", args.work)
                wall, cpu = run_workers(env, n, args.batch_size)
                got = outcome(env)
                lost = len(FILES) - got["loaded"]
                if reference is None and n == 1:
                    reference, equal = env, "(reference)"
                elif reference is not None:
                    diffs = compare(opener(reference), opener(env), ignore)
                    equal = f"{sum(d.same for d in diffs)}/{len(diffs)}"
                else:
                    equal = "(no 1-worker reference)"
                ok = got["distinct_ids"] and set(got["statuses"]) == {"succeeded"}
                print(f"{n:7d}  {wall:6.1f}  {60 * len(FILES) / wall:8.2f}  {got['facts'] / wall:7.0f}  {cpu:5.1f}"
                      f"  {got['conflicts']!s:>9}  {lost:4d}  {equal}{'' if ok else '  RUNS: ' + str(got['statuses'])}",
                      flush=True)
    finally:
        pg_loopback.stop(pg)
        shutil.rmtree(pg, ignore_errors=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
