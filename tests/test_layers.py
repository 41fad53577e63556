"""The three layers stay apart: ruff's per-folder bans are tried for real on probe files, and flows/ holds no SQL."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).with_name("ruff")
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|COPY|ALTER|DROP|ATTACH|PRAGMA)\b[\s\S]*?"
                 r"\b(FROM|INTO|SET|TABLE|VIEW|TO|DATABASE|MACRO)\b")

# folder -> imports ruff must refuse there (each tried in a probe file under that folder's ruff.toml)
FORBIDDEN = {
    "pipelines": ["duckdb", "warehouse.store.db", "flows.cli", "prefect"],
    "warehouse": ["httpx", "requests", "urllib.request", "urllib.parse", "urllib3", "http.client", "socket",
                  "ssl", "aiohttp", "pipelines.sec_client", "flows.cli", "prefect"],
    "flows": ["duckdb", "sqlite3", "psycopg", "psycopg2", "sqlalchemy", "asyncpg", "adbc_driver_manager",
              "pyarrow.parquet", "orjson", "msgspec", "xml.etree.ElementTree", "defusedxml.ElementTree"],
}
# ...and imports each layer needs, which must still pass (the bans are not simply "everything")
ALLOWED = {"pipelines": ["httpx", "pipelines.errors"], "warehouse": ["duckdb", "pyarrow", "pipelines.errors"],
           "flows": ["warehouse.store.db", "pipelines.errors", "prefect"]}


def _strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every string constant (adjacent literals arrive joined) and every f-string's literal text."""
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            yield node.lineno, node.value


def sql_strings(path: Path) -> list[str]:
    """Strings of a Python file that read as SQL: one line or many, concatenated or f-strings."""
    return [f"{path.name}:{line}: {' '.join(text.split())}"
            for line, text in _strings(ast.parse(path.read_text(), str(path))) if SQL.search(text)]


def test_flows_contain_no_sql():
    offenders = [hit for p in sorted((ROOT / "flows").rglob("*.py")) for hit in sql_strings(p)]
    assert not offenders, "SQL belongs in warehouse/ (.sql files):\n" + "\n".join(offenders)


def test_sql_is_caught_on_one_line_or_many(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('A = """\n    SELECT cik\n      FROM facts\n"""\n'
                     'B = ("INSERT INTO facts "\n     "VALUES (1)")\n'
                     'C = f"""\nUPDATE facts\n   SET value = {1}\n"""\n'
                     'D = "Select the companies to refresh from the list"\n')
    assert sql_strings(probe) == ["probe.py:1: SELECT cik FROM facts", "probe.py:5: INSERT INTO facts VALUES (1)",
                                  "probe.py:7: UPDATE facts SET value = {}"]


@pytest.fixture(scope="module")
def lint_tree(tmp_path_factory) -> Path:
    """The repository's lint configuration (pyproject.toml and every layer's ruff.toml) and nothing else."""
    root = tmp_path_factory.mktemp("layers")
    shutil.copy(ROOT / "pyproject.toml", root)
    for layer in FORBIDDEN:
        (root / layer).mkdir()
        shutil.copy(ROOT / layer / "ruff.toml", root / layer)
    return root


def _ruff(tree: Path, layer: str, module: str, style: str) -> subprocess.CompletedProcess:
    probe = tree / layer / f"probe_{style}_{module.replace('.', '_')}.py"
    head, _, tail = module.rpartition(".")
    line = f"import {module}" if style == "import" or not head else f"from {head} import {tail}"
    probe.write_text(f'"""Probe."""\n\n{line}\n\nprint({(module if style == "import" or not head else tail)})\n')
    return subprocess.run([str(RUFF), "check", "--no-cache", "--select", "TID251", str(probe)],
                          cwd=tree, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("style", ["import", "from"])
@pytest.mark.parametrize(("layer", "module"), [(la, m) for la, mods in FORBIDDEN.items() for m in mods])
def test_ruff_refuses_a_forbidden_import(lint_tree, layer, module, style):
    run = _ruff(lint_tree, layer, module, style)
    assert run.returncode == 1 and "TID251" in run.stdout, f"{layer}/ may `{style}` {module}:\n{run.stdout}{run.stderr}"


@pytest.mark.parametrize(("layer", "module"), [(la, m) for la, mods in ALLOWED.items() for m in mods])
def test_ruff_accepts_what_a_layer_needs(lint_tree, layer, module):
    run = _ruff(lint_tree, layer, module, "import")
    assert run.returncode == 0, run.stdout + run.stderr
