"""The bootstrap on a Prefect work pool (flows/pool.py, issue 25 item 3): a real Prefect server on loopback,
`prefect worker start --type process` workers, a lake whose catalog is a PostgreSQL on loopback.

One parent process reads a zip of real vendored companyfacts into the lake's raw store and submits shard flow
runs; two worker processes load them. The lake then equals a one-process bootstrap of the same zip, table for
table; a worker whose shard's process is killed before it commits is named by the parent, and the same
bootstrap run again loads only what is missing and converges.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import prefect_server
import pytest
from compare_warehouses import VOLATILE, compare
from typer.testing import CliRunner

from flows.cli import EXIT_ERROR, EXIT_PARTIAL, EXIT_USAGE, app
from helpers import COMPANYFACTS_DIR, backend_env, read_body
from warehouse.store.db import connect, fetch_all
from warehouse.store.killpoints import ENV as KILL_AT

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# four of the smallest vendored companyfacts and a throttle page: 5 members, 2 shards of 3 and 2
SMALL = sorted(COMPANYFACTS_DIR.glob("CIK*.json.gz"), key=lambda p: p.stat().st_size)[:4]
HTML = b"<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head></html>"
# what differs between two honest bootstraps of the same members: run ids and times, the process, each
# run's row_counts (which batch first brought a shared concept) and source document ids (commit order)
IGNORE = VOLATILE + ("pid", "host", "row_counts", "source_document_id")


def test_the_duckdb_file_refuses_a_work_pool_in_one_line(tmp_path):
    zipped = _zip(tmp_path / "companyfacts.zip")
    with backend_env({"EDGAR_WAREHOUSE_BACKEND": "duckdb"}):
        got = CliRunner().invoke(app, ["--db", str(tmp_path / "w.duckdb"), "bootstrap", "--companyfacts-zip",
                                       str(zipped), "--work-pool", "anything"])
    assert got.exit_code == EXIT_USAGE, got.output
    assert "--work-pool is for the DuckLake backend" in got.output and "one writer process" in got.output
    assert not (tmp_path / "w.duckdb").exists()


def test_a_pool_run_stopped_by_another_error_records_the_lakes_totals_and_names_a_failed_cancel(backend_of):
    """``PoolLoad.stopped`` for an error that is not a shard's (the fetcher's, an interrupt): the run's
    totals are what the lake holds of it (a shard's committed batch), not the caller's, and the unfinished
    shards are cancelled; when the Prefect server cannot be reached for that (nothing listens on its port)
    the error says so instead of the run going unrecorded. A ``ShardsFailed`` keeps its own totals and error."""
    import socket

    from prefect.settings import PREFECT_API_URL, PREFECT_CLIENT_MAX_RETRIES, temporary_settings

    from flows.pool import PoolLoad, Shard, ShardsFailed
    from pipelines.documents import read_local_document
    from warehouse.load.batch import start_run
    from warehouse.load.ingest import ingest
    from warehouse.store.db import default_db_path, writer
    from warehouse.store.lake import lake_config

    lake = backend_of("ducklake")
    with backend_env(lake):
        raw_dir = lake_config().raw_dir
        with writer(default_db_path(), command="refresh") as con:  # what the parent and one shard commit
            load_id = start_run(con, command="refresh")
            ingest(con, [read_local_document(SMALL[0])], raw_dir=raw_dir, command="refresh", load_id=load_id)
        with socket.socket() as s:  # a loopback port nothing listens on
            s.bind(("127.0.0.1", 0))
            dead = f"http://127.0.0.1:{s.getsockname()[1]}/api"
        pool = PoolLoad("edgar-shard/none", load_id, command="refresh", batch_size=0, on_event=lambda line: None)
        pool.shards.append(Shard("2/2", uuid.uuid4(), f"shard 2/2 of {load_id[:8]}", 1))
        with temporary_settings({PREFECT_API_URL: dead, PREFECT_CLIENT_MAX_RETRIES: 0}):
            report, error = pool.stopped(RuntimeError("the fetch broke"))
        assert (report.load_id, report.loaded) == (load_id, 1), report
        assert error.startswith("RuntimeError: the fetch broke; cancelling the unfinished shards failed too ("), error
        failed = ShardsFailed("1 of 2 shards did not complete: ...", report, "shard 2/2 (flow run x) crashed: -9")
        assert pool.stopped(failed) == (report, "shard 2/2 (flow run x) crashed: -9")


def _zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for p in SMALL[:2]:
            zf.writestr(p.name.removesuffix(".gz"), read_body(p))
        zf.writestr("CIK0000000001.json", HTML)
        for p in SMALL[2:]:
            zf.writestr(p.name.removesuffix(".gz"), read_body(p))
    return path


@pytest.fixture(scope="module")
def prefect_api(tmp_path_factory) -> Iterator[str]:
    """The API URL of a Prefect server on loopback: the test run's shared one (pytest-xdist), else one of
    this module's own (tests/prefect_server.py)."""
    shared = os.environ.get("EDGAR_TEST_SHARED_PREFECT_URL")
    if shared and os.environ.get("PREFECT_API_URL") == shared:
        yield shared
        return
    import prefect_server

    home = tmp_path_factory.mktemp("prefect-server")
    proc, url = prefect_server.start(home)
    try:
        prefect_server.wait_healthy(proc, url, home)
        yield url
    finally:
        prefect_server.stop(proc)


class Workers:
    """`prefect worker start` processes on one process work pool, each running one shard at a time."""

    def __init__(self, api: str, folder: Path, lake: dict[str, str]):
        self.api, self.folder, self.lake = api, folder, lake
        self.pool = f"pool-{uuid.uuid4().hex[:8]}"
        self.procs: dict[str, subprocess.Popen] = {}

    def env(self, **extra: str) -> dict[str, str]:
        return {**os.environ, **self.lake, "PREFECT_API_URL": self.api, "PREFECT_LOGGING_LEVEL": "INFO",
                "PREFECT_WORKER_QUERY_SECONDS": "1", **extra}

    def start(self, name: str, **extra: str) -> None:
        with open(self.folder / f"{name}.log", "w") as log:
            self.procs[name] = subprocess.Popen(
                [str(BIN / "prefect"), "worker", "start", "--pool", self.pool, "--type", "process", "--limit", "1",
                 "--name", name], env=self.env(**extra), cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
        self.wait_online(name)

    def wait_online(self, name: str, timeout: float = 120) -> None:
        """Until the server lists worker ``name`` on the pool (its first heartbeat) and the pool is ready."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.procs[name].poll() is None, self.log(name)[-3000:]
            workers = httpx.post(f"{self.api}/work_pools/{self.pool}/workers/filter", json={}, timeout=10)
            pool = httpx.get(f"{self.api}/work_pools/{self.pool}", timeout=10)
            if workers.status_code == 200 and name in {w["name"] for w in workers.json()} \
                    and pool.json().get("status") == "READY":
                return
            time.sleep(0.5)
        raise AssertionError(f"worker {name} not online after {timeout} s: {self.log(name)[-3000:]}")

    def stop(self, name: str) -> None:
        prefect_server.stop(self.procs.pop(name))

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text()

    def shards_run_by(self, name: str, load_id: str) -> set[str]:
        """Labels (``1/2``) of the shards of run ``load_id`` that worker ``name`` started."""
        return set(re.findall(rf"Flow run 'shard (\d+/\d+) of {load_id[:8]}' submitted to infrastructure",
                              self.log(name)))

    def close(self) -> None:
        for name in list(self.procs):
            self.stop(name)


def _bootstrap(env: dict[str, str], zipped: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "edgar-warehouse"), "bootstrap", "--companyfacts-zip", str(zipped),
                           "--batch-size", "1", *extra], env=env, cwd=REPO, capture_output=True, text=True,
                          timeout=900)


def _load_id(out: str) -> str:
    found = re.search(r"load ([0-9a-f]{8})", out)
    assert found, out
    return found.group(1)


def _reader(env: dict[str, str]):
    def open_it():
        with backend_env(env):
            return connect("unused", read_only=True, external_access=True)
    return open_it


def _rows(env: dict[str, str], query: str) -> list[tuple]:
    """The rows of ``query`` in the lake of ``env``, read by a reader of its own."""
    con = _reader(env)()
    try:
        return fetch_all(con, query)
    finally:
        con.close()


def _runs(env: dict[str, str]) -> list[tuple]:
    return _rows(env, "SELECT status, documents_loaded, documents_unchanged, documents_rejected, error"
                      " FROM load_runs ORDER BY started_at")


def _documents(env: dict[str, str]) -> list[tuple]:
    return _rows(env, "SELECT uri, status FROM source_documents ORDER BY status, uri")


@pytest.mark.slow
def test_two_workers_bootstrap_a_lake_equal_to_one_process_and_a_killed_shard_is_named_and_converges(
        tmp_path, prefect_api, backend_of):
    zipped = _zip(tmp_path / "companyfacts.zip")
    reference, pooled, killed = backend_of("ducklake"), backend_of("ducklake"), backend_of("ducklake")
    one = _bootstrap({**os.environ, **reference}, zipped)
    assert one.returncode == EXIT_PARTIAL, one.stderr[-3000:]
    assert "4 loaded, 0 unchanged, 1 rejected" in one.stdout, one.stdout

    workers = Workers(prefect_api, tmp_path, pooled)
    try:
        missing = _bootstrap(workers.env(), zipped, "--work-pool", workers.pool)
        assert missing.returncode == EXIT_ERROR and f"no work pool '{workers.pool}'" in missing.stderr, missing.stderr
        workers.start("w1")
        workers.start("w2")
        pool = _bootstrap(workers.env(), zipped, "--work-pool", workers.pool, "--shards", "2")
        assert pool.returncode == EXIT_PARTIAL, pool.stderr[-3000:]
        assert "4 loaded, 0 unchanged, 1 rejected" in pool.stdout, pool.stdout
        assert "CIK0000000001.json" in pool.stderr and "shard 2/2 Completed" in pool.stderr, pool.stderr
        load_id = _load_id(pool.stdout)
        ran = {name: workers.shards_run_by(name, load_id) for name in ("w1", "w2")}
        # which worker takes which shard is the pool's business (a worker done early takes the next)
        assert ran["w1"] | ran["w2"] == {"1/2", "2/2"}, ran
        assert _runs(pooled) == [("partial", 4, 0, 1, None)]
        diffs = compare(_reader(reference), _reader(pooled), IGNORE)
        assert len(diffs) >= 35 and [d.line() for d in diffs if not d.same] == []

        # a worker whose shard's process dies (SIGKILL) before its first commit: the parent names that shard
        workers.lake = killed
        workers.stop("w1")
        workers.stop("w2")
        workers.start("w1")
        workers.start("k", **{KILL_AT: "before_commit:1"})
        failed = _bootstrap(workers.env(), zipped, "--work-pool", workers.pool, "--shards", "2")
        assert failed.returncode == EXIT_ERROR, failed.stderr[-3000:]
        first = _load_id(failed.stderr)
        dead = workers.shards_run_by("k", first)
        assert dead and dead | workers.shards_run_by("w1", first) == {"1/2", "2/2"}
        named = set(re.findall(r"shard (\d/\d) \(flow run shard \d/\d of \w+\) crashed", failed.stderr))
        assert named == dead, failed.stderr
        assert "1 of 2 shards did not complete" in failed.stderr and "loads only what is missing" in failed.stderr
        [(status, loaded, unchanged, rejected, error)] = _runs(killed)
        assert status == "partial" and loaded + rejected < 5 and "crashed" in error, error

        # the same bootstrap again, on healthy workers: only what is missing is loaded, and the lake converges
        workers.stop("k")
        workers.start("w2")
        again = _bootstrap(workers.env(), zipped, "--work-pool", workers.pool, "--shards", "2")
        assert again.returncode == EXIT_PARTIAL, again.stderr[-3000:]
        assert f"{4 - loaded} loaded, {loaded} unchanged" in again.stdout, again.stdout
        assert [r[0] for r in _runs(killed)] == ["partial", "partial"]
        # what differs is the runs' own: two runs here, one there (load_runs, the checks kept per run), and the
        # bad member recorded as rejected by each run that met it
        diffs = compare(_reader(reference), _reader(killed), IGNORE)
        assert {d.relation for d in diffs if not d.same} <= {"load_runs", "check_results", "source_documents"}, \
            [d.line() for d in diffs if not d.same]
        kept = _documents(reference)
        assert kept[-1] == ("companyfacts.zip:CIK0000000001.json", "rejected")
        assert _documents(killed) == kept + kept[-1:] * rejected
    finally:
        workers.close()


# four companies of the recorded SEC responses, small companyfacts, each with its submissions
REFRESHED = ["1046179", "1835632", "1652044", "820313"]
NIGHTS = REPO / "tests" / "fixtures" / "nights"
# and of two honest fetches of the same responses: when each request went and took, in what order (threads),
# when the companies were tracked, the run that synced them; and the ids of documents under their other names
# (ids follow commit order, and shards commit in either order; ids a killed shard drew are not drawn again)
FETCHED = IGNORE + ("sent_at", "elapsed_ms", "seq", "tracked_at", "synced_load_id",
                    "declared_by_source_document_id", "page_source_document_id", "submissions_source_document_id",
                    "header_source_document_id")


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "edgar-warehouse"), *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=900)


def _refresh(env: dict[str, str], replay: Path, *extra: str) -> subprocess.CompletedProcess:
    ciks = [a for c in REFRESHED for a in ("--cik", c)]
    return _cli(env, "refresh", *ciks, "--replay", str(replay), "--no-insiders", *extra)


def _watermarks(env: dict[str, str]) -> list[tuple]:
    return _rows(env, "SELECT cik, synced_through FROM tracked_companies ORDER BY cik")


@pytest.mark.slow
def test_refresh_and_the_nightly_on_the_pool_fetch_here_load_there_and_equal_one_process(
        tmp_path, prefect_api, backend_of, replay_root):
    """`refresh --work-pool` and `nightly --work-pool`: this process fetches (the one under SEC's limit), the
    pool's two workers load each batch; the lakes equal one-process runs of the same replayed responses."""
    ref_refresh, pool_refresh = backend_of("ducklake"), backend_of("ducklake")
    with backend_env({"EDGAR_WAREHOUSE_BACKEND": "duckdb"}):
        refused = CliRunner().invoke(app, ["--db", str(tmp_path / "w.duckdb"), "refresh", "--cik", "1046179",
                                           "--replay", str(replay_root), "--work-pool", "anything"])
    assert refused.exit_code == EXIT_USAGE and "--work-pool is for the DuckLake backend" in refused.output

    one = _refresh({**os.environ, **ref_refresh}, replay_root, "--batch-size", "2")  # what 2 shards cut
    assert one.returncode in (0, EXIT_PARTIAL), one.stderr[-3000:]
    workers = Workers(prefect_api, tmp_path, pool_refresh)
    try:
        workers.start("w1")
        workers.start("w2")
        pooled = _refresh(workers.env(), replay_root, "--work-pool", workers.pool, "--shards", "2")
        assert pooled.returncode == one.returncode, pooled.stderr[-3000:]
        load_id = _load_id(pooled.stdout)
        ran = {name: workers.shards_run_by(name, load_id) for name in ("w1", "w2")}
        assert ran["w1"] | ran["w2"] == {"1/2", "2/2"}, ran
        # the same run summary line (documents, rows) and the same lake
        assert one.stdout.split(": ", 1)[1] == pooled.stdout.split(": ", 1)[1], (one.stdout, pooled.stdout)
        assert [r[:4] for r in _runs(pool_refresh)] == [r[:4] for r in _runs(ref_refresh)]
        diffs = compare(_reader(ref_refresh), _reader(pool_refresh), FETCHED)
        assert len(diffs) >= 35 and [d.line() for d in diffs if not d.same] == []
        # what the fetcher knew of each document reaches the lake through the shard: its URL and origin
        origins = _rows(pool_refresh, "SELECT DISTINCT origin, uri LIKE 'https://data.sec.gov/%' FROM source_documents")
        assert origins == [("replay", True)], origins

        # the nightly: Apple and an officer who files only Forms 3/4/5, never fetched, one batch each
        ref_night, pool_night = backend_of("ducklake"), backend_of("ducklake")
        night = ("nightly", "--replay", str(NIGHTS / "night1"), "--today", "2022-04-28",
                 "--insider-history-days", "0", "--batch-size", "1")
        for env in ({**os.environ, **ref_night}, {**workers.env(), **pool_night}):
            tracked = _cli(env, "track", "--cik", "320193", "--cik", "1462356")
            assert tracked.returncode == 0, tracked.stderr[-3000:]
        alone = _cli({**os.environ, **ref_night}, *night)
        assert alone.returncode == 0, alone.stderr[-3000:]
        workers.lake = pool_night
        workers.stop("w1")
        workers.stop("w2")
        workers.start("w1")
        workers.start("w2")
        shared = _cli(workers.env(), *night, "--work-pool", workers.pool)
        assert shared.returncode == 0, shared.stderr[-3000:]
        assert _watermarks(pool_night) == _watermarks(ref_night) and _watermarks(pool_night)[0][1] is not None
        diffs = compare(_reader(ref_night), _reader(pool_night), FETCHED)
        assert [d.line() for d in diffs if not d.same] == []
    finally:
        workers.close()


@pytest.mark.slow
def test_a_nightly_or_refresh_whose_shards_die_names_them_advances_no_watermark_and_converges(
        tmp_path, prefect_api, backend_of, replay_root):
    """A nightly on the pool whose shard processes are killed (SIGKILL) before they commit: the nightly
    fails naming each shard, no watermark moves (the companies are asked again next night), and the
    next night on a healthy worker loads what the first one did not: the lake equals one process's.
    A refresh on the same dying worker fails the same way: each shard named, its run recorded failed."""
    reference, lake = backend_of("ducklake"), backend_of("ducklake")
    night = ("nightly", "--replay", str(NIGHTS / "night1"), "--today", "2022-04-28",
             "--insider-history-days", "0", "--batch-size", "1")
    workers = Workers(prefect_api, tmp_path, lake)
    try:
        for env in ({**os.environ, **reference}, workers.env()):
            assert _cli(env, "track", "--cik", "320193", "--cik", "1462356").returncode == 0
        alone = _cli({**os.environ, **reference}, *night)
        assert alone.returncode == 0, alone.stderr[-3000:]
        workers.start("k", **{KILL_AT: "before_commit:1"})  # every shard's process dies at its first commit
        dead = _cli(workers.env(), *night, "--work-pool", workers.pool)
        assert dead.returncode == EXIT_ERROR, dead.stderr[-3000:]
        assert "2 of 2 shards did not complete" in dead.stderr and "loads only what is missing" in dead.stderr
        assert set(re.findall(r"shard (\d/\d) \(flow run shard \d/\d of \w+\) crashed", dead.stderr)) == {"1/2", "2/2"}
        assert _watermarks(lake) == [(320193, None), (1462356, None)]
        [(status, loaded, _, _, error)] = _runs(lake)
        assert (status, loaded) == ("failed", 0) and "crashed" in error, (status, loaded, error)
        refreshed = _refresh(workers.env(), replay_root, "--work-pool", workers.pool, "--shards", "2")
        assert refreshed.returncode == EXIT_ERROR, refreshed.stderr[-3000:]
        assert "2 of 2 shards did not complete" in refreshed.stderr, refreshed.stderr[-3000:]
        assert set(re.findall(r"shard (\d/\d) \(flow run shard \d/\d of \w+\) crashed", refreshed.stderr)) == {"1/2", "2/2"}
        (status, loaded, _, _, error) = _runs(lake)[1]
        assert (status, loaded) == ("failed", 0) and "shard 1/2" in error and "shard 2/2" in error, (status, error)
        assert error.count("crashed") == 2, error

        workers.stop("k")
        workers.start("w1")
        again = _cli(workers.env(), *night, "--work-pool", workers.pool)
        assert again.returncode == 0, again.stderr[-3000:]
        assert _watermarks(lake) == _watermarks(reference) and _watermarks(lake)[0][1] is not None
        diffs = compare(_reader(reference), _reader(lake), FETCHED)
        # what differs is the runs' own: two runs here (their rows, checks and requests), one there
        assert {d.relation for d in diffs if not d.same} <= {"load_runs", "check_results", "run_requests"}, \
            [d.line() for d in diffs if not d.same]
    finally:
        workers.close()
