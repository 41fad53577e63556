"""The loading connection's settings: memory bounded by default (512MB) or by
EDGAR_WAREHOUSE_MEMORY_LIMIT, one DuckDB thread by default (EDGAR_WAREHOUSE_WRITER_THREADS), insertion
order not preserved, automatic checkpoints every EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD of WAL
(DuckDB 1.5 rewrites every ART index whole at each checkpoint), bad values refused by name."""

from __future__ import annotations

import duckdb
import pytest

from helpers import COMPANYFACTS_FILES
from pipelines.documents import read_local_document
from warehouse.load.ingest import batch_bytes, batches, configure_writer, ingest
from warehouse.store.db import WarehouseError, connect, fetch_value
from warehouse.store.publish import wal_of


def _setting(con, name: str) -> str:
    return fetch_value(con, "SELECT current_setting(?)", [name])


def test_defaults(tmp_path, monkeypatch):
    """Bounded memory with no environment at all (the 100x bootstrap peaked at 4.26 GB under
    DuckDB's own default, 80 % of RAM) and one thread."""
    for name in ("EDGAR_WAREHOUSE_MEMORY_LIMIT", "EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD",
                 "EDGAR_WAREHOUSE_WRITER_THREADS"):
        monkeypatch.delenv(name, raising=False)
    con = connect(tmp_path / "w.duckdb")
    try:
        duckdb_default = _setting(con, "memory_limit")
        configure_writer(con)
        assert _setting(con, "preserve_insertion_order") is False
        assert _setting(con, "memory_limit") == "488.2 MiB" != duckdb_default  # 512MB
        assert _setting(con, "threads") == 1
        assert _setting(con, "checkpoint_threshold") == "953.6 MiB"  # 1GB
        assert _setting(con, "disabled_compression_methods").lower() == "fsst"
    finally:
        con.close()


@pytest.mark.parametrize("value, shown", [("1GB", "953.6 MiB"), ("1%", None)])
def test_memory_limit_from_the_environment(tmp_path, monkeypatch, value, shown):
    monkeypatch.setenv("EDGAR_WAREHOUSE_MEMORY_LIMIT", value)
    con = connect(tmp_path / "w.duckdb")
    try:
        configure_writer(con)
        limit = _setting(con, "memory_limit")
        if shown:
            assert limit == shown
        else:  # 1 % of this machine's RAM: MiB, far below DuckDB's default
            assert limit.endswith("MiB") or limit.endswith("GiB")
            assert limit != duckdb.connect().execute("SELECT current_setting('memory_limit')").fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("name, value", [("EDGAR_WAREHOUSE_MEMORY_LIMIT", "lots"),
                                         ("EDGAR_WAREHOUSE_MEMORY_LIMIT", "150%"),
                                         ("EDGAR_WAREHOUSE_WRITER_THREADS", "0"),
                                         ("EDGAR_WAREHOUSE_WRITER_THREADS", "two"),
                                         ("EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD", "soon")])
def test_bad_values_are_refused_by_name(tmp_path, monkeypatch, name, value):
    """Refused when a writer opens the file (a bad memory limit: schema upgrades hold it too) or
    when the loading connection is configured, whichever comes first."""
    monkeypatch.setenv(name, value)
    with pytest.raises(WarehouseError, match=name):
        con = connect(tmp_path / "w.duckdb")
        try:
            configure_writer(con)
        finally:
            con.close()


def test_threads_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("EDGAR_WAREHOUSE_WRITER_THREADS", "2")
    con = connect(tmp_path / "w.duckdb")
    try:
        configure_writer(con)
        assert _setting(con, "threads") == 2
    finally:
        con.close()


def test_a_batch_is_cut_short_by_the_bytes_of_its_payloads():
    """What the writer holds per batch follows the payloads' bytes (bodies, their parsed records, the
    next batch parsed meanwhile): 100 of the largest companies held it at 3.6 GB. A batch stops at
    ``batch_size`` documents or once its bodies reach ``max_bytes``, whichever comes first; it always
    holds at least one document, and one transaction (size 0) is never cut."""
    docs = [read_local_document(p) for p in COMPANYFACTS_FILES[:5]]
    sizes = [len(d.body) for d in docs]
    assert [len(b) for b in batches(docs, 100)] == [5]
    assert [len(b) for b in batches(docs, 100, max_bytes=1)] == [1] * 5
    assert [len(b) for b in batches(docs, 2, max_bytes=sum(sizes))] == [2, 2, 1]
    # cut once the first two reach the cap: the third starts the next batch
    cut = [len(b) for b in batches(docs, 100, max_bytes=sizes[0] + sizes[1])]
    assert cut[0] == 2 and sum(cut) == 5
    assert [len(b) for b in batches(docs, 0, max_bytes=1)] == [5]
    assert [b for chunk in batches(docs, 3, max_bytes=sizes[0]) for b in chunk] == docs  # order kept


def test_the_batch_cap_applies_to_a_run(tmp_path, monkeypatch):
    """A bulk run under a 1-byte cap commits one document per batch, whatever ``batch_size`` says."""
    monkeypatch.setenv("EDGAR_WAREHOUSE_BATCH_BYTES", "1")
    docs = [read_local_document(p) for p in COMPANYFACTS_FILES[:3]]
    con = connect(tmp_path / "w.duckdb")
    try:
        committed: list[int] = []
        report = ingest(con, docs, raw_dir=tmp_path / "raw", command="load", batch_size=100, workers=1,
                        on_batch=lambda _r, n: committed.append(n))
        assert committed == [1, 1, 1] and report.loaded == 3 and report.status == "succeeded"
        assert fetch_value(con, "SELECT count(DISTINCT cik) FROM facts") == 3
    finally:
        con.close()


def test_the_default_cap_and_a_bad_one(tmp_path, monkeypatch):
    monkeypatch.delenv("EDGAR_WAREHOUSE_BATCH_BYTES", raising=False)
    assert batch_bytes() == 64 * 10**6
    monkeypatch.setenv("EDGAR_WAREHOUSE_BATCH_BYTES", "256MiB")
    assert batch_bytes() == 256 * 2**20
    monkeypatch.setenv("EDGAR_WAREHOUSE_BATCH_BYTES", "0")
    assert batch_bytes() == 0
    monkeypatch.setenv("EDGAR_WAREHOUSE_BATCH_BYTES", "plenty")
    con = connect(tmp_path / "w.duckdb")
    try:
        with pytest.raises(WarehouseError, match="EDGAR_WAREHOUSE_BATCH_BYTES"):
            ingest(con, [], raw_dir=tmp_path / "raw", command="load", batch_size=10)
        assert fetch_value(con, "SELECT count(*) FROM load_runs") == 0  # refused before the run starts
    finally:
        con.close()


def test_a_bulk_run_checkpoints_once_its_wal_reaches_the_bulk_threshold(tmp_path, monkeypatch):
    """A bulk run folds its WAL into the file after the commit of a batch that leaves
    BULK_CHECKPOINT_WAL_BYTES or more: no batch pays for many others' rows at the automatic
    threshold (the universe's one 54 s batch among 15-20 s ones), a killed run replays at most that
    much, and a checkpoint's fixed cost is paid every few batches, not every batch. A run of one
    batch leaves that to the writer's close."""
    import warehouse.load.ingest as ingest_mod

    monkeypatch.delenv("EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD", raising=False)
    path = tmp_path / "w.duckdb"
    docs = [read_local_document(p) for p in COMPANYFACTS_FILES[:4]]
    con = connect(path)
    try:
        con.execute("CHECKPOINT")
        wal_after: list[int] = []

        def seen(_report, _n):
            wal_after.append(wal_of(path).stat().st_size if wal_of(path).exists() else 0)

        monkeypatch.setattr(ingest_mod, "BULK_CHECKPOINT_WAL_BYTES", 1)  # every batch reaches it
        ingest(con, docs[:2], raw_dir=tmp_path / "raw", command="load", batch_size=1, workers=1, on_batch=seen)
        assert wal_after == [0, 0]
        monkeypatch.setattr(ingest_mod, "BULK_CHECKPOINT_WAL_BYTES", 10**12)  # none does
        ingest(con, docs[2:], raw_dir=tmp_path / "raw", command="load", batch_size=1, workers=1, on_batch=seen)
        assert 0 < wal_after[2] < wal_after[3]  # both batches' rows wait in the WAL
    finally:
        con.close()
