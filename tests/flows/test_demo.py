"""`make demo` ends with a complete, healthy warehouse: the Makefile's own demo lines, run here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from flows.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def demo_line(name: str) -> list[str]:
    """The arguments of a DEMO_* variable of the Makefile (what `make demo` runs)."""
    m = re.search(rf"^{name} = (.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert m, f"Makefile has no {name}"
    return shlex.split(m.group(1))


def test_the_demo_ends_complete_with_nothing_rejected_or_not_fetched(prefect_harness, tmp_path, monkeypatch):
    """Issue #10.6: the demo ended with every company `complete = False` (pages never recorded)."""
    monkeypatch.chdir(ROOT)  # the Makefile's paths are relative to the repository
    monkeypatch.setenv("SEC_USER_AGENT", "edgar-warehouse demo demo@example.invalid")
    db = tmp_path / "edgar.duckdb"
    refresh = runner.invoke(app, ["--db", str(db), *demo_line("DEMO_REFRESH")])
    assert refresh.exit_code == 0, refresh.output
    assert "not fetched" not in refresh.output and "rejected:" not in refresh.output
    con = duckdb.connect(str(db), read_only=True)
    try:
        coverage = con.execute("SELECT complete, pages_missing, xbrl_filings, xbrl_filings_with_facts,"
                               " facts_accessions_unknown_to_filings FROM company_coverage").fetchall()
        runs = con.execute("SELECT status, documents_rejected, documents_not_fetched FROM load_runs").fetchall()
        facts = con.execute("SELECT count(*) FROM facts").fetchone()[0]
    finally:
        con.close()
    assert coverage and all(c[0] and c[1] == 0 and c[4] == 0 for c in coverage), coverage
    assert runs == [("succeeded", 0, 0)]
    assert facts > 0
    for name in ("DEMO_COMPARE", "DEMO_GROWTH"):
        shown = runner.invoke(app, ["--db", str(db), *demo_line(name)])
        assert shown.exit_code == 0 and "1835632" in shown.output, shown.output
