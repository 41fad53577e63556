"""Readers never wait for a load and never see half of it (issue 10, item 3): reader processes
(the notebook API and the `sql` command) loop during a long batched load of real companyfacts."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from decimal import Decimal
from pathlib import Path

import pytest

from helpers import COMPANYFACTS_FILES, VINTAGES_DIR, load_files
from warehouse.store.db import raw_dir_for, reader, writer

pytestmark = pytest.mark.slow  # reader processes during a batched load (make check leaves it out)
ROOT = Path(__file__).resolve().parents[2]
# count of every fact version and a checksum of the current facts, in ONE statement (one snapshot)
STATE = ("SELECT (SELECT count(*) FROM facts) AS n,"
         " (SELECT sum(hash(cik, concept, unit, period_start, period_end, accession, value)) FROM facts_current) AS h")

READER = textwrap.dedent("""
    import subprocess, sys, time
    from pathlib import Path
    db, mode, stop, state = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4]
    while not stop.exists():
        try:
            if mode == "api":
                from warehouse.read.api import open_warehouse
                with open_warehouse(db) as wh:
                    row = wh.sql(state).row(0)
                print("ok", row[0], row[1], flush=True)
            else:
                r = subprocess.run([sys.executable, "-m", "flows.cli", "--db", db, "sql", state, "-f", "csv"],
                                   capture_output=True, text=True)
                if r.returncode:
                    print("err", r.stderr.strip().replace("\\n", " | "), flush=True)
                else:
                    print("ok", *r.stdout.splitlines()[1].split(","), flush=True)
        except Exception as exc:
            print("err", type(exc).__name__, str(exc).replace("\\n", " | "), flush=True)
""")


def norm(n, h) -> tuple[int, int]:
    """One state whatever the reader's number format (the notebook API prints exact values as
    Decimal(38,10), `sql` as the HUGEINT it is)."""
    return int(Decimal(str(n))), int(Decimal(str(h)))


def state(db: Path) -> tuple[int, int]:
    with reader(db) as con:
        return norm(*con.execute(STATE).fetchone())


def test_readers_during_a_long_load_see_before_or_after_and_never_fail(tmp_path):
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        assert load_files(con, COMPANYFACTS_FILES[:2], raw_dir_for(db)).status == "succeeded"
    before = state(db)
    stop = tmp_path / "stop"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    readers = [subprocess.Popen([sys.executable, "-c", READER, str(db), mode, str(stop), STATE], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for mode in ("api", "cli")]
    try:
        time.sleep(2)
        files = [*COMPANYFACTS_FILES[2:5], *sorted(VINTAGES_DIR.glob("*.json.gz"))[:1]]
        t0 = time.monotonic()
        load = subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), "load", *map(str, files),
                               "--batch-size", "1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        load_seconds = time.monotonic() - t0
        assert load.returncode == 0, load.stderr
        assert load.stderr.count("load ") == len(files)  # one commit per document: a long run
        time.sleep(2)  # and some reads after the publish
    finally:
        stop.write_text("stop")
        outputs = [r.communicate(timeout=120) for r in readers]
    after = state(db)
    assert before != after
    lines = [line for out, _ in outputs for line in out.splitlines() if line.strip()]
    assert all(line.startswith(("ok ", "err ")) for line in lines), lines[:3]  # nothing else on stdout
    answers = [line.split(None, 1) for line in lines]
    errors = [a for a in answers if a[0] != "ok"]
    seen = [norm(*a[1].split()) for a in answers if a[0] == "ok"]
    print(f"\nconcurrent readers: {len(answers)} reads during a {load_seconds:.1f} s load of {len(files)} documents "
          f"in {len(files)} batches; {len(errors)} errors; distinct states seen: "
          f"{len(set(seen))} (before {seen.count(before)}, after {seen.count(after)})")
    assert not errors, errors[:3]
    assert set(seen) <= {before, after}, set(seen) - {before, after}
    assert seen.count(before) >= 3 and seen.count(after) >= 1, (seen.count(before), seen.count(after))
    assert all(r.returncode == 0 for r in readers), [e for _, e in outputs]
