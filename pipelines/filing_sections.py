"""The items of a 10-K, 10-Q or 8-K, found in its text: headings as printed, in order, after the table of contents.

``find_sections(text, family)`` looks for item headings at the start of a line ("Item 1A. Risk
Factors", "ITEM 7A -", "Part II, Item 1.", "Item 2.02", the 1990s "Item 5. Other Events.", Regulation
AB's "Item 1117 of Regulation AB"), drops the table of contents (a heading that the same item repeats
later, with almost no text before the next heading), keeps the longest run in the form's item order
(so a cross-reference that happens to start a line is not a section) and cuts every item at the
next one, the last at SIGNATURES. An item the document lacks is absent; "Items 1 and 2." is one
section that says it covers both. 10-Q items are named by part: ``I-1`` ... ``I-4``, ``II-1``,
``II-1A`` ... ``II-6``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipelines.filing_text import DocumentText

TEN_K_ITEMS = ("1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C",
               "10", "11", "12", "13", "14", "15", "16")
TEN_Q_ITEMS = ("I-1", "I-2", "I-3", "I-4", "II-1", "II-1A", "II-2", "II-3", "II-4", "II-5", "II-6")
EIGHT_K_ITEMS = ("1.01", "1.02", "1.03", "1.04", "1.05", "2.01", "2.02", "2.03", "2.04", "2.05", "2.06",
                 "3.01", "3.02", "3.03", "4.01", "4.02", "5.01", "5.02", "5.03", "5.04", "5.05", "5.06",
                 "5.07", "5.08", "6.01", "6.02", "6.03", "6.04", "6.05", "7.01", "8.01", "9.01")
OLD_EIGHT_K_ITEMS = tuple(str(n) for n in range(1, 13))  # the numbering before August 2004
# Regulation AB items an asset-backed issuer's 10-K answers (General Instruction J), in order.
REG_AB_ITEMS = ("1112(b)", "1114(b)(2)", "1115(b)", "1117", "1119", "1122", "1123")

FLAGS = ("incorporated_by_reference", "not_applicable", "none", "reserved", "omitted")

_NUM = r"\d{1,2}[A-C]?(?:\.\d{2})?"
_HEADING = re.compile(
    r"^(?:part\s+(?P<part>iv|iii|ii|i)\b[\s,.:\-\u2013\u2014|]*)?"
    r"items?\s*(?P<num>11\d\d(?:\s*\([a-z0-9]\))*|" + _NUM + r")(?![\d.]*\d)"
    r"(?P<more>(?:\s*(?:,|and|&)\s*" + _NUM + r"(?![\d]))*)"
    r"(?P<rest>.*)$", re.I)
_PART = re.compile(r"^part\s+(iv|iii|ii|i)\b(?!\s*,?\s*item)", re.I)
_CROSS_REFERENCE = re.compile(r"^\s*(?:of|in|through|to|is|are|was|were|for|and|or|under|above|below|"
                              r"herein|hereof|contains|requires|set|should|has|had|as|this|on)\b", re.I)
_SEPARATOR = re.compile(r"^\s*(?:[.:\-\u2013\u2014|)]|\s[A-Z(\[\"\u201c]|$)")
_PAGE_REF = re.compile(r"(?:\s*\|\s*(?:[A-Z]-)?\d{1,3}(?:\s*-\s*\d{1,3})?)+\s*$|\s+\d{1,3}$")
_SIGNATURES = re.compile(r"^\s*signatures?\s*\.?\s*$", re.I)
_LONG_LINE = 200


@dataclass(frozen=True)
class Section:
    """One item of a filing: where it is in the document text and what it says."""

    item: str
    part: str | None
    heading: str
    text: str  # the item's text after its heading
    text_start: int  # offset in the document text of the heading line
    text_end: int  # offset in the document text where the item ends (exclusive)
    body_start: int  # offset in the document text where ``text`` starts
    flags: tuple[str, ...]
    covers: tuple[str, ...]  # every item the heading names: ("1", "2") for "Items 1 and 2."
    confidence: float
    confidence_reason: str


@dataclass(frozen=True)
class _Candidate:
    line: int
    key: str
    part: str | None
    covers: tuple[str, ...]
    heading: str
    body_start: int  # offset in the text where the item's own text begins
    inline_text: bool  # the heading's line goes on with the item's text


def _roman(p: str | None) -> str | None:
    return p.upper() if p else None


def _normalise_num(num: str) -> str:
    return re.sub(r"\s+", "", num).upper().replace("(B)", "(b)").replace("(A)", "(a)")


def _order(family: str, old_8k: bool) -> tuple[str, ...]:
    if family == "10-Q":
        return TEN_Q_ITEMS
    if family == "8-K":
        return OLD_EIGHT_K_ITEMS if old_8k else EIGHT_K_ITEMS
    return TEN_K_ITEMS + REG_AB_ITEMS


def _key(family: str, num: str, part: str | None) -> str | None:
    num = _normalise_num(num)
    if re.match(r"11\d\d", num):
        reg = re.match(r"11\d\d(?:\([A-Za-z0-9]\))*", num).group(0).lower()
        return reg if family == "10-K" and reg[:4] in {r[:4] for r in REG_AB_ITEMS} else None
    if family == "10-Q":
        return f"{part or 'I'}-{num}"
    return num


_SENTENCE_END = re.compile(r"[.:]\s+(?=[A-Z(\"\u201c][a-z ])")
_UNFINISHED = re.compile(r"\b(?:AND|OF|THE|ON|FOR|IN|TO|WITH|OR|RELATED|RESULTS|STOCKHOLDER|STOCKHO|ACCOUNTING|"
                         r"CONDITION|REPORTS)\s*$")
_UPPER_TAIL = re.compile(r"^([^a-z]{2,70}?[.:])(?:\s|$)")


def _candidates(lines: list[tuple[int, str]], family: str) -> list[_Candidate]:
    found: list[_Candidate] = []
    part: str | None = None
    for n, (at, line) in enumerate(lines):
        s = line.strip()
        pm = _PART.match(s)
        if pm and len(s) < 120:
            part = _roman(pm.group(1))
            if not _HEADING.match(s):
                continue
        m = _HEADING.match(s)
        if not m:
            continue
        rest = m.group("rest")
        if not _SEPARATOR.match(rest) or _CROSS_REFERENCE.match(rest):
            continue
        p = _roman(m.group("part")) or part
        key = _key(family, m.group("num"), p)
        if key is None:
            continue
        more = re.findall(_NUM, m.group("more") or "")
        covers = (key, *(_key(family, x, p) or x for x in more))
        lead = len(line) - len(line.lstrip())
        heading, body_start, inline = s, at + len(line) + 1, False
        stop = _SENTENCE_END.search(s, m.start("rest") + 2)
        if len(s) > _LONG_LINE and stop and stop.start() < 200:  # "Item 5. Other Events. On January 19, ..."
            heading, body_start, inline = s[:stop.start() + 1], at + lead + stop.end(), True
        heading = _PAGE_REF.sub("", heading).strip() if not inline else heading
        title = heading[m.start("rest"):].strip(" .:-|\u2013\u2014")
        if n + 1 < len(lines) and not inline:
            nxt_at, nxt = lines[n + 1]
            nxt_s = nxt.strip()
            nxt_lead = len(nxt) - len(nxt_s)
            if not title:  # "ITEM 1." on its own line, the title on the next
                if 0 < len(nxt_s) < 100 and not _HEADING.match(nxt_s) and not _PART.match(nxt_s):
                    heading, body_start = f"{heading} {nxt_s}", nxt_at + len(nxt) + 1
                    title = nxt_s
            elif title == title.upper() and _UNFINISHED.search(title):
                # "... AND RELATED STOCKHOLDER" / "MATTERS." (or "STOCKHOLDER MATTERS") on the next line
                tail = _UPPER_TAIL.match(nxt_s) or re.match(r"^[^a-z]{2,70}$", nxt_s)
                if tail and not _HEADING.match(nxt_s) and not _PART.match(nxt_s):
                    heading = f"{heading} {tail.group(0).strip()}"
                    body_start = nxt_at + nxt_lead + tail.end()
        if not title:
            continue
        found.append(_Candidate(n, key, p, covers, heading, body_start, inline))
    return found


def _in_order(found: list[_Candidate], order: tuple[str, ...], lines: list[tuple[int, str]],
              text_len: int) -> list[_Candidate]:
    """The run of headings whose items go strictly up in the form's order and that has the most text
    under its headings: a table of contents (or an index of QuickLinks at the end) repeats every
    heading with almost nothing between, so the real headings, each followed by its item, win."""
    rank = {k: i for i, k in enumerate(order)}
    xs = [c for c in found if c.key in rank]
    if not xs:
        return []
    starts = [lines[c.line][0] for c in xs] + [text_len]
    weight = [0.001 + min(starts[i + 1] - c.body_start, 3000) / 3000 if starts[i + 1] > c.body_start else 0.001
              for i, c in enumerate(xs)]
    best = list(weight)
    prev = [-1] * len(xs)
    for i in range(len(xs)):
        for j in range(i):
            if rank[xs[j].key] < rank[xs[i].key] and best[j] + weight[i] > best[i]:
                best[i], prev[i] = best[j] + weight[i], j
    i = max(range(len(xs)), key=lambda k: (best[k], -k))
    run = []
    while i >= 0:
        run.append(xs[i])
        i = prev[i]
    return run[::-1]


_NONE = re.compile(r"^\s*\(?none\.?\)?\s*$", re.I)
_NOT_APPLICABLE = re.compile(r"^\s*(?:not\s+applicable|n/a|inapplicable)\b", re.I)
_RESERVED = re.compile(r"\[\s*reserved\s*\]|^\s*\(?reserved\)?\.?\s*$", re.I)
_OMITTED = re.compile(r"\bomitted\b", re.I)
_BY_REFERENCE = re.compile(r"incorporated\b[^.]{0,40}?\bby\s+reference|"
                           r"is\s+(?:included|set\s+forth|contained)\s+(?:in|under)\b.{0,120}\b(?:annual report|"
                           r"proxy statement|exhibit)", re.I | re.S)


def _flags(heading: str, body: str) -> tuple[str, ...]:
    flags = []
    title = re.sub(r"(?i)^.*?items?\s*\d+[A-C]?(?:\.\d\d)?[\s.:|\-\u2013\u2014]*", "", heading, count=1)
    if len(body) < 2500 and "exhibit" not in title.lower() and any(
            not re.search(r"\bnot\b", body[body.rfind(". ", 0, m.start()) + 1:m.start()], re.I)  # "shall not be ..."
            for m in _BY_REFERENCE.finditer(body)):
        flags.append("incorporated_by_reference")
    if len(body) < 300 and _NOT_APPLICABLE.search(body):
        flags.append("not_applicable")
    if _NONE.match(body) or (re.match(r"^\s*none\.?\s", body, re.I) and len(body) < 200):
        flags.append("none")
    if _RESERVED.search(title) or re.search(r"(?i)^\W*reserved\W*$", title) or _RESERVED.match(body):
        flags.append("reserved")
    if re.search(r"(?i)\bomitted\b", title) or (len(body) < 600 and _OMITTED.search(body)):
        flags.append("omitted")
    return tuple(flags)


# Where a 10-K's last item stops when SIGNATURES come later: the financial pages put after it.
_AFTER_LAST_ITEM = re.compile(r"^\s*(?:signatures?|management[\u2019']?s report on internal control over financial "
                              r"reporting|report of independent registered public accounting firm|"
                              r"index to (?:consolidated )?financial statements)\s*\.?\s*$", re.I)


def _tail_cut(lines: list[tuple[int, str]], last_line: int) -> int:
    """The line the last item ends at: SIGNATURES or the financial pages after it, else the end."""
    for k in range(last_line + 1, len(lines)):
        if _AFTER_LAST_ITEM.match(lines[k][1]):
            return k
    return len(lines)


_BETWEEN_ITEMS = re.compile(r"^(?:part\s+(?:iv|iii|ii|i)\b|section\s+\d+\s*[-\u2013\u2014:.])", re.I)


def _trim_between(lines: list[tuple[int, str]], start: int, end: int) -> int:
    """A "PART III" heading (an 8-K's "Section 8 - Other Events") and the few lines after it, just before
    the next item, belong to neither item."""
    for k in range(end - 1, max(start, end - 6), -1):
        if _BETWEEN_ITEMS.match(lines[k][1].strip()) and len(lines[k][1]) < 120:
            end = k
    return end


def find_sections(dt: DocumentText, family: str) -> tuple[list[Section], bool]:
    """The items of a ``family`` ("10-K", "10-Q", "8-K") document, in order; and whether a table of
    contents was seen and skipped (a heading repeated before the one kept)."""
    lines = dt.lines()
    found = _candidates(lines, family)
    old = False
    if family == "8-K":  # the 1990s numbering (Item 5, Item 7) or today's (Item 8.01, Item 9.01)
        old = sum(1 for c in found if "." not in c.key) > sum(1 for c in found if "." in c.key)
        found = [c for c in found if ("." not in c.key) == old]
    run = _in_order(found, _order(family, old), lines, len(dt.text))
    toc = bool(run) and any(c.line < run[0].line and c.key in {r.key for r in run} for c in found)
    sections = []
    for i, c in enumerate(run):
        end_line = run[i + 1].line if i + 1 < len(run) else _tail_cut(lines, c.line)
        end_line = _trim_between(lines, c.line, end_line)
        start = lines[c.line][0]
        end = lines[end_line][0] - 1 if end_line < len(lines) else len(dt.text)
        raw_body = dt.text[min(c.body_start, end):end]
        body = raw_body.strip()
        body_start = min(c.body_start, end) + (len(raw_body) - len(raw_body.lstrip()))
        flags = _flags(c.heading, body)
        confidence, reason = 0.95, "heading at the start of a line, in the form's item order"
        if toc:
            reason += ", after the table of contents"
        if c.inline_text:
            confidence, reason = 0.8, reason + "; the heading runs on into the item's text on one line"
        if len(body) < 15 and not flags:
            confidence, reason = 0.5, reason + "; almost no text under the heading"
        sections.append(Section(c.key, c.part, c.heading, body, start, max(end, start), body_start, flags, c.covers,
                                confidence, reason))
    return sections, toc
