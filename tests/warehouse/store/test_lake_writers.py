"""Writers that never fight on the lake (warehouse/store/lake_writers.py, issue 25 item 2): the DuckLake
conflict rules the design rests on, company claims, id blocks, and worker processes loading companyfacts
at once with a pinned reader, with no commit conflict, nothing lost and every table equal to one writer's.

PostgreSQL (the catalog) is started by the session fixture ``postgres_loopback``; see test_lake_backend.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest
from compare_warehouses import VOLATILE, compare

from helpers import FIXTURES, backend_env
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.store import lake, lake_writers
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for, transaction

pytestmark = pytest.mark.slow  # PostgreSQL and writer processes (make check leaves it out)

REPO = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
FACTS = FIXTURES / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"
# the four smallest vendored companyfacts: two workers take two companies each
SMALL = sorted(FACTS.glob("CIK*.json.gz"), key=lambda p: p.stat().st_size)[:4]


def _writer(env: dict[str, str]) -> duckdb.DuckDBPyConnection:
    with backend_env(env):
        return connect("unused")


def _commit_both(first: duckdb.DuckDBPyConnection, second: duckdb.DuckDBPyConnection, a: str, b: str) -> str:
    """Run ``a`` and ``b`` in two concurrent transactions, commit ``first`` then ``second``: 'ok' or 'conflict'."""
    first.execute("BEGIN")
    second.execute("BEGIN")
    first.execute(a)
    second.execute(b)
    first.execute("COMMIT")
    try:
        second.execute("COMMIT")
    except duckdb.Error as exc:
        assert lake.is_conflict(exc), exc
        return "conflict"
    return "ok"


def test_the_conflict_rules_writers_rely_on(backend_of):
    """DuckLake 1.5.5 compares tables: two transactions that only insert into a table both commit (so a
    batch inserting its companies' rows needs no guard, and two inserting the same company's rows would
    both land: hence the claims); a delete or update conflicts with a concurrent insert into the table
    (a reload, an upsert that finds its row, a run record updated are seen)."""
    env = backend_of("ducklake")
    a, b = _writer(env), _writer(env)
    try:
        a.execute("CREATE TABLE edgar_lake.t (k INTEGER)")
        a.execute("INSERT INTO edgar_lake.t VALUES (1)")
        b.execute("SELECT 1")  # b's next transaction sees t
        assert _commit_both(a, b, "INSERT INTO edgar_lake.t VALUES (2)", "INSERT INTO edgar_lake.t VALUES (2)") == "ok"
        assert fetch_value(a, "SELECT count(*) FROM edgar_lake.t WHERE k = 2") == 2
        assert _commit_both(a, b, "DELETE FROM edgar_lake.t WHERE k = 1", "INSERT INTO edgar_lake.t VALUES (3)") == "conflict"
        a.execute("INSERT INTO edgar_lake.t VALUES (7)")
        a.execute("INSERT INTO edgar_lake.t VALUES (8)")
        assert _commit_both(a, b, "UPDATE edgar_lake.t SET k = 70 WHERE k = 7",
                            "UPDATE edgar_lake.t SET k = 80 WHERE k = 8") == "conflict"  # other rows, same table
        # a DELETE or UPDATE that matches nothing is no change: a first load's upserts do not conflict
        assert _commit_both(a, b, "DELETE FROM edgar_lake.t WHERE k = 99", "INSERT INTO edgar_lake.t VALUES (6)") == "ok"
    finally:
        a.close()
        b.close()


def test_a_claimed_company_waits_for_its_writer_and_others_do_not(backend_of):
    env = backend_of("ducklake")
    a, b = _writer(env), _writer(env)
    try:
        first = lake_writers.claim(a, [320193, 789019])
        assert lake_writers._try_claim(b, "other", [1046179])  # another company: at once
        assert not lake_writers._try_claim(b, "third", [789019])  # the same company: not while held
        assert not lake_writers._try_claim(b, "lake", None)  # the whole lake: recorded, waits for both
        assert not lake_writers._try_claim(a, "fourth", [55785])  # ... and new claims wait for it
        got: list[str] = []
        waiter = threading.Thread(target=lambda: got.append(lake_writers.claim(b, [789019])))
        waiter.start()
        time.sleep(1.0)
        assert got == [] and waiter.is_alive()
        lake_writers.release(a, first)
        lake_writers.release(a, "other")
        lake_writers.release(a, "lake")
        waiter.join(timeout=30)
        assert len(got) == 1
        assert fetch_all(a, f"SELECT cik FROM {lake.CLAIMS}") == [(789019,)]
        # a claim of a process of this host that is gone is taken over
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True).stdout.strip()
        with transaction(a):
            a.execute(f"UPDATE {lake.CLAIMS} SET pid = ?", [int(dead)])
        assert lake_writers._try_claim(a, "fifth", [789019])
    finally:
        a.close()
        b.close()


def test_id_blocks_of_concurrent_writers_never_overlap_and_start_above_stored_ids(backend_of):
    env = backend_of("ducklake")
    a = _writer(env)
    try:
        with transaction(a):  # a lake loaded before the counter existed
            a.execute("INSERT INTO source_documents (source_document_id, kind, uri, origin, sha256, bytes, fetched_at,"
                      " status, load_id) VALUES (41, 'companyfacts', 'x', 'local', 'y', 1, now(), 'loaded', 'l')")
        blocks: list[tuple[int, int]] = []

        def take(con: duckdb.DuckDBPyConnection, n: int) -> None:
            try:
                for _ in range(3):
                    blocks.append((lake_writers.reserve_ids(con, n), n))
            finally:
                con.close()
        # connections opened here, one after the other: the environment is the process's, and three
        # threads each setting and restoring it left the lake's variables set for the worker's next tests
        threads = [threading.Thread(target=take, args=(_writer(env), n)) for n in (1, 2, 5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        ids = [first + i for first, n in blocks for i in range(n)]
        assert len(blocks) == 9 and len(ids) == len(set(ids)) == 24
        assert min(ids) == 42 and max(ids) == 65
    finally:
        a.close()


def _load(env: dict[str, str], files: list[Path]) -> subprocess.Popen:
    return subprocess.Popen([str(BIN / "edgar-warehouse"), "load", "--batch-size", "1", *map(str, files)],
                            env={**os.environ, **env}, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _seen(con) -> tuple:
    return fetch_all(con, "SELECT (SELECT count(*) FROM facts), (SELECT count(*) FROM derived_metrics),"
                          " (SELECT count(DISTINCT cik) FROM facts)")[0]


def test_two_workers_and_a_reader_load_companyfacts_without_a_conflict(backend_of, tmp_path):
    """Two worker processes load two companies each (a batch per document) while a reader polls: their
    batches commit beside each other (no conflict, so none redone), nothing is lost, every table equals a
    DuckDB file that loaded the same two runs one after the other, and the reader saw whole
    companies only (a company's facts and its metrics in the same snapshot)."""
    env = backend_of("ducklake")
    with backend_env(env):
        connect("unused").close()  # schema in place: the workers race on data, not on migrations
        workers = [_load(env, SMALL[0::2]), _load(env, SMALL[1::2])]
        seen: list[tuple] = []
        while any(w.poll() is None for w in workers):
            con = connect("unused", read_only=True)
            try:
                first = _seen(con)
                assert _seen(con) == first  # pinned
                metrics_of = set(fetch_all(con, "SELECT DISTINCT cik FROM derived_metrics"))
                assert set(fetch_all(con, "SELECT DISTINCT cik FROM facts")) == metrics_of
            finally:
                con.close()
            seen.append(first)
            time.sleep(0.5)
        redone = []
        for w in workers:
            out, err = w.communicate()
            assert w.returncode == 0, err[-3000:]
            assert "2 loaded, 0 unchanged, 0 rejected" in out, out
            redone += [line for line in err.splitlines() if "redone" in line]
        con = connect("unused", read_only=True, external_access=True)
    try:
        batches = fetch_all(con, f"SELECT load_id, conflicts FROM {lake.RUN_BATCHES}")
        assert len(batches) == 4 and sum(c for _, c in batches) == 0, redone  # no batch redone
        assert redone == []
        assert fetch_value(con, "SELECT count(*) FROM source_documents WHERE status = 'loaded'") == 4
        assert fetch_value(con, "SELECT count(DISTINCT source_document_id) = count(*) FROM source_documents")
        runs = fetch_all(con, "SELECT status, started_at, finished_at FROM load_runs ORDER BY started_at")
        assert [r[0] for r in runs] == ["succeeded"] * 2
        assert runs[1][1] < runs[0][2], "the two workers did not overlap in time"
        assert fetch_value(con, f"SELECT count(*) FROM {lake.CLAIMS}") == 0
    finally:
        con.close()
    assert len(set(seen)) >= 2, seen  # the reader saw the lake grow
    ref = tmp_path / "ref.duckdb"
    with backend_env(backend_of("duckdb")):  # the reference is a DuckDB file whatever the process's environment
        file_con = connect(ref)
    try:
        for files in (SMALL[0::2], SMALL[1::2]):  # the same two runs, one after the other (check totals are per run)
            ingest(file_con, [read_local_document(p) for p in files], raw_dir=raw_dir_for(ref), command="load",
                   batch_size=1)
    finally:
        file_con.close()
    ignore = VOLATILE + ("pid", "host", "row_counts", "source_document_id")
    diffs = compare(ref, lambda: _reader(env), ignore)
    assert len(diffs) >= 35
    assert [d.line() for d in diffs if not d.same] == []


def _reader(env: dict[str, str]) -> duckdb.DuckDBPyConnection:
    with backend_env(env):
        return connect("unused", read_only=True, external_access=True)
