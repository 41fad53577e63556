"""The derive step runs on one DuckDB thread and gives the writer its setting back; a derive that
fails inside the batch's transaction raises its own error, never DuckDB's "please ROLLBACK"."""

from __future__ import annotations

import duckdb
import pytest

from warehouse.derive.batch import DERIVE_THREADS, threads
from warehouse.schema.vocabulary import MetricsError
from warehouse.store.db import connect, fetch_value


def _threads(con) -> int:
    return int(fetch_value(con, "SELECT current_setting('threads')"))


@pytest.fixture
def con(tmp_path):
    c = connect(tmp_path / "w.duckdb")
    c.execute("SET threads = 2")  # a writer configured with more threads than the derive uses
    yield c
    c.close()


def test_the_derive_runs_on_its_threads_and_restores_the_writers(con):
    with threads(con, DERIVE_THREADS):
        assert _threads(con) == DERIVE_THREADS == 1
    assert _threads(con) == 2


def test_a_derive_failing_inside_the_transaction_raises_its_own_error(con):
    con.execute("BEGIN")
    with pytest.raises(MetricsError, match="refresh failed"), threads(con, DERIVE_THREADS):
        try:  # a failing statement aborts the transaction, as a failed refresh step does
            con.execute("SELECT CAST('not a number' AS INTEGER)")
        except duckdb.Error as exc:
            raise MetricsError("refresh failed") from exc
    con.execute("ROLLBACK")
    assert fetch_value(con, "SELECT 1") == 1  # the connection carries on after the rollback
