"""derived_metrics and metric_lineage without PRIMARY KEYs (migration 0011; issue 13: DuckDB rewrote
both ART indexes whole at every checkpoint after a metric was written): their grains stay unique by
construction and are checked like every declared grain (warehouse.store.integrity), the migration keeps every
row, and metric_lineage carries its metric's cik, the key a company's lineage is forgotten by; a
metric_id starts with its company's CIK in hex (migration 0012), so a lookup by id reads only the row groups
of that company (the tables are clustered by cik)."""

from __future__ import annotations

import shutil
from datetime import date, datetime

import pytest

from helpers import COMPANYFACTS_DIR, load_files, table_scans
from warehouse.derive.steps import load_step
from warehouse.schema.folder import schema_dir
from warehouse.schema.migrate import apply_migrations
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for
from warehouse.store.integrity import declared_grains, integrity_problems

NVDA = 1045810


@pytest.fixture(scope="module")
def nvda(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "w.duckdb"
    con = connect(path)
    report = load_files(con, [COMPANYFACTS_DIR / "CIK0001045810.json.gz"], raw_dir_for(path))
    assert report.status == "succeeded", report.summary()
    yield con, path
    con.close()


def test_the_tables_have_no_primary_key_and_declare_their_grain(nvda):
    con, _ = nvda
    keyed = fetch_all(con, "SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'"
                           " AND table_name IN ('derived_metrics', 'metric_lineage')")
    assert keyed == []
    grains = declared_grains(con)
    assert grains["derived_metrics"] == ["metric_id"]
    assert grains["metric_lineage"] == ["metric_id", "role", "step"]


def test_a_duplicate_metric_version_or_edge_is_an_integrity_problem(nvda):
    con, path = nvda
    assert fetch_value(con, "SELECT count(*) FROM derived_metrics") > 0
    assert integrity_problems(con, raw_dir_for(path)) == []
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("INSERT INTO derived_metrics SELECT * FROM derived_metrics LIMIT 1")
        con.execute("INSERT INTO metric_lineage SELECT * FROM metric_lineage LIMIT 2")
        problems = integrity_problems(con, raw_dir_for(path))
    finally:
        con.execute("ROLLBACK")
    assert any(p.startswith("derived_metrics: 1 values of its grain (metric_id)") for p in problems), problems
    assert any(p.startswith("metric_lineage: 2 values of its grain (metric_id, role, step)") for p in problems), problems
    assert integrity_problems(con, raw_dir_for(path)) == []


def test_every_edge_carries_the_cik_of_its_metric_version(nvda):
    con, _ = nvda
    edges = fetch_value(con, "SELECT count(*) FROM metric_lineage")
    same = fetch_value(con, "SELECT count(*) FROM metric_lineage l JOIN derived_metrics d"
                            " ON d.metric_id = l.metric_id AND d.cik = l.cik")
    assert edges == same > 0


def test_forgetting_a_company_reads_its_edges_by_cik(loaded_con):
    """derive/forget_lineage's filter is on metric_lineage's own cik (no join to derived_metrics) and
    reaches the scan: only the company's edges come out of it."""
    text = load_step("derive/forget_lineage").text
    where = text[text.index("WHERE"):]
    cik = fetch_value(loaded_con, "SELECT max(cik) FROM metric_lineage")
    mine = fetch_value(loaded_con, "SELECT count(*) FROM metric_lineage WHERE cik = ?", [cik])
    scans = table_scans(loaded_con, f"SELECT count(*) FROM metric_lineage {where}", {"ciks": [cik]})
    assert set(scans) == {"metric_lineage"}
    assert scans["metric_lineage"][1] == mine > 0


def test_migration_0011_keeps_every_row_and_drops_the_keys(tmp_path):
    for name in ("0001_core.sql", "0004_metrics.sql", "0011_metrics_unkeyed.sql"):
        shutil.copy(schema_dir() / "migrations" / name, tmp_path / name)
    later = tmp_path / "0011_metrics_unkeyed.sql"
    held = later.read_text()
    later.unlink()
    con = connect(tmp_path / "old.duckdb", migrate=False)
    try:
        assert [m.version for m in apply_migrations(con, tmp_path)] == [1, 4]
        t = datetime(2024, 2, 21, 21, 20)
        for mid, cik in (("b" * 32, 1045810), ("a" * 32, 320193)):
            con.execute("INSERT INTO derived_metrics (metric_id, metric, cik, fiscal_year, fiscal_period,"
                        " period_end, value, derivation, formula, rule_version, known_from, flags, version,"
                        " computed_at, load_id) VALUES (?, 'free_cash_flow', ?, 2024, 'FY', ?, 1.5, 'formula',"
                        " 'a - b', 'free_cash_flow.v1', ?, ['x'], 1, ?, 'L')", [mid, cik, date(2024, 1, 28), t, t])
            for role in ("operating_cash_flow", "capital_expenditure"):
                con.execute("INSERT INTO metric_lineage (metric_id, role, step, taxonomy, concept, unit, period_end,"
                            " accession, value, known_from, load_id) VALUES (?, ?, 'reported', 'us-gaap', 'C', 'USD',"
                            " ?, '0001045810-24-000029', 7, ?, 'L')", [mid, role, date(2024, 1, 28), t])
        before = {t: fetch_all(con, f"SELECT * FROM {t} ORDER BY ALL") for t in ("derived_metrics", "metric_lineage")}
        later.write_text(held)
        assert [m.version for m in apply_migrations(con, tmp_path)] == [11]
        assert fetch_all(con, "SELECT * FROM derived_metrics ORDER BY ALL") == before["derived_metrics"]
        assert fetch_all(con, "SELECT * EXCLUDE (cik) FROM metric_lineage ORDER BY ALL") == before["metric_lineage"]
        assert fetch_all(con, "SELECT metric_id, cik FROM metric_lineage GROUP BY ALL ORDER BY ALL") == [
            ("a" * 32, 320193), ("b" * 32, 1045810)]
        assert fetch_all(con, "SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'"
                              " AND table_name IN ('derived_metrics', 'metric_lineage')") == []
        assert apply_migrations(con, tmp_path) == []
    finally:
        con.close()


def test_every_metric_id_starts_with_its_company(nvda):
    con, _ = nvda
    ids = fetch_all(con, "SELECT metric_id, superseded_by_metric_id FROM derived_metrics")
    edges = fetch_all(con, "SELECT metric_id, input_metric_id FROM metric_lineage")
    prefix = f"{NVDA:08x}-"
    assert ids and all(m.startswith(prefix) and len(m) == 9 + 32 for m, _ in ids)
    assert any(s for _, s in ids) and all(s.startswith(prefix) for _, s in ids if s)
    assert any(i for _, i in edges) and all(m.startswith(prefix) for m, _ in edges)
    assert all(i.startswith(prefix) for _, i in edges if i)


def test_a_lookup_by_metric_id_reads_only_its_companys_row_groups(tmp_path):
    """DuckDB's zone maps of a VARCHAR keep its first 8 bytes: with the CIK there (8 hex digits) and
    rows clustered by company, `metric_id = ?` skips the other companies' row groups, even for
    neighbouring CIKs (an md5 alone would read them all)."""
    import duckdb

    con = duckdb.connect(str(tmp_path / "z.duckdb"))
    try:
        con.execute("CREATE TABLE derived_metrics AS SELECT cik, printf('%08x', cik) || '-' ||"
                    " md5(CAST(i AS VARCHAR)) AS metric_id FROM (SELECT 1000000000 + i // 50000 AS cik, i"
                    " FROM range(500000) r(i)) ORDER BY cik")
        con.execute("CHECKPOINT")
        mid = fetch_value(con, "SELECT metric_id FROM derived_metrics WHERE cik = 1000000005 LIMIT 1")
        read, emitted = table_scans(con, "SELECT * FROM derived_metrics WHERE metric_id = $m", {"m": mid})[
            "derived_metrics"]
        assert emitted == 1 and read <= 2 * 122_880 < 500_000, read
    finally:
        con.close()


def test_migration_0012_keys_every_stored_id_by_company(tmp_path):
    names = ("0001_core.sql", "0004_metrics.sql", "0011_metrics_unkeyed.sql", "0012_metric_ids_by_company.sql")
    for name in names:
        shutil.copy(schema_dir() / "migrations" / name, tmp_path / name)
    later = tmp_path / names[-1]
    held = later.read_text()
    later.unlink()
    con = connect(tmp_path / "old.duckdb", migrate=False)
    try:
        assert [m.version for m in apply_migrations(con, tmp_path)] == [1, 4, 11]
        t = datetime(2024, 2, 21, 21, 20)
        old, new, quarter = "a" * 32, "b" * 32, "c" * 32
        for mid, nxt in ((old, new), (new, None), (quarter, None)):
            con.execute("INSERT INTO derived_metrics (metric_id, metric, cik, period_end, derivation, formula,"
                        " rule_version, known_from, superseded_by_metric_id, computed_at) VALUES (?, 'm', ?, ?,"
                        " 'formula', 'f', 'm.v1', ?, ?, ?)", [mid, NVDA, date(2024, 1, 28), t, nxt, t])
        con.execute("INSERT INTO metric_lineage (metric_id, role, step, taxonomy, concept, unit, period_end, accession,"
                    " input_metric_id, cik) VALUES (?, 'q4', 'reported', 'us-gaap', 'C', 'USD', ?, 'A', ?, ?),"
                    " (?, 'q3', 'reported', 'us-gaap', 'C', 'USD', ?, 'A', NULL, ?)",
                    [new, date(2024, 1, 28), quarter, NVDA, new, date(2024, 1, 28), NVDA])
        rows = {"derived_metrics": fetch_value(con, "SELECT count(*) FROM derived_metrics"),
                "metric_lineage": fetch_value(con, "SELECT count(*) FROM metric_lineage")}
        later.write_text(held)
        assert [m.version for m in apply_migrations(con, tmp_path)] == [12]
        k = f"{NVDA:08x}-"
        assert fetch_all(con, "SELECT metric_id, superseded_by_metric_id FROM derived_metrics ORDER BY 1") == [
            (k + old, k + new), (k + new, None), (k + quarter, None)]
        assert fetch_all(con, "SELECT metric_id, role, input_metric_id FROM metric_lineage ORDER BY 2") == [
            (k + new, "q3", None), (k + new, "q4", k + quarter)]
        assert rows == {t: fetch_value(con, f"SELECT count(*) FROM {t}") for t in rows}
    finally:
        con.close()
