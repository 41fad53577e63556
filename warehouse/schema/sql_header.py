"""The one grammar of a .sql file's header and its one parser (definitions, stored tables, steps, queries).

A header is the file's leading ``--`` comment lines (it ends at the first line that is not one).
Lines of the form ``-- key: a, b`` declare, for the keys below (spaces after ``--`` and after the
colon are free; a key may take several lines, which add up; ``-`` alone means none); every other
comment line is prose::

    -- reads:   facts, filings          what the file reads (tables, views, macros, step objects)
    -- creates: std_rep                 what it creates (a definition: itself; a step: session objects)
    -- appends: metric_candidates       the table a step's SELECT is INSERTed into, BY NAME (one at most)
    -- grain:   cik, accession          the columns that identify one row of what it returns or creates
                                        (a column list: parentheses are dropped, a ``.`` or ``;`` ends it)

Parameters are not declared: they are the ``$name``\\ s the SQL uses (comments left out), bound by
DuckDB, never spliced. ``parse_header`` is the only reader of these lines: definitions
(warehouse.schema.definitions), stored tables (warehouse.schema.stored_tables), declared steps
(warehouse.derive.steps) and the query folders (tests/warehouse/schema/test_sql_headers.py) all
take their header from it. Migrations are not parsed: their bytes are recorded (sha256) and never
change, headers included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEYS = ("reads", "creates", "appends", "grain")
_LINE = re.compile(r"^--\s*(" + "|".join(KEYS) + r"):\s*(.*)$")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_COMMENT = re.compile(r"--[^\n]*")


@dataclass(frozen=True)
class Header:
    """What a .sql file declares in its leading comment lines, and the parameters its SQL uses."""

    reads: tuple[str, ...] = ()
    creates: tuple[str, ...] = ()
    appends: tuple[str, ...] = ()
    grain: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    declared: frozenset[str] = frozenset()  # the keys that have a line (``-- reads: -`` declares none)


def names(value: str) -> tuple[str, ...]:
    """``a, b , -`` -> ('a', 'b'): a header value's list of names."""
    return tuple(n.strip() for n in value.split(",") if n.strip() and n.strip() != "-")


def parse_header(text: str) -> Header:
    """The header of the SQL ``text`` (see the module docstring)."""
    found: dict[str, tuple[str, ...]] = dict.fromkeys(KEYS, ())
    declared = set()
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        m = _LINE.match(line.strip())
        if m:
            key, value = m.groups()
            if key == "grain":
                value = re.split(r"[.;]", value)[0].replace("(", "").replace(")", "")
            declared.add(key)
            found[key] += names(value)
    params = tuple(dict.fromkeys(_PARAM.findall(_COMMENT.sub("", text))))
    return Header(**found, params=params, declared=frozenset(declared))
