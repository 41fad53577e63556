"""One way in (issue 8: one ingest path, one table of kinds) and runs that tell the truth (bullet 7)."""

from __future__ import annotations

import dataclasses
import os
import platform
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, KIND_EXAMPLES, small_fsds_zip
from pipelines import parse as parse_mod
from pipelines.archive import documents
from pipelines.detect import KINDS as DETECTED
from pipelines.documents import read_local_document
from pipelines.parse import KINDS, parse_document
from pipelines.submissions import Submissions, SubmissionsPage
from pipelines.tickers import CompanyTickers
from warehouse.load.batch import reconcile_interrupted
from warehouse.load.ingest import configure_writer, ingest
from warehouse.load.kinds import BY_DOCUMENT, LOADERS
from warehouse.load.kinds import KINDS as STORED
from warehouse.schema.tables import BY_NAME as TABLES
from warehouse.store.db import connect, fetch_all, fetch_value

ROOT = Path(__file__).resolve().parents[3]
ONE_OF_EACH = {kind: path for kind, path in KIND_EXAMPLES.items() if kind != "daily_index"}  # the loadable kinds
CF = sorted(COMPANYFACTS_DIR.glob("*.json.gz"))


def _one(path):
    """The document of ONE_OF_EACH's path (a zip of FSDS filings: its first filing)."""
    return next(documents([path])) if path.suffix == ".zip" else read_local_document(path)


def test_one_table_of_kinds_and_one_of_loaders_agree():
    assert set(ONE_OF_EACH) == set(KINDS)
    # every kind content detection can tell is loadable, except EDGAR's daily index (read by the
    # refresh flow for discovery, never stored)
    assert set(DETECTED) - set(KINDS) == {"daily_index"}
    assert set(BY_DOCUMENT) == set(KINDS) and len(LOADERS) == len(STORED)  # one row per record type
    for record_type, kind in LOADERS.items():
        assert kind.record_type is record_type and callable(kind.loader)
        assert set(kind.tables) <= set(TABLES), f"{record_type.__name__}: tables without a row in schema/tables.py"
    for name, path in ONE_OF_EACH.items():
        doc = _one(path)
        detected, record = parse_document(doc)  # kind detected from content, as `load` does
        assert detected == name
        assert type(record) is BY_DOCUMENT[name].record_type
    # pages load after their main file, which loads after the ticker registry
    assert LOADERS[CompanyTickers].order < LOADERS[Submissions].order < LOADERS[SubmissionsPage].order


def _row_counts(con) -> dict[str, int]:
    return {t: fetch_value(con, f'SELECT count(*) FROM "{t}"') for (t,) in fetch_all(
        con, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT internal")}


@pytest.mark.parametrize("name", sorted(ONE_OF_EACH))
def test_a_kind_writes_no_other_kinds_table_than_its_row_lists(name, tmp_path):
    """Loading one document of a kind changes no table another kind's row lists unless its own row
    lists it too (the tables a row names are the ones its loader writes), and writes some of them."""
    con = connect(tmp_path / "w.duckdb")
    try:
        before = _row_counts(con)
        report = ingest(con, [_one(ONE_OF_EACH[name])], raw_dir=tmp_path / "raw", command="load")
        assert report.loaded == 1, report.rejected
        changed = {t for t, n in _row_counts(con).items() if n != before[t]}
    finally:
        con.close()
    of_kinds = {t for k in STORED for t in k.tables}
    own = set(BY_DOCUMENT[name].tables)
    assert changed & of_kinds <= own, sorted(changed & of_kinds - own)
    assert changed & own, f"{name}: none of its tables got a row"


def test_an_unchanged_reload_is_recognised_before_parsing(warehouse, raw_dir, monkeypatch):
    docs = [read_local_document(p) for p in CF[:2]]
    first = ingest(warehouse, docs, raw_dir=raw_dir, command="load")
    assert first.loaded == 2 and first.status == "succeeded"

    def never(doc):
        raise AssertionError(f"{doc.uri} was parsed although its bytes are loaded")

    real = KINDS["companyfacts"]
    monkeypatch.setitem(parse_mod.KINDS, "companyfacts", dataclasses.replace(real, parse=never))
    again = ingest(warehouse, [read_local_document(p) for p in CF[:2]], raw_dir=raw_dir, command="load")
    assert (again.loaded, again.unchanged, again.rejected, again.status) == (0, 2, [], "succeeded")
    assert fetch_all(warehouse, "SELECT status, documents_unchanged FROM load_runs ORDER BY started_at") == [
        ("succeeded", 0), ("succeeded", 2)]


def test_a_run_is_running_from_its_start_with_its_process(warehouse, raw_dir):
    seen = []

    def docs():
        # the run's row is committed before the first document is even read
        seen.append(fetch_all(warehouse, "SELECT status, pid, host, finished_at FROM load_runs"))
        yield read_local_document(CF[0])

    run = ingest(warehouse, docs(), raw_dir=raw_dir, command="load")
    assert seen == [[("running", os.getpid(), platform.node(), None)]]
    assert fetch_all(warehouse, "SELECT status, documents_loaded FROM load_runs") == [("succeeded", 1)]
    assert run.status == "succeeded"


def test_a_runs_last_batch_commits_into_the_file_not_the_wal(warehouse, raw_dir, tmp_path):
    """The one batch of a run (whose writer checkpoints when it closes anyway) commits by checkpointing:
    its rows are not first written to the WAL (the 8 samples: 42 MB of WAL for a 22 MB file); the writer's
    settings are restored after it, and the next run's batch commits into the WAL again as usual."""
    from warehouse.store.publish import wal_of

    wal = wal_of(tmp_path / "w.duckdb")
    settings = "SELECT current_setting('checkpoint_threshold'), current_setting('max_vacuum_tasks')"
    configured = []

    def after_commit(report, documents):
        configured.append(fetch_all(warehouse, settings)[0])
        after.append(wal.stat().st_size if wal.exists() else 0)

    after: list[int] = []
    run = ingest(warehouse, [read_local_document(p) for p in CF[:3]], raw_dir=raw_dir, command="load",
                 on_batch=after_commit)
    assert run.loaded == 3 and after == [0], after
    configure_writer(warehouse)  # what the writer set before the run, and so after it
    assert configured == [tuple(fetch_all(warehouse, settings)[0])], configured
    assert fetch_value(warehouse, "SELECT count(*) FROM facts") > 10_000
    warehouse.execute("BEGIN TRANSACTION")
    warehouse.execute("UPDATE load_runs SET error = 'x' WHERE false")
    warehouse.execute("INSERT INTO fact_repeated_keys VALUES (1, 'a', 'b', 'USD', NULL, DATE '2020-01-01')")
    warehouse.execute("COMMIT")
    assert wal.exists() and wal.stat().st_size > 0  # an ordinary commit is logged as before


def test_of_several_batches_only_the_last_commits_without_the_wal(warehouse, raw_dir, tmp_path):
    """A run of three batches (the next parsed in a worker while one loads: ParseAhead): the first two
    commit into the WAL as every bulk batch does (a checkpoint per batch was measured dearer), the last
    one checkpoints at its commit."""
    from warehouse.store.publish import wal_of

    wal = wal_of(tmp_path / "w.duckdb")
    after: list[int] = []
    run = ingest(warehouse, [read_local_document(p) for p in CF[:3]], raw_dir=raw_dir, command="load",
                 batch_size=1, on_batch=lambda report, documents: after.append(wal.stat().st_size if wal.exists() else 0))
    assert run.loaded == 3 and len(after) == 3, after
    assert after[0] > 0 and after[1] > after[0] and after[2] == 0, after


def _cli(db: Path, *args, kill_at: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("EDGAR_WAREHOUSE_KILL_AT", None)
    if kill_at:
        env["EDGAR_WAREHOUSE_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), *map(str, args)],
                          env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow  # CLI processes: make check leaves it out
def test_a_killed_batch_run_never_reads_succeeded(tmp_path):
    """Bug: a `--batch-size` run killed after 2 of 4 batches was recorded `succeeded` with 2 of 4
    documents. Now its batches commit into the writer's private build, published only when the run
    ends: the published warehouse keeps its previous state, and the run, never published, cannot
    read succeeded; the next writer discards the stale build and a re-run loads everything."""
    db = tmp_path / "w.duckdb"
    files = CF[:4]
    assert _cli(db, "init").returncode == 0
    killed = _cli(db, "load", *files, "--batch-size", "1", kill_at="batch_committed:2")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    con = connect(db, read_only=True)
    try:
        assert fetch_all(con, "SELECT status FROM load_runs") == []
        assert fetch_value(con, "SELECT count(*) FROM source_documents") == 0
    finally:
        con.close()
    again = _cli(db, "load", *files, "--batch-size", "1")
    assert again.returncode == 0, again.stderr
    con = connect(db, read_only=True)
    try:
        assert fetch_all(con, "SELECT status, documents_loaded FROM load_runs") == [("succeeded", 4)]
    finally:
        con.close()


@pytest.mark.slow  # CLI processes: make check leaves it out
def test_a_run_left_running_by_a_dead_process_is_closed_as_interrupted(tmp_path):
    """A run whose rows were committed but whose process died before finishing it (seen by any
    writer opening that file directly) is closed by the next writer: partial when some batches had
    committed, else failed, with an `interrupted: process N on HOST ...` error."""
    db = tmp_path / "w.duckdb"
    con = connect(db)
    try:
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
        pid = int(dead.stdout)  # a process that has exited
        for load_id, loaded in (("with-batches", 2), ("before-first-batch", 0)):
            con.execute("INSERT INTO load_runs (load_id, command, started_at, status, documents_loaded, pid, host)"
                        " VALUES (?, 'load', now(), 'running', ?, ?, ?)", [load_id, loaded, pid, platform.node()])
        con.execute("INSERT INTO load_runs (load_id, command, started_at, status, pid, host)"
                    " VALUES ('alive', 'load', now(), 'running', ?, ?)", [os.getpid(), platform.node()])
        assert sorted(reconcile_interrupted(con)) == ["before-first-batch", "with-batches"]
        rows = dict((lid, (status, error)) for lid, status, error in
                    fetch_all(con, "SELECT load_id, status, error FROM load_runs"))
        assert rows["with-batches"][0] == "partial" and rows["before-first-batch"][0] == "failed"
        assert rows["with-batches"][1] == f"interrupted: process {pid} on {platform.node()} ended before " \
                                          "finishing the run"
        assert rows["alive"] == ("running", None)
    finally:
        con.close()


@pytest.mark.slow  # CLI processes (a load and a rebuild, twice): make check leaves it out
@pytest.mark.parametrize("batch_size", [0, 3])
def test_load_and_rebuild_share_the_path(tmp_path, batch_size):
    db = tmp_path / "w.duckdb"
    # the FSDS quarter cut to its first three filings (all 435 of it: 120 s of this test's 140, for no
    # more of the path)
    quarter, _ = small_fsds_zip(ONE_OF_EACH["fsds_filing"], tmp_path / "2009q3.zip", set(), 3)
    files = [*CF[:2], *(p for kind, p in ONE_OF_EACH.items() if kind != "fsds_filing"), quarter]
    held = sum(1 for _ in documents(files))
    assert held > len(files)  # the zip holds many filings
    assert _cli(db, "load", *files, "--batch-size", batch_size).returncode == 0
    target = tmp_path / "rebuilt.duckdb"
    rebuilt = _cli(db, "rebuild", target, "--batch-size", batch_size)
    assert rebuilt.returncode == 0, rebuilt.stderr
    for path in (db, target):
        con = connect(path, read_only=True)
        try:
            assert fetch_all(con, "SELECT command, status FROM load_runs") in (
                [("load", "succeeded")], [("rebuild", "succeeded")])
            # one source document per document the files hold (the FSDS zip: one per filing it lists)
            assert fetch_value(con, "SELECT count(*) FROM source_documents WHERE status = 'loaded'") == held
        finally:
            con.close()


def test_source_documents_say_what_each_document_said(warehouse, raw_dir):
    """The rows of a batch's source documents (written together, one statement) carry every field
    of their Document: companyfacts stored together, a submissions file (its own loader) between
    them, and a rejected document; ids consecutive in load order."""
    import dataclasses as dc
    from datetime import datetime

    from pipelines.documents import Document
    from pipelines.errors import RejectedDocument
    from pipelines.parse import parse_many
    from warehouse.load.batch import Parsed, Rejected, load_batch

    when = datetime(2026, 11, 30, 23, 59, 58, 123456)
    paths = [COMPANYFACTS_DIR / "CIK0000320193.json.gz", FIXTURES / "sec" / "data.sec.gov" / "submissions"
             / "CIK0000050863.json.gz", COMPANYFACTS_DIR / "CIK0001045810.json.gz"]
    docs = [dc.replace(read_local_document(p), fetched_at=when, http_status=200, etag=f'"e{n}"',
                       last_modified="Mon, 30 Nov 2026 10:00:00 GMT", accession=None)
            for n, p in enumerate(paths)]
    items = [Parsed(r.doc, r.record) for r in parse_many(docs, workers=1)]
    bad = Document(uri="bad.json", origin="http", body=b"<html>", fetched_at=when, expected_cik=12345,
                   accession="0000012345-26-000001")
    items.append(Rejected(bad, RejectedDocument("bad.json", "an HTML page")))
    report = load_batch(warehouse, items, raw_dir=raw_dir)
    assert report.loaded == 3 and len(report.rejected) == 1
    rows = fetch_all(warehouse, "SELECT source_document_id, kind, uri, origin, sha256, bytes, fetched_at, http_status,"
                                " etag, last_modified, cik, accession, status, reject_reason, raw_path IS NOT NULL,"
                                " load_id, expected_cik, given_accession FROM source_documents ORDER BY uri")
    by_uri = {r[2]: r for r in rows}
    assert sorted(r[0] for r in rows) == [1, 2, 3, 4]
    for doc, kind, cik in zip(docs, ("companyfacts", "submissions", "companyfacts"), (320193, 50863, 1045810),
                              strict=True):
        assert by_uri[doc.uri][1:] == (kind, doc.uri, "file", doc.sha256, doc.size, when, 200, doc.etag,
                                       "Mon, 30 Nov 2026 10:00:00 GMT", cik, None, "loaded", None, True,
                                       report.load_id, doc.expected_cik, None)
    assert by_uri["bad.json"][1:] == ("unknown", "bad.json", "http", bad.sha256, 6, when, None, None, None, 12345,
                                      "0000012345-26-000001", "rejected", "an HTML page", True, report.load_id,
                                      12345, "0000012345-26-000001")
