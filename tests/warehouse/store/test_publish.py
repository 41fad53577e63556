"""Writers build a private copy and publish it by rename; a second writer waits (bounded, saying who
holds the lock); a killed writer leaves the published file untouched; a damaged file is one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from helpers import COMPANYFACTS_FILES
from warehouse.errors import DamagedWarehouse, WarehouseError, WriterBusy
from warehouse.store.db import publishing, reader, writer
from warehouse.store.publish import build_path_for, current_writer, lock_path_for, read_holder

pytestmark = pytest.mark.slow  # writer and reader processes (make check leaves it out)

ROOT = Path(__file__).resolve().parents[3]


def cli(db: Path, *args: str, wait: float | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if wait is not None:
        env["EDGAR_WAREHOUSE_LOCK_WAIT"] = str(wait)
    return subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def hold_writer(db: Path, ready: Path, *, fill: bool = False) -> subprocess.Popen:
    """A real second process holding the writer lock of ``db`` until killed or its stdin closes."""
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from warehouse.store.db import writer
        with writer({str(db)!r}, command="holder-for-test") as con:
            if {fill!r}:
                con.execute("CREATE TABLE half_done AS SELECT range AS i FROM range(1000)")
            Path({str(ready)!r}).write_text("ok")
            sys.stdin.read()
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert proc.poll() is None, "the holder process died"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return proc


def tables(db: Path) -> set[str]:
    with reader(db) as con:
        return {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}


def test_writer_publishes_by_rename_and_readers_keep_the_old_inode(tmp_path):
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        con.execute("CREATE TABLE t AS SELECT 1 AS v")
    assert db.exists() and not build_path_for(db).exists()
    assert not Path(str(db) + ".wal").exists()  # published files are checkpointed, never carry a WAL
    # a reader in another process that opened before the next publish
    code = textwrap.dedent(f"""
        import sys
        from warehouse.store.db import reader
        with reader({str(db)!r}) as con:
            for _ in sys.stdin:
                print(con.execute("SELECT v FROM t").fetchone()[0], flush=True)
    """)
    old = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        old.stdin.write("\n")
        old.stdin.flush()
        assert old.stdout.readline().strip() == "1"
        inode = db.stat().st_ino
        with writer(db, command="test") as con:
            con.execute("UPDATE t SET v = 2")
            with reader(db) as during:  # readers open while the writer works: the last published state
                assert during.execute("SELECT v FROM t").fetchall() == [(1,)]
        assert db.stat().st_ino != inode
        old.stdin.write("\n")
        old.stdin.flush()
        assert old.stdout.readline().strip() == "1"  # still reading the file it opened
        with reader(db) as new:
            assert new.execute("SELECT v FROM t").fetchall() == [(2,)]
    finally:
        old.stdin.close()
        old.wait(30)


def test_error_inside_the_writer_publishes_only_what_was_committed(tmp_path):
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        con.execute("CREATE TABLE t (v INTEGER)")
    with pytest.raises(RuntimeError), writer(db, command="test") as con:
        con.execute("INSERT INTO t VALUES (1)")  # committed (autocommit): a finished batch
        con.execute("BEGIN")
        con.execute("INSERT INTO t VALUES (2)")
        raise RuntimeError("cut short mid-batch")
    with reader(db) as con:
        assert con.execute("SELECT v FROM t").fetchall() == [(1,)]
    assert not build_path_for(db).exists()


def test_second_writer_waits_then_fails_with_one_line_naming_the_holder(tmp_path):
    db = tmp_path / "w.duckdb"
    assert cli(db, "init").returncode == 0
    holder = hold_writer(db, tmp_path / "ready")
    try:
        t0 = time.monotonic()
        r = cli(db, "load", str(COMPANYFACTS_FILES[0]), wait=1.5)
        waited = time.monotonic() - t0
        assert r.returncode == 1, r.stderr
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert lines[0].startswith("waiting:") and f"pid {holder.pid}" in lines[0], r.stderr
        assert lines[-1].startswith("error:") and f"pid {holder.pid}" in lines[-1], r.stderr
        assert "holder-for-test" in lines[-1] and "gave up after 1.5 s" in lines[-1]
        assert "Traceback" not in r.stderr and len(lines) == 2
        assert waited >= 1.5
        # readers are not writers: they answer at once while the writer lock is held
        s = cli(db, "sql", "SELECT count(*) AS n FROM facts", "-f", "csv")
        assert s.returncode == 0 and s.stdout.split() == ["n", "0"], s.stderr
        st = cli(db, "status")
        assert st.returncode == 0 and f"a writer is working (pid {holder.pid}" in st.stdout, st.stdout
    finally:
        holder.stdin.close()
        holder.wait(30)


def test_second_writer_proceeds_when_the_first_finishes(tmp_path):
    db = tmp_path / "w.duckdb"
    holder = hold_writer(db, tmp_path / "ready")
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "EDGAR_WAREHOUSE_LOCK_WAIT": "60"}
        errs_file = tmp_path / "second.err"
        with errs_file.open("w") as err_out:
            second = subprocess.Popen([sys.executable, "-m", "flows.cli", "--db", str(db), "load",
                                       str(COMPANYFACTS_FILES[0])], cwd=ROOT, env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=err_out)
        # released only once the second writer says it waits (a fixed pause raced a slow start on a busy box)
        deadline = time.monotonic() + 90
        while f"pid {holder.pid}" not in errs_file.read_text() and time.monotonic() < deadline:
            assert second.poll() is None, (second.communicate(), errs_file.read_text())
            time.sleep(0.1)
        assert second.poll() is None, errs_file.read_text()
    finally:
        holder.stdin.close()
        holder.wait(30)
    out, _ = second.communicate(timeout=120)
    errs = errs_file.read_text()
    assert second.returncode == 0, errs
    assert f"pid {holder.pid}" in errs and "1 loaded" in out
    assert read_holder(lock_path_for(db)) is None  # released: the lock file names nobody
    assert current_writer(db) is None
    assert "a writer is working" not in cli(db, "status").stdout


def test_killed_writer_leaves_the_published_file_untouched_and_its_lock_is_taken_over(tmp_path):
    db = tmp_path / "w.duckdb"
    assert cli(db, "load", str(COMPANYFACTS_FILES[0])).returncode == 0
    before = tables(db)
    holder = hold_writer(db, tmp_path / "ready", fill=True)
    holder.send_signal(signal.SIGKILL)
    holder.wait(30)
    assert build_path_for(db).exists()  # its half-done build is still there...
    assert read_holder(lock_path_for(db)).pid == holder.pid  # ...and its lock file names the dead process
    assert tables(db) == before  # the published file never saw the killed run
    r = cli(db, "load", str(COMPANYFACTS_FILES[1]), wait=5)  # the stale lock is taken over at once
    assert r.returncode == 0, r.stderr
    assert "waiting" not in r.stderr
    assert "half_done" not in tables(db)  # the stale build was discarded, not published
    with reader(db) as con:
        assert con.execute("SELECT count(DISTINCT cik) FROM facts").fetchone()[0] == 2


def test_writer_busy_in_process(tmp_path):
    db = tmp_path / "w.duckdb"
    with publishing(db, command="first"):
        with pytest.raises(WriterBusy, match="`first`"), publishing(db, command="second", wait=0.3):
            pass


#: Two WALs DuckDB cannot replay: issue 8 bullet 1's (1.5 cannot replay COMMENT ON COLUMN of a table with
#: a DEFAULT nextval column; 2.0.1 can), and one whose entry is damaged (a checksum mismatch on both).
DAMAGED_WALS = {
    "comment_on_a_nextval_table": """
        con.execute("CREATE SEQUENCE s")
        con.execute("CREATE TABLE t (id BIGINT DEFAULT nextval('s'), v INTEGER)")
        con.execute("CHECKPOINT")
        con.execute("COMMENT ON COLUMN t.v IS 'a value'")
    """,
    "a_damaged_entry": """
        con.execute("CREATE TABLE t (v INTEGER)")
        con.execute("CHECKPOINT")
        con.execute("INSERT INTO t SELECT range FROM range(1000)")
    """,
}


@pytest.mark.parametrize("damage", list(DAMAGED_WALS))
def test_damaged_wal_is_one_line_with_the_recovery(tmp_path, damage):
    """A WAL DuckDB cannot replay: opening the file must say so in one line, with the documented recovery."""
    if damage == "comment_on_a_nextval_table" and int(duckdb.__version__.split(".")[0]) >= 2:
        pytest.skip("DuckDB 2.x replays this WAL (tests/warehouse/schema/test_definitions.py's canary)")
    db = tmp_path / "w.duckdb"
    code = "import duckdb, os\n" + f"con = duckdb.connect({str(db)!r})\n" + textwrap.dedent(DAMAGED_WALS[damage]) \
        + "os._exit(0)\n"
    subprocess.run([sys.executable, "-c", code], check=True)
    wal = Path(str(db) + ".wal")
    assert wal.exists()
    if damage == "a_damaged_entry":
        data = bytearray(wal.read_bytes())
        for i in range(len(data) // 3, len(data) // 3 + 16):
            data[i] ^= 0xFF
        wal.write_bytes(bytes(data))
    with pytest.raises(DamagedWarehouse) as exc:
        with reader(db):
            pass
    assert str(db) in str(exc.value) and "mv " in str(exc.value) and "\n" not in str(exc.value)
    r = cli(db, "status")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().startswith("error:") and "write-ahead log" in r.stderr, r.stderr
    w = cli(db, "load", str(COMPANYFACTS_FILES[0]))  # a writer says the same, and publishes nothing
    assert w.returncode == 1 and "write-ahead log" in w.stderr and "Traceback" not in w.stderr, w.stderr
    os.replace(str(db) + ".wal", str(db) + ".wal.damaged")  # the documented recovery
    assert "t" in tables(db)


def test_truncated_file_is_one_line_with_the_recovery(tmp_path):
    db = tmp_path / "w.duckdb"
    assert cli(db, "load", str(COMPANYFACTS_FILES[0])).returncode == 0
    with open(db, "r+b") as fh:
        fh.truncate(64 * 1024)  # the headers survive (still a DuckDB file), every data and metadata block is gone
    r = cli(db, "sql", "SELECT count(*) FROM facts")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    line = r.stderr.strip()
    assert "\n" not in line and str(db) in line and "damaged warehouse file" in line, line
    assert "load" in line and "w.raw" in line  # the recovery: reload the raw payloads


def test_a_write_that_copies_the_file_slowly_says_so_and_names_the_remedy(tmp_path, monkeypatch, caplog):
    """Without reflinks (ext4, tmpfs: this machine) every write copies the published file, a cost
    that grows with the warehouse: the writer logs how long the copy took and the remedy."""
    import warehouse.store.publish as publish

    db = tmp_path / "w.duckdb"
    with writer(db, command="init"):
        pass
    copy = tmp_path / "copy"
    how = publish.copy_file(db, copy)
    assert copy.read_bytes() == db.read_bytes()
    if how == "reflink":
        pytest.skip(f"{tmp_path} is on a reflink filesystem: writes do not copy")
    assert how == "copy"
    monkeypatch.setattr(publish, "SLOW_COPY_SECONDS", 0.0)
    with caplog.at_level("WARNING", logger="warehouse.store.publish"), writer(db, command="load"):
        pass
    assert any("copying the published file" in r.getMessage() and "reflinks (XFS, btrfs)" in r.getMessage()
               for r in caplog.records)


def test_a_bulk_write_settles_even_after_a_run_killed_while_settling(tmp_path):
    """A bulk writer settles the file before publishing (db.settle: a scratch table created and dropped,
    then CHECKPOINT). A bootstrap killed in between is resumed from its build, scratch table included:
    the next bulk write must still publish, without the table."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="bootstrap", bulk=True) as con:
        con.execute("CREATE TABLE _edgar_settle (x INTEGER)")  # what the killed run left in its build
    with reader(db) as con:
        assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = '_edgar_settle'").fetchone() == (0,)
    with writer(db, command="bootstrap", bulk=True) as con:
        con.execute("CREATE TABLE _edgar_settle (x INTEGER)")
    assert not build_path_for(db).exists()


def _plain_connection(db: Path, sql: str, *, hold: bool) -> subprocess.Popen:
    """Another process with a plain ``duckdb.connect(db)`` (read-write) that runs ``sql``; it says
    "ready" and, with ``hold``, keeps the connection open until its stdin closes."""
    code = textwrap.dedent(f"""
        import sys, duckdb
        con = duckdb.connect({str(db)!r})
        con.execute({sql!r})
        if not {hold!r}:
            con.close()
        print("ready", flush=True)
        sys.stdin.read()
    """)
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    return p


def test_a_table_written_into_the_published_file_during_a_load_is_never_dropped_silently(tmp_path):
    """A plain duckdb.connect('edgar.duckdb') that wrote during a load succeeded, and its table
    vanished when the load published its build over the file: now the publish is refused (the
    build discarded, the table kept), and a load does not start while such a connection is open."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="test") as con:
        con.execute("CREATE TABLE t AS SELECT 1 AS i")
    with pytest.raises(WarehouseError, match="was written since this run copied it"):
        with writer(db, command="test") as con:
            con.execute("CREATE TABLE from_the_load AS SELECT 1 AS i")
            p = _plain_connection(db, "CREATE TABLE mine AS SELECT 42 AS answer", hold=False)
            p.communicate("")
    with reader(db) as con:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    assert {"t", "mine"} <= tables and "from_the_load" not in tables
    assert not build_path_for(db).exists()

    holder = _plain_connection(db, "SELECT 1", hold=True)
    try:
        with pytest.raises(WarehouseError, match=f"process {holder.pid} holds it open read-write"):
            with writer(db, command="test"):
                pass
    finally:
        holder.communicate("")
    with writer(db, command="test") as con:  # once it is closed, loads go on
        con.execute("CREATE TABLE after AS SELECT 1 AS i")
