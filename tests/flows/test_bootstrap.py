"""The bulk bootstrap (`edgar-warehouse bootstrap`, `load DIR`): SEC-shaped zips of real vendored
payloads, bad members rejected by name, resumable by sha256, a killed run converges, lazy streaming."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import flows.bootstrap as bootstrap_flow
import pipelines.archive as archive
from flows.cli import EXIT_PARTIAL, app
from helpers import COMPANYFACTS_DIR, FIXTURES, read_body, sound_state
from warehouse.store.db import connect, raw_dir_for
from warehouse.store.killpoints import ENV

pytestmark = pytest.mark.slow  # CLI processes (make check leaves it out)

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = FIXTURES / "sec/data.sec.gov/submissions"
CF = {cik: COMPANYFACTS_DIR / f"CIK{cik:010d}.json.gz" for cik in (1046179, 1835632)}  # TSMC, Marvell
HTML = b"<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head></html>"
runner = CliRunner()


def cli(db, *args):
    return runner.invoke(app, ["--db", str(db), *map(str, args)])


def _zip(path: Path, entries: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, body in entries:
            zf.writestr(name, body)
    return path


@pytest.fixture
def zips(tmp_path) -> tuple[Path, Path]:
    """companyfacts.zip: TSMC, an HTML throttle page, Marvell, a truncated JSON; submissions.zip:
    Tesla's main file and its page 001 (the page SEC ships in submissions.zip), and Marvell's."""
    cf = _zip(tmp_path / "companyfacts.zip", [
        ("CIK0001046179.json", read_body(CF[1046179])),
        ("CIK0000000001.json", HTML),
        ("CIK0001835632.json", read_body(CF[1835632])),
        ("CIK0000000002.json", read_body(CF[1046179])[:5000]),
    ])
    sub = _zip(tmp_path / "submissions.zip", [
        (name, read_body(SUBMISSIONS / f"{name}.gz"))
        for name in ("CIK0001318605-submissions-001.json", "CIK0001318605.json", "CIK0001835632.json")])
    return cf, sub


def _rows(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_bootstrap_loads_good_members_rejects_bad_by_name_and_a_rerun_loads_nothing_new(tmp_path, zips):
    cf, sub = zips
    db = tmp_path / "w.duckdb"
    first = cli(db, "bootstrap", "--companyfacts-zip", cf, "--submissions-zip", sub, "--batch-size", "2")
    assert first.exit_code == EXIT_PARTIAL, first.output
    assert "5 loaded, 0 unchanged, 2 rejected" in first.output
    rejected = dict(_rows(db, "SELECT uri, reject_reason FROM source_documents WHERE status = 'rejected'"))
    assert set(rejected) == {"companyfacts.zip:CIK0000000001.json", "companyfacts.zip:CIK0000000002.json"}
    assert "HTML page" in rejected["companyfacts.zip:CIK0000000001.json"]
    assert "companyfacts.zip:CIK0000000001.json" in first.output
    # the page member is loaded as the page its main file declares: Tesla's history is complete
    assert _rows(db, "SELECT cik, complete FROM company_coverage ORDER BY cik") == [
        (1046179, False), (1318605, True), (1835632, True)]  # TSMC: facts only, no submissions in the zip
    assert _rows(db, "SELECT count(DISTINCT cik) FROM facts") == [(2,)]
    runs = _rows(db, "SELECT command, status FROM load_runs")
    assert runs == [("bootstrap", "partial")]

    again = cli(db, "bootstrap", "--companyfacts-zip", cf, "--submissions-zip", sub, "--batch-size", "2")
    assert again.exit_code == EXIT_PARTIAL
    assert "0 loaded, 5 unchanged, 2 rejected; no new rows" in again.output


def test_load_dir_walks_folders_recursively_and_reads_zips(tmp_path, zips):
    cf, _ = zips
    tree = tmp_path / "tree"
    (tree / "submissions" / "tesla").mkdir(parents=True)
    for name in ("CIK0001318605.json.gz", "CIK0001318605-submissions-001.json.gz"):
        (tree / "submissions" / "tesla" / name).write_bytes((SUBMISSIONS / name).read_bytes())
    (tree / "companyfacts.zip").write_bytes(cf.read_bytes())
    db = tmp_path / "w.duckdb"
    result = cli(db, "load", tree)
    assert result.exit_code == EXIT_PARTIAL, result.output
    assert "4 loaded, 0 unchanged, 2 rejected" in result.output
    assert _rows(db, "SELECT kind, count(*) FROM source_documents WHERE status = 'loaded' GROUP BY kind ORDER BY kind") \
        == [("companyfacts", 2), ("submissions", 1), ("submissions_page", 1)]
    missing = cli(db, "load", tmp_path / "nowhere")
    assert missing.exit_code == 1 and "no such file or folder" in missing.output


def test_bootstrap_pulls_one_batch_of_members_at_a_time(tmp_path, zips, monkeypatch):
    """Bounded memory: when a batch commits, only that batch's members and the next batch's (parsed
    by the worker meanwhile, warehouse.load.ingest) have been read from the zip."""
    cf, sub = zips
    pulled: list[int] = []
    at_commit: list[int] = []
    real = archive.documents  # flows.bootstrap imports it where it is used (a CLI process does not pay for it)

    def counting(paths, **kw):
        for doc in real(paths, **kw):
            pulled.append(1)
            yield doc

    monkeypatch.setattr(archive, "documents", counting)
    con = connect(tmp_path / "w.duckdb")
    try:
        report = bootstrap_flow.bootstrap(con, [sub, cf], raw_dir=raw_dir_for(tmp_path / "w.duckdb"), batch_size=2,
                                          on_batch=lambda _r, n: at_commit.append(len(pulled)))
    finally:
        con.close()
    assert at_commit == [4, 6, 7, 7]
    assert report.loaded == 5 and len(report.rejected) == 2


def _bootstrap(db: Path, cf: Path, sub: Path, kill_at: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "EDGAR_WAREHOUSE_LOCK_WAIT": "60"}
    env.pop(ENV, None)
    if kill_at:
        env[ENV] = kill_at
    return subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), "bootstrap", "--companyfacts-zip",
                           str(cf), "--submissions-zip", str(sub), "--batch-size", "1"],
                          env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("kill_at", ["batch_committed:2", "before_commit:3"])
def test_a_killed_bootstrap_rerun_converges_to_the_clean_state(tmp_path, kill_at):
    sub = _zip(tmp_path / "submissions.zip", [
        (name, read_body(SUBMISSIONS / f"{name}.gz")) for name in ("CIK0001318605.json", "CIK0001835632.json")])
    cf = _zip(tmp_path / "companyfacts.zip", [(f"CIK{cik:010d}.json", read_body(p)) for cik, p in CF.items()])
    clean = tmp_path / "clean.duckdb"
    assert _bootstrap(clean, cf, sub).returncode == 0
    db = tmp_path / "killed.duckdb"
    killed = _bootstrap(db, cf, sub, kill_at)
    assert killed.returncode == -9, killed.stderr
    rerun = _bootstrap(db, cf, sub)
    assert rerun.returncode == 0, rerun.stderr
    assert "2 loaded, 2 unchanged, 0 rejected" in rerun.stdout  # batches 1-2 had committed, batch 3 had not
    assert sound_state(db) == sound_state(clean)
    assert _rows(db, "SELECT status FROM load_runs ORDER BY started_at") == [("partial",), ("succeeded",)]


def test_a_build_is_resumed_only_by_the_same_command_over_the_same_published_file(tmp_path):
    from warehouse.store.publish import build_path_for, prepare_build

    db = tmp_path / "w.duckdb"
    db.write_bytes(b"published v1")
    build = prepare_build(db, command="bootstrap", resume=True)
    build.write_bytes(b"published v1 + committed batches")  # then the process is killed
    assert prepare_build(db, command="bootstrap", resume=True).read_bytes() == b"published v1 + committed batches"
    assert prepare_build(db, command="load", resume=True).read_bytes() == b"published v1"  # another command
    build_path_for(db).write_bytes(b"published v1 + committed batches")
    assert prepare_build(db, command="bootstrap", resume=False).read_bytes() == b"published v1"  # not asked
    prepare_build(db, command="bootstrap", resume=True).write_bytes(b"stale")
    db.write_bytes(b"published v2, by a later writer")  # the published file is no longer what the build copied
    assert prepare_build(db, command="bootstrap", resume=True).read_bytes() == b"published v2, by a later writer"
