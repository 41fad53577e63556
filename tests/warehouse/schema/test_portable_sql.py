"""The load SQL runs on a schema without constraints or sequences (what DuckLake accepts).

DuckLake refuses PRIMARY KEY / UNIQUE constraints and sequences, so the ingest path must not rely
on them: no ``ON CONFLICT``, no ``DEFAULT nextval`` for new rows, inserts as anti-joins. Here the
migrations are stripped of every PRIMARY KEY and of the sequence, real documents (companyfacts in
two vintages, submissions with a page, Forms 4, ticker files) are loaded in a shuffled order and
batching, then all again; the tables must equal those of the constrained schema and every declared
grain must still be unique. Before the fix the companies and submission_pages writes used
``ON CONFLICT`` (a binder error without a key) and source_document_id came from the sequence (NULL
ids without it).
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES, VINTAGES_DIR
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.schema.folder import schema_dir
from warehouse.store.db import connect, fetch_all, raw_dir_for
from warehouse.store.integrity import integrity_problems, table_checksums

SUB = FIXTURES / "sec" / "data.sec.gov" / "submissions"
FILES = [
    COMPANYFACTS_DIR / "CIK0001045810.json.gz",
    VINTAGES_DIR / "CIK0001045810__filed-max-2024-11-20.json.gz",
    SUB / "CIK0001045810.json.gz",
    SUB / "CIK0001318605.json.gz", SUB / "CIK0001318605-submissions-001.json.gz",
    FIXTURES / "sec/www.sec.gov/files/company_tickers.json.gz",
    FIXTURES / "form4/0000704051-14-000037.txt",
    FIXTURES / "form4/0000320193-22-000061.txt",
]

_COLUMN_PK = re.compile(r"\s+PRIMARY KEY\b(?!\s*\()")
_TABLE_PK = re.compile(r",\s*PRIMARY KEY\s*\([^)]*\)")
_SEQUENCE = re.compile(r"CREATE SEQUENCE [^;]*;")
_NEXTVAL = re.compile(r"\s+DEFAULT nextval\('[^']*'\)")


def constraint_free_schema(dest: Path) -> Path:
    """A copy of the schema folder whose migrations state no PRIMARY KEY and no sequence."""
    shutil.copytree(schema_dir(), dest)
    for mig in (dest / "migrations").glob("*.sql"):
        text = mig.read_text(encoding="utf-8")
        for pattern in (_TABLE_PK, _COLUMN_PK, _SEQUENCE, _NEXTVAL):
            text = pattern.sub("", text)
        mig.write_text(text, encoding="utf-8")
    return dest


def _load(path: Path, docs, batch_size: int) -> dict:
    con = connect(path)
    try:
        run = ingest(con, docs, raw_dir=raw_dir_for(path), command="load", batch_size=batch_size)
        assert run.rejected == [] and run.status == "succeeded", run.rejected
        again = ingest(con, list(reversed(docs)), raw_dir=raw_dir_for(path), command="load", batch_size=3)
        assert again.unchanged == len(docs) and again.loaded == 0
        assert integrity_problems(con, raw_dir_for(path)) == []
        return table_checksums(con)
    finally:
        con.close()


@pytest.fixture(scope="module")
def documents():
    return [read_local_document(p) for p in FILES]


def test_loads_on_a_schema_without_keys_or_sequences_equal_the_constrained_ones(tmp_path, monkeypatch, documents):
    reference = _load(tmp_path / "ref.duckdb", documents, batch_size=0)

    monkeypatch.setenv("EDGAR_WAREHOUSE_SCHEMA_DIR", str(constraint_free_schema(tmp_path / "schema")))
    order = documents[:]
    random.Random(7).shuffle(order)
    path = tmp_path / "free.duckdb"
    sums = _load(path, order, batch_size=2)

    con = connect(path, read_only=True)
    try:
        keys = fetch_all(con, "SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'"
                              " AND table_name NOT IN ('schema_migrations', 'schema_definitions')")
        assert keys == []
        assert fetch_all(con, "SELECT count(*) FROM duckdb_sequences()") == [(0,)]
        ids = fetch_all(con, "SELECT count(*), count(DISTINCT source_document_id), min(source_document_id),"
                             " max(source_document_id) FROM source_documents")
        assert ids == [(len(documents), len(documents), 1, len(documents))]
    finally:
        con.close()
    assert {t: v for t, v in sums.items() if v != reference.get(t)} == {}
    for table in ("facts", "filings", "companies", "submission_pages", "insider_filings", "derived_metrics"):
        assert sums[table][0] > 0, table
