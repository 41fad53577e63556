"""Benchmark: companyfacts ingest of the 8 sample files beside edgartools, wall clock AND CPU.

Run with `make bench`, or `.venv/bin/python tests/bench/bench_companyfacts.py [--runs 3] [--workers 2]
[--keep DB] [--profile]`. In one run of this script it times, best of ``--runs`` each:

* ingest alone: parse (a process per core) + versions + fiscal calendar + DuckDB store + raw
  payloads, into a fresh warehouse (``ingest(..., derive=False)``);
* ingest + derived metrics + checks: what every ``load`` does (``derive=True``);
* edgartools' ``EntityFactsParser.parse_company_facts(json.loads(body)).to_dataframe()`` on the same
  bytes, in a separate venv (``make bench`` makes ``.venv-bench`` with the ``bench`` extra; edgartools
  brings pandas, which DuckDB and pyarrow import on first use when present: our figures are those of
  the project's own install, without it); without edgartools the ratios are not printed.

CPU is this process (all DuckDB threads) plus its reaped children (the parser processes), so a
figure that only spreads the same work over two cores shows up as a wall-clock gain and no CPU
gain. ``--keep DB`` keeps the last full warehouse (for ``bench_queries.py``); ``--profile`` runs one
more full ingest in one process under cProfile and prints where the time goes, by project function.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "edgar-samples" / "companyfacts"
SHARED_ALT = ROOT.parent.parent / "shared" / "edgar-samples" / "companyfacts"  # from a /work/wt/<name> worktree
VENDORED = ROOT / "tests" / "fixtures" / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"
GOAL_INGEST, GOAL_FULL = 10.0, 4.0  # issue 13: x edgartools on wall clock


def source_files() -> list[Path]:
    for folder in (SHARED, SHARED_ALT):
        files = sorted(folder.glob("CIK*.json"))
        if files:
            return files
    return sorted(VENDORED.glob("CIK*.json.gz"))


def read(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def cpu_now() -> float:
    """CPU seconds of this process (every thread) and of its children that have been reaped."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run_ours(bodies: list[tuple[str, bytes]], workers: int, derive: bool, keep: Path | None = None,
             profile: cProfile.Profile | None = None) -> tuple[float, float, int]:
    """(wall s, CPU s, facts) of one ingest of ``bodies`` into a fresh warehouse."""
    from pipelines.documents import Document
    from warehouse.load.ingest import ingest
    from warehouse.store.db import connect, fetch_value

    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        con = connect(tmp / "bench.duckdb")
        docs = [Document(uri=u, origin="file", body=b, kind="companyfacts") for u, b in bodies]
        t0, c0 = time.perf_counter(), cpu_now()
        if profile:
            profile.enable()
        report = ingest(con, docs, raw_dir=tmp / "bench.raw", command="bench", workers=workers, derive=derive)
        if profile:
            profile.disable()
        elapsed, cpu = time.perf_counter() - t0, cpu_now() - c0
        facts = fetch_value(con, "SELECT count(*) FROM facts")
        assert not report.rejected, report.rejected
        assert fetch_value(con, "SELECT count(*) FROM facts WHERE fiscal_year IS NULL") == 0
        con.close()
        if keep:
            shutil.copy(tmp / "bench.duckdb", keep)
        return elapsed, cpu, facts
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _edgartools_python() -> str | None:
    """The interpreter of the separate benchmark venv that holds edgartools (``make bench`` makes
    ``.venv-bench``; ``$EDGARTOOLS_PYTHON`` overrides). edgartools pulls in pandas, which DuckDB and
    pyarrow then import on first use (0.5-0.9 s per process): kept out of the project's venv, our
    figures are those of an install without pandas, as ours is."""
    given = os.environ.get("EDGARTOOLS_PYTHON")
    candidate = Path(given) if given else ROOT / ".venv-bench" / "bin" / "python"
    return str(candidate) if candidate.exists() else None


def edgartools_inprocess(paths: list[str]) -> tuple[float, float, int] | None:
    """(wall s, CPU s, DataFrame rows) of edgartools parsing the files, in this process (None: not
    importable here). Reading and decompressing the files is not timed."""
    try:
        from edgar.entity.parser import EntityFactsParser
    except ImportError:
        return None
    bodies = [read(Path(p)) for p in paths]
    t0, c0 = time.perf_counter(), cpu_now()
    rows = 0
    for body in bodies:
        facts = EntityFactsParser.parse_company_facts(json.loads(body))
        rows += len(facts.to_dataframe())
    return time.perf_counter() - t0, cpu_now() - c0, rows


def run_edgartools(paths: list[str]) -> tuple[float, float, int] | None:
    """edgartools on the same files: in this process when importable, else in the benchmark venv
    (a subprocess that times itself the same way); None when neither has it."""
    here = edgartools_inprocess(paths)
    if here is not None:
        return here
    python = _edgartools_python()
    if python is None:
        return None
    out = subprocess.run([python, __file__, "--edgartools-only", *paths], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"edgartools in {python} failed: {out.stderr.strip()[-500:]}", file=sys.stderr)
        return None
    wall, cpu, rows = json.loads(out.stdout.strip().splitlines()[-1])
    return wall, cpu, rows


def best(runs: list[tuple[float, float, int]]) -> tuple[float, float]:
    """Best wall and best CPU over the runs (each its own minimum: both are lower bounds)."""
    return min(r[0] for r in runs), min(r[1] for r in runs)


def print_profile(prof: cProfile.Profile, limit: int = 25) -> None:
    """Project functions by cumulative time (DuckDB statements show up inside their callers)."""
    stats = pstats.Stats(prof)
    rows = []
    for (file, line, fn), (_, ncalls, _, cum, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "/warehouse/" in file or "/pipelines/" in file:
            rows.append((cum, ncalls, f"{Path(file).parent.name}/{Path(file).name}:{line}({fn})"))
    total = max((c for c, _, _ in rows), default=0.0)
    print(f"where a full ingest's time goes (one process, cProfile; cumulative, {total:.2f} s in all):")
    for cum, ncalls, name in sorted(rows, reverse=True)[:limit]:
        print(f"  {cum:7.3f} s {ncalls:7d} calls  {name}")


@contextmanager
def timed_sql_steps(clock: Callable[[], float] = time.perf_counter) -> Iterator[dict[str, float]]:
    """Seconds of ``clock`` (wall by default) per SQL step while the block runs: every declared step
    (``warehouse.derive.steps.run_step``, also as warehouse.derive.batch binds it) by its name, and every stored
    table's statements (``warehouse.schema.stored_tables``) as ``stored/<table>``."""
    import warehouse.derive.batch as derive_mod
    import warehouse.derive.steps as steps_mod
    import warehouse.schema.stored_tables as stored_mod

    took: dict[str, float] = {}
    run_step, run_stored = steps_mod.run_step, stored_mod._run

    def add(name: str, since: float) -> None:
        took[name] = took.get(name, 0.0) + clock() - since

    def timed_step(con, step, params):
        t0 = clock()
        try:
            return run_step(con, step, params)
        finally:
            add(step.name, t0)

    def timed_stored(con, name, statements, ciks):
        t0 = clock()
        try:
            return run_stored(con, name, statements, ciks)
        finally:
            add(f"stored/{name}", t0)

    steps_mod.run_step = derive_mod.run_step = timed_step
    stored_mod._run = timed_stored
    try:
        yield took
    finally:
        steps_mod.run_step = derive_mod.run_step = run_step
        stored_mod._run = run_stored


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2, help="parser processes (the machine has 2 cores)")
    ap.add_argument("--keep", type=Path, help="copy the last full (derived) warehouse here")
    ap.add_argument("--profile", action="store_true", help="also profile one full ingest in one process")
    ap.add_argument("--edgartools-only", nargs="+", metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.edgartools_only:  # the side run in the benchmark venv: print (wall, CPU, rows)
        print(json.dumps(edgartools_inprocess(args.edgartools_only)))
        return 0
    files = source_files()
    if not files:
        print("no companyfacts files found", file=sys.stderr)
        return 1
    bodies = [(str(f), read(f)) for f in files]
    size = sum(len(b) for _, b in bodies)
    print(f"{len(files)} companyfacts files, {size / 1e6:.1f} MB, from {files[0].parent}; "
          f"{os.cpu_count()} cores; best of {args.runs} runs, wall and CPU each")

    ours = [run_ours(bodies, args.workers, derive=False) for _ in range(args.runs)]
    facts = ours[0][2]
    w, c = best(ours)
    print(f"  ingest alone                    {w:6.3f} s wall {c:6.3f} s CPU  {facts / w:>9,.0f} facts/s "
          f"(median wall {statistics.median(r[0] for r in ours):.3f} s)")
    full = [run_ours(bodies, args.workers, derive=True, keep=args.keep if i == args.runs - 1 else None)
            for i in range(args.runs)]
    fw, fc = best(full)
    print(f"  ingest + derived metrics+checks {fw:6.3f} s wall {fc:6.3f} s CPU  {facts / fw:>9,.0f} facts/s "
          f"(median wall {statistics.median(r[0] for r in full):.3f} s)")
    et = [run_edgartools([str(f) for f in files]) for _ in range(args.runs)]
    if et[0] is None:
        print("edgartools not installed (`make bench` puts it in .venv-bench, or set EDGARTOOLS_PYTHON): no ratio")
    else:
        ew, ec = best(et)  # type: ignore[arg-type]
        print(f"  edgartools parse + DataFrame    {ew:6.3f} s wall {ec:6.3f} s CPU  {et[0][2] / ew:>9,.0f} rows/s")
        print(f"ratio (edgartools / ours): ingest alone {ew / w:.1f}x wall, {ec / c:.1f}x CPU "
              f"(goal >= {GOAL_INGEST:.0f}x wall: {'met' if ew / w >= GOAL_INGEST else 'MISSED'}); "
              f"with metrics+checks {ew / fw:.1f}x wall, {ec / fc:.1f}x CPU "
              f"(goal >= {GOAL_FULL:.0f}x wall: {'met' if ew / fw >= GOAL_FULL else 'MISSED'})")
    if args.keep:
        print(f"kept the full warehouse: {args.keep}")
    if args.profile:
        prof = cProfile.Profile()
        with timed_sql_steps() as steps:
            run_ours(bodies, 1, derive=True, profile=prof)
        print_profile(prof)
        if steps:
            print("slowest SQL steps (warehouse/sql/**, wall):")
            for name, secs in sorted(steps.items(), key=lambda kv: -kv[1])[:12]:
                print(f"  {secs:7.3f} s  {name}.sql")
    return 0


if __name__ == "__main__":
    sys.exit(main())
