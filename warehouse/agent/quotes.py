"""Quote claims: does a filing's item say these words, verbatim (normalised as phrase search normalises)?

``check_quote(con, text, accession, item)`` gives (passed, reason). It passes only when the text is
in that item of that filing. Otherwise the reason says why and where the text really is: another
item of the same filing, another filing held (with accession and item), or, when no held item says
it, the closest passage of the cited item and what differs (a changed number, a swapped word), or
that nothing close is there (a paraphrase).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

import duckdb

from pipelines.filing_search import find_phrase, normalise
from warehouse.read.filing_text import FilingTextError, Filters, search_phrase, section, sections

_NUMBER = re.compile(r"^\(?[$€£]?\d[\d,.]*%?\)?$")
CLOSE_ENOUGH = 0.6  # share of the quote's words a passage must have, in order, to be called "close"


def _words(text: str) -> list[str]:
    return normalise(text).split(" ")


def _closest(quote: str, text: str) -> tuple[float, list[str], list[str]]:
    """(share of the quote's words found in order, words the quote has there, words the text has) for
    the window of ``text`` that best matches ``quote``."""
    q = _words(quote)
    t = _words(text)
    if not q or not t:
        return 0.0, [], []
    anchors = {w for w in q if len(w) > 3} or set(q)
    best = (0.0, [], [])
    starts = sorted({max(0, i - q.index(w)) for i, w in enumerate(t) if w in anchors} if len(t) > len(q) else {0})
    for s in starts[:400]:
        window = t[s:s + len(q) + 3]
        m = SequenceMatcher(None, q, window, autojunk=False)
        ratio = sum(b.size for b in m.get_matching_blocks()) / len(q)
        if ratio > best[0]:
            said, printed = [], []
            for op, i1, i2, j1, j2 in m.get_opcodes():
                if op in ("replace", "delete"):  # an insert is the window's slack around the passage
                    said.extend(q[i1:i2])
                    printed.extend(window[j1:j2])
            best = (ratio, said, printed)
    return best


def _difference(said: list[str], printed: list[str]) -> str:
    numbers = [w for w in said if _NUMBER.match(w)]
    kind = "a changed number" if numbers else "a changed word"
    return f"{kind}: the quote says {' '.join(said)!r} where the filing says {' '.join(printed)!r}"


def check_quote(con: duckdb.DuckDBPyConnection, text: str, accession: str, item: str) -> tuple[bool, str]:
    """(passed, reason) for the quote ``text`` cited to ``item`` of filing ``accession``."""
    if not normalise(text):
        return False, "the quote is empty"
    try:
        cited = section(con, accession, item)
    except FilingTextError as exc:
        return False, str(exc)
    where = f"{cited['form']} {accession} {cited['heading']}"
    found = find_phrase(text, cited["text"])
    if found:
        start, end = found
        return True, (f"verbatim in {where} (characters {start}-{end} of the item; document {cited['document_url']}, "
                      f"bytes {cited['byte_start']}-{cited['byte_end']})")
    for other in sections(con, accession):
        if other["item"] != cited["item"] and find_phrase(text, other["text"]):
            return False, f"not in item {cited['item']}: the filing says it in {other['heading']} (item {other['item']})"
    try:
        elsewhere = [h for h in search_phrase(con, text, Filters(), limit=5) if h.accession != accession]
    except FilingTextError:
        elsewhere = []
    if elsewhere:
        h = elsewhere[0]
        return False, (f"not in filing {accession}: it is in {h.form} {h.accession} item {h.item} "
                       f"(filed {h.filed or 'date unknown'})")
    ratio, said, printed = _closest(text, cited["text"])
    if ratio >= CLOSE_ENOUGH and said:
        return False, f"not verbatim in {where}: {_difference(said, printed)}"
    return False, (f"not in {where} nor anywhere held: no passage has most of its words in order "
                   f"(best {ratio:.0%}); a paraphrase is not a quote")
