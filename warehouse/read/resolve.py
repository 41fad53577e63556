"""Resolve a ticker, CIK or company name to one CIK, or return ranked candidates and refuse to guess."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher

import duckdb

from pipelines.sec_formats import ticker_key  # not pipelines.tickers: it imports pyarrow (~0.07 s a process)
from warehouse.store.db import fetch_all

# Legal-form words that do not tell companies apart ("Apple Inc." and "Apple" are the same name core).
_SUFFIXES = frozenset("""
INC INCORPORATED CORP CORPORATION CO COMPANY LTD LIMITED PLC LLC LP LLP SA AG NV SE AB ASA OYJ SPA
HOLDING HOLDINGS GROUP THE DE NEW
""".split())
_NON_ALNUM = re.compile(r"[^A-Z0-9]+")

EXACT, CORE, PREFIX, WORDS, FUZZY = 1.0, 0.9, 0.7, 0.5, 0.4
FUZZY_RATIO = 0.85  # spelling similarity (difflib's ratio) a fuzzy match needs
CLEAR_MARGIN = 0.5  # a name resolves only if no other candidate scores at least this


@dataclass(frozen=True)
class Candidate:
    cik: int
    name: str
    tickers: tuple[str, ...]
    score: float
    reason: str


@dataclass(frozen=True)
class Resolution:
    """Outcome of resolve(): ``status`` is resolved, ambiguous or not_found."""

    query: str
    status: str
    matched_by: str | None = None
    cik: int | None = None
    name: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    message: str = ""

    @property
    def resolved(self) -> bool:
        return self.status == "resolved"


def _words(name: str) -> list[str]:
    return [w for w in _NON_ALNUM.split(name.upper()) if w]


def _core(words: list[str]) -> list[str]:
    core = [w for w in words if w not in _SUFFIXES]
    return core or words


class NameScorer:
    """Scores names against one query: the query's words are split once, and names that cannot reach
    the fuzzy threshold are ruled out by bounds before difflib runs (same scores as comparing each)."""

    def __init__(self, query: str):
        self.words = _words(query)
        self.core = _core(self.words)
        self.text = " ".join(self.core)
        self.core_set = set(self.core)

    def __call__(self, name: str) -> tuple[float, str]:
        q, n = self.words, _words(name)
        if not q or not n:
            return 0.0, ""
        if q == n:
            return EXACT, "exact name"
        qc, nc = self.core, _core(n)
        if qc == nc:
            return CORE, "same name apart from legal form"
        if nc[:len(qc)] == qc:
            return PREFIX, "name starts with the query"
        if self.core_set <= set(nc):
            return WORDS, "name contains every word of the query"
        a, b = self.text, " ".join(nc)
        # difflib's ratio() is at most 2*min(len)/(len+len), and at most quick_ratio(): most names are
        # ruled out by length, most of the rest by characters, before the full comparison runs
        if 2 * min(len(a), len(b)) < FUZZY_RATIO * (len(a) + len(b)):
            return 0.0, ""
        matcher = SequenceMatcher(None, a, b)
        if matcher.quick_ratio() < FUZZY_RATIO:
            return 0.0, ""
        ratio = matcher.ratio()
        if ratio >= FUZZY_RATIO:
            return round(FUZZY * ratio, 3), f"similar spelling ({ratio:.2f})"
        return 0.0, ""


def score_name(query: str, name: str) -> tuple[float, str]:
    """How well ``name`` matches ``query`` (0 = not at all) and why. Pure; case and punctuation blind."""
    return NameScorer(query)(name)


def _registry(con: duckdb.DuckDBPyConnection) -> dict[int, tuple[str, set[str], set[str]]]:
    """cik -> (display name, names to match, tickers) from companies and the current ticker files."""
    reg: dict[int, tuple[str, set[str], set[str]]] = {}
    for cik, name, tickers in fetch_all(con, "SELECT cik, name, tickers FROM companies WHERE name IS NOT NULL"):
        reg[cik] = (name, {name}, set(tickers or []))
    for cik, title, ticker in fetch_all(con, "SELECT cik, title, ticker FROM tickers_current"):
        disp, names, ticks = reg.get(cik, (title or str(cik), set(), set()))
        if title:
            names.add(title)
        ticks.add(ticker)
        reg[cik] = (disp, names, ticks)
    return reg


def _former_names(con: duckdb.DuckDBPyConnection) -> dict[int, list[tuple[str, object, object]]]:
    """cik -> [(former name, from, to)] from SEC's formerNames (companies.former_names)."""
    out: dict[int, list[tuple[str, object, object]]] = {}
    for cik, name, since, until in fetch_all(
            con, "SELECT cik, f.name, f.from_date, f.to_date FROM (SELECT cik, unnest(former_names) AS f FROM companies"
                 " WHERE former_names IS NOT NULL) WHERE f.name IS NOT NULL"):
        out.setdefault(cik, []).append((name, since, until))
    return out


def resolve(con: duckdb.DuckDBPyConnection, query: str, *, limit: int = 10) -> Resolution:
    """Ticker (exact, case-insensitive, BRK.B = BRK-B), CIK digits, else a name that clearly wins."""
    q = query.strip()
    if not q:
        return Resolution(query, "not_found", message="empty query")
    reg = _registry(con)

    digits = q[3:] if q.upper().startswith("CIK") else q
    if digits.isascii() and digits.isdigit() and len(digits) <= 10:  # '²' is a digit int() refuses
        cik = int(digits)
        if cik in reg:
            return Resolution(query, "resolved", "cik", cik, reg[cik][0], message=f"CIK {cik}")
        return Resolution(query, "not_found", "cik", cik,
                          message=f"CIK {cik} is not in the loaded registry (load its submissions or the ticker files)")

    key = ticker_key(q)
    by_ticker = sorted(cik for cik, (_, _, ticks) in reg.items() if key in {ticker_key(t) for t in ticks})
    if len(by_ticker) == 1:
        cik = by_ticker[0]
        return Resolution(query, "resolved", "ticker", cik, reg[cik][0], message=f"ticker {key}")
    if len(by_ticker) > 1:
        cands = [Candidate(c, reg[c][0], tuple(sorted(reg[c][2])), 1.0, f"lists ticker {key}") for c in by_ticker]
        return Resolution(query, "ambiguous", "ticker", candidates=cands,
                          message=f"ticker {key} is listed for {len(cands)} companies; will not guess")

    former = _former_names(con)
    score = NameScorer(q)
    scored: list[Candidate] = []
    for cik, (disp, names, ticks) in reg.items():
        best = max((score(n) for n in names), key=lambda s: s[0])
        for old, since, until in former.get(cik, []):
            s, why = score(old)
            if s > best[0]:
                span = f"{since or '?'} to {until or '?'}"
                best = (s, f"former name {old!r} ({span}); now {disp!r}" + (f" ({why})" if why else ""))
        if best[0] > 0:
            scored.append(Candidate(cik, disp, tuple(sorted(ticks)), best[0], best[1]))
    scored.sort(key=lambda c: (-c.score, c.name, c.cik))
    if not scored:
        return Resolution(query, "not_found", message=f"no ticker, CIK or company name matches {q!r}")
    top, rest = scored[0], scored[1:]
    exact_tie = [c for c in rest if c.score >= top.score]
    clear = not exact_tie and (top.score == EXACT or (top.score >= PREFIX and not any(
        c.score >= CLEAR_MARGIN for c in rest)))
    if clear:
        return Resolution(query, "resolved", "name", top.cik, top.name, scored[:limit],
                          message=f"{top.reason}; no other candidate comes close")
    return Resolution(query, "ambiguous", "name", candidates=scored[:limit],
                      message=f"{len(scored)} companies match {q!r}; will not guess: "
                              + "; ".join(f"{c.name} (CIK {c.cik}{', ' + '/'.join(c.tickers) if c.tickers else ''})"
                                          for c in scored[:3]))
