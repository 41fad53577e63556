"""The agent test warehouse, defined once for the tests (conftest) and the tool benchmark: Apple and
NVIDIA companyfacts and submissions (filings with acceptance times), SEC's ticker files (so names can
be ambiguous), and one Form 4 of each (insider lines), loaded in one batch as `edgar-warehouse load`
does."""

from __future__ import annotations

from pathlib import Path

from pipelines.documents import read_local_document
from pipelines.errors import RejectedDocument
from pipelines.parse import parse_many
from warehouse.load.batch import BatchReport, Parsed, Rejected, load_batch
from warehouse.store.db import connect, raw_dir_for

SEC = Path(__file__).parent.parent / "fixtures" / "sec"
AGENT_FILES = [
    SEC / "data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json.gz",
    SEC / "data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json.gz",
    SEC / "data.sec.gov/submissions/CIK0000320193.json.gz",
    SEC / "data.sec.gov/submissions/CIK0001045810.json.gz",
    SEC / "www.sec.gov/files/company_tickers.json.gz",
    SEC / "www.sec.gov/files/company_tickers_exchange.json.gz",
    SEC / "www.sec.gov/Archives/edgar/data/320193/000032019322000061/0000320193-22-000061.txt.gz",
    SEC / "www.sec.gov/Archives/edgar/data/1045810/000104581023000128/0001045810-23-000128.txt.gz",
]


def build_agent_warehouse(path: Path) -> BatchReport:
    """Load AGENT_FILES into a new warehouse at ``path`` and close it."""
    items: list[Parsed | Rejected] = []
    for doc, record in parse_many([read_local_document(p) for p in AGENT_FILES]):
        items.append(Rejected(doc, record) if isinstance(record, RejectedDocument) else Parsed(doc, record))
    con = connect(path)
    try:
        return load_batch(con, items, raw_dir=raw_dir_for(path), command="load")
    finally:
        con.close()
