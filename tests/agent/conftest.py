"""Fixtures of the agent tests: the agent warehouse (see agent_warehouse.py) and a read-only connection."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_warehouse import AGENT_FILES, build_agent_warehouse

from warehouse.store.db import reader


@pytest.fixture(scope="session")
def agent_db(tmp_path_factory) -> Path:
    """Path of the agent test warehouse (closed: open it read-only)."""
    path = tmp_path_factory.mktemp("agent") / "w.duckdb"
    report = build_agent_warehouse(path)
    assert report.status == "succeeded" and report.loaded == len(AGENT_FILES), report.summary()
    return path


@pytest.fixture(scope="module")
def con(agent_db):
    """A read-only, sandboxed connection to the agent warehouse, as the tools get."""
    with reader(agent_db) as c:
        yield c
