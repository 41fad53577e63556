"""The refresh flow is a writer like any other: it takes the writer lock before its first request,
waits a bounded time for another writer (10 minutes for the nightly), and publishes by rename."""

from __future__ import annotations

import time

import pytest

from flows.refresh import refresh_flow
from warehouse.errors import WriterBusy
from warehouse.store.db import publishing, reader
from warehouse.store.publish import NIGHTLY_WAIT, build_path_for

APPLE = 320193


def test_nightly_waits_ten_minutes_for_a_writer(monkeypatch, tmp_path):
    from flows.deploy import nightly_deployment

    monkeypatch.delenv("EDGAR_WAREHOUSE_LOCK_WAIT", raising=False)
    assert nightly_deployment(tmp_path / "w.duckdb").parameters["lock_wait"] == NIGHTLY_WAIT == 600
    monkeypatch.setenv("EDGAR_WAREHOUSE_LOCK_WAIT", "42")
    assert nightly_deployment(tmp_path / "w.duckdb").parameters["lock_wait"] == 42


def test_nightly_runs_one_at_a_time(tmp_path):
    """Issue #8: the nightly deployment has a concurrency limit of one (a late run queues)."""
    from flows.deploy import nightly_deployment

    deployment = nightly_deployment(tmp_path / "w.duckdb")
    assert deployment.concurrency_limit == 1
    assert deployment.concurrency_options.collision_strategy == "ENQUEUE"


def test_refresh_waits_for_the_writer_then_fails_naming_it(prefect_harness, tmp_path, replay_root):
    db = tmp_path / "w.duckdb"
    with publishing(db, command="manual load"):
        t0 = time.monotonic()
        with pytest.raises(WriterBusy, match=r"`manual load`.*gave up after 1 s"):
            refresh_flow(db=str(db), ciks=[APPLE], replay=str(replay_root), insiders=False, lock_wait=1)
        assert 1 <= time.monotonic() - t0 < 60
    assert not db.exists()  # nothing was loaded, nothing published


def test_refresh_publishes_once_at_the_end(prefect_harness, tmp_path, replay_root):
    db = tmp_path / "w.duckdb"
    result = refresh_flow(db=str(db), ciks=[APPLE], replay=str(replay_root), insiders=False, batch_size=1)
    assert result["loaded"] == 2
    assert db.exists() and not build_path_for(db).exists()
    with reader(db) as con:
        assert con.execute("SELECT count(*) FROM facts WHERE cik = ?", [APPLE]).fetchone()[0] > 0
        assert con.execute("SELECT status FROM load_runs").fetchall() == [(result["status"],)]
