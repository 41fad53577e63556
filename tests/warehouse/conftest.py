"""Fixtures of the data-product tests (export, notebook API, report): one company warehouse with
every kind of document (companyfacts, submissions, tickers, a Form 4), loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES
from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, load_batch
from warehouse.store.db import connect, raw_dir_for

COMPANY_FILES = (
    COMPANYFACTS_DIR / "CIK0000320193.json.gz",           # Apple: restated revenue, 10-K/A of 2010
    COMPANYFACTS_DIR / "CIK0001045810.json.gz",           # NVIDIA: a 52/53-week fiscal year
    FIXTURES / "sec/data.sec.gov/submissions/CIK0000320193.json.gz",
    FIXTURES / "sec/www.sec.gov/files/company_tickers.json.gz",
    FIXTURES / "form4/0000320193-22-000061.txt",          # Apple Form 4: seven open-market sales
    FIXTURES / "filings/10-K_10-Q/0000320193-25-000079_aapl-20250927.htm.gz",  # Apple 10-K FY2025, inline XBRL
)


def load_company_files(path: Path, files=COMPANY_FILES) -> Path:
    items = []
    for f in files:
        doc = read_local_document(f)
        items.append(Parsed(doc, parse_document(doc)[1]))
    con = connect(path)
    try:
        report = load_batch(con, items, raw_dir=raw_dir_for(path))
        assert report.status == "succeeded", report.summary()
    finally:
        con.close()
    return path


@pytest.fixture(scope="session")
def company_warehouse(tmp_path_factory) -> Path:
    """Path of a warehouse with Apple and NVIDIA companyfacts, Apple's submissions and one Form 4,
    and SEC's ticker file. Open it read-only; nothing may write to it."""
    return load_company_files(tmp_path_factory.mktemp("company") / "w.duckdb")


@pytest.fixture(scope="session")
def company_loader():
    """``load_company_files(path, files=COMPANY_FILES)``, for tests that need their own warehouse."""
    return load_company_files
