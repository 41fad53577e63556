"""The column dictionary (schema/columns.toml): one description per column, from which every COMMENT ON is made.

A column's description is found in its relation's own ``columns``, else through the relations its
``like`` names (recursively, in order), else in ``[common]``. ``{ override = "..." }`` marks a
relation that deliberately means something else by a name described elsewhere. ``problems`` lists
every way the dictionary and a live database disagree (see schema/columns.toml's header).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from warehouse.errors import SchemaError
from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import NameList, vocabulary_lists

_MAIN = "database_name = current_database() AND schema_name = 'main' AND NOT internal"


@dataclass(frozen=True)
class Entry:
    text: str
    where: str  # "common" or the relation whose section holds the entry
    override: bool = False


@dataclass
class Relation:
    kind: str  # table or view
    description: str
    like: tuple[str, ...] = ()
    columns: dict[str, Entry] = field(default_factory=dict)


@dataclass(frozen=True)
class LiveSchema:
    relations: dict[str, tuple[str, tuple[str, ...]]]  # name -> (table|view, column names in order)
    macros: dict[str, str]  # name -> macro | table_macro


def _entry(value: object, where: str, key: str) -> Entry:
    if isinstance(value, str) and value.strip():
        return Entry(value, where)
    if isinstance(value, dict) and set(value) == {"override"} and isinstance(value["override"], str):
        return Entry(value["override"], where, override=True)
    raise SchemaError(f"columns.toml: {where}.{key} must be a description or {{ override = \"...\" }}")


_LIST = re.compile(r"\$\{([a-z_]+)\}")


def expanded_text(path: Path) -> str:
    """The text of columns.toml with every ``${key}`` replaced by that list of names from its one
    source (``warehouse.schema.vocabulary.vocabulary_lists``: metrics, standard_concepts, checks,
    document_kinds), so no description keeps a hand copy of a list that grows."""
    text = path.read_text(encoding="utf-8")
    if "${" not in text:
        return text
    lists = vocabulary_lists(path.parent)

    def names(m: re.Match[str]) -> str:
        if m.group(1) not in lists:
            raise SchemaError(f"{path}: ${{{m.group(1)}}} names no list of names (known: {', '.join(lists)})")
        return ", ".join(lists[m.group(1)].names)

    return _LIST.sub(names, text)


def dictionary_sha256(path: Path) -> str:
    """sha256 of the expanded dictionary: it changes when columns.toml or one of its lists does."""
    return hashlib.sha256(expanded_text(path).encode("utf-8")).hexdigest()


@dataclass
class Dictionary:
    common: dict[str, str]
    relations: dict[str, Relation]
    macros: dict[str, str]

    @classmethod
    def load(cls, path: Path) -> Dictionary:
        try:
            data = tomllib.loads(expanded_text(path))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise SchemaError(f"{path}: cannot read the column dictionary ({exc})") from exc
        common = {k: _entry(v, "common", k).text for k, v in data.get("common", {}).items()}
        relations: dict[str, Relation] = {}
        for kind in ("table", "view"):
            for name, sec in data.get(f"{kind}s", {}).items():
                if name in relations:
                    raise SchemaError(f"{path}: {name} is described twice")
                if not isinstance(sec.get("description"), str):
                    raise SchemaError(f"{path}: {kind}s.{name} has no description")
                relations[name] = Relation(kind, sec["description"], tuple(sec.get("like", ())),
                                           {c: _entry(v, name, c) for c, v in sec.get("columns", {}).items()})
        for name, rel in relations.items():
            for base in rel.like:
                if base not in relations:
                    raise SchemaError(f"{path}: {name} is like {base}, which the dictionary does not describe")
        macros = {k: _entry(v, "macros", k).text for k, v in data.get("macros", {}).items()}
        return cls(common, relations, macros)

    def _inherited(self, relation: str, column: str, seen: frozenset[str] = frozenset()) -> Entry | None:
        for base in self.relations[relation].like:
            if base in seen:
                raise SchemaError(f"columns.toml: `like` loops through {base}")
            rel = self.relations[base]
            hit = rel.columns.get(column) or self._inherited(base, column, seen | {relation})
            if hit:
                return hit
        return None

    def describe(self, relation: str, column: str, *, own: bool = True) -> Entry | None:
        """The entry that describes ``relation.column`` (``own=False``: were its own entry absent), or None."""
        rel = self.relations.get(relation)
        if rel is None:
            return None
        hit = (rel.columns.get(column) if own else None) or self._inherited(relation, column)
        if hit is None and column in self.common:
            hit = Entry(self.common[column], "common")
        return hit

    def problems(self, live: LiveSchema) -> list[str]:
        """Everything that keeps the dictionary from describing ``live`` exactly once, one line each."""
        out: list[str] = []
        used_common: set[str] = set()
        plain_sources: dict[str, set[str]] = {}
        for name, (kind, columns) in live.relations.items():
            rel = self.relations.get(name)
            if rel is None:
                out.append(f"{kind} {name}: not in the dictionary")
                continue
            if rel.kind != kind:
                out.append(f"{name}: described under {rel.kind}s but is a {kind}")
            for col in columns:
                entry = self.describe(name, col)
                if entry is None:
                    out.append(f"{name}.{col}: no description")
                    continue
                if entry.where == "common":
                    used_common.add(col)
                elif not entry.override:
                    plain_sources.setdefault(col, set()).add(entry.where)
            for col, entry in rel.columns.items():
                if col not in columns:
                    out.append(f"{name}.{col}: described, but {name} has no such column")
                elif entry.override:
                    if self.describe(name, col, own=False) is None:
                        out.append(f"{name}.{col}: override of nothing (write the description plainly)")
                elif col in self.common:
                    out.append(f"{name}.{col}: [common] describes {col}; use it or write {{ override = \"...\" }}")
        for col, where in sorted(plain_sources.items()):
            if len(where) > 1:
                out.append(f"{col}: described separately in {', '.join(sorted(where))}; say it once in [common]"
                           " (and mark the relations that mean something else with override)")
        for name in sorted(set(self.relations) - set(live.relations)):
            out.append(f"{name}: described, but the database has no such table or view")
        for col in sorted(set(self.common) - used_common):
            out.append(f"[common] {col}: no column uses it")
        for name in sorted(set(live.macros) - set(self.macros)):
            out.append(f"macro {name}: not in the dictionary")
        for name in sorted(set(self.macros) - set(live.macros)):
            out.append(f"[macros] {name}: described, but the database has no such macro")
        return out

    def comment_statements(self, live: LiveSchema, *, view_columns_and_macros: bool = True) -> list[str]:
        """COMMENT ON statements for every described table, view, column and macro of ``live``
        (without the columns of views and the macros when not ``view_columns_and_macros``: DuckLake)."""
        stmts = []
        for name, (kind, columns) in live.relations.items():
            rel = self.relations.get(name)
            if rel is None:
                continue
            stmts.append(f"COMMENT ON {kind.upper()} {name} IS {_quote(rel.description)}")
            if kind == "view" and not view_columns_and_macros:
                continue
            for col in columns:
                entry = self.describe(name, col)
                if entry is not None:
                    stmts.append(f"COMMENT ON COLUMN {name}.{col} IS {_quote(entry.text)}")
        for name, kind in live.macros.items():
            if name in self.macros and view_columns_and_macros:
                what = "MACRO TABLE" if kind == "table_macro" else "MACRO"
                stmts.append(f"COMMENT ON {what} {name} IS {_quote(self.macros[name])}")
        return stmts


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def live_schema(con: duckdb.DuckDBPyConnection) -> LiveSchema:
    """Tables, views (with their columns) and macros of the open warehouse's main schema."""
    kinds = dict(con.execute(sql("schema/dictionary/relation_kinds")).fetchall())
    columns: dict[str, list[str]] = {}
    for table, column in con.execute(f"SELECT table_name, column_name FROM duckdb_columns() WHERE {_MAIN}"
                                     " ORDER BY table_name, column_index").fetchall():
        columns.setdefault(table, []).append(column)
    macros = dict(con.execute(f"SELECT DISTINCT function_name, function_type FROM duckdb_functions()"
                              f" WHERE {_MAIN} AND function_type IN ('macro', 'table_macro')").fetchall())
    return LiveSchema({n: (k, tuple(columns.get(n, ()))) for n, k in sorted(kinds.items())}, macros)


def markdown(con: duckdb.DuckDBPyConnection, lists: dict[str, NameList]) -> str:
    """docs/data-dictionary.md: every table, view, column and macro of the open warehouse with its
    type and COMMENT (the dictionary's text as the database holds it), then the ``lists`` of names.
    ``scripts/data_dictionary.py`` writes it; a test fails when the file differs."""
    def cell(text: object) -> str:
        return " ".join(str(text or "").split()).replace("|", "\\|")

    rels = con.execute(sql("schema/dictionary/relations")).fetchall()
    cols: dict[str, list[tuple[str, str, str]]] = {}
    for table, column, dtype, comment in con.execute(
            f"SELECT table_name, column_name, data_type, comment FROM duckdb_columns() WHERE {_MAIN}"
            " ORDER BY table_name, column_index").fetchall():
        cols.setdefault(table, []).append((column, dtype, comment))
    macros = con.execute(sql("schema/dictionary/macros")).fetchall()
    out = ["# Data dictionary", "",
           "Generated from `schema/columns.toml` (and the lists below from their one source) by",
           "`make docs` (`python scripts/data_dictionary.py`); do not edit by hand:",
           "`tests/warehouse/schema/test_data_dictionary.py` fails when this file is stale. The same text is in the",
           "database: `SELECT table_name, column_name, comment FROM duckdb_columns()`.", "",
           "| name | kind | what |", "|---|---|---|"]
    out += [f"| [`{n}`](#{n}) | {k} | {cell(c)} |" for n, k, c in rels]
    out += [f"| `{n}({cell(p)})` | {'table macro' if k == 'table_macro' else 'macro'} | {cell(c)} |"
            for n, k, c, p in macros]
    for names in lists.values():
        out += ["", f"## {names.title}", "", f"From {names.source}:", "",
                ", ".join(f"`{n}`" for n in names.names) + "."]
    for name, kind, comment in rels:
        out += ["", f"## {name}", "", f"{kind.capitalize()}. {cell(comment)}", "",
                "| column | type | what |", "|---|---|---|"]
        out += [f"| `{c}` | {cell(t)} | {cell(d)} |" for c, t, d in cols.get(name, [])]
    return "\n".join(out) + "\n"
