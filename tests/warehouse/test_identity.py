"""Company identity with history: SEC's former names resolve to the company and say they are former."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.db import connect
from warehouse.load import Parsed, load_batch
from warehouse.registry_resolve import resolve

FIX = Path(__file__).parents[1] / "fixtures" / "sec"
META = 1326801


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    path = tmp_path_factory.mktemp("identity") / "w.duckdb"
    c = connect(path)
    paths = [FIX / "www.sec.gov" / "files" / "company_tickers.json.gz",
             FIX / "data.sec.gov" / "submissions" / "CIK0001326801.json.gz",
             FIX / "data.sec.gov" / "submissions" / "CIK0000320193.json.gz"]
    docs = [read_local_document(p) for p in paths]
    report = load_batch(c, [Parsed(d, parse_document(d)[1]) for d in docs], raw_dir=path.parent / "raw")
    assert report.status == "succeeded", report.summary()
    yield c
    c.close()


def test_resolve_finds_meta_by_its_former_name_and_says_so(con):
    r = resolve(con, "Facebook")
    assert r.resolved and r.cik == META and r.matched_by == "name"
    assert "former name 'Facebook Inc' (2005-05-06 to 2021-10-27)" in r.message
    assert r.name.upper().startswith("META PLATFORMS")


def test_current_names_still_win_over_former_ones(con):
    assert resolve(con, "Meta Platforms").cik == META
