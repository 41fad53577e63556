"""Lake maintenance (issue 25 item 5): compaction, snapshot expiry and file cleanup on a real lake, with a
reader pinned to an older snapshot reading throughout; the CLI prints the figures; the deployment is
scheduled beside the nightly.

Real PostgreSQL on loopback (``postgres_loopback``), real DuckLake, real loads of vendored submissions.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from helpers import FIXTURES, backend_env
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.read.queries import same_catalog_cursor
from warehouse.store import lake
from warehouse.store.db import connect
from warehouse.store.lake_maintenance import figures, maintain

pytestmark = pytest.mark.slow  # PostgreSQL, loads, a CLI process

REPO = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
SUBMISSIONS = FIXTURES / "sec" / "data.sec.gov" / "submissions"
# small submissions files: each load is its own commits and Parquet files
SMALL = ["CIK0001800903", "CIK0001911716", "CIK0001830610", "CIK0001940261"]


def _load(con, cik: str, raw: Path) -> None:
    ingest(con, [read_local_document(SUBMISSIONS / f"{cik}.json.gz")], raw_dir=raw, command="load")


def _state(con) -> tuple:
    return con.execute("SELECT (SELECT count(*) FROM filings), (SELECT count(*) FROM companies),"
                       " (SELECT count(*) FROM source_documents), (SELECT string_agg(cik::VARCHAR, ',' ORDER BY cik)"
                       " FROM companies)").fetchone()


def test_maintenance_compacts_expires_and_cleans_while_a_pinned_reader_reads(backend_of, tmp_path):
    env = backend_of("ducklake")
    raw = tmp_path / "raw"
    with backend_env(env):
        cfg = lake.lake_config()
        con = connect("unused")
        try:
            # each load writes Parquet files, as a large one does (a small one is inlined into the catalog)
            con.execute("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 0)")
            for cik in SMALL[:2]:
                _load(con, cik, raw)
            old_snapshot = lake.latest_snapshot(con)  # loads before the reader: their snapshots expire
            time.sleep(0.5)
            _load(con, SMALL[2], raw)
            reader = connect("unused", read_only=True)  # pinned to the snapshot after the third load
            pinned = reader.execute("SELECT max(snapshot_id) FROM lake.snapshots()").fetchone()[0]
            seen = _state(reader)
            _load(con, SMALL[3], raw)  # after the reader opened: it never sees this one
            cut = con.execute("SELECT snapshot_time FROM lake.snapshots() WHERE snapshot_id = ?",
                              [pinned]).fetchone()[0] - timedelta(milliseconds=1)
            before = figures(con, cfg)

            answers: list[tuple] = []
            errors: list[BaseException] = []
            done = threading.Event()

            cursor = same_catalog_cursor(reader)  # a thread of its own reads through a cursor

            def read_throughout() -> None:
                try:
                    while not done.is_set():
                        answers.append(_state(cursor))
                except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                    errors.append(exc)

            thread = threading.Thread(target=read_throughout)
            thread.start()
            try:
                # keep = 0 from the pinned snapshot's time: every older snapshot expires, the pinned one stays
                report = maintain(con, cfg, keep=timedelta(0), now=cut)
            finally:
                done.set()
                thread.join(120)
            answers.append(_state(reader))
            reader.close()
            latest = _state(con)
        finally:
            con.close()
        print("\n" + report.line())
        assert errors == [] and len(answers) >= 2
        assert set(answers) == {seen}, "the pinned reader's answers moved during maintenance"
        assert latest != seen and latest[1] == seen[1] + 1
        assert report.before == before and report.expired >= 1 and report.merged >= 2
        assert report.after.snapshots < before.snapshots
        assert report.after.live_files < before.live_files
        assert report.after.stored_files == before.stored_files + report.created - report.deleted
        # the pinned snapshot still opens and reads the same; an expired one no longer exists
        again = lake.connect_lake(cfg, read_only=True, snapshot=pinned)
        try:
            assert _state(again) == seen
        finally:
            again.close()
        with pytest.raises(lake.LakeError):
            lake.connect_lake(cfg, read_only=True, snapshot=old_snapshot).close()
        fresh = connect("unused", read_only=True)
        try:
            assert _state(fresh) == latest
        finally:
            fresh.close()

    # the CLI's maintain: the figures, as JSON; a second pass finds nothing more to merge
    plain = {k: v for k, v in os.environ.items() if not k.startswith("EDGAR_WAREHOUSE_")}
    proc = subprocess.run([str(BIN / "edgar-warehouse"), "--lake-catalog", env[lake.CATALOG_ENV], "--lake-data",
                           env[lake.DATA_ENV], "maintain", "--keep-hours", "0", "--format", "json"],
                          env=plain, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["before"]["snapshots"] >= out["after"]["snapshots"] == 1
    assert out["after"]["stored_files"] == out["after"]["live_files"]  # nothing unread is left


def test_maintenance_is_scheduled_beside_the_nightly_on_the_lake(tmp_path, backend_of):
    from flows.deploy import deployments

    assert [d.name for d in deployments(tmp_path / "w.duckdb")] == ["edgar-nightly"]  # the DuckDB file: none
    with backend_env(backend_of("ducklake")):
        nightly, maint = deployments(tmp_path / "w.duckdb")
    assert maint.name == "edgar-lake-maintenance" and maint.parameters == {"keep_hours": 24.0}
    schedule = maint.schedules[0].schedule
    assert (schedule.cron, schedule.timezone) == ("30 7 * * *", "America/New_York")
    assert maint.concurrency_limit == 1 and maint.flow_name == "edgar-lake-maintenance"
