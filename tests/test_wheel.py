"""A wheel that works: built from the checkout, installed into a fresh venv elsewhere, it finds its schema
and loads a real companyfacts file (issue 12: `pip install .` used to ship no schema/ at all)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[1]
TSM = ROOT / "tests/fixtures/sec/data.sec.gov/api/xbrl/companyfacts/CIK0001046179.json.gz"
SOURCES = ("pyproject.toml", "setup.py", "README.md", "pipelines", "warehouse", "flows", "schema")

pytestmark = [pytest.mark.wheel, pytest.mark.slow]  # a minute of pip and venv


def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    run = subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)
    assert run.returncode == 0, f"{' '.join(args)}\n{run.stdout}\n{run.stderr}"
    return run


def test_installed_wheel_finds_its_schema_and_loads_a_real_file(tmp_path):
    src = tmp_path / "src"  # build from a copy: the build leaves build/ and *.egg-info behind
    src.mkdir()
    for name in SOURCES:
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(
            ROOT / name, src / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                        if (ROOT / name).is_dir() else {}))
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    pip = [sys.executable, "-m", "pip"]
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "dist"), str(src)], env=offline)
    wheel = next((tmp_path / "dist").glob("edgar_warehouse-*.whl"))

    venv = tmp_path / "venv"  # a fresh venv; third-party dependencies come from this one, not the project
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (purelib / "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([*pip, "--python", str(python), "install", "--no-deps", str(wheel)], env=offline)

    work = tmp_path / "elsewhere"  # outside the checkout, nothing pointing back at it
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "EDGAR_WAREHOUSE_SCHEMA_DIR")}
    where = _run([str(python), "-c", "import warehouse.schema.folder as m; print(m.__file__); print(m.schema_dir())"],
                 cwd=work, env=env).stdout.split()
    assert all(Path(p).is_relative_to(purelib) for p in where), where
    cli = str(venv / "bin" / "edgar-warehouse")
    migrations = len(list((ROOT / "schema" / "migrations").glob("*.sql")))
    assert f"{migrations} applied" in _run([cli, "--db", "w.duckdb", "init"], cwd=work, env=env).stdout
    assert " 1 loaded" in _run([cli, "--db", "w.duckdb", "load", str(TSM)], cwd=work, env=env).stdout

    con = duckdb.connect(str(work / "w.duckdb"), read_only=True)
    try:
        migrations = len(list((ROOT / "schema" / "migrations").glob("*.sql")))
        assert con.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == migrations
        assert con.execute("SELECT count(*) FROM facts WHERE cik = 1046179").fetchone()[0] > 5000
        assert con.execute("SELECT count(*) FROM standard_facts").fetchone()[0] > 0
        assert con.execute("SELECT comment FROM duckdb_columns() WHERE table_name = 'facts'"
                           " AND column_name = 'value'").fetchone()[0]
    finally:
        con.close()
