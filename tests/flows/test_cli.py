"""The `edgar-warehouse` CLI: exit codes scripts rely on, read-only sql, load of every kind, export."""

from __future__ import annotations

import json

import duckdb
import pytest
from typer.testing import CliRunner

from flows.cli import EXIT_AMBIGUOUS, EXIT_ERROR, EXIT_NOT_FOUND, EXIT_PARTIAL, app
from helpers import COMPANYFACTS_DIR, FIXTURES

runner = CliRunner()
APPLE_CF = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
APPLE_SUB = FIXTURES / "sec/data.sec.gov/submissions/CIK0000320193.json.gz"
TICKERS = FIXTURES / "sec/www.sec.gov/files/company_tickers.json.gz"
FORM4 = FIXTURES / "form4/0000320193-22-000061.txt"


def cli(db, *args):
    return runner.invoke(app, ["--db", str(db), *map(str, args)])


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "w.duckdb"
    result = cli(path, "load", APPLE_CF, APPLE_SUB, TICKERS, FORM4)
    assert result.exit_code == 0, result.output
    assert "4 loaded, 0 unchanged, 0 rejected" in result.output
    return path


def test_load_detects_every_kind_and_is_idempotent(db):
    again = cli(db, "load", APPLE_CF, APPLE_SUB, TICKERS, FORM4)
    assert again.exit_code == 0
    assert "0 loaded, 4 unchanged" in again.output
    out = cli(db, "sql", "SELECT kind, count(*) AS n FROM source_documents GROUP BY kind ORDER BY kind", "-f", "json")
    assert json.loads(out.stdout) == [{"kind": k, "n": 1} for k in
                                     ("company_tickers", "companyfacts", "ownership", "submissions")]


def test_sql_is_read_only_and_exact(db):
    denied = cli(db, "sql", "DELETE FROM facts")
    assert denied.exit_code == EXIT_ERROR
    assert "refused: only statements that read" in denied.output
    # the agent-facing path is sandboxed: no writing or reading files, no re-enabling it
    target = db.parent / "leak.csv"
    for query in (f"COPY (SELECT * FROM facts) TO '{target}'", "SELECT * FROM read_text('/etc/hostname')",
                  f"ATTACH '{db.parent / 'other.duckdb'}'", "SET enable_external_access = true"):
        refused = cli(db, "sql", query)
        assert refused.exit_code == EXIT_ERROR, query
    assert not target.exists()
    out = cli(db, "sql", "SELECT value FROM facts WHERE accession = '0000320193-25-000079' AND concept ="
                         " 'RevenueFromContractWithCustomerExcludingAssessedTax' AND period_start = '2022-09-25'"
                         " AND period_end = '2023-09-30'", "--format", "csv")
    assert out.stdout.splitlines() == ["value", "383285000000"]


def test_bad_file_is_rejected_with_exit_code_partial(tmp_path, db):
    bad = tmp_path / "CIK0000000001.json"
    bad.write_text('{"cik": 1, "entityName": "x", "facts": {')  # truncated
    result = cli(tmp_path / "w.duckdb", "load", bad, APPLE_CF)
    assert result.exit_code == EXIT_PARTIAL
    assert "1 loaded, 0 unchanged, 1 rejected" in result.output
    assert "CIK0000000001.json" in result.output and "truncated" in result.output


@pytest.mark.parametrize("name", ["CIK:fire:.json", "CIK[bold]1.json", "CIK[/x].json"])
def test_names_are_printed_as_they_are(tmp_path, name):
    """A document's name is printed as it is: rich's emoji codes (``:fire:``) are not replaced, and
    what looks like markup is neither applied (``[bold]`` vanished) nor read as a tag (``[/x]``
    raised MarkupError instead of the rejection line)."""
    bad = tmp_path / name  # CIK[/x].json: the file x].json in the folder CIK[
    bad.parent.mkdir(exist_ok=True)
    bad.write_text('{"cik": 1, "entityName": "x", "facts": {')  # truncated
    result = cli(tmp_path / "w.duckdb", "load", bad)
    assert result.exit_code == EXIT_PARTIAL, result.output
    assert f"rejected: {bad}" in result.output


def test_an_error_naming_a_path_with_brackets_is_one_line(tmp_path):
    result = cli(tmp_path / "w.duckdb", "load", tmp_path / "nope[/x].json")
    assert result.exit_code == EXIT_ERROR, result.output
    assert f"error: {tmp_path / 'nope[/x].json'}: no such file or folder" in result.output


def test_resolve_exit_codes(db):
    assert cli(db, "resolve", "AAPL").exit_code == 0
    ambiguous = cli(db, "resolve", "Apple", "-f", "json")
    assert ambiguous.exit_code == EXIT_AMBIGUOUS
    body = json.loads(ambiguous.stdout)
    assert body["status"] == "ambiguous" and body["cik"] is None
    assert body["candidates"][0]["cik"] == 320193
    assert cli(db, "resolve", "zzzz no such company").exit_code == EXIT_NOT_FOUND


def test_status_and_export(db, tmp_path):
    status = cli(db, "status")
    assert status.exit_code == 0
    assert "24579" in status.output  # Apple's fact versions
    result = cli(db, "export", tmp_path / "out", "--table", "facts", "--table", "insider_transactions")
    assert result.exit_code == 0, result.output
    con = duckdb.connect()
    out = tmp_path / "out"
    assert con.execute(f"SELECT count(*) FROM read_parquet('{out}/facts/**/*.parquet')").fetchall() == [(24579,)]
    assert con.execute(f"SELECT count(*) FROM '{out}/insider_transactions/*.parquet'").fetchall() == [(7,)]
    assert sorted(p.name for p in out.iterdir()) == ["README.txt", "facts", "insider_transactions", "manifest.json"]
    unknown = cli(db, "export", tmp_path / "out2", "--table", "nope")
    assert unknown.exit_code == EXIT_ERROR


def test_reader_on_missing_warehouse_is_a_clear_error(tmp_path):
    result = cli(tmp_path / "missing.duckdb", "status")
    assert result.exit_code == EXIT_ERROR
    assert "no warehouse here" in result.output


@pytest.fixture(scope="module")
def metrics_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli-metrics") / "w.duckdb"
    nvda = COMPANYFACTS_DIR / "CIK0001045810.json.gz"
    result = cli(path, "load", APPLE_CF, nvda, TICKERS)
    assert result.exit_code == 0, result.output
    return path


def test_compare_warns_about_misaligned_period_ends(metrics_db):
    result = cli(metrics_db, "compare", "free_cash_flow", "-t", "AAPL", "-t", "NVDA", "-y", "2025", "-f", "json")
    assert result.exit_code == 0, result.output
    rows = {r["cik"]: r for r in json.loads(result.stdout)}
    assert rows[320193]["value"] == "98767000000" and rows[320193]["accession"] == "0000320193-25-000079"
    assert any("period ends differ" in w for w in rows[320193]["warnings"])
    unknown = cli(metrics_db, "compare", "no_such_metric", "-c", "320193", "-y", "2025")
    assert unknown.exit_code == 2


def test_growth_two_years_nvidia(metrics_db):
    result = cli(metrics_db, "growth", "revenue", "-t", "NVDA", "--from", "2022", "--to", "2024", "-f", "json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert (row["from_value"], row["to_value"]) == ("26914000000", "60922000000")
    assert round(float(row["value"]), 3) == 1.264


def test_checks_lists_latest_results(metrics_db):
    result = cli(metrics_db, "checks", "-f", "json")
    assert result.exit_code == 0, result.output
    names = {r["check_name"] for r in json.loads(result.stdout)}
    assert names == {"balance_sheet_identity", "filing_facts_agree_with_companyfacts", "gross_profit_identity",
                     "quarters_sum_to_year", "metric_bases"}


def test_rebuild_from_raw_payloads_reproduces_every_table(db, tmp_path):
    target = tmp_path / "rebuilt.duckdb"
    result = cli(db, "rebuild", target)
    assert result.exit_code == 0, result.output
    old, new = duckdb.connect(str(db), read_only=True), duckdb.connect(str(target), read_only=True)
    try:
        for table, cols in {
            "facts": "cik, taxonomy, concept, unit, period_start, period_end, value, accession, fiscal_year,"
                     " fiscal_period, payload_vintage",
            "filings": "cik, accession, form, acceptance_time, amends_accession, superseded_by",
            "insider_transactions": "accession, table_kind, line_number, shares, price_per_share",
            "fiscal_calendar": "cik, fiscal_year, fy_start, fy_end, basis",
            "source_documents": "kind, uri, sha256, fetched_at",
        }.items():
            query = f"SELECT {cols} FROM {table} ORDER BY ALL"
            assert old.execute(query).fetchall() == new.execute(query).fetchall(), table
    finally:
        old.close()
        new.close()
    assert cli(db, "rebuild", target).exit_code == 2  # never overwrites


def test_bulk_load_in_batches_is_one_run(tmp_path):
    files = sorted(COMPANYFACTS_DIR.glob("*.json.gz"))[:3] + [FORM4]
    result = cli(tmp_path / "w.duckdb", "load", *files, "--batch-size", "2")
    assert result.exit_code == 0, result.output
    assert "4 loaded, 0 unchanged, 0 rejected" in result.stdout
    runs = cli(tmp_path / "w.duckdb", "sql", "SELECT status, documents_loaded FROM load_runs", "-f", "json")
    assert json.loads(runs.stdout) == [{"status": "succeeded", "documents_loaded": 4}]


def test_live_refresh_without_a_contact_is_refused_before_any_request(tmp_path, monkeypatch):
    from flows.cli import EXIT_CONFIG

    monkeypatch.delenv("SEC_USER_AGENT", raising=False)
    result = cli(tmp_path / "w.duckdb", "refresh", "--ticker", "AAPL")
    assert result.exit_code == EXIT_CONFIG
    assert "SEC_USER_AGENT" in result.output and "refreshing" not in result.output
    monkeypatch.setenv("SEC_USER_AGENT", "Jane Analyst")  # a name but no contact
    assert cli(tmp_path / "w.duckdb", "refresh", "--ticker", "AAPL").exit_code == EXIT_CONFIG


def test_refresh_prints_each_document_not_fetched_once(prefect_harness, tmp_path, replay_root, capfd):
    """Issue #10.6: `make demo` printed every "not fetched" line twice (Prefect's log and the CLI)."""
    result = cli(tmp_path / "w.duckdb", "refresh", "--replay", replay_root, "--cik", "320193")
    assert result.exit_code == EXIT_PARTIAL, result.output
    printed = result.output + capfd.readouterr().err
    line = "not fetched: submissions page CIK0000320193-submissions-001.json"
    assert printed.count(line) == 1, printed


def test_version_prints_the_package_and_duckdb_versions_and_opens_nothing(tmp_path):
    from importlib.metadata import version

    db = tmp_path / "never.duckdb"
    got = runner.invoke(app, ["--db", str(db), "--version"])
    assert got.exit_code == 0, got.output
    assert got.output.strip() == f"edgar-warehouse {version('edgar-warehouse')} (DuckDB {duckdb.__version__})"
    assert not db.exists()
