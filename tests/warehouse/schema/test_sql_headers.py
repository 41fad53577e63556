"""One header grammar, one parser (warehouse/schema/sql_header.py): its rules, that no other module parses
headers, and that every query file declares what it reads and a grain made of the columns it returns."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warehouse.schema.definitions import code_words
from warehouse.schema.sql_header import Header, parse_header
from warehouse.store.db import connect, fetch_all

ROOT = Path(__file__).resolve().parents[3]
SQL = ROOT / "warehouse" / "sql"
QUERY_FOLDERS = ("read/api", "read/standard", "read/status", "read/filing_text", "agent")
QUERIES = sorted(p for folder in QUERY_FOLDERS for p in (SQL / folder).glob("*.sql"))


def test_the_grammar():
    text = ("-- What this returns (grain: prose, not a declaration).\n"
            "-- reads:   facts, filings\n"
            "--reads: companies , -\n"
            "-- creates: -\n"
            "-- grain:   (cik, accession). The rest is prose\n"
            "SELECT $cik, $form -- $not_a_parameter\n"
            "-- reads: not_in_the_header\n"
            "FROM facts WHERE cik = $cik\n")
    assert parse_header(text) == Header(reads=("facts", "filings", "companies"), grain=("cik", "accession"),
                                        params=("cik", "form"), declared=frozenset({"reads", "creates", "grain"}))
    assert parse_header("SELECT 1\n-- reads: x\n") == Header()  # a header leads the file


def test_no_other_module_parses_a_header():
    pattern = re.compile(r"re\.compile\(.*(reads|creates|appends|grain)")
    parsers = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "warehouse").rglob("*.py")
                     if p.name != "sql_header.py" and pattern.search(p.read_text()))
    # integrity reads a TABLE's grain from its comment (schema/columns.toml prose), not a .sql header
    assert parsers == ["warehouse/store/integrity.py"], parsers


def test_every_grain_anywhere_is_a_list_of_column_names():
    for path in sorted(SQL.rglob("*.sql")):
        grain = parse_header(path.read_text()).grain
        assert all(re.fullmatch(r"[a-z_][a-z0-9_]*", g) for g in grain), f"{path.relative_to(SQL)}: {grain}"


@pytest.fixture(scope="module")
def empty(tmp_path_factory):
    con = connect(tmp_path_factory.mktemp("headers") / "w.duckdb")
    yield con
    con.close()


def test_every_query_declares_exactly_what_it_reads(empty):
    known = {n for (n,) in fetch_all(empty, "SELECT table_name FROM duckdb_tables() WHERE NOT internal UNION ALL"
                                            " SELECT view_name FROM duckdb_views() WHERE NOT internal UNION ALL"
                                            " SELECT function_name FROM duckdb_functions()"
                                            " WHERE NOT internal AND schema_name = 'main'")}
    for path in QUERIES:
        text = path.read_text()
        header = parse_header(text)
        assert "reads" in header.declared, f"{path.relative_to(SQL)}: no '-- reads:' header line"
        assert set(header.reads) == code_words(text) & known, path.relative_to(SQL)


@pytest.mark.parametrize("path", QUERIES, ids=lambda p: p.relative_to(SQL).as_posix())
def test_a_declared_grain_is_columns_the_query_returns(empty, path):
    text = path.read_text()
    header = parse_header(text)
    columns = [d[0] for d in empty.execute(text, dict.fromkeys(header.params)).description]
    assert set(header.grain) <= set(columns), f"grain {header.grain} not among {columns}"
