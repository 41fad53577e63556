"""The HTML tables of an inline-XBRL document as printed: rows, cells, each cell's text, indent and facts.

Fed by the streaming reader of ``pipelines.inline_xbrl`` (one pass over the document): it sees every
element start and end, every text run, and every ix fact's byte offset. Only tables that hold a numeric
fact are kept. A cell's indent is where its first line of text starts, in points: the padding-left,
margin-left and text-indent of the cell and of the elements opened in it before its first text, plus
its leading no-break spaces (printers indent with those too: Apple's "&#160;&#160;&#160;Products").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

XHTML = "http://www.w3.org/1999/xhtml"
_LENGTH = re.compile(r"(-?\d*\.?\d+)\s*(pt|px|em|in|rem|%)?")
_UNIT_PT = {"pt": 1.0, "px": 0.75, "em": 10.0, "rem": 10.0, "in": 72.0, "%": 0.0, None: 0.75}
NBSP_PT = 2.5  # a no-break space at 9-10 pt type
_TITLE_CHARS = 600  # text kept from before a table, for its title


def _pt(value: str) -> float:
    m = _LENGTH.match(value.strip())
    return float(m.group(1)) * _UNIT_PT[m.group(2)] if m else 0.0


def style_indent(style: str) -> float:
    """Points a style moves the first line of text right: padding-left, margin-left, text-indent."""
    total = 0.0
    for decl in style.split(";"):
        prop, _, value = decl.partition(":")
        prop = prop.strip().lower()
        if prop in ("padding-left", "margin-left", "text-indent"):
            total += _pt(value)
        elif prop in ("padding", "margin"):
            parts = value.split()
            if len(parts) == 4:
                total += _pt(parts[3])
            elif len(parts) in (2, 3):
                total += _pt(parts[1])
            elif len(parts) == 1:
                total += _pt(parts[0])
    return total


@dataclass
class Cell:
    text_parts: list[str] = field(default_factory=list)
    indent: float = 0.0
    seen_text: bool = False
    facts: list[int] = field(default_factory=list)  # byte offsets of the ix:nonFraction elements in it

    @property
    def text(self) -> str:
        return " ".join("".join(self.text_parts).replace("\u00a0", " ").split())

    @property
    def leading_spaces(self) -> int:
        """No-break (and en, em, thin) spaces before the cell's first text: printers indent with them."""
        n = 0
        for ch in "".join(self.text_parts):
            if ch in "\u00a0\u2002\u2003\u2009":
                n += 1
            elif ch not in " \t\r\n":
                break
        return n


@dataclass
class Row:
    cells: list[Cell] = field(default_factory=list)
    tokens: list[tuple[int, str, object]] = field(default_factory=list)  # (cell index, "text"|"fact", text|offset)


@dataclass
class Table:
    byte_offset: int
    preceding_text: str
    rows: list[Row] = field(default_factory=list)
    facts: int = 0


class TableReader:
    """Collects the tables (with facts) of one document from the streaming reader's callbacks."""

    def __init__(self) -> None:
        self.tables: list[Table] = []
        self._stack: list[tuple[Table, Row | None, Cell | None]] = []
        self._outside: list[str] = []
        self._outside_len = 0

    @property
    def _cell(self) -> Cell | None:
        return self._stack[-1][2] if self._stack else None

    def start(self, ns: str, local: str, attrs: dict[str, str], offset: int) -> None:
        if ns not in (XHTML, ""):
            return
        if local == "table":
            recent = "".join(self._outside)[-_TITLE_CHARS:]
            self._stack.append((Table(offset, " ".join(recent.replace("\u00a0", " ").split())), None, None))
        elif not self._stack:
            if local in ("p", "div", "br", "tr"):
                self._text_outside(" ")
        elif local == "tr":
            table, _, _ = self._stack[-1]
            row = Row()
            table.rows.append(row)
            self._stack[-1] = (table, row, None)
        elif local in ("td", "th"):
            table, row, _ = self._stack[-1]
            if row is None:  # a cell outside any row: give it one
                row = Row()
                table.rows.append(row)
            cell = Cell(indent=style_indent(attrs.get("style", "")))
            row.cells.append(cell)
            self._stack[-1] = (table, row, cell)
        else:
            cell = self._cell
            if cell is not None and not cell.seen_text:
                cell.indent += style_indent(attrs.get("style", ""))

    def end(self, ns: str, local: str) -> None:
        if ns not in (XHTML, "") or not self._stack:
            return
        if local == "table":
            table, _, _ = self._stack.pop()
            if table.facts:
                self.tables.append(table)
        elif local in ("td", "th"):
            table, row, _ = self._stack[-1]
            self._stack[-1] = (table, row, None)

    def chars(self, data: str) -> None:
        cell = self._cell
        if cell is None:
            if not self._stack:
                self._text_outside(data)
            return
        cell.text_parts.append(data)
        if not cell.seen_text and data.strip(" \t\r\n\u00a0\u2002\u2003\u2009"):
            cell.seen_text = True
        table, row, _ = self._stack[-1]
        row.tokens.append((len(row.cells) - 1, "text", data))

    def fact(self, offset: int) -> None:
        """An ix:nonFraction starts at ``offset`` (inside the current cell, if any)."""
        cell = self._cell
        if cell is None:
            return
        table, row, _ = self._stack[-1]
        cell.facts.append(offset)
        row.tokens.append((len(row.cells) - 1, "fact", offset))
        table.facts += 1

    def _text_outside(self, data: str) -> None:
        self._outside.append(data)
        self._outside_len += len(data)
        if self._outside_len > 4 * _TITLE_CHARS:
            kept = "".join(self._outside)[-_TITLE_CHARS:]
            self._outside, self._outside_len = [kept], len(kept)
