"""Schema definitions: views, macros and reference rows in schema/definitions/, one file each, re-applied whole.

A definition file is named after what it creates (``fact_versions.sql`` creates the view
``fact_versions``) and starts with a header line naming everything it reads::

    -- reads: facts, filings, source_documents

The body is ``CREATE OR REPLACE VIEW``/``MACRO`` (kind view, macro or table_macro). A ``name.csv``
(header row = column names, empty = NULL) is the complete set of rows of the migration-created table
``name`` (kind data, e.g. ``standard_concepts.csv``): re-applying replaces all its rows. Definitions are
applied in dependency order (a definition after every definition it reads); a body that uses another
definition without declaring it is refused, so the order can never depend on luck.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from warehouse.errors import SchemaError
from warehouse.schema.sql_header import parse_header

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_CREATE = re.compile(r"\bCREATE OR REPLACE (VIEW|MACRO) (\w+)\s*(\([^)]*\))?\s*AS\s+(TABLE\b)?", re.IGNORECASE)


@dataclass(frozen=True)
class Definition:
    name: str
    kind: str  # view, macro, table_macro or data
    reads: tuple[str, ...]
    sql: str
    sha256: str
    path: Path

    def drop_sql(self) -> str | None:
        """How to remove what this definition created (data rows belong to a migration's table: kept)."""
        return {"view": f"DROP VIEW IF EXISTS {self.name}", "macro": f"DROP MACRO IF EXISTS {self.name}",
                "table_macro": f"DROP MACRO TABLE IF EXISTS {self.name}"}.get(self.kind)


def code_words(sql: str) -> set[str]:
    """Identifiers used by the SQL text, comments and string literals removed."""
    code = re.sub(r"--[^\n]*", " ", sql)
    code = re.sub(r"'(?:[^']|'')*'", " ", code)
    return set(re.findall(r"\b[a-z_][a-z0-9_]*\b", code.lower()))


def _rows(path: Path, name: str) -> Definition:
    """A table's reference rows from ``name.csv``: every row replaced, values cast to the table's types."""
    literal = "'" + str(path.resolve()).replace("'", "''") + "'"
    sql = (f"DELETE FROM {name};\n"
           f"INSERT INTO {name} BY NAME SELECT * FROM read_csv({literal}, header = true, all_varchar = true);\n")
    return Definition(name, "data", (), sql, hashlib.sha256(path.read_bytes()).hexdigest(), path)


def _parse(path: Path) -> Definition:
    name = path.stem
    if not _NAME.match(name):
        raise SchemaError(f"{path}: definition files are named after what they create (lower_case.sql)")
    if path.suffix == ".csv":
        return _rows(path, name)
    text = path.read_text(encoding="utf-8")
    header = parse_header(text)
    if "reads" not in header.declared:
        raise SchemaError(f"{path}: no '-- reads: a, b' header naming what the definition reads")
    reads = tuple(sorted(header.reads))
    created = _CREATE.search(text)
    if created:
        if created.group(2) != name:
            raise SchemaError(f"{path}: creates {created.group(2)}, but the file is named {name}")
        kind = "view" if created.group(1).upper() == "VIEW" else "table_macro" if created.group(4) else "macro"
    else:
        raise SchemaError(f"{path}: does not CREATE OR REPLACE VIEW/MACRO {name}")
    return Definition(name, kind, reads, text, hashlib.sha256(text.encode("utf-8")).hexdigest(), path)


def discover_definitions(folder: Path) -> list[Definition]:
    """Every definition in ``folder``, in dependency order (ties by name)."""
    paths = sorted([*folder.glob("*.sql"), *folder.glob("*.csv")])
    defs = {d.name: d for d in (_parse(p) for p in paths)}
    if len(defs) != len(paths):
        raise SchemaError(f"{folder}: two definition files share a name")
    graph: dict[str, set[str]] = {}
    for d in defs.values():
        used = (code_words(d.sql) & defs.keys()) - {d.name}
        undeclared = used - set(d.reads)
        if undeclared:
            raise SchemaError(f"{d.path.name} uses {', '.join(sorted(undeclared))} without declaring it "
                                 "in its '-- reads:' header")
        graph[d.name] = {r for r in d.reads if r in defs and r != d.name}
    sorter = TopologicalSorter(graph)
    try:
        sorter.prepare()
    except CycleError as exc:
        raise SchemaError(f"{folder}: definitions read each other in a cycle: {exc.args[1]}") from exc
    ordered: list[Definition] = []
    while sorter.is_active():
        ready = sorted(sorter.get_ready())
        ordered.extend(defs[n] for n in ready)
        sorter.done(*ready)
    return ordered
