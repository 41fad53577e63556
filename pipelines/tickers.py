"""Parse SEC's ticker registry files (company_tickers.json, company_tickers_exchange.json)."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from pipelines.errors import RejectedDocument
from pipelines.sec_formats import decode_json_body, parse_cik, ticker_key
from pipelines.sec_formats import text_or_none as _text

TICKER_SCHEMA = pa.schema([
    ("cik", pa.int32()),
    ("ticker", pa.string()),
    ("title", pa.string()),
    ("exchange", pa.string()),
])


@dataclass(frozen=True)
class CompanyTickers:
    """One snapshot of a ticker file: one row per (cik, ticker). ``source_kind`` names the file."""

    source_kind: str
    tickers: pa.Table
    kind: str = "company_tickers"  # source_documents.kind: equals source_kind


def _table(rows: list[tuple[int, str, str | None, str | None]], document: str) -> pa.Table:
    if not rows:
        raise RejectedDocument(document, "ticker file lists no companies")
    seen: dict[tuple[int, str], int] = {}
    keep = []
    for r in rows:
        key = (r[0], r[1])
        if key not in seen:
            seen[key] = 1
            keep.append(r)
    cols = list(zip(*keep, strict=True))
    return pa.Table.from_arrays([pa.array(c, t.type) for c, t in zip(cols, TICKER_SCHEMA, strict=True)],
                                schema=TICKER_SCHEMA)


def parse_company_tickers(body: bytes, *, document: str) -> CompanyTickers:
    """company_tickers.json: {"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, ...}."""
    data = decode_json_body(body, document=document, what="ticker file")
    if not isinstance(data, dict):
        raise RejectedDocument(document, "company_tickers.json is an object of numbered entries")
    rows = []
    for key, entry in data.items():
        if not isinstance(entry, dict) or "ticker" not in entry or "cik_str" not in entry:
            raise RejectedDocument(document, f"entry {key!r} lacks cik_str/ticker")
        ticker = _text(entry["ticker"])
        if ticker is None:
            continue
        rows.append((parse_cik(entry["cik_str"], document=document), ticker, _text(entry.get("title")), None))
    return CompanyTickers("company_tickers", _table(rows, document), kind="company_tickers")


def parse_company_tickers_exchange(body: bytes, *, document: str) -> CompanyTickers:
    """company_tickers_exchange.json: {"fields": ["cik","name","ticker","exchange"], "data": [[...], ...]}."""
    data = decode_json_body(body, document=document, what="ticker file")
    if not isinstance(data, dict) or not isinstance(data.get("fields"), list) \
            or not isinstance(data.get("data"), list):
        raise RejectedDocument(document, "company_tickers_exchange.json has no fields/data arrays")
    fields = [str(f) for f in data["fields"]]
    missing = [f for f in ("cik", "ticker") if f not in fields]
    if missing:
        raise RejectedDocument(document, f"fields lack {', '.join(missing)}")
    i_cik, i_tic = fields.index("cik"), fields.index("ticker")
    i_name = fields.index("name") if "name" in fields else None
    i_exch = fields.index("exchange") if "exchange" in fields else None
    rows = []
    for n, row in enumerate(data["data"]):
        if not isinstance(row, list) or len(row) != len(fields):
            raise RejectedDocument(document, f"data row {n} does not have {len(fields)} values")
        ticker = _text(row[i_tic])
        if ticker is None:
            continue
        rows.append((parse_cik(row[i_cik], document=document), ticker,
                     _text(row[i_name]) if i_name is not None else None,
                     _text(row[i_exch]) if i_exch is not None else None))
    return CompanyTickers("company_tickers_exchange", _table(rows, document), kind="company_tickers_exchange")


def ticker_to_cik(record: CompanyTickers, ticker: str) -> int | None:
    """CIK of ``ticker`` in one parsed ticker file (exact, case-insensitive, BRK.B = BRK-B), else None."""
    key = ticker_key(ticker)
    tickers = record.tickers.column("ticker").to_pylist()
    ciks = record.tickers.column("cik").to_pylist()
    found = {c for t, c in zip(tickers, ciks, strict=True) if ticker_key(t) == key}
    return found.pop() if len(found) == 1 else None
