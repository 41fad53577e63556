"""EDGAR full-text search through the one SEC client, on its recorded response (replay)."""

from __future__ import annotations

import gzip
import shutil
from datetime import date
from pathlib import Path

import pytest

from pipelines.efts import EftsRangeRefused, efts_url, parse_efts
from pipelines.replay import url_relpath
from pipelines.request_log import request_kind
from pipelines.sec_client import SecClient

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "filings" / "efts" / \
    "search-index_q-climate+change_forms-8-K_from-0.json.gz"
URL = "https://efts.sec.gov/LATEST/search-index?forms=8-K&from=0&q=climate+change"  # as OpenBB recorded it


@pytest.fixture
def client(tmp_path):
    target = tmp_path / f"{url_relpath(URL)}.gz"
    target.parent.mkdir(parents=True)
    shutil.copy(RECORDED, target)
    c = SecClient.replay(tmp_path)
    sent = []
    c.on_request = sent.append
    yield c, sent
    c.close()


def test_the_request_is_the_recorded_one():
    assert efts_url("climate change", forms=["8-K"]) == URL


def test_full_text_search_through_the_client_on_the_recorded_response(client):
    c, sent = client
    doc = c.full_text_search("climate change", forms=["8-K"])
    assert [r.url for r in sent] == [URL] and request_kind(URL) == "full_text_search"
    result = parse_efts(doc.body, document=doc.uri)
    assert (result.total, result.total_is_lower_bound, len(result.hits)) == (10000, True, 100)
    first = result.hits[0]
    assert (first.accession, first.form, first.file_name, first.file_type, first.ciks, first.filed, first.items) == (
        "0000950142-20-002702", "8-K", "eh200118123_ex9901.htm", "EX-99.1", (16875,), date(2020, 12, 8),
        ("8.01", "9.01"))
    assert doc.body == gzip.decompress(RECORDED.read_bytes())


def test_a_range_before_2001_is_refused_with_the_reason(client):
    c, sent = client
    with pytest.raises(EftsRangeRefused, match="covers filings from 2001-01-01 on; 1999-01-01 is earlier"):
        c.full_text_search("year 2000 readiness", start=date(1999, 1, 1))
    assert sent == []  # refused before any request
    assert "startdt=2001-01-01" in efts_url("x", start=date(2001, 1, 1), end=date(2001, 12, 31))
