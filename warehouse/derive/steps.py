"""Declared SQL steps: each step file says in its header what it reads and creates; the runner
orders, checks, binds and cleans up from those headers.

A step file's header (the one grammar: ``warehouse.schema.sql_header``) may hold::

    -- reads:   std_cand, standard_concept_chains    (objects it reads)
    -- creates: std_rep                              (session objects it creates: temp tables, temp macros)
    -- appends: metric_candidates                    (the file is a SELECT; its rows are INSERTed BY NAME)

Steps run in file-name order (``10_candidates.sql`` before ``20_reported_timeline.sql``);
:func:`check_order` refuses a plan in which a step reads something that is neither created by an
earlier step nor present in the database, creates something twice, or reads a table that a later
step still appends to. Parameters (``$ciks``, ``$load_id``) are bound by DuckDB, never spliced
into the text: each step gets exactly the parameters its text names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import duckdb

from warehouse.schema.sql_files import sql, sql_names
from warehouse.schema.sql_header import parse_header
from warehouse.store.db import WarehouseError, fetch_all, fetch_value


class StepError(WarehouseError):
    """A declared SQL step is ill-formed, out of order, or failed."""


@dataclass(frozen=True)
class Step:
    """One SQL file with its declared inputs and outputs."""

    name: str
    text: str
    reads: tuple[str, ...]
    creates: tuple[str, ...]
    appends: tuple[str, ...]
    params: tuple[str, ...]

    @property
    def statement(self) -> str:
        """The SQL to execute: an appending SELECT becomes INSERT INTO <target> BY NAME."""
        if self.appends:
            return f"INSERT INTO {self.appends[0]} BY NAME\n{self.text}"
        return self.text


def load_step(name: str) -> Step:
    """``warehouse/sql/<name>.sql`` with its header (``warehouse.schema.sql_header``)."""
    text = sql(name)
    header = parse_header(text)
    if len(header.appends) > 1:
        raise StepError(f"{name}.sql appends to more than one table: {header.appends}")
    return Step(name, text, header.reads, header.creates, header.appends, header.params)


def folder_steps(folder: str) -> list[Step]:
    """Every step file of ``warehouse/sql/<folder>/`` in file-name order."""
    return [load_step(f"{folder}/{n}") for n in sql_names(folder)]


def existing_objects(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Names of the tables, views and macros the connection can see (persistent and temporary)."""
    rows = fetch_all(con, "SELECT table_name FROM duckdb_tables() UNION SELECT view_name FROM duckdb_views()"
                          " UNION SELECT function_name FROM duckdb_functions() WHERE function_type LIKE '%macro%'")
    return {r[0] for r in rows}


def recorded_objects(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables and views the connection can see and the macros ``schema_definitions`` records:
    a subset of :func:`existing_objects` found without listing DuckDB's ~2,000 built-in functions
    (duckdb_functions() enumerates them whatever the filter: 20-40 ms of a one-company load)."""
    rows = fetch_all(con, "SELECT table_name, database_name = current_database() AND schema_name = current_schema()"
                          " FROM duckdb_tables() UNION ALL SELECT view_name, false FROM duckdb_views()")
    names = {name for name, _ in rows}
    if ("schema_definitions", True) in rows:
        names |= {r[0] for r in fetch_all(con, "SELECT name FROM schema_definitions WHERE kind LIKE '%macro'")}
    return names


def check_order(steps: Sequence[Step], existing: Iterable[str]) -> None:
    """Raise StepError unless every step's reads are available when it runs (see module doc)."""
    available = set(existing)
    created: dict[str, str] = {}
    appenders: dict[str, list[int]] = {}
    for i, s in enumerate(steps):
        for t in s.appends:
            appenders.setdefault(t, []).append(i)
    for i, s in enumerate(steps):
        for r in s.reads:
            if r not in available and r not in created:
                raise StepError(f"{s.name}.sql reads {r!r}, which no earlier step creates and the database lacks")
            late = [steps[j].name for j in appenders.get(r, []) if j > i]
            if late:
                raise StepError(f"{s.name}.sql reads {r!r} before {', '.join(late)} appended to it")
        for c in s.creates:
            if c in created:
                raise StepError(f"{s.name}.sql creates {c!r}, already created by {created[c]}.sql")
            created[c] = s.name
        for t in s.appends:
            if t not in created and t not in available:
                raise StepError(f"{s.name}.sql appends to {t!r}, which does not exist yet")


def needed_for(steps: Sequence[Step], targets: Iterable[str]) -> list[Step]:
    """The steps (in order) needed to create ``targets``: their creators and, transitively, what
    those read."""
    want = set(targets)
    chosen: list[Step] = []
    for s in reversed(steps):
        if want & (set(s.creates) | set(s.appends)):
            chosen.append(s)
            want |= set(s.reads)
    return list(reversed(chosen))


def run_step(con: duckdb.DuckDBPyConnection, step: Step, params: Mapping[str, Any]) -> Any:
    """Execute one step with the parameters its text names; return its first value (or None)."""
    missing = [p for p in step.params if p not in params]
    if missing:
        raise StepError(f"{step.name}.sql needs parameter(s) {', '.join(missing)}")
    try:
        cur = con.execute(step.statement, {p: params[p] for p in step.params})
        try:
            row = cur.fetchone()
        except duckdb.Error:  # statements without a result set
            row = None
    except duckdb.Error as exc:
        raise StepError(f"{step.name}.sql failed: {exc}") from exc
    return row[0] if row else None


def drop_created(con: duckdb.DuckDBPyConnection, steps: Sequence[Step], keep: Iterable[str] = ()) -> None:
    """Drop, in reverse order, the session objects the steps created (tables and macros)."""
    keep = set(keep)
    tables = {r[0] for r in fetch_all(con, "SELECT table_name FROM duckdb_tables() WHERE temporary")}
    for s in reversed(steps):
        for name in reversed(s.creates):
            if name in keep:
                continue
            if name in tables:
                con.execute(f"DROP TABLE IF EXISTS {name}")
            else:
                con.execute(f"DROP MACRO TABLE IF EXISTS {name}")
                con.execute(f"DROP MACRO IF EXISTS {name}")


# Plans whose order check_order accepted in this process (a plan's files do not change while the
# process runs).
_CHECKED: set[tuple[str, ...]] = set()


def run_steps(con: duckdb.DuckDBPyConnection, steps: Sequence[Step], params: Mapping[str, Any],
              keep: Iterable[str] = ()) -> dict[str, Any]:
    """Check the order (once per plan and process), run every step, drop what they created except
    ``keep``. Returns step name -> first value of its result. On a DuckDB error the caller's
    transaction is aborted, so nothing is dropped (the caller rolls back)."""
    plan = tuple(s.name for s in steps)
    if plan not in _CHECKED:
        try:
            check_order(steps, recorded_objects(con))
        except StepError:  # perhaps a macro no definition made (or a built-in one): ask for them all
            check_order(steps, existing_objects(con))
        _CHECKED.add(plan)
    results = {s.name: run_step(con, s, params) for s in steps}
    drop_created(con, steps, keep)
    return results


@contextmanager
def setting(con: duckdb.DuckDBPyConnection, name: str, value: int) -> Iterator[None]:
    """Run the block with the DuckDB setting ``name`` at ``value``; the setting before is restored
    after. When the block failed inside a transaction, DuckDB refuses every statement until the
    caller rolls back: the setting then stays ``value`` and the block's own error is what propagates."""
    if not re.fullmatch(r"[a-z_]+", name):
        raise StepError(f"not a DuckDB setting name: {name!r}")
    before = int(fetch_value(con, "SELECT current_setting($name)", {"name": name}))
    if before == value:
        yield
        return
    con.execute(f"SET {name} = {int(value)}")
    try:
        yield
    except BaseException:
        try:
            con.execute(f"SET {name} = {before}")
        except duckdb.Error:
            pass  # the transaction is aborted: never mask the block's error with "please ROLLBACK"
        raise
    con.execute(f"SET {name} = {before}")
