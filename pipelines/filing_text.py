"""Readable text of a filing document (HTML, inline XBRL or 1990s plain text) with offsets back to the raw.

``extract_text(doc, start, end, html=...)`` reads ``doc[start:end]`` (a decoded document) and returns
a ``DocumentText``: the text, one line per paragraph or table row (cells joined by `` | ``), and for
every line the position in ``doc`` it came from, so a character offset of the text leads back to the
document. Page numbers, running page headers/footers ("Apple Inc. | 2025 Form 10-K | 23"), the
"Table of Contents" back-links printed on every page, ``<PAGE>`` markers and hidden inline-XBRL
blocks (``display:none``: the ``ix:header`` with its contexts) are left out.

HTML is read by a small tokenizer (tags, comments, text), never an XML parser: no DTD is read and no
entity is expanded beyond HTML's own named and numeric character references (``html.unescape``).
"""

from __future__ import annotations

import html as _html
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

_TOKEN = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<![^>]*>|<\?.*?\?>|<(/?)([A-Za-z][\w:.-]*)([^>]*)>", re.S)
_BLOCK = frozenset("p div br tr table li ul ol h1 h2 h3 h4 h5 h6 hr center title dt dd blockquote "
                   "pre page section article header footer caption".split())
_SKIP = frozenset({"script", "style", "head", "title", "ix:header"})
_VOID = frozenset("br hr img meta link input col area base wbr".split())
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_WS = re.compile(r"[ \t\r\n\f\v\u00a0\u2002\u2003\u2009\u200b]+")

_PAGE_NUMBER = re.compile(r"^[-\u2013\u2014\s]*(?:page\s+)?(?:[A-Z]-)?(?:\d{1,3}|[ivxlc]{1,7})\.?[-\u2013\u2014\s]*$", re.I)
_TOC_LINK = re.compile(r"^(?:\(?back to\)?\s*)?(?:table of contents|index|quicklinks.*)$", re.I)
_RUNNING = re.compile(r"form\s+10-?[kq]|annual report|quarterly report|\|\s*#+$", re.I)


@dataclass(frozen=True)
class DocumentText:
    """The text of a document and, per line, where the line starts in the text and in the document."""

    text: str
    line_starts: tuple[int, ...]  # offset in ``text`` of each line
    line_sources: tuple[int, ...]  # offset in the decoded document of each line's first character

    def source_offset(self, text_offset: int) -> int:
        """The decoded-document offset of the line holding ``text_offset`` (its first character)."""
        i = bisect_right(self.line_starts, text_offset) - 1
        return self.line_sources[max(i, 0)] if self.line_sources else 0

    def lines(self) -> list[tuple[int, str]]:
        """(offset in text, line) for every line."""
        ends = [*self.line_starts[1:], len(self.text) + 1]
        return [(s, self.text[s:e - 1]) for s, e in zip(self.line_starts, ends, strict=True)]


class _Lines:
    """Collects output lines from text pieces, one table row per line."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, int]] = []
        self._cur: list[str] = []
        self._cur_pos = -1
        self._cells: list[tuple[str, int]] | None = None
        self._cell: list[str] = []
        self._cell_pos = -1

    def text(self, t: str, pos: int) -> None:
        if self._cells is not None:
            if self._cell_pos < 0 and t.strip():
                self._cell_pos = pos
            self._cell.append(t)
            return
        if self._cur_pos < 0 and t.strip():
            self._cur_pos = pos
        self._cur.append(t)

    def break_line(self) -> None:
        if self._cells is not None:  # a <br> or <p> inside a cell: a space in that cell
            self._cell.append(" ")
            return
        line = _WS.sub(" ", "".join(self._cur)).strip()
        if line:
            self.lines.append((line, self._cur_pos))
        self._cur, self._cur_pos = [], -1

    def start_row(self) -> None:
        self.break_line()
        if self._cells is None:
            self._cells = []

    def end_cell(self) -> None:
        if self._cells is None:
            return
        cell = _WS.sub(" ", "".join(self._cell)).strip()
        if cell:
            self._cells.append((cell, self._cell_pos))
        self._cell, self._cell_pos = [], -1

    def end_row(self) -> None:
        if self._cells is None:
            return
        self.end_cell()
        cells, self._cells = self._cells, None
        merged: list[list] = []
        for cell, pos in cells:  # "$" joins the amount after it; ")" and "%" the one before
            if merged and (merged[-1][0] in ("$", "(", "($") or cell in (")", "%", ")%", "%)")):
                merged[-1][0] += cell
            else:
                merged.append([cell, pos])
        if merged:
            self.lines.append((" | ".join(c for c, _ in merged), merged[0][1]))


def _html_lines(doc: str, start: int, end: int) -> list[tuple[str, int]]:
    out = _Lines()
    skip: str | None = None  # inside <script>/<style>/<head>: the tag that ends it
    hidden: list[str] = []  # a display:none element and its nesting depth
    depth = 0
    pos = start
    for m in _TOKEN.finditer(doc, start, end):
        if m.start() > pos and skip is None and not hidden:
            out.text(_html.unescape(doc[pos:m.start()]), pos)
        pos = m.end()
        name = m.group(2)
        if name is None:
            continue
        name = name.lower().rpartition(":")[2] if not name.lower().startswith("ix:") else name.lower()
        closing = m.group(1) == "/"
        if skip is not None:
            if closing and name == skip:
                skip = None
            continue
        if hidden:
            if name == hidden[0] and not m.group(3).rstrip().endswith("/"):
                depth += -1 if closing else 1
                if depth == 0:
                    hidden.clear()
            continue
        if not closing and name in _SKIP:
            skip = name
            continue
        if not closing and _HIDDEN.search(m.group(3) or "") and name not in _VOID \
                and not m.group(3).rstrip().endswith("/"):
            hidden[:] = [name]
            depth = 1
            continue
        if name == "tr":
            out.start_row() if not closing else out.end_row()
        elif name in ("td", "th"):
            out.end_cell()
        elif name == "table" and closing:
            out.end_row()
            out.break_line()
        elif name in _BLOCK:
            out.break_line()
    if pos < end and skip is None and not hidden:
        out.text(_html.unescape(doc[pos:end]), pos)
    out.end_row()
    out.break_line()
    return out.lines


_TEXT_MARKUP = re.compile(r"</?(?:PAGE|S|C|CAPTION|TABLE|FN|F\d+|R\d+)>")  # the SGML of 1990s text tables


def _plain_lines(doc: str, start: int, end: int) -> list[tuple[str, int]]:
    lines: list[tuple[str, int]] = []
    pos = start
    for raw in doc[start:end].splitlines(keepends=True):
        line = _TEXT_MARKUP.sub("", raw.replace("\f", "")).rstrip()
        if line.strip():
            lead = len(line) - len(line.lstrip())
            lines.append((line, pos + lead))
        pos += len(raw)
    return lines


def _drop_furniture(lines: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Page numbers, running headers/footers and per-page "Table of Contents" links out."""
    keys = [re.sub(r"\d+", "#", t.strip().lower()) for t, _ in lines]
    counts = Counter(k for k in keys if len(k) < 120)
    page = [bool(_PAGE_NUMBER.match(t.strip())) for t, _ in lines]
    beside_page = Counter(k for n, k in enumerate(keys)
                          if (n > 0 and page[n - 1]) or (n + 1 < len(lines) and page[n + 1]))
    kept = []
    for n, (t, p) in enumerate(lines):
        key = keys[n]
        if page[n]:
            continue
        if counts[key] >= 4 and len(key) < 120 and (
                _TOC_LINK.match(key) or _RUNNING.search(key) or "table of contents" in key
                or ((key.endswith(" #") or key.startswith("# ")) and "|" not in key)
                or (counts[key] >= 10 and "|" not in key)
                or beside_page[key] >= 4):  # a footer: next to the page number on page after page
            continue
        kept.append((t, p))
    return kept


def extract_text(doc: str, start: int = 0, end: int | None = None, *, html: bool) -> DocumentText:
    """The readable text of ``doc[start:end]`` (HTML when ``html``, else plain text)."""
    end = len(doc) if end is None else end
    lines = _drop_furniture(_html_lines(doc, start, end) if html else _plain_lines(doc, start, end))
    starts, sources, at = [], [], 0
    for t, p in lines:
        starts.append(at)
        sources.append(p)
        at += len(t) + 1
    return DocumentText("\n".join(t for t, _ in lines), tuple(starts), tuple(sources))
