"""The names users may ask for: derived metrics (one per rule file), standard concepts (data),
plain-English aliases, and a "did you mean" list for names that match nothing."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache
from pathlib import Path

import duckdb

from pipelines.detect import KINDS
from warehouse.errors import WarehouseError
from warehouse.schema.sql_files import sql, sql_names

#: Plain-English names -> the metric or standard concept they mean (case-insensitive keys).
ALIASES: dict[str, str] = {
    "sales": "revenue", "revenues": "revenue", "turnover": "revenue", "top line": "revenue",
    "net sales": "revenue", "cogs": "cost_of_revenue", "cost of sales": "cost_of_revenue",
    "r&d": "rnd_expense", "research and development": "rnd_expense", "rnd": "rnd_expense",
    "sg&a": "sga_expense", "sga": "sga_expense", "capex": "capital_expenditure",
    "fcf": "free_cash_flow", "free cash flow": "free_cash_flow", "ocf": "operating_cash_flow",
    "cfo": "operating_cash_flow", "operating cash flow": "operating_cash_flow", "profit": "net_income",
    "earnings": "net_income", "net profit": "net_income", "eps": "eps_diluted",
    "operating profit": "operating_income", "d&a": "depreciation_amortization", "equity": "stockholders_equity",
    "assets": "total_assets", "liabilities": "total_liabilities", "debt": "total_debt",
    "ttm revenue": "ttm_revenue", "ltm revenue": "ttm_revenue", "revenue growth": "revenue_growth_yoy",
}


class MetricsError(WarehouseError):
    """Derived metrics could not be computed or queried as asked."""


class UnknownMetricError(MetricsError):
    """The name is neither a derived metric, a standard concept nor an alias of one."""

    def __init__(self, name: str, suggestions: list[str] | None = None):
        self.name, self.suggestions = name, list(suggestions or [])
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"{name!r} is neither a derived metric nor a standard concept{hint}")


@dataclass(frozen=True)
class Name:
    """What a user's name resolved to: ``kind`` is metric or concept."""

    asked: str
    name: str
    kind: str


def metric_names() -> list[str]:
    """Derived metrics: one rule file each in warehouse/sql/derive/metrics/ (discrete_quarters derives
    quarters of standard concepts and is not a metric name)."""
    return [n for n in sql_names("derive/metrics") if n != "discrete_quarters"]


def check_names() -> list[str]:
    """Data-quality checks: one file each in warehouse/sql/derive/checks/."""
    return sql_names("derive/checks")


def standard_concept_names(schema_root: Path) -> list[str]:
    """Standard concepts in the order of ``<schema_root>/definitions/standard_concepts.csv`` (the
    rows of table standard_concepts)."""
    with (schema_root / "definitions" / "standard_concepts.csv").open(encoding="utf-8", newline="") as f:
        return list(dict.fromkeys(row["standard_concept"] for row in csv.DictReader(f)))


@dataclass(frozen=True)
class NameList:
    """One list of names as the docs show it: a title, where the names come from, the names."""

    title: str
    source: str
    names: tuple[str, ...]


def vocabulary_lists(schema_root: Path) -> dict[str, NameList]:
    """Every list of names that the column comments (``${key}`` in schema/columns.toml), the MCP tool
    descriptions and docs/data-dictionary.md show, each from its one source, by key."""
    return {
        "metrics": NameList("Derived metrics", "warehouse/sql/derive/metrics/ (one rule file each)",
                            tuple(metric_names())),
        "standard_concepts": NameList("Standard concepts", "schema/definitions/standard_concepts.csv",
                                      tuple(standard_concept_names(schema_root))),
        "checks": NameList("Data-quality checks", "warehouse/sql/derive/checks/ (one file each)",
                           tuple(check_names())),
        "document_kinds": NameList("Document kinds", "pipelines/detect.py DETECTIONS", tuple(KINDS)),
    }


_SHOWN_AS = re.compile(r"^-- metric:\s+(\w+)\s+\(a (FRACTION|RATIO)\b", re.MULTILINE)


@cache
def metric_shown_as() -> dict[str, str]:
    """How each derived metric of unit ``pure`` reads, from its rule file's header (``-- metric: name
    (a FRACTION)`` / ``(a RATIO)``): ``percent`` (margins, growth, returns) or ``multiple``
    (current_ratio, debt_to_equity, net_debt_to_ebitda)."""
    kinds = {"FRACTION": "percent", "RATIO": "multiple"}
    return {m.group(1): kinds[m.group(2)] for n in metric_names() if (m := _SHOWN_AS.search(sql(f"derive/metrics/{n}")))}


def concept_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Standard concepts (table standard_concepts)."""
    return [r[0] for r in con.execute("SELECT DISTINCT standard_concept FROM standard_concepts ORDER BY 1").fetchall()]


def resolve_name(con: duckdb.DuckDBPyConnection, asked: str, *, concepts_only: bool = False) -> Name:
    """A metric or standard concept by its name or alias; UnknownMetricError with suggestions."""
    concepts = concept_names(con)
    metrics = [] if concepts_only else metric_names()
    key = " ".join(asked.strip().lower().replace("_", " ").split())
    for candidate in (asked.strip(), key.replace(" ", "_"), ALIASES.get(key)):
        if candidate in metrics:
            return Name(asked, candidate, "metric")
        if candidate in concepts:
            return Name(asked, candidate, "concept")
    known = metrics + concepts
    pool = {n: n for n in known} | {a: t for a, t in ALIASES.items() if t in known}
    close = get_close_matches(key.replace(" ", "_"), list(pool), n=5, cutoff=0.6) + \
        get_close_matches(key, list(pool), n=5, cutoff=0.6)
    contains = [n for n in known if key.replace(" ", "_") in n] if len(key) >= 3 else []
    suggestions = list(dict.fromkeys(pool[c] for c in close + contains))[:5]
    raise UnknownMetricError(asked, suggestions)
