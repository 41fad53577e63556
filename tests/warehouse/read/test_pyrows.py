"""Rows converted column by column (warehouse.read.pyrows) are exactly DuckDB's own: same values, same types,
on the real warehouse (every current fact of every company) and on the values DuckDB converts oddly."""

from __future__ import annotations

import duckdb
import pyarrow  # noqa: F401  (loaded, as in the MCP server: the column-by-column path is taken)
import pytest

from warehouse.read.pyrows import columnar, fetch_rows
from warehouse.read.queries import run_query
from warehouse.store.db import connect


def same(a: list[tuple], b: list[tuple]) -> None:
    assert len(a) == len(b)
    for ra, rb in zip(a, b, strict=True):
        assert ra == rb
        assert [type(x) for x in ra] == [type(x) for x in rb]
        assert [repr(x) for x in ra] == [repr(x) for x in rb]  # Decimal exponents too: 1.50 is not 1.5


@pytest.fixture(scope="module")
def con(company_warehouse):
    c = connect(company_warehouse, read_only=True)
    yield c
    c.close()


@pytest.mark.parametrize("query", [
    "SELECT * FROM facts_current ORDER BY ALL",
    "SELECT * FROM facts ORDER BY ALL",
    "SELECT * FROM filings ORDER BY cik, accession",
])
def test_warehouse_rows_are_duckdbs(con, query):
    cur = con.execute(query)
    assert columnar(cur), [str(d[1]) for d in cur.description]
    same(fetch_rows(cur), con.execute(query).fetchall())


def test_a_companys_current_facts_through_run_query(con):
    cik = con.execute("SELECT min(cik) FROM facts_current").fetchone()[0]
    q = "SELECT * FROM facts_current WHERE cik = ? ORDER BY ALL"
    want = con.execute(q, [cik]).fetchall()
    assert len(want) > 1000
    same(run_query(con, q, [cik]).rows, want)
    page = run_query(con, q, [cik], max_rows=700)
    assert page.truncated
    same(page.rows, want[:700])


def test_odd_values_and_nulls():
    c = duckdb.connect()
    q = """SELECT * FROM (VALUES
        (1::TINYINT, NULL::BIGINT, true, NULL::BOOLEAN, 1.5::DOUBLE, NULL::DOUBLE, 'a', NULL::VARCHAR,
         DATE '2020-02-29', NULL::DATE, TIMESTAMP '2020-01-01 10:00:00.123456', NULL::TIMESTAMP,
         0::DECIMAL(38,10), -12.5::DECIMAL(38,10), 1.50::DECIMAL(9,2), 7::DECIMAL(18,0), NULL::DECIMAL(38,10),
         18446744073709551615::UBIGINT),
        ((-128)::TINYINT, 9223372036854775807, false, true, -0.0, 2.0, '', 'é', 'infinity'::DATE, DATE '10000-01-01',
         '-infinity'::TIMESTAMP, TIMESTAMP '0001-01-01', 99999999999999999999999999.9999999999::DECIMAL(38,10),
         -0.0000000001::DECIMAL(38,10), -9999999.99::DECIMAL(9,2), NULL, 123.4567890123::DECIMAL(38,10), 0::UBIGINT)
    ) t ORDER BY 1""" + " LIMIT 300"
    cur = c.execute(q)
    assert columnar(cur)
    same(fetch_rows(cur), c.execute(q).fetchall())
    big = "SELECT i, i * 1.5::DECIMAL(38,10) AS d, DATE '2000-01-01' + i::INTEGER AS day FROM range(5000) t(i) ORDER BY i"
    same(fetch_rows(c.execute(big)), c.execute(big).fetchall())
    same(fetch_rows(c.execute(big), 1234), c.execute(big).fetchmany(1234))
    assert fetch_rows(c.execute("SELECT 1 AS x WHERE false")) == []


def test_other_types_are_left_to_duckdb():
    c = duckdb.connect()
    q = "SELECT [1, 2] AS l, {'a': 1} AS s, INTERVAL 1 DAY AS i, 1::HUGEINT AS h, 1.5::DECIMAL(38,10) AS d"
    cur = c.execute(q)
    assert not columnar(cur)
    same(fetch_rows(cur), c.execute(q).fetchall())


def test_columns_of_one_type_converted_together_keep_their_own_values_and_nulls():
    """Columns of one Arrow type are converted against one dictionary of their distinct values: each
    column keeps its own values and nulls, across batches and a row limit that cuts one."""
    c = duckdb.connect()
    q = """SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'a' || (i % 7) END AS s1,
                  CASE WHEN i % 5 = 0 THEN NULL ELSE 'a' || (i % 11) END AS s2, 'x' || i AS s3,
                  (i % 13 * 1.25)::DECIMAL(38,10) AS d1,
                  CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 17 * 1.25)::DECIMAL(38,10) END AS d2,
                  (i % 13 * 1.25)::DECIMAL(9,2) AS d3,
                  CASE WHEN i % 9 = 0 THEN 'infinity'::DATE ELSE DATE '2000-01-01' + (i % 30)::INTEGER END AS day1,
                  CASE WHEN i % 2 = 0 THEN NULL ELSE DATE '2000-01-01' + (i % 31)::INTEGER END AS day2,
                  CASE WHEN i % 6 = 0 THEN -0.0 ELSE 0.0 END AS z
           FROM range(6000) t(i) ORDER BY i"""
    same(fetch_rows(c.execute(q)), c.execute(q).fetchall())
    same(fetch_rows(c.execute(q), 2500), c.execute(q).fetchmany(2500))
    rows = fetch_rows(c.execute(q))
    assert rows[3][1] is None and rows[3][2] == "a3" and rows[5][4] == rows[5][5] is not None
