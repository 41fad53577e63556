"""Tables whose rows definitions compute, kept consistent with them: by company at every load, whole when a definition they read changes.

``schema/stored/<table>.sql`` is the one statement of what the migration-created table ``<table>``
holds for the companies ``$ciks``: it deletes their rows, then inserts what definitions compute for
them (e.g. facts_current_rows from facts_current_of). Its first line names what it reads, like a
definition's::

    -- reads: facts_current_of

Loads run it for the companies they change (``keep``). Its basis is the sha256 of the file together
with the sha256 of every definition it reads, directly or through other definitions (their own
``-- reads:`` headers: the dependency set is said once, by the definitions), and with the basis of
every stored table met on the way (standard_facts_rows reads facts_current_rows through the view
facts_current). ``warehouse.schema.migrate.apply_definitions`` records the basis in ``schema_definitions``
(kind ``stored``) and, in the transaction that applies the definitions, refills every table whose
recorded basis differs from the one on disk (a changed rule, chain or reference row; a new table),
a table after the stored tables it reads: the stored rows never disagree with what the definitions
compute now, in any warehouse opened for writing.

A refill empties the table and runs the file for every company with facts, companies taken in order
until about ``FACTS_PER_FILL`` facts, under the writer's memory limit (warehouse.schema.migrate.upgrade):
what it holds is bounded by that, not by the warehouse. The 100x benchmark warehouse's standard facts
computed whole needed 5.0 GB (and exceed the 512MB limit); all three tables by 500k facts, in one
transaction: 228.5 s CPU at 0.69 GB peak RSS under the limit (``edgar-warehouse init``), 187.6 s CPU
at 1.84 GB without it (``tests/bench/bench_stored_refill.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import duckdb

from warehouse.errors import SchemaError
from warehouse.schema.definitions import Definition
from warehouse.schema.folder import schema_dir
from warehouse.schema.sql_header import parse_header

KIND = "stored"
FACTS_PER_FILL = 500_000


@dataclass(frozen=True)
class StoredRows:
    name: str  # the table
    sql: str  # its rows for the companies $ciks: deleted, then computed again
    basis: str  # sha256 of the file, of every definition and stored table it reads, transitively
    reads: tuple[str, ...]  # those definitions and stored tables, sorted
    path: Path

    @property
    def statements(self) -> list[str]:
        return _statements(self.sql)


def _statements(text: str) -> list[str]:
    return [s for s in text.split(";\n") if s.strip()]


def _direct_reads(path: Path, text: str) -> tuple[str, ...]:
    header = parse_header(text)
    if "reads" not in header.declared:
        raise SchemaError(f"{path}: no '-- reads: a, b' header naming the definitions it reads")
    if "ciks" not in header.params:
        raise SchemaError(f"{path}: computes no company's rows ($ciks): a load could not keep them")
    return header.reads


def discover_stored(folder: Path, defs: list[Definition]) -> list[StoredRows]:
    """Every ``folder/*.sql`` fill with its basis over ``defs`` (the definitions to be applied), in
    dependency order (a table after the stored tables it reads)."""
    by_name = {d.name: d for d in defs}
    texts = {p.stem: (p, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.sql"))}
    direct = {name: _direct_reads(p, text) for name, (p, text) in texts.items()}
    for name, names in direct.items():
        unknown = [r for r in names if r not in by_name and r not in texts]
        if unknown:
            raise SchemaError(f"{texts[name][0]}: reads {', '.join(unknown)}, which no definition creates")
    closures: dict[str, set[str]] = {}
    for name in texts:
        seen: set[str] = set()
        todo = list(direct[name])
        while todo:
            read = todo.pop()
            if read in seen or read == name:
                continue
            seen.add(read)
            if read in by_name:
                todo.extend(by_name[read].reads)
            if read in texts:
                todo.extend(direct[read])
        closures[name] = {r for r in seen if r in by_name or r in texts}
    try:
        order = list(TopologicalSorter({n: closures[n] & texts.keys() for n in texts}).static_order())
    except CycleError as exc:
        raise SchemaError(f"{folder}: stored tables that read each other: {exc.args[1]}") from exc
    found: dict[str, StoredRows] = {}
    for name in order:
        path, text = texts[name]
        digest = hashlib.sha256(text.encode("utf-8"))
        for read in sorted(closures[name]):
            digest.update(f"\n{read} {found[read].basis if read in texts else by_name[read].sha256}".encode())
        found[name] = StoredRows(name, text, digest.hexdigest(), tuple(sorted(closures[name])), path)
    return list(found.values())


def chunks(con: duckdb.DuckDBPyConnection) -> list[list[int]]:
    """Every company with facts, in order, in lists of about FACTS_PER_FILL facts."""
    found: list[list[int]] = [[]]
    size = 0
    for cik, n in con.execute("SELECT cik, count(*) FROM facts GROUP BY cik ORDER BY cik").fetchall():
        if found[-1] and size + n > FACTS_PER_FILL:
            found.append([])
            size = 0
        found[-1].append(cik)
        size += n
    return [c for c in found if c]


def refill(con: duckdb.DuckDBPyConnection, stored: StoredRows, companies: list[list[int]]) -> None:
    """Compute every row of ``stored`` again (inside the caller's transaction): the table emptied
    (rows of a company with no facts left go too), then its file run for each list of ``companies``
    (``chunks``)."""
    con.execute(f"DELETE FROM {stored.name}")
    for ciks in companies:
        _run(con, stored.name, stored.statements, ciks)


def _file_statements(root: Path, name: str) -> list[str]:
    path = root / "stored" / f"{name}.sql"
    try:
        return _statements(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SchemaError(f"{path}: no such stored table") from exc


def keep(con: duckdb.DuckDBPyConnection, names: Sequence[str], ciks: Iterable[int]) -> None:
    """Compute the rows of the stored tables ``names`` (in that order) again for the companies
    ``ciks``, as the files of the warehouse's schema folder say (inside the caller's transaction)."""
    companies = sorted(set(ciks))
    if companies:
        root = schema_dir()
        for name in names:
            _run(con, name, _file_statements(root, name), companies)


def _run(con: duckdb.DuckDBPyConnection, name: str, statements: Iterable[str], ciks: list[int]) -> None:
    """The statements of the stored table ``name`` for the companies ``ciks``."""
    for statement in statements:
        con.execute(statement, {"ciks": ciks})
