"""pipelines.tickers: SEC's company_tickers(.json / _exchange.json) -> registry rows; bad files rejected."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from pipelines.errors import RejectedDocument
from pipelines.tickers import parse_company_tickers, parse_company_tickers_exchange, ticker_key, ticker_to_cik

FILES = Path(__file__).parents[1] / "fixtures" / "sec" / "www.sec.gov" / "files"


def test_company_tickers():
    rec = parse_company_tickers(gzip.decompress((FILES / "company_tickers.json.gz").read_bytes()), document="t")
    assert (rec.kind, rec.source_kind, rec.tickers.num_rows) == ("company_tickers", "company_tickers", 10431)
    assert ticker_to_cik(rec, "aapl") == 320193
    assert ticker_to_cik(rec, "BRK.B") == ticker_to_cik(rec, "brk/b") == 1067983
    assert ticker_to_cik(rec, "NOPE") is None
    assert rec.tickers.column("exchange").null_count == rec.tickers.num_rows


def test_company_tickers_exchange():
    rec = parse_company_tickers_exchange(
        gzip.decompress((FILES / "company_tickers_exchange.json.gz").read_bytes()), document="t")
    assert rec.kind == "company_tickers_exchange" and rec.tickers.num_rows == 10435
    rows = {r["ticker"]: r for r in rec.tickers.to_pylist()}
    assert rows["APLE"] == {"cik": 1418121, "ticker": "APLE", "title": "Apple Hospitality REIT, Inc.",
                            "exchange": "NYSE"}


def test_ticker_key():
    assert ticker_key(" brk.b ") == "BRK-B"


@pytest.mark.parametrize("payload, parser, reason", [
    (b"<html>throttled</html>", parse_company_tickers, "HTML"),
    (b"  ", parse_company_tickers_exchange, "empty body"),
    (b'{"0": {"cik_str": 1, "ticker"', parse_company_tickers, "truncated JSON"),
    (b'{"0": {"ticker": "X"}}', parse_company_tickers, "lacks cik_str"),
    (b"{}", parse_company_tickers, "no companies"),
    (b'{"fields": ["name"], "data": []}', parse_company_tickers_exchange, "fields lack cik, ticker"),
    (b'{"fields": ["cik", "ticker"], "data": [[1]]}', parse_company_tickers_exchange, "does not have 2 values"),
])
def test_bad_ticker_files(payload, parser, reason):
    with pytest.raises(RejectedDocument, match=reason) as err:
        parser(payload, document="https://www.sec.gov/files/company_tickers.json")
    assert err.value.document == "https://www.sec.gov/files/company_tickers.json"
