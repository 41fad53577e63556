"""The loading connection's settings: memory bounded by default (1GB) or by
EDGAR_WAREHOUSE_MEMORY_LIMIT, one DuckDB thread by default (EDGAR_WAREHOUSE_WRITER_THREADS), insertion
order not preserved, automatic checkpoints every EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD of WAL
(DuckDB 1.5 rewrites every ART index whole at each checkpoint), bad values refused by name."""

from __future__ import annotations

import duckdb
import pytest

from warehouse.db import WarehouseError, connect, fetch_value
from warehouse.ingest import configure_writer


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
        assert _setting(con, "memory_limit") == "953.6 MiB" != duckdb_default  # 1GB
        assert _setting(con, "threads") == 1
        assert _setting(con, "checkpoint_threshold") == "953.6 MiB"  # 1GB
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
    monkeypatch.setenv(name, value)
    con = connect(tmp_path / "w.duckdb")
    try:
        with pytest.raises(WarehouseError, match=name):
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
