"""The three layers stay apart: ruff bans the imports (per-folder ruff.toml); this catches SQL text in flows/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|COPY)\b[^\"'\n]*\b(FROM|INTO|SET|TABLE|VIEW|TO)\b")


def test_flows_contain_no_sql():
    offenders = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
                 for p in sorted((ROOT / "flows").glob("*.py"))
                 for i, line in enumerate(p.read_text().splitlines(), 1) if SQL.search(line)]
    assert not offenders, "SQL belongs in warehouse/:\n" + "\n".join(offenders)


def test_every_layer_folder_has_its_import_bans():
    for layer, banned in {"pipelines": "duckdb", "warehouse": "httpx", "flows": "duckdb"}.items():
        text = (ROOT / layer / "ruff.toml").read_text()
        assert f'"{banned}".msg' in text
