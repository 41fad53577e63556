"""Read the SQL files shipped in warehouse/sql/ (queries, metrics, checks) by relative name."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def sql(name: str) -> str:
    """Text of ``warehouse/sql/<name>.sql``, e.g. ``sql("load/companyfacts/insert_facts")``."""
    return resources.files("warehouse").joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")


def sql_names(folder: str) -> list[str]:
    """Names (without .sql) of the files in ``warehouse/sql/<folder>/``, sorted."""
    root = resources.files("warehouse").joinpath("sql", folder)
    return sorted(p.name[:-4] for p in root.iterdir() if p.name.endswith(".sql"))
