"""The three layers stay apart: ruff's per-folder bans are tried for real on probe files, and flows/ holds no SQL."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
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


# ------------------------------------------------------------------ the wings inside warehouse/
# A wing imports only the wings listed for it (lowest first); warehouse/'s root modules (errors,
# memory) import no wing. Function-local imports count: a lazy import (kept for start-up cost) may
# only point down, so no import circle can hide in one. In words: store imports nothing above it
# (the schema code is below it: opening a writer migrates); read never imports load; derive never
# imports load or read; the agent reads (never imports load or derive).
WINGS: dict[str, set[str]] = {
    "": set(),  # warehouse/errors.py, warehouse/memory.py
    "schema": {""},
    "store": {"", "schema"},
    "derive": {"", "schema", "store"},
    "read": {"", "schema", "store", "derive"},
    "load": {"", "schema", "store", "derive", "read"},
    "agent": {"", "schema", "store", "read"},
}
ROOT_MODULES = ["warehouse.errors", "warehouse.memory"]
# the public entries outside the wings: a module users import (never the warehouse's own code), and
# the wings it may import. warehouse.api: the notebook's import path (the code is warehouse/read/api.py).
PUBLIC_ENTRIES: dict[str, set[str]] = {"warehouse.api": {"", "read"}}


def _module_of(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def wing_of(module: str) -> str:
    """warehouse.load.batch -> load; warehouse.errors -> '' (the root, as is any folder WINGS does not name)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in WINGS else ""


def warehouse_imports(root: Path = ROOT) -> dict[str, set[str]]:
    """warehouse module -> the warehouse modules it imports, at the top or inside a function."""
    modules = {_module_of(p, root): p for p in sorted((root / "warehouse").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            found |= {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}
        graph[name] = found
    return graph


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a wing above the importer's; a public entry imports only what PUBLIC_ENTRIES lets it,
    and no warehouse module imports a public entry (it would carry the wings it imports to the importer)."""
    return [f"{m} imports {t}" for m, targets in sorted(graph.items()) for t in sorted(targets)
            if t in PUBLIC_ENTRIES
            or (wing_of(t) not in PUBLIC_ENTRIES[m] if m in PUBLIC_ENTRIES
                else wing_of(t) != wing_of(m) and wing_of(t) not in WINGS.get(wing_of(m), set()))]


def import_circle(graph: dict[str, set[str]]) -> list[str]:
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def test_every_warehouse_module_sits_in_a_wing():
    graph = warehouse_imports()
    assert {wing_of(m) for m in graph} == set(WINGS), sorted({wing_of(m) for m in graph})
    outside = sorted(m for m in graph if wing_of(m) == "" and m != "warehouse" and m not in PUBLIC_ENTRIES)
    assert outside == ROOT_MODULES, f"modules outside the wings (move them into one): {outside}"


def test_wings_import_only_the_wings_below_them():
    offenders = upward_imports(warehouse_imports())
    assert not offenders, "a wing imports one it may not (tests/test_layers.py WINGS):\n" + "\n".join(offenders)


def test_no_import_circle_in_warehouse():
    circle = import_circle(warehouse_imports())
    assert not circle, "import circle (function-local imports count): " + " -> ".join(circle)


def test_the_wing_rules_find_an_upward_import_and_a_circle_hidden_in_a_function(tmp_path):
    for name, text in {"__init__": "", "store/__init__": "", "load/__init__": "",
                       "store/db.py": "def f():\n    from warehouse.load.batch import x\n",
                       "load/batch.py": "from warehouse.store.db import f\nx = 1\n"}.items():
        path = tmp_path / "warehouse" / (name if name.endswith(".py") else name + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    graph = warehouse_imports(tmp_path)
    assert upward_imports(graph) == ["warehouse.store.db imports warehouse.load.batch"]
    assert set(import_circle(graph)) == {"warehouse.store.db", "warehouse.load.batch"}
    graph = {"warehouse.api": {"warehouse.read.api", "warehouse.load.batch"},
             "warehouse.read.report": {"warehouse.api"}}
    assert upward_imports(graph) == ["warehouse.api imports warehouse.load.batch",
                                     "warehouse.read.report imports warehouse.api"]


def test_the_notebook_imports_the_public_facade():
    """``from warehouse.api import open_warehouse``: the notebook's import path since the first session,
    the same objects as the read wing's (README and docs use it)."""
    import warehouse.api as public
    import warehouse.read.api as code

    assert public.open_warehouse is code.open_warehouse and public.Warehouse is code.Warehouse
    assert public.UnknownNameError is code.UnknownNameError
    assert set(public.__all__) <= set(dir(public))
    assert "from warehouse.api import open_warehouse" in (ROOT / "README.md").read_text()


# ------------------------------------------------------------------ inline SQL in warehouse/
# SQL lives in .sql files under warehouse/sql/<wing>/, each with the one header
# (warehouse/schema/sql_header.py). Inline SQL is allowed where it fits in two source lines (a
# lookup, a bookkeeping statement, a template of identifiers); longer SQL goes into a file. The
# exceptions, each with its reason (a count per module, kept exact so the list stays true):
LONG_INLINE_SQL = {
    "warehouse/read/export.py": (1, "README_TEXT: the export's README for its readers, quoting queries it never runs"),
    "warehouse/store/raw_documents.py": (1, "loaded_documents: one query assembled for warehouses before and after "
                                            "migration 0007 (its columns differ)"),
    "warehouse/store/lake.py": (1, "the lake's own bookkeeping tables (edgar_lake.*, not migrated: DuckLake keeps "
                                   "them beside the catalog), named by the constants lake_writers shares"),
}
MAX_INLINE_LINES = 2


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def long_inline_sql(path: Path) -> list[str]:
    """SQL strings of a module (docstrings left out) spanning more than MAX_INLINE_LINES source lines."""
    tree = ast.parse(path.read_text(), str(path))
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    skip = parts | _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        else:
            continue
        lines = (node.end_lineno or node.lineno) - node.lineno + 1
        if lines > MAX_INLINE_LINES and SQL.search(text):
            found.append(f"{path.name}:{node.lineno} ({lines} lines): {' '.join(text.split())[:80]}")
    return found


def test_inline_sql_in_warehouse_fits_in_two_lines():
    found = {p.relative_to(ROOT).as_posix(): long_inline_sql(p) for p in sorted((ROOT / "warehouse").rglob("*.py"))}
    over = [f"{m}: {hit}" for m, hits in found.items() for hit in hits if len(hits) > LONG_INLINE_SQL.get(m, (0,))[0]]
    assert not over, ("SQL longer than two lines belongs in a .sql file with its header (warehouse/sql/<wing>/; "
                      "read it with warehouse.schema.sql_files.sql):\n" + "\n".join(over))
    stale = {m: (n, len(found.get(m, []))) for m, (n, _) in LONG_INLINE_SQL.items() if len(found.get(m, [])) != n}
    assert not stale, f"LONG_INLINE_SQL overstates (module: allowed, found): {stale}"


def test_the_inline_sql_rule_finds_three_lines_not_two_nor_a_docstring(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""SELECT a docstring\nFROM prose\nINTO lines."""\n'
                     'A = ("SELECT cik "\n     "FROM facts")\n'
                     'B = ("SELECT cik "\n     "FROM facts "\n     "WHERE cik = 1")\n'
                     'C = f"""\nUPDATE facts\n   SET value = {1}\n"""\n')
    assert long_inline_sql(probe) == ["probe.py:6 (3 lines): SELECT cik FROM facts WHERE cik = 1",
                                      "probe.py:9 (4 lines): UPDATE facts SET value = {}"]
