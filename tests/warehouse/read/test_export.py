"""Parquet export as a data product: per-table folders read back by three readers, a manifest with
checksums, point-in-time exports, byte-identical re-exports and an atomic swap."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pytest

from helpers import COMPANYFACTS_DIR, FIXTURES
from pipelines.documents import read_local_document
from warehouse.load.ingest import ingest
from warehouse.read.export import ExportError, export_warehouse
from warehouse.store.db import connect, fetch_value, raw_dir_for

APPLE = 320193
FILING_DOCUMENTS = ("10-K_10-Q/0000320193-25-000079_aapl-20250927.htm.gz", "8-K/0000912057-00-002128.txt.gz")


def export(db: Path, dest: Path, tables=None, as_of=None):
    con = connect(db, read_only=True, external_access=True)
    try:
        return export_warehouse(con, dest, tables, as_of=as_of)
    finally:
        con.close()


@pytest.fixture(scope="module")
def exported(company_warehouse, tmp_path_factory):
    dest = tmp_path_factory.mktemp("export") / "out"
    result = export(company_warehouse, dest)
    return dest, result


def _differences(con: duckdb.DuckDBPyConnection, left: str, right: str) -> int:
    """Rows in one side and not the other (multiset), both directions (fetch_value reads the result to its
    end: on DuckDB 2.x a fetchone() leaves it open, and the connection then refuses register())."""
    return fetch_value(con, f"SELECT (SELECT count(*) FROM ({left} EXCEPT ALL {right}))"
                            f" + (SELECT count(*) FROM ({right} EXCEPT ALL {left}))")


def _warehouse_reader(db: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"ATTACH '{db}' AS w (READ_ONLY)")
    con.execute("USE w")  # the point-in-time macros name their tables unqualified
    return con


def _reads_back_identically(dest: Path, manifest: dict, db: Path) -> None:
    """Every exported table reads back as the warehouse holds it, with DuckDB, Polars and pyarrow."""
    con = _warehouse_reader(db)
    try:
        for name, table in manifest["tables"].items():
            cols = ", ".join(f'"{c["name"]}"' for c in table["columns"])
            truth = f'SELECT {cols} FROM w."{name}"'
            n = fetch_value(con, f"SELECT count(*) FROM ({truth})")
            assert table["rows"] == n, name
            folder = dest / name
            if n == 0:
                continue
            by_duckdb = f"SELECT {cols} FROM read_parquet('{folder}/**/*.parquet', hive_partitioning = true)"
            assert _differences(con, truth, by_duckdb) == 0, name
            frame = pl.read_parquet(folder, hive_partitioning=True)
            con.register("frame", frame)
            assert frame.height == n and set(frame.columns) == {c["name"] for c in table["columns"]}, name
            assert _differences(con, truth, f"SELECT {cols} FROM frame") == 0, name
            arrow = ds.dataset(folder, format="parquet", partitioning="hive").to_table()
            con.register("arrow", arrow)
            assert arrow.num_rows == n, name
            assert _differences(con, truth, f"SELECT {cols} FROM arrow") == 0, name
    finally:
        con.close()


def test_every_table_reads_back_identically_with_duckdb_polars_and_pyarrow(exported, company_warehouse):
    dest, result = exported
    manifest = json.loads((dest / "manifest.json").read_text())
    assert manifest == result.manifest
    assert {"facts", "fact_versions", "filings", "derived_metrics", "metric_lineage", "insider_transactions"} \
        <= set(manifest["tables"])
    _reads_back_identically(dest, manifest, company_warehouse)


def test_filing_documents_their_items_facts_and_printed_statements_read_back_identically(tmp_path):
    """The filing documents' tables are exported by default (their MAP and nested STRUCT columns
    included), their search index is not."""
    db = tmp_path / "w.duckdb"
    con = connect(db)
    try:
        report = ingest(con, [read_local_document(FIXTURES / "filings" / p) for p in FILING_DOCUMENTS],
                        raw_dir=raw_dir_for(db), command="load")
        assert (report.loaded, report.rejected) == (len(FILING_DOCUMENTS), [])
    finally:
        con.close()
    result = export(db, tmp_path / "out")
    tables = result.manifest["tables"]
    assert "filing_terms" not in tables
    assert all(tables[t]["rows"] > 0 for t in ("filing_documents", "filing_sections", "filing_facts",
                                               "filing_statements", "filing_statement_lines")), tables.keys()
    _reads_back_identically(tmp_path / "out", result.manifest, db)


def test_facts_partitioned_by_fiscal_year_and_timestamps_are_utc(exported):
    dest, _ = exported
    years = sorted(p.name for p in (dest / "facts").iterdir())
    assert "fiscal_year=2009" in years and all(y.startswith("fiscal_year=") for y in years)
    frame = pl.read_parquet(dest / "fact_versions", hive_partitioning=True)
    assert frame.schema["known_from"] == pl.Datetime("us", "UTC")
    sales_2009 = frame.filter((pl.col("concept") == "SalesRevenueNet") & (pl.col("fiscal_year") == 2009)
                              & (pl.col("fiscal_period") == "FY"))
    assert set(sales_2009["accession"]) >= {"0001193125-09-214859", "0001193125-10-012091"}


def test_manifest_checksums_comments_and_load_ids(exported, company_warehouse):
    dest, result = exported
    m = result.manifest
    for table in m["tables"].values():
        for f in table["files"]:
            assert hashlib.sha256((dest / f["path"]).read_bytes()).hexdigest() == f["sha256"]
            assert (dest / f["path"]).stat().st_size == f["bytes"]
        assert sum(f["rows"] for f in table["files"]) == table["rows"]
    columns = {c["name"]: c for c in m["tables"]["fact_versions"]["columns"]}
    assert "UTC" in columns["known_from"]["comment"] and columns["known_from"]["type"] == "TIMESTAMP WITH TIME ZONE"
    assert columns["value"]["type"] == "DECIMAL(38,10)"
    assert m["tables"]["facts"]["partitioning"]["column"] == "fiscal_year"
    con = duckdb.connect(str(company_warehouse), read_only=True)
    try:
        assert m["load_ids"] == [r[0] for r in con.execute("SELECT load_id FROM load_runs ORDER BY 1").fetchall()]
    finally:
        con.close()
    assert m["as_of"] is None and m["project_version"]


def test_the_export_folder_cannot_be_read_as_one_table(exported):
    dest, _ = exported
    with pytest.raises(Exception, match="README.txt"):
        ds.dataset(dest, format="parquet")


def test_re_export_is_byte_identical_and_swaps_nothing(exported, company_warehouse, tmp_path):
    dest, first = exported
    again = export(company_warehouse, dest)
    assert not again.changed and again.export_id == first.export_id
    elsewhere = export(company_warehouse, tmp_path / "copy")
    assert elsewhere.export_id == first.export_id
    files = sorted(p.relative_to(first.target) for p in first.target.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(elsewhere.target) for p in elsewhere.target.rglob("*") if p.is_file())
    for f in files:
        assert (first.target / f).read_bytes() == (elsewhere.target / f).read_bytes(), f


def test_new_data_is_swapped_in_with_one_rename(company_warehouse, company_loader, tmp_path):
    dest = tmp_path / "out"
    small = company_loader(tmp_path / "small.duckdb", [COMPANYFACTS_DIR / "CIK0000320193.json.gz"])
    old = export(small, dest, ["facts", "companies"])
    assert dest.is_symlink() and os.readlink(dest) == old.target.name
    held = (dest / "manifest.json").open()  # a reader in the middle of the old export
    new = export(company_warehouse, dest, ["facts", "companies"])
    assert new.changed and os.readlink(dest) == new.target.name
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("out")) == ["out", new.target.name]
    assert json.loads(held.read())["tables"]["facts"]["rows"] == old.manifest["tables"]["facts"]["rows"]
    held.close()
    with pytest.raises(ExportError, match="closest: facts"):
        export(company_warehouse, dest, ["factz"])
    assert os.readlink(dest) == new.target.name  # a failed export leaves the published one alone
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_refuses_to_replace_a_folder_that_is_not_an_export(company_warehouse, tmp_path):
    home = tmp_path / "mine"
    home.mkdir()
    (home / "notes.txt").write_text("keep me")
    with pytest.raises(ExportError, match="not an edgar-warehouse export"):
        export(company_warehouse, home, ["companies"])
    assert (home / "notes.txt").read_text() == "keep me"


def test_as_of_exports_what_was_public_then(company_warehouse, tmp_path):
    ts = datetime(2010, 1, 1)
    result = export(company_warehouse, tmp_path / "then", as_of=ts)
    m = result.manifest
    assert m["as_of"] == "2010-01-01T00:00:00Z"
    dest = tmp_path / "then"
    versions = pl.read_parquet(dest / "fact_versions", hive_partitioning=True)
    assert versions.height > 0 and versions["known_from"].max() <= datetime(2010, 1, 1, tzinfo=UTC)
    current = pl.read_parquet(dest / "facts_as_of")
    sales = current.filter((pl.col("cik") == APPLE) & (pl.col("concept") == "SalesRevenueNet")
                           & (pl.col("fiscal_year") == 2009) & (pl.col("fiscal_period") == "FY"))
    assert sales.select("value", "accession").rows() == [(Decimal("36537000000"), "0001193125-09-214859")]
    con = _warehouse_reader(company_warehouse)
    try:
        for name, macro in (("facts_as_of", "facts_as_of"), ("derived_metrics_as_of", "derived_metrics_as_of")):
            cols = ", ".join(f'"{c["name"]}"' for c in m["tables"][name]["columns"])
            truth = f"SELECT {cols} FROM w.{macro}(TIMESTAMP '2010-01-01')"
            assert m["tables"][name]["rows"] == fetch_value(con, f"SELECT count(*) FROM ({truth})")
            assert _differences(con, truth, f"SELECT {cols} FROM read_parquet('{dest}/{name}/*.parquet')") == 0
    finally:
        con.close()
    with pytest.raises(ExportError, match="with --as-of"):
        export(company_warehouse, tmp_path / "x", ["companies"], as_of=ts)
