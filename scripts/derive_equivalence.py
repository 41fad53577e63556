"""Same derived rows before and after a change: build warehouses with two source trees, compare.

    # a tree of the commit before the change (git archive), and this checkout
    git archive <commit> | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before .venv/bin/python scripts/derive_equivalence.py build /tmp/eq/before
    .venv/bin/python scripts/derive_equivalence.py build /tmp/eq/after
    .venv/bin/python scripts/derive_equivalence.py compare /tmp/eq/before /tmp/eq/after

``build`` loads the 8 shared companyfacts files and submissions (../shared/edgar-samples) in three
orders, each into a fresh warehouse with the project's own ingest: companyfacts then every
submissions file; the 8 companies' submissions then companyfacts; three batches mixing both. It
prints the CPU seconds of each build and of its derive step (refresh_metrics + run_checks), and
writes derived_metrics, metric_lineage and check_results as Parquet, without computed_at /
checked_at (clock times) and with load_id replaced by the load's position (a load id is random).
``compare`` counts the rows of each table in one build and not the other (EXCEPT ALL, both ways), over
the columns both have, metric ids without the company prefix of migration 0012 (same md5, same id).
Figures and a verdict, not a test: the tests keep the semantics; this shows a rewrite kept the rows.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "edgar-samples"
if not SAMPLES.exists():  # from a worktree /work/wt/<name>
    SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "edgar-samples"
TABLES = {"dm": ("derived_metrics", "computed_at, load_id"), "ml": ("metric_lineage", "load_id"),
          "cr": ("check_results", "checked_at, load_id")}


def scenarios() -> dict[str, list[list[Path]]]:
    cf = sorted((SAMPLES / "companyfacts").glob("CIK*.json"))
    ciks = {p.name[:13] for p in cf}
    subs_all = sorted((SAMPLES / "submissions").glob("CIK*.json"))
    subs = [p for p in subs_all if p.name[:13] in ciks]
    return {"cf_then_subs": [cf, subs_all], "subs_then_cf": [subs, cf],
            "batches": [cf[:3], cf[3:6] + subs[:4], cf[6:] + subs[4:]]}


def build(out: Path) -> None:
    import warehouse.derive.metrics as refresh
    import warehouse.load.batch as load
    from pipelines.documents import read_local_document
    from warehouse.load.ingest import ingest
    from warehouse.store.db import connect, raw_dir_for

    cpu = {"derive": 0.0}

    def timed(fn):
        def run(*a, **k):
            c0 = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                cpu["derive"] += time.process_time() - c0
        return run

    load._derive = timed(load._derive)
    print(f"source: {refresh.__file__}; samples: {SAMPLES}")
    for name, loads in scenarios().items():
        cpu["derive"] = 0.0
        folder = out / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        db = folder / "w.duckdb"
        con = connect(db)
        c0 = time.process_time()
        for i, files in enumerate(loads):
            run = ingest(con, [read_local_document(p) for p in files], raw_dir=raw_dir_for(db), command=f"load{i}")
            assert run.status == "succeeded", run.summary()
        total = time.process_time() - c0
        con.execute("CREATE TEMP TABLE load_rank AS SELECT load_id, command AS load_rank FROM load_runs")
        for short, (table, volatile) in TABLES.items():
            con.execute(f"COPY (SELECT t.* EXCLUDE ({volatile}), r.load_rank FROM {table} t "
                        f"LEFT JOIN load_rank r USING (load_id)) TO '{folder / short}.parquet'")
        rows = [con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t, _ in TABLES.values()]
        con.close()
        print(f"{name}: {total:.2f} s CPU in all, derive {cpu['derive']:.2f} s CPU; "
              f"derived_metrics {rows[0]}, metric_lineage {rows[1]}, check_results {rows[2]}", flush=True)


def compare(a: Path, b: Path) -> int:
    import duckdb

    con = duckdb.connect()
    differing = 0
    for name in scenarios():
        for short, (table, _) in TABLES.items():
            x, y = f"'{a / name / short}.parquet'", f"'{b / name / short}.parquet'"
            cols_x, cols_y = ([r[0] for r in con.execute(f"DESCRIBE FROM {p}").fetchall()] for p in (x, y))
            # metric ids compared without the company prefix 0012 put before the md5 (the same md5 is the same id)
            common = ", ".join(f"regexp_replace(\"{c}\", '^[0-9a-f]{{8}}-', '') AS \"{c}\"" if c.endswith("metric_id")
                               else f'"{c}"' for c in cols_x if c in cols_y)
            for c in sorted(set(cols_x) ^ set(cols_y)):  # a column added (or dropped) by the change
                print(f"{name:13s} {table:16s} column {c} in one build only: compared without it")
            only_a = con.execute(f"SELECT count(*) FROM (SELECT {common} FROM {x} EXCEPT ALL "
                                 f"SELECT {common} FROM {y})").fetchone()[0]
            only_b = con.execute(f"SELECT count(*) FROM (SELECT {common} FROM {y} EXCEPT ALL "
                                 f"SELECT {common} FROM {x})").fetchone()[0]
            rows = con.execute(f"SELECT count(*) FROM {x}").fetchone()[0]
            print(f"{name:13s} {table:16s} {rows:7d} rows; only in first {only_a}, only in second {only_b}")
            differing += only_a + only_b
    print("IDENTICAL" if differing == 0 else f"DIFFERENT: {differing} rows")
    return 0 if differing == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "build":
        build(Path(sys.argv[2]))
        sys.exit(0)
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    print(__doc__)
    sys.exit(2)
