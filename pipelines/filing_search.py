"""How filing text is matched: the one normalisation of phrase search and quote verification, and index terms.

``phrase_pattern(phrase)`` is a regular expression that finds ``phrase`` in the stored text with
case, runs of whitespace, curly/straight quotes and the dashes (hyphen, en/em dash, minus...) made
equal, so a quote copied from a rendered filing matches its text; in whole words (a phrase that
begins or ends with a letter or digit does not match inside a longer word: "port controls" is not
in "export controls"), as the index finds it. ``terms(text)`` gives the index terms of a text
(lower case, quotes and dashes folded, a plural's "s" dropped, a few stop words left out) with
their counts, and ``postings(text)`` the
same with each term's word positions (every word counts, stop words too): the keyword index of
``filing_sections`` holds them, and a query's words go through the same functions.
``phrase_terms(phrase)`` is a phrase's terms with their places in it: an item can say the phrase
only where those terms stand at those distances (the positional join of search_phrase.sql).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

_SINGLE = "'\u2018\u2019\u201a\u201b\u2032\u0060\u00b4"
_DOUBLE = "\"\u201c\u201d\u201e\u201f\u2033"
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_SPACE = "[\\s\u00a0\u2002\u2003\u2009\u200b]"  # the characters themselves: RE2 reads no \\u escapes
_FOLD = str.maketrans({**dict.fromkeys(_SINGLE, "'"), **dict.fromkeys(_DOUBLE, '"'),
                       **dict.fromkeys(_DASHES, "-")})
_WORD = re.compile(r"[a-z0-9]+")
_NOT_AFTER_WORD, _NOT_BEFORE_WORD = "(?<![0-9A-Za-z])", "(?![0-9A-Za-z])"
STOP_WORDS = frozenset("a an and are as at be by for from has have in is it its of on or that the this to was "
                       "were will with".split())
MAX_PHRASE = 2000


def normalise(text: str) -> str:
    """Lower case, NFKC, quotes and dashes folded to ASCII, every run of whitespace one space."""
    text = unicodedata.normalize("NFKC", text).translate(_FOLD).lower()
    return re.sub(_SPACE + "+", " ", text).strip()


def _char_class(ch: str) -> str:
    if ch in _SINGLE:
        return "[" + re.escape(_SINGLE) + "]"
    if ch in _DOUBLE:
        return "[" + re.escape(_DOUBLE) + "]"
    if ch in _DASHES:
        return "[" + re.escape(_DASHES) + "]"
    return re.escape(ch)


def phrase_pattern(phrase: str) -> str:
    """A case-insensitive regular expression finding ``phrase`` as normalised (see the module doc)."""
    words = normalise(phrase).split(" ")
    if not words or not words[0] or len(phrase) > MAX_PHRASE:
        raise ValueError(f"a phrase is 1 to {MAX_PHRASE:,} characters of text")
    body = (_SPACE + "+").join("".join(_char_class(c) for c in w) for w in words)
    head = _NOT_AFTER_WORD if _WORD.match(words[0][0]) else ""
    tail = _NOT_BEFORE_WORD if _WORD.match(words[-1][-1]) else ""
    return f"(?i){head}{body}{tail}"


def find_phrase(phrase: str, text: str) -> tuple[int, int] | None:
    """(start, end) of the first place ``text`` says ``phrase`` (normalised), else None."""
    m = re.search(phrase_pattern(phrase), text)
    return (m.start(), m.end()) if m else None


def _term(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _indexed(words: list[str]) -> list[tuple[str, int]]:
    return [(_term(w), i) for i, w in enumerate(words) if w not in STOP_WORDS and len(w) < 40]


def terms(text: str) -> Counter[str]:
    """Index terms of ``text`` with their counts (see the module doc)."""
    return Counter(t for t, _ in _indexed(_WORD.findall(normalise(text))))


def postings(text: str) -> dict[str, list[int]]:
    """Index terms of ``text`` with the positions (word numbers, from 0) where each stands."""
    out: dict[str, list[int]] = {}
    for t, i in _indexed(_WORD.findall(normalise(text))):
        out.setdefault(t, []).append(i)
    return out


def phrase_terms(phrase: str) -> list[tuple[str, int]]:
    """The distinct (term, place) pairs of a phrase, places counted from its first word."""
    return list(dict.fromkeys(_indexed(_WORD.findall(normalise(phrase)))))


def query_terms(query: str) -> list[str]:
    """The distinct index terms of a keyword query, in order."""
    return list(dict.fromkeys(terms(query)))


def snippet(text: str, start: int, end: int, width: int = 160) -> str:
    """The words around text[start:end], the match in [brackets], one line."""
    a = max(0, start - width // 2)
    b = min(len(text), end + width // 2)
    head = re.sub(r"\s+", " ", text[a:start]).lstrip()
    tail = re.sub(r"\s+", " ", text[end:b]).rstrip()
    mid = re.sub(r"\s+", " ", text[start:end])
    return f"{'...' if a else ''}{head}[{mid}]{tail}{'...' if b < len(text) else ''}"
