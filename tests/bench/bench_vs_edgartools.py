"""Benchmark (`make bench`): whole processes side by side with edgartools, then a universe-shaped bootstrap.

Run: `.venv/bin/python tests/bench/bench_vs_edgartools.py [--runs 3] [--universe-members 400]
[--work .bench]`. It prints figures; it is not a test. What a user meets from the shell, each a
fresh process timed from its start to its exit (wall, and CPU of the process and its children):

* **ingest alone**: the CLI's `load` path (`warehouse.load.ingest.ingest`, the same writer, publish and
  exit) of the 8 byte-exact companyfacts files into a new warehouse file, without the derived
  metrics and checks (`--child-ingest`: `load` has no such option, so this script runs it);
* **load**: `edgar-warehouse --db NEW load FOLDER`, metrics and checks included (a new file: the
  schema is created, as a user's first load does);
* **init**: `edgar-warehouse --db NEW init`, what the load into a new file pays for the schema
  before any document (shown beside, not compared);
* **edgartools** 5.62.1 (the `bench` extra, in `.venv-bench`: it brings pandas, which DuckDB and
  pyarrow would import when present): `python -c` reading the same files and
  `EntityFactsParser.parse_company_facts(json.loads(body)).to_dataframe()` for each.

The three alternate (rotated order in each round), ``--runs`` rounds; the medians of wall and CPU
are compared (ratio = edgartools / ours). The files are the plain JSON (the shared samples, else
the vendored .gz), written once into a folder of their own under ``--work``: the same bytes for both.

Then a universe-shaped bootstrap (`edgar-warehouse bootstrap --companyfacts-zip DIR --batch-size
100` of ``--universe-members`` trimmed remapped members of ~5,300 facts each, `make_universe.py`;
19,000 is the ~100M-fact universe, behind `make bench BENCH_UNIVERSE=19000`): facts/s wall and
CPU, and peak RSS of the largest process and of the process tree (bench_scale.py's measurement).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))
CLI = str(Path(sys.executable).parent / "edgar-warehouse")
GOAL_INGEST, GOAL_LOAD = 4.0, 2.0  # issue 26: x edgartools, wall, whole process against whole process
FACTS_1X = 157_335

EDGARTOOLS = """\
import json, sys
from pathlib import Path
from edgar.entity.parser import EntityFactsParser
rows = 0
for path in sorted(Path(sys.argv[1]).glob("CIK*.json")):
    rows += len(EntityFactsParser.parse_company_facts(json.loads(path.read_bytes())).to_dataframe())
print(rows)
"""


def child_ingest(db: Path, folder: Path) -> None:
    """The CLI's `load FOLDER` without derive: same writer (build copy, publish), same exit."""
    from flows.bootstrap import items
    from flows.prefect_setup import apply_prefect_defaults
    from warehouse.load.ingest import ingest
    from warehouse.store.db import raw_dir_for, writer

    apply_prefect_defaults()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    with writer(db, command="load") as con:
        report = ingest(con, items([folder]), raw_dir=raw_dir_for(db), command="load", batch_size=0,
                        derive=False)
    print(report.summary())
    sys.stdout.flush()
    os._exit(0)  # as the CLI ends (flows.cli._exit_without_teardown): no interpreter teardown


def input_folder(work: Path) -> Path:
    """A folder holding only the 8 companyfacts files, as plain JSON (`load FOLDER` walks it whole:
    the shared samples' folder also holds other versions), written once under ``work``."""
    from bench_companyfacts import read, source_files

    files = source_files()
    folder = work / "companyfacts-1x"
    names = {f.name.removesuffix(".gz") for f in files}
    if {p.name for p in folder.glob("*")} != names:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for f in files:
            (folder / f.name.removesuffix(".gz")).write_bytes(read(f))
    return folder


class Contender:
    """One way to read the 8 files, run as a fresh process per round."""

    def __init__(self, name: str, make_cmd: Callable[[Path], list[str]], check: Callable[[str], None],
                 rate: bool = True):
        self.name, self.make_cmd, self.check, self.rate = name, make_cmd, check, rate
        self.walls: list[float] = []
        self.cpus: list[float] = []

    def run(self, work: Path, round_no: int) -> None:
        db = work / f"{self.name.split()[0]}-{round_no}.duckdb"
        for p in work.glob(db.name + "*"):
            p.unlink()
        shutil.rmtree(db.with_suffix(".raw"), ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(self.make_cmd(db), capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"{self.name} failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
        self.check(proc.stdout.strip().splitlines()[-1])
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        self.walls.append(wall)
        self.cpus.append(cpu)
        print(f"    round {round_no + 1}: {self.name}: {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"(load average {os.getloadavg()[0]:.1f})")
        for p in work.glob(db.name + "*"):
            p.unlink()
        shutil.rmtree(db.with_suffix(".raw"), ignore_errors=True)

    def line(self) -> str:
        w, c = statistics.median(self.walls), statistics.median(self.cpus)
        runs = " ".join(f"{x:.2f}" for x in self.walls)
        rate = f"{FACTS_1X / w:>8,.0f} facts/s" if self.rate else " " * 16
        return (f"  {self.name:<38} median {w:6.2f} s wall {c:6.2f} s CPU  {rate}"
                f"  (walls: {runs})")


def facts_loaded(line: str) -> None:
    if f"facts={FACTS_1X}" not in line:
        raise SystemExit(f"expected facts={FACTS_1X} in the load's summary, got: {line}")


def edgartools_rows(line: str) -> None:
    if not line.isdigit() or int(line) < FACTS_1X:
        raise SystemExit(f"edgartools gave {line!r} DataFrame rows, expected >= {FACTS_1X}")


def edgartools_python() -> str | None:
    given = os.environ.get("EDGARTOOLS_PYTHON")
    candidate = Path(given) if given else ROOT / ".venv-bench" / "bin" / "python"
    if not candidate.exists():
        return None
    ok = subprocess.run([str(candidate), "-c", "import edgar.entity.parser"], capture_output=True)
    return str(candidate) if ok.returncode == 0 else None


def side_by_side(work: Path, runs: int) -> None:
    folder = input_folder(work)
    et = edgartools_python()
    contenders = [
        Contender("ingest alone (load, no derive)",
                  lambda db: [sys.executable, __file__, "--child-ingest", str(db), str(folder)], facts_loaded),
        Contender("load (metrics + checks)", lambda db: [CLI, "--db", str(db), "load", str(folder)], facts_loaded),
    ]
    if et:
        contenders.append(Contender("edgartools parse + DataFrame", lambda db: [et, "-c", EDGARTOOLS, str(folder)],
                                    edgartools_rows))
    # what `load` into a new file pays before any document: the schema (shown, not a contender)
    contenders.append(Contender("of which: a new file's schema (init)", lambda db: [CLI, "--db", str(db), "init"],
                                lambda line: None, rate=False))
    size = sum(p.stat().st_size for p in folder.glob("CIK*.json"))
    print(f"side by side, whole processes: 8 companyfacts files ({size / 1e6:.1f} MB, {FACTS_1X:,} facts) from "
          f"{folder}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"{runs} rounds, order rotated each round")
    for r in range(runs):
        for k in range(len(contenders)):
            contenders[(r + k) % len(contenders)].run(work, r)
    for c in contenders:
        print(c.line())
    print(f"  load average {os.getloadavg()[0]:.1f} at the end (2 cores: above 2, wall is inflated by other work)")
    if not et:
        print("  edgartools not installed (`make bench` puts it in .venv-bench, or set EDGARTOOLS_PYTHON): no ratio")
        return
    ew, ec = statistics.median(contenders[2].walls), statistics.median(contenders[2].cpus)  # edgartools
    for c, goal in zip(contenders[:2], (GOAL_INGEST, GOAL_LOAD), strict=True):
        w, cpu = statistics.median(c.walls), statistics.median(c.cpus)
        print(f"  edgartools / {c.name}: {ew / w:.2f}x wall, {ec / cpu:.2f}x CPU "
              f"(goal >= {goal:.0f}x wall: {'met' if ew / w >= goal else 'MISSED'})")


def universe(work: Path, members: int, batch_size: int) -> None:
    """A universe-shaped bootstrap of ``members`` trimmed members: facts/s and peak RSS."""
    import bench_scale

    folder = work / f"input-universe-{members}"
    done = work / f".{folder.name}.complete"
    if not done.exists():
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, str(BENCH / "make_universe.py"), str(folder), "--folder",
                        "--members", str(members), "--facts-per-member", "5300"], check=True)
        done.touch()
    db = work / f"wh-universe-{members}.duckdb"
    for p in work.glob(db.name + "*"):
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    shutil.rmtree(db.with_suffix(".raw"), ignore_errors=True)
    print(f"universe-shaped bootstrap: {members:,} members of ~5,300 facts, --batch-size {batch_size}, "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    r = bench_scale.run_cli(["--db", str(db), "bootstrap", "--companyfacts-zip", str(folder),
                             "--batch-size", str(batch_size)])
    if r["rc"] != 0:
        raise SystemExit(f"bootstrap exit {r['rc']}: " + "\n".join(r["tail"]))
    facts = sum(b[2] for b in r["batches"])
    print(f"  {facts:,} facts in {len(r['batches'])} batches: {r['wall']:.1f} s wall = {facts / r['wall']:,.0f} facts/s, "
          f"{r['cpu']:.1f} s CPU = {facts / r['cpu']:,.0f} facts/CPU-s; peak RSS {r['max_rss_mb']:,.0f} MB largest "
          f"process, {r['tree_rss_mb']:,.0f} MB process tree; load average {os.getloadavg()[0]:.1f} at the end")
    if members < 19_000:
        scale = 19_000 / members
        print(f"  the ~100M-fact universe at this rate: ~{scale * r['wall'] / 60:,.0f} min wall, "
              f"~{scale * r['cpu'] / 60:,.0f} min of CPU (goal <= 15 min wall; one writer thread: CPU bounds "
              f"wall; run it: make bench BENCH_UNIVERSE=19000)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="rounds of the side by side (median of them)")
    ap.add_argument("--work", type=Path, default=ROOT / ".bench", help="inputs and warehouses")
    ap.add_argument("--universe-members", type=int, default=400, help="universe-shaped bootstrap (0: none; "
                    "19000 ~ the 100M-fact universe)")
    ap.add_argument("--batch-size", type=int, default=100, help="bootstrap --batch-size")
    ap.add_argument("--child-ingest", nargs=2, type=Path, metavar=("DB", "FOLDER"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_ingest:
        child_ingest(*args.child_ingest)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    args.work.mkdir(parents=True, exist_ok=True)
    side_by_side(args.work, args.runs)
    if args.universe_members:
        universe(args.work, args.universe_members, args.batch_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
