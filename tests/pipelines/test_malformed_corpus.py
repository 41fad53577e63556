"""The malformed-input corpus (tests/fixtures/malformed/): every case is rejected with a reason naming it.

Two levels: each file through the parsers (the reason MANIFEST.tsv expects), and all of them at
once through the real `load` command beside good files into a real DuckDB warehouse: one line per
rejection naming the file, a `source_documents` row with status 'rejected' and the reason, the good
files loaded, exit code 3. Daily indexes are not `load` documents: they are checked at parser level.
"""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from flows.cli import EXIT_PARTIAL, app
from helpers import COMPANYFACTS_DIR, FIXTURES
from pipelines.documents import MAX_DOCUMENT_BYTES_ENV, read_local_document
from pipelines.errors import RejectedDocument
from pipelines.indexes import parse_daily_index
from pipelines.parse import parse_document

CORPUS = FIXTURES / "malformed"
CASES = {r["file"]: r for r in csv.DictReader((CORPUS / "MANIFEST.tsv").open(), delimiter="\t")}
TEST_CAP = str(16 << 20)  # the corpus' gzip bomb inflates to 32 MiB
# Over 4 MB in all, so `load` parses in worker processes: every rejection crosses that boundary too.
GOOD = [COMPANYFACTS_DIR / "CIK0001046179.json.gz", COMPANYFACTS_DIR / "CIK0000320193.json.gz",
        FIXTURES / "sec/data.sec.gov/submissions/CIK0001911716.json.gz",
        FIXTURES / "form4/0000320193-22-000061.txt", FIXTURES / "sec/www.sec.gov/files/company_tickers.json.gz"]


def test_corpus_is_complete():
    assert len(CASES) >= 60
    on_disk = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.is_file()}
    assert on_disk - {"MANIFEST.tsv", "make_corpus.py"} == set(CASES)
    for words in ("truncated", "HTML", "empty", "Expected", "out of range", "after 2100-12-31", "before 1900-01-01",
                  "was requested", "unsafe XML", "size cap", "not a finite number", "no accession",
                  "duplicate JSON keys", "where text was expected", "missing required field `form`"):
        assert any(words in c["reason_contains"] for c in CASES.values()), words


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_case_is_rejected_by_its_parser(name, monkeypatch):
    monkeypatch.setenv(MAX_DOCUMENT_BYTES_ENV, TEST_CAP)
    path = CORPUS / name
    with pytest.raises(RejectedDocument) as exc:
        doc = read_local_document(path)
        if ".idx" in name:
            parse_daily_index(doc.body, document=doc.uri)
        else:
            parse_document(doc)
    assert exc.value.document == str(path)
    assert CASES[name]["reason_contains"] in exc.value.reason


def test_whole_corpus_through_the_load_command_beside_good_files(tmp_path, monkeypatch):
    monkeypatch.setenv(MAX_DOCUMENT_BYTES_ENV, TEST_CAP)
    bad = {name: CORPUS / name for name in sorted(CASES) if ".idx" not in name}
    db = tmp_path / "w.duckdb"
    runner = CliRunner()
    result = runner.invoke(app, ["--db", str(db), "load", *map(str, GOOD), *map(str, bad.values())])
    assert result.exit_code == EXIT_PARTIAL, result.output
    assert f"{len(GOOD)} loaded, 0 unchanged, {len(bad)} rejected" in result.output
    for name, path in bad.items():
        assert f"rejected: {path}: " in result.output, name

    out = runner.invoke(app, ["--db", str(db), "sql", "-f", "json",
                              "SELECT uri, status, reject_reason FROM source_documents ORDER BY uri"])
    assert out.exit_code == 0, out.output
    rows = {r["uri"]: r for r in json.loads(out.stdout)}
    for name, path in bad.items():
        row = rows[str(path)]
        assert row["status"] == "rejected", name
        assert CASES[name]["reason_contains"] in row["reject_reason"], (name, row["reject_reason"])
    assert all(rows[str(p)]["status"] == "loaded" for p in GOOD)
    counts = runner.invoke(app, ["--db", str(db), "sql", "-f", "json",
                                 "SELECT (SELECT count(DISTINCT cik) FROM facts) AS companies,"
                                 " (SELECT count(*) FROM filings WHERE cik = 1911716) AS filings,"
                                 " (SELECT count(*) FROM insider_filings) AS insider"])
    assert json.loads(counts.stdout) == [{"companies": 2, "filings": json.loads(counts.stdout)[0]["filings"],
                                          "insider": 1}]
    assert json.loads(counts.stdout)[0]["filings"] > 0
