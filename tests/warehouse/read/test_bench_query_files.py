"""tests/bench/bench_queries.py times the SQL files the notebook API runs: warehouse/read/api.py answers
standard_facts now and as of a time from two different files, and the benchmark's entry for each
path names the file that path runs (it timed the as-of file for "current" once the now path had a
file of its own)."""

from __future__ import annotations

import sys
from pathlib import Path

import warehouse.read.api as api

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from bench_queries import SHIPPED  # noqa: E402


def test_the_benchmark_times_the_files_the_api_runs(company_warehouse, monkeypatch):
    ran: list[str] = []
    real = api.sql
    monkeypatch.setattr(api, "sql", lambda name: ran.append(name) or real(name))
    with api.open_warehouse(company_warehouse) as wh:
        assert len(wh.standard_facts(320193, "revenue")) > 0
        now = ran[-1]
        assert len(wh.standard_facts(320193, "revenue", as_of="2024-01-01")) > 0
        as_of = ran[-1]
    assert SHIPPED["read/api/standard_facts (current)"][0] == now
    assert SHIPPED["read/api/standard_facts (as_of)"][0] == as_of
