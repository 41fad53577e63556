"""Tables whose rows definitions compute, kept consistent with them: recomputed whole when a definition they read changes.

``schema/stored/<table>.sql`` fills the migration-created table ``<table>`` with what definitions
compute (e.g. standard_facts_rows from company_standard_facts_as_of now); its first line names what
it reads, like a definition's::

    -- reads: company_standard_facts_as_of

Its basis is the sha256 of the fill file together with the sha256 of every definition it reads,
directly or through other definitions (their own ``-- reads:`` headers: the dependency set is said
once, by the definitions). ``warehouse.migrate.apply_definitions`` records the basis in
``schema_definitions`` (kind ``stored``) and, in the transaction that applies the definitions, runs
the fill of every table whose recorded basis differs from the one on disk (a changed rule, chain or
reference row; a new table): the stored rows never disagree with what the definitions compute now,
in any warehouse opened for writing. Loads keep the rows of the companies they change in between.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from warehouse.definitions import Definition
from warehouse.errors import SchemaError

_READS = re.compile(r"^-- reads:(.*)$", re.MULTILINE)
KIND = "stored"


@dataclass(frozen=True)
class StoredRows:
    name: str  # the table
    sql: str  # its fill: every row deleted, then computed again
    basis: str  # sha256 of the fill and of every definition it reads, transitively
    reads: tuple[str, ...]  # those definitions, sorted
    path: Path


def _closure(start: tuple[str, ...], defs: dict[str, Definition]) -> set[str]:
    seen: set[str] = set()
    todo = [n for n in start if n in defs]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(r for r in defs[name].reads if r in defs)
    return seen


def discover_stored(folder: Path, defs: list[Definition]) -> list[StoredRows]:
    """Every ``folder/*.sql`` fill, with its basis over ``defs`` (the definitions to be applied)."""
    by_name = {d.name: d for d in defs}
    found = []
    for path in sorted(folder.glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        header = _READS.search(text)
        if not header:
            raise SchemaError(f"{path}: no '-- reads: a, b' header naming the definitions the fill reads")
        direct = tuple(r.strip() for r in header.group(1).split(",") if r.strip())
        unknown = [r for r in direct if r not in by_name]
        if unknown:
            raise SchemaError(f"{path}: reads {', '.join(unknown)}, which no definition creates")
        reads = tuple(sorted(_closure(direct, by_name)))
        digest = hashlib.sha256(text.encode("utf-8"))
        for name in reads:
            digest.update(f"\n{name} {by_name[name].sha256}".encode())
        found.append(StoredRows(path.stem, text, digest.hexdigest(), reads, path))
    return found
