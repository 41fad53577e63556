"""A small write's closing CHECKPOINT leaves DuckDB's row-group merging to every COMPACT_EVERY-th run.

DuckDB merges a run of a table's partly filled row groups at a checkpoint whenever their rows fit in
fewer groups; after a one-company load that rewrote ~370k rows of other companies in
``facts_current_rows`` (1.2-1.5 s CPU at 10x, most of the write). A small write skips it, except every
``COMPACT_EVERY``-th load run, which merges what the others left; bulk runs always merge (``settle``)."""

from __future__ import annotations

import duckdb

from warehouse.store.db import COMPACT_EVERY, reader, writer


def _row_groups(con: duckdb.DuckDBPyConnection, table: str) -> list[int]:
    """Rows of each row group of ``table``, in order."""
    return [n for _, n in con.execute(
        "SELECT row_group_id, max(count) FROM pragma_storage_info(?) WHERE column_id = 0"
        " AND segment_type <> 'VALIDITY' GROUP BY ALL ORDER BY 1", [table]).fetchall()]


def _small_write(db, runs_before: int) -> None:
    """One small write: a load_runs row (the warehouse then holds ``runs_before + 1`` runs) and three
    appends of 10,000 rows beside a partly filled row group (what DuckDB would merge)."""
    with writer(db, command="load") as con:
        con.execute("INSERT INTO load_runs (load_id, command, started_at, status)"
                    " VALUES (?, 'load', now()::TIMESTAMP, 'succeeded')", [f"run-{runs_before}"])
        for i in range(3):
            con.execute("INSERT INTO t SELECT range + ? AS x, 'v' || range AS s FROM range(10000)",
                        [(i + 1) * 1_000_000])


def _warehouse(tmp_path, runs: int):
    """A warehouse holding ``runs`` load runs and a table of 150,000 rows (a full row group and a
    partly filled one)."""
    db = tmp_path / "w.duckdb"
    with writer(db, command="init") as con:
        con.execute("CREATE TABLE t AS SELECT range AS x, 'v' || range AS s FROM range(150000)")
        con.execute("INSERT INTO load_runs (load_id, command, started_at, status)"
                    " SELECT 'old-' || range, 'load', now()::TIMESTAMP, 'succeeded' FROM range(?)", [runs])
    with reader(db) as con:
        assert _row_groups(con, "t") == [122880, 27120]
    return db


def test_small_write_leaves_row_groups_unmerged(tmp_path):
    db = _warehouse(tmp_path, runs=1)
    _small_write(db, runs_before=1)  # the 2nd run: no merge
    with reader(db) as con:
        assert _row_groups(con, "t") == [122880, 27120, 30000]
        assert con.execute("SELECT count(*), count(DISTINCT x) FROM t").fetchone() == (180000, 180000)


def test_every_compact_every_th_run_merges(tmp_path):
    db = _warehouse(tmp_path, runs=COMPACT_EVERY - 1)
    _small_write(db, runs_before=COMPACT_EVERY - 1)  # the COMPACT_EVERY-th run merges
    with reader(db) as con:
        assert _row_groups(con, "t") == [122880, 57120]
        assert con.execute("SELECT count(*), count(DISTINCT x) FROM t").fetchone() == (180000, 180000)
