"""A load's per-company statements skip the row groups of other companies (issue 13: cost of a
batch flat with the warehouse's size).

A filter ``list_contains($ciks, cik)`` is evaluated on every row of the table: DuckDB cannot use
the row groups' cik ranges for it, so refreshing the current facts of one batch read every fact of
the warehouse (measured: 1.3 s per 50M rows for a list of 25 companies). With the list's range
tested first, the scan reads only the row groups whose cik range meets the list's. Facts arrive
company by company, so a company's rows sit in a few row groups.
"""

from __future__ import annotations

from helpers import each_table_scan, table_scans
from warehouse.store.db import fetch_all, fetch_value

ROW_GROUP = 122_880  # DuckDB's rows per row group: a row's group is its rowid // ROW_GROUP


def test_current_facts_of_a_batch_read_only_its_row_groups(loaded_con):
    total = fetch_value(loaded_con, "SELECT count(*) FROM facts")
    groups = fetch_all(loaded_con, "SELECT DISTINCT row_group_id FROM pragma_storage_info('facts')")
    assert len(groups) > 1, "the facts fit one row group: the test would prove nothing"
    # a company whose rows sit in one row group (which one depends on the order the fixture's
    # payloads were stored in, and its multi-threaded insert may spread a company over two): every
    # scan of facts may read that row group, never the others
    per_company = fetch_all(loaded_con, f"SELECT cik, count(*), min(rowid // {ROW_GROUP}), max(rowid // {ROW_GROUP})"
                                        " FROM facts GROUP BY cik ORDER BY cik DESC")
    cik, mine, group, _ = next(r for r in per_company if r[2] == r[3])
    group_rows = fetch_value(loaded_con, f"SELECT count(*) FROM facts WHERE rowid // {ROW_GROUP} = ?", [group])
    # a prepared list, as schema/stored/facts_current_rows.sql gets it
    scans = [read for name, read, _ in each_table_scan(loaded_con, "SELECT * FROM facts_current_of($ciks)",
                                                        {"ciks": [cik]}) if name == "facts"]
    assert scans and all(mine <= read <= group_rows < total for read in scans), (mine, scans, group_rows, total)
    rows = fetch_value(loaded_con, "SELECT count(*) FROM facts_current_of($ciks)", {"ciks": [cik]})
    assert rows == fetch_value(loaded_con, "SELECT count(*) FROM facts_current WHERE cik = ?", [cik]) > 0


def test_refreshing_a_companys_fiscal_columns_reads_only_its_row_groups(loaded_warehouse, tmp_path):
    """The fiscal reassignment of one company's older rows (UPDATE ... FROM cf_refiscal by rowid) read
    every fact of the warehouse: 0.55-0.65 s CPU of a one-company load at 100x (15.7M facts)."""
    import shutil

    from warehouse.schema.sql_files import sql
    from warehouse.store.db import connect

    path = tmp_path / "w.duckdb"
    shutil.copyfile(loaded_warehouse, path)
    con = connect(path)
    try:
        total = fetch_value(con, "SELECT count(*) FROM facts")
        cik = fetch_value(con, "SELECT max(cik) FROM facts")
        mine = fetch_value(con, "SELECT count(*) FROM facts WHERE cik = ?", [cik])
        # what warehouse.load.companyfacts._reassign_fiscal registers: the company's rows, a calendar each
        con.execute("CREATE TEMP TABLE cf_refiscal AS SELECT rowid AS rid, fiscal_year + 1 AS cal_year,"
                    " CAST(period_end - INTERVAL 364 DAY AS DATE) AS cal_start, period_end AS cal_end, fiscal_basis AS cal_basis"
                    " FROM facts WHERE cik = ?", [cik])
        con.execute("BEGIN TRANSACTION")
        scanned = table_scans(con, sql("load/companyfacts/reassign_fiscal"), {"cik": cik})["facts"][0]
        con.execute("ROLLBACK")
        assert mine <= scanned < total, (mine, scanned, total)
    finally:
        con.close()
