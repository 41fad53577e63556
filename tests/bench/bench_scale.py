"""Benchmark: bulk load at 1x, 10x, 100x (and the universe) with the project's CLI; then incremental loads.

Run: `.venv/bin/python tests/bench/bench_scale.py [--scales 1,10] [--universe] [--batch-size N]
[--work /tmp/bench-scale] [--incremental [--repeats 3] [--incremental-dir DIR]] [--reuse] [--queries N]
[--backend ducklake]`. Prints figures; it is
not a test. ``--backend ducklake`` runs the same loads into DuckLake (catalog in a PostgreSQL it
starts on loopback, Parquet under ``--work``), where a write commits in place instead of copying the
published DuckDB file.

For each scale K it builds (once, cached under ``--work``) K CIK-remapped copies of the 8 sample
companyfacts files with ``make_universe.py --copies K --folder`` (``--universe``: 19,000 trimmed
members of ~5,300 facts, ~100M facts), then loads them into a fresh warehouse in one CLI run,
committing every ``--batch-size`` documents (``edgar-warehouse bootstrap --companyfacts-zip DIR
--batch-size N``, or ``--command load`` for ``load --batch-size N DIR``), and prints:

* facts/s of every batch, wall and CPU (time between the CLI's per-batch lines, and the CPU of its
  process tree meanwhile, steadier on a shared box; the first batch also pays the process start and
  the migrations) and the last/first batch cost ratio per fact (goal <= 1.5);
* wall time and facts/s of the whole load; peak RSS of the largest process (ru_maxrss) and of the
  whole process tree (sampled every 0.2 s from /proc), goal < 2 GB.

``--incremental`` then, on the biggest warehouse: loads one changed company (a sample with one new
10-Q accession and one restated value; goal < 2 s wall) and reloads unchanged documents (goal < 0.1 s
per document), each a fresh CLI process, beside the cost of a CLI process that only opens the
warehouse (``init``); the changed company is loaded right after the bootstrap and, ``--repeats`` times,
into the settled warehouse, as is a restated company (a 10-K/A: its derived metrics written again).
Each of those loads goes into a fresh copy of the warehouse under ``--incremental-dir`` (a folder on
XFS measures the reflink copy). ``--reuse`` skips the bulk load when the warehouse exists. ``--queries N`` runs ``bench_queries.py`` on the biggest warehouse with N
synthetic filings added to a copy.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench"
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent
CLI = str(BIN / "edgar-warehouse")
FACTS = re.compile(r"\bfacts=(\d+)")
BATCH_LINE = re.compile(r"\d+ loaded, \d+ unchanged")
# goals of issue 13
GOAL_RATIO, GOAL_RSS_MB, GOAL_CHANGED_S, GOAL_UNCHANGED_S = 1.5, 2048, 2.0, 0.1


def build(work: Path, scale: str) -> Path:
    """The folder of CIK*.json members for ``scale`` ('1', '10', ... or 'universe'), built once."""
    folder = work / f"input-{scale}x" if scale != "universe" else work / "input-universe"
    done = work / f".{folder.name}.complete"  # beside the folder: `load DIR` would read it
    if done.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    args = ["--members", "19000", "--facts-per-member", "5300"] if scale == "universe" else ["--copies", scale]
    subprocess.run([sys.executable, str(BENCH / "make_universe.py"), str(folder), "--folder", *args], check=True)
    done.touch()
    return folder


def tree_stats(root: int) -> tuple[float, float]:
    """(resident MB, CPU seconds) of ``root`` and all its live descendants, from /proc. CPU counts
    each process's own time and that of its children it has reaped (a finished parser process);
    resident memory counts shared pages once per process."""
    children: dict[int, list[int]] = {}
    stat: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()  # fields[0] is the state (field 3)
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)  # ppid
        stat[pid] = (int(fields[21]), sum(int(f) for f in fields[11:15]))  # rss pages; u+s+cu+cs ticks
    pages = ticks = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        rss, cpu = stat.get(pid, (0, 0))
        pages, ticks = pages + rss, ticks + cpu
        todo.extend(children.get(pid, []))
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20, ticks / os.sysconf("SC_CLK_TCK")


WRAPPER = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
           "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
           "print(f'MAXRSS_KB {u.ru_maxrss} CPU_S {u.ru_utime + u.ru_stime}', file=sys.stderr); "
           "sys.exit(r.returncode)")


def run_cli(args: list[str], *, echo: bool = False, on_batch=None) -> dict:
    """Run the CLI; return wall seconds, the per-batch (wall s since start, CPU s since start, facts, peak
    process-tree RSS MB since the previous line) lines, exit code, peak RSS of its largest process and of
    its whole process tree (MB). ``on_batch(wall_at, cpu_at, facts, tree_rss)`` is called as each batch
    line arrives."""
    cmd = [sys.executable, "-c", WRAPPER, CLI, *args]
    t0 = time.perf_counter()
    # per-batch lines come on stderr (err.print), the run's final summary on stdout: kept apart
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    peak = [0.0, 0.0]  # the whole run's, and since the last batch line
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.2):
            rss = tree_stats(proc.pid)[0]
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], rss)

    stdout: list[str] = []
    threads = [threading.Thread(target=sample, daemon=True),
               threading.Thread(target=lambda: stdout.extend(proc.stdout or []), daemon=True)]
    for t in threads:
        t.start()
    batches: list[tuple[float, float, int, float]] = []
    maxrss_kb, cpu_s, tail = 0, 0.0, []
    assert proc.stderr is not None
    for line in proc.stderr:
        now = time.perf_counter() - t0
        if line.startswith("MAXRSS_KB "):
            maxrss_kb, cpu_s = int(line.split()[1]), float(line.split()[3])
            continue
        tail = (tail + [line.rstrip()])[-5:]
        if echo:
            print("    | " + line.rstrip())
        if BATCH_LINE.search(line):
            m = FACTS.search(line)
            rss, cpu = tree_stats(proc.pid)
            batches.append((now, cpu, int(m.group(1)) if m else 0, max(peak[1], rss)))
            peak[1] = 0.0
            if on_batch:
                on_batch(*batches[-1])
    rc = proc.wait()
    stop.set()
    for t in threads:
        t.join()
    tail = (tail + [line.rstrip() for line in stdout])[-5:]
    return {"wall": time.perf_counter() - t0, "cpu": cpu_s, "batches": batches, "rc": rc, "tail": tail,
            "max_rss_mb": maxrss_kb / 1024, "tree_rss_mb": peak[0]}


def wal_of_build(db: Path) -> Path:
    """The write-ahead log of the build copy the CLI loads into (warehouse.store.publish: <db>.build.wal)."""
    from warehouse.store.publish import build_path_for, wal_of

    return wal_of(build_path_for(db))


def load_args(db: Path, folder: Path, batch_size: int, command: str) -> list[str]:
    if command == "bootstrap":
        return ["--db", str(db), "bootstrap", "--companyfacts-zip", str(folder), "--batch-size", str(batch_size)]
    return ["--db", str(db), "load", "--batch-size", str(batch_size), str(folder)]


LAKE: dict[str, object] = {}  # --backend ducklake: the loopback PostgreSQL (folder, port)


def use_lake(work: Path, scale: str) -> None:
    """Point the CLI processes (they inherit this environment) at a fresh DuckLake for ``scale``: a
    catalog database on the loopback PostgreSQL (started once) and a Parquet folder under ``work``."""
    from scripts import pg_loopback
    from warehouse.store import lake

    if not LAKE:
        folder = work / "pg"
        port = pg_loopback.free_port()
        pg_loopback.start(folder, port)
        LAKE.update(folder=folder, port=port)
    data = work / f"lake-{scale}x"
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(data.with_name(data.name + ".raw"), ignore_errors=True)
    os.environ[lake.BACKEND_ENV] = "ducklake"
    os.environ[lake.CATALOG_ENV] = pg_loopback.createdb(LAKE["folder"], LAKE["port"], f"wh_{scale}")
    os.environ[lake.DATA_ENV] = str(data)


def storage_size(db: Path) -> str:
    """What the warehouse occupies on disk: the DuckDB file, or the lake's Parquet folder."""
    from warehouse.store import lake

    if os.environ.get(lake.BACKEND_ENV) == "ducklake":
        data = Path(os.environ[lake.DATA_ENV])
        size = sum(p.stat().st_size for p in data.rglob("*") if p.is_file())
        return f"lake data {size / 2**30:.2f} GB in {data} (catalog in PostgreSQL)"
    return f"DuckDB file {db.stat().st_size / 2**30:.2f} GB" if db.exists() else "no file"


def bulk(work: Path, scale: str, batch_size: int, command: str, echo: bool, backend: str = "duckdb") -> Path:
    folder = build(work, scale)
    members = len(list(folder.glob("CIK*.json")))
    batch_size = batch_size or max(8, -(-members // 10))
    db = work / f"wh-{scale}x.duckdb"
    for p in work.glob(f"wh-{scale}x.*"):
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    if backend == "ducklake":
        use_lake(work, scale)
    print(f"{scale}x: {members} companyfacts members from {folder}, --batch-size {batch_size} ({command})")
    prev = [0.0, 0.0, 0]
    costs: list[tuple[float, float]] = []
    wal, checkpoints = wal_of_build(db), [0]

    def batch_line(at: float, cpu_at: float, f: int, tree_rss: float) -> None:
        secs, cpu = at - prev[0], cpu_at - prev[1]
        size = wal.stat().st_size if wal.exists() else 0
        # the WAL only shrinks when a checkpoint folds it into the file (automatic, past the threshold);
        # every batch writes to it, so none left after a commit means that commit checkpointed too
        ckpt = backend == "duckdb" and (size < prev[2] or size == 0)
        checkpoints[0] += ckpt
        prev[:] = [at, cpu_at, size]
        costs.append((secs / f, cpu / f) if f else (float("nan"), float("nan")))
        print(f"  batch {len(costs):3d}: {f:>10,} facts in {secs:7.2f} s wall = {f / secs if secs else 0:>9,.0f} "
              f"facts/s; {cpu:7.2f} s CPU = {f / cpu if cpu else 0:>9,.0f} facts/CPU-s; tree RSS <= {tree_rss:,.0f} MB;"
              f" WAL {size / 2**20:,.0f} MB{' CHECKPOINT' if ckpt else ''}")

    r = run_cli(load_args(db, folder, batch_size, command), echo=echo, on_batch=batch_line)
    if r["rc"] not in (0,):
        print(f"  CLI exit code {r['rc']}; last lines:\n    " + "\n    ".join(r["tail"]))
    facts = sum(b[2] for b in r["batches"])
    if len(costs) >= 2:
        (fw, fc), (sw, sc), (lw, lc) = costs[0], costs[1], costs[-1]
        print(f"  per-fact cost, last batch / first: {lw / fw:.2f} wall, {lc / fc:.2f} CPU (goal <= {GOAL_RATIO}; "
              f"the first batch also pays the process start and migrations); last / second: {lw / sw:.2f} wall, "
              f"{lc / sc:.2f} CPU")
    print(f"  {scale}x total: {facts:,} facts in {r['wall']:.1f} s wall = {facts / r['wall']:,.0f} facts/s, "
          f"{r['cpu']:.1f} s CPU; {checkpoints[0]} checkpoints between batch lines (WAL shrank); "
          f"peak RSS {r['max_rss_mb']:,.0f} MB largest process, {r['tree_rss_mb']:,.0f} MB process tree "
          f"(goal < {GOAL_RSS_MB} MB); {storage_size(db)}")
    return db


def changed_company(src: Path, out: Path) -> Path:
    """``src`` as SEC would publish it after one more 10-Q: a new accession with one new fact and one
    restated value (same concept, unit and period as an existing fact, another number). Made once:
    an existing ``out`` is kept (``out``'s folder may be a prebuilt, read-only input)."""
    if out.exists():
        return out
    data = json.loads(src.read_bytes())
    cik = int(data["cik"])
    accn = f"{cik:010d}-26-{999001:06d}"
    for concepts in data["facts"].values():
        for concept in concepts.values():
            for rows in concept.get("units", {}).values():
                ints = [r for r in rows if isinstance(r.get("val"), int)]
                if len(ints) < 2:
                    continue
                old = ints[-1]
                rows.append({**old, "val": old["val"] + 1, "accn": accn, "form": "10-Q", "filed": "2026-11-28",
                             "frame": None})
                rows.append({**old, "end": "2026-09-30", **({"start": "2026-07-01"} if "start" in old else {}),
                             "val": old["val"] + 2, "accn": accn, "form": "10-Q", "filed": "2026-11-28",
                             "fy": 2026, "fp": "Q3", "frame": None})
                for r in rows[-2:]:
                    if r["frame"] is None:
                        del r["frame"]
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(json.dumps(data, separators=(",", ":")).encode())
                return out
    raise SystemExit(f"{src}: no integer fact to change")


RESTATED = ("Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet", "NetIncomeLoss")


def restated_company(src: Path, out: Path) -> Path:
    """``src`` after a 10-K/A restating the latest annual revenue and net income (+1,000 USD each, a
    new accession): unlike ``changed_company`` (a dei share count), the derived metrics that read them
    are computed again, so derived_metrics and metric_lineage are written. Made once, like it."""
    if out.exists():
        return out
    data = json.loads(src.read_bytes())
    accn = f"{int(data['cik']):010d}-26-{999002:06d}"
    gaap = data["facts"].get("us-gaap", {})
    restated = 0
    for name in RESTATED:
        rows = gaap.get(name, {}).get("units", {}).get("USD", [])
        annual = [r for r in rows if r.get("fp") == "FY" and r.get("form") == "10-K" and isinstance(r.get("val"), int)]
        if annual:
            old = annual[-1]
            rows.append({**{k: v for k, v in old.items() if k != "frame"}, "val": old["val"] + 1000, "accn": accn,
                         "form": "10-K/A", "filed": "2026-11-28"})
            restated += 1
    if not restated:
        raise SystemExit(f"{src}: none of {', '.join(RESTATED)} to restate")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(json.dumps(data, separators=(",", ":")).encode())
    return out


def fs_type(path: Path) -> str:
    """The filesystem holding ``path`` (from /proc/mounts: the longest mount point above it)."""
    best, kind = "", "?"
    target = str(path.resolve())
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return kind
    for line in mounts:
        fields = line.split()
        if len(fields) > 2 and (target == fields[1] or target.startswith(fields[1].rstrip("/") + "/")) \
                and len(fields[1]) > len(best):
            best, kind = fields[1], fields[2]
    return kind


def warehouse_copy(db: Path, dest: Path) -> Path:
    """A copy of the warehouse file ``db`` at ``dest`` (reflink when the filesystem can), with its raw
    store hard-linked file by file (content-addressed, never rewritten): each incremental run starts
    from the same state."""
    from warehouse.store.db import raw_dir_for
    from warehouse.store.publish import copy_file, discard_build

    dest.parent.mkdir(parents=True, exist_ok=True)
    discard_build(dest)
    for p in (dest, dest.with_name(dest.name + ".wal")):
        p.unlink(missing_ok=True)
    shutil.rmtree(raw_dir_for(dest), ignore_errors=True)
    copy_file(db, dest)
    if raw_dir_for(db).exists():
        try:
            shutil.copytree(raw_dir_for(db), raw_dir_for(dest), copy_function=os.link)
        except (OSError, shutil.Error):  # another filesystem: no hard links across
            shutil.rmtree(raw_dir_for(dest), ignore_errors=True)
            shutil.copytree(raw_dir_for(db), raw_dir_for(dest))
    return dest


def timed_runs(db: Path, dest: Path, doc: Path, repeats: int) -> list[dict]:
    """``load doc`` in a fresh CLI process, ``repeats`` times, each into a fresh copy of ``db``."""
    runs = []
    for _ in range(repeats):
        warehouse_copy(db, dest)
        runs.append(run_cli(["--db", str(dest), "load", str(doc)]))
    return runs


def figures(runs: list[dict]) -> str:
    cpu = sorted(r["cpu"] for r in runs)
    wall = sorted(r["wall"] for r in runs)
    if len(runs) == 1:
        return f"{wall[0]:.2f} s wall, {cpu[0]:.2f} s CPU"
    return (f"{wall[0]:.2f}/{wall[len(wall) // 2]:.2f} s wall, {cpu[0]:.2f}/{cpu[len(cpu) // 2]:.2f} s CPU "
            f"(min/median of {len(runs)})")


def incremental(work: Path, db: Path, folder: Path, reload_docs: int, *, repeats: int = 3,
                where: Path | None = None) -> None:
    """One changed company and an unchanged reload into the warehouse ``db`` (see the module docstring).

    Each changed-company run loads into a fresh copy of the warehouse under ``where`` (default:
    ``work``; e.g. a folder on XFS to measure the reflink copy), so runs start from the same state. The
    first is made right after the bootstrap: its write also pays DuckDB's deferred merge of the
    bootstrap's partly filled row groups (once per warehouse, at the first CHECKPOINT that writes
    anything; measured alone by an unchanged one-document load, which settles the warehouse). Then the
    unchanged reload, and the changed company loaded again ``repeats`` times (min/median): the figure of
    a warehouse in use; and a restated company, whose derived metrics are written again."""
    where = where or work
    lake = os.environ.get("EDGAR_WAREHOUSE_BACKEND") == "ducklake"
    print(f"incremental, on {db.name} ({storage_size(db)}; copies under {where}, a {fs_type(where)} filesystem: the "
          f"DuckDB file backend copies the published file to a private build per write (reflink on XFS/btrfs, "
          f"else a real copy: bench_publish.py) and renames it back)")
    base = run_cli(["--db", str(db), "init"])
    print(f"  a CLI process that only opens the warehouse (init): {base['wall']:.2f} s wall, {base['cpu']:.2f} s CPU")
    members = sorted(folder.glob("CIK*.json"))
    changed = changed_company(members[0], work / "changed" / members[0].name)
    restated = restated_company(members[0], work / "restated" / members[0].name)
    copy = where / f"{db.stem}-incremental.duckdb"
    goal = f"(goal < {GOAL_CHANGED_S} s wall)"
    if lake:  # the lake cannot be copied: each load goes into it (a second load of a document is unchanged)
        r = run_cli(["--db", str(db), "load", str(changed)])
        print(f"  one changed company ({changed.name}: 1 new accession, 1 new fact, 1 restated value): "
              f"{figures([r])} {goal}; exit {r['rc']}; {r['tail'][-1] if r['tail'] else ''}")
    else:
        r = timed_runs(db, copy, changed, 1)[0]
        print(f"  one changed company ({changed.name}: 1 new accession, 1 new fact, 1 restated value), first write "
              f"after the bootstrap: {figures([r])} {goal}; exit {r['rc']}; {r['tail'][-1] if r['tail'] else ''}")
    if not lake:  # the first write into the warehouse itself: one document, already loaded
        r = run_cli(["--db", str(db), "load", str(members[1])])
        print(f"  its first write after the bootstrap, an unchanged document (a load_runs row; DuckDB merges the"
              f" bootstrap's partly filled row groups): {figures([r])}; exit {r['rc']}")
    docs = [str(p) for p in members[1:reload_docs + 1]]
    r = run_cli(["--db", str(db), "load", *docs])
    print(f"  unchanged reload of {len(docs)} documents: {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU = "
          f"{r['wall'] / len(docs):.3f} s wall per document; beyond the bare process start "
          f"{(r['wall'] - base['wall']) / len(docs):.3f} s wall, {(r['cpu'] - base['cpu']) / len(docs):.3f} s CPU "
          f"per document (goal < {GOAL_UNCHANGED_S} s); exit {r['rc']}")
    if lake:
        return
    for label, doc in (("one changed company (a dei value; no metric moves)", changed),
                       ("one restated company (a 10-K/A: revenue and net income; its metrics computed again)",
                        restated)):
        runs = timed_runs(db, copy, doc, repeats)
        print(f"  {label}, warehouse in use: {figures(runs)} {goal}; exit {runs[-1]['rc']}; "
              f"{runs[-1]['tail'][-1] if runs[-1]['tail'] else ''}")
    warehouse_copy(db, copy)  # leave the copy as the warehouse is (no half-made build beside it)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", default="1,10", help="comma-separated copies of the 8 samples (default 1,10)")
    ap.add_argument("--universe", action="store_true", help="also the ~100M-fact universe (19,000 members)")
    ap.add_argument("--batch-size", type=int, default=0,
                    help="documents per commit (default: a tenth of the members, at least 8)")
    ap.add_argument("--command", choices=["bootstrap", "load"], default="bootstrap",
                    help="bootstrap --companyfacts-zip DIR (default) or load DIR")
    ap.add_argument("--work", type=Path, default=Path("/tmp/bench-scale"), help="inputs and warehouses")
    ap.add_argument("--incremental", action="store_true", help="then the incremental loads on the biggest")
    ap.add_argument("--reload-docs", type=int, default=50, help="documents in the unchanged reload")
    ap.add_argument("--repeats", type=int, default=3, help="incremental: runs of each changed-company load")
    ap.add_argument("--incremental-dir", type=Path, help="incremental: where the warehouse copies go (default:"
                    " --work; e.g. a folder on XFS)")
    ap.add_argument("--reuse", action="store_true",
                    help="reuse the warehouse a previous run built under --work (no bulk load; duckdb backend)")
    ap.add_argument("--queries", type=int, metavar="N", help="then bench_queries.py with N synthetic filings")
    ap.add_argument("--query-budget", type=float, default=60.0, help="bench_queries.py --budget (s per query)")
    ap.add_argument("--echo", action="store_true", help="show the CLI's output")
    ap.add_argument("--backend", choices=["duckdb", "ducklake"], default="duckdb",
                    help="storage: the DuckDB file (default) or DuckLake with its catalog in a loopback PostgreSQL")
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # figures as they come
    args.work.mkdir(parents=True, exist_ok=True)
    scales = [s.strip() for s in args.scales.split(",") if s.strip()] + (["universe"] if args.universe else [])
    print(f"{os.cpu_count()} cores, {os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE') / 2**30:.0f} GB; "
          f"work folder {args.work}")
    db = None
    for scale in scales:
        built = args.work / f"wh-{scale}x.duckdb"
        if args.reuse and args.backend == "duckdb" and built.exists():
            print(f"{scale}x: reusing {built} ({storage_size(built)})")
            db = built
            continue
        db = bulk(args.work, scale, args.batch_size, args.command, args.echo, args.backend)
    if db and args.incremental:
        incremental(args.work, db, build(args.work, scales[-1]), args.reload_docs, repeats=args.repeats,
                    where=args.incremental_dir)
    if args.backend == "ducklake" and args.queries is not None:
        print("--queries: bench_queries.py opens a DuckDB file; not run on the lake")
    elif db and args.queries is not None:
        subprocess.run([sys.executable, str(BENCH / "bench_queries.py"), "--db", str(db),
                        "--synthetic-filings", str(args.queries), "--budget", str(args.query_budget)], check=False)
    if LAKE:
        from scripts import pg_loopback

        pg_loopback.stop(LAKE["folder"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
