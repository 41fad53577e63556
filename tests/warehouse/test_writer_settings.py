"""The loading connection's settings: memory bounded by EDGAR_WAREHOUSE_MEMORY_LIMIT, insertion
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
    monkeypatch.delenv("EDGAR_WAREHOUSE_MEMORY_LIMIT", raising=False)
    monkeypatch.delenv("EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD", raising=False)
    con = connect(tmp_path / "w.duckdb")
    try:
        default_limit = _setting(con, "memory_limit")
        configure_writer(con)
        assert _setting(con, "preserve_insertion_order") is False
        assert _setting(con, "memory_limit") == default_limit  # DuckDB's own default
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
                                         ("EDGAR_WAREHOUSE_CHECKPOINT_THRESHOLD", "soon")])
def test_bad_values_are_refused_by_name(tmp_path, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    con = connect(tmp_path / "w.duckdb")
    try:
        with pytest.raises(WarehouseError, match=name):
            configure_writer(con)
    finally:
        con.close()
