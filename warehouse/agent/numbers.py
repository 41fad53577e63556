"""Numbers written in prose, normalised so that $331.8B, 331.8 billion, $5,000 million and
25,785,000,000 compare as amounts with the precision they were written to.

What counts as a number (the orphan-number rule of the claim verifier):

* an amount or percentage: digits with optional thousands commas and decimals, an optional
  currency in front ($, US$, USD) and an optional scale (thousand/million/billion/trillion, K, M,
  B, T, bn, mn, tn) and/or percent sign (%, percent, per cent, pct) after; a multiple (0.5x,
  12×) is its number; an amount in parentheses is negative and keeps its scale (($1.2) million is
  -1,200,000);
* NOT a number: digits inside a word or identifier (FY2024, Q3, H1, c1, 3rd, 10-K, 8-K, 20-F);
  a bare year 1900-2100 (no currency, scale, decimals or commas); a date (2024-09-28, 9/28/2024,
  Sept 28, 28 September); an accession number (0000320193-24-000123); a form number (Form 4,
  Forms 3/4/5); a CIK (CIK 320193); a duration (11 months, 2 quarters, 3 years); a claim id
  written on its own.

A number is *backed* by a claim value when rounding the claim value (half up, sign ignored) to
the precision the number was written with gives the number: $391.0B (precision 0.1 billion) is
backed by 391,035,000,000; 17.8% by a derived claim of 17.83 (percent).

Everything here is exact whatever the size of the numbers (no decimal context can round or trap:
values are built from their digits, rounding is decided by comparing with the exact half-way
points), and linear in the text: claim ids are masked in one pass, and :class:`Backing` answers
"is this number backed" by a binary search over the sorted claim values.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal

_SCALES = {"thousand": 3, "k": 3, "million": 6, "m": 6, "mn": 6, "billion": 9, "b": 9, "bn": 9,
           "trillion": 12, "t": 12, "tn": 12}

_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_NOT_NUMBERS = re.compile(
    r"\b\d{10}-\d{2}-\d{6}\b"                      # accession
    r"|\b\d{4}-\d{2}-\d{2}\b"                      # ISO date
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"                # US date
    rf"|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"  # Sept 28
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}"    # 28 September
    r"|\bForms?\s+\d+(?:\s*/\s*\d+)*"              # Form 4, Forms 3/4/5
    r"|\bCIK\s*#?\s*\d+"                           # CIK 320193
    r"|\b\d+-[A-Za-z]+\b"                         # 10-K, 8-K, 20-F
    r"|\b\d+(?:\.\d+)?\s+(?:days?|weeks?|months?|years?|quarters?)\b",  # a duration: 11 months apart
    re.IGNORECASE)

_NUMBER = re.compile(
    r"(?P<open>\()?(?P<cur>US\$|\$|USD\s)?"
    r"(?<![\w.,])(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?(?![.,]?\d)"
    r"(?P<close>\))?"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|tn|[KkMBT])s?(?![\w]))?"
    r"(?:\s?(?P<pct>%|percent\b|per\s+cent\b|pct\b))?"
    r"(?P<times>[x\u00d7](?![\w]))?"
    r"(?![\w])", re.IGNORECASE)


@dataclass(frozen=True)
class Mention:
    """A number found in text: its value, the precision it was written to, and whether it is a percentage."""

    text: str
    value: Decimal
    quantum: Decimal
    percent: bool
    start: int


_WORD = re.compile(r"\w+")


def mentions(text: str, claim_ids: Iterable[str] = ()) -> list[Mention]:
    """Every number in ``text`` under the rule above, in order. Claim ids are words (``\\w+``): a
    whole word that is one is not a number; pass a set when calling for many texts."""
    ids = claim_ids if isinstance(claim_ids, set | frozenset) else set(claim_ids)
    masked = _NOT_NUMBERS.sub(lambda m: " " * len(m.group()), text or "")
    if ids:
        masked = _WORD.sub(lambda m: " " * len(m.group()) if m.group() in ids else m.group(), masked)
    found = []
    for m in _NUMBER.finditer(masked):
        digits, frac = m.group("int").replace(",", ""), m.group("frac") or ""
        scale_word, pct, cur = m.group("scale"), m.group("pct"), m.group("cur")
        if scale_word == "m" and not cur:
            scale_word = None  # a lone lower-case m without a currency is not read as millions
        if not (cur or scale_word or pct or frac or "," in m.group("int")) and len(digits) == 4 \
                and 1900 <= int(digits) <= 2100:
            continue  # a year
        exponent = _SCALES[scale_word.lower()] if scale_word else 0
        decimals = len(frac) - 1 if frac else 0
        negative = bool(m.group("open") and m.group("close"))  # ($1.2) million: an amount in parentheses
        value = Decimal(f"{'-' if negative else ''}{digits}{frac}E{exponent}")  # exact: no context rounds it
        quantum = Decimal(f"1E{exponent - decimals}")
        start = m.start() + (1 if m.group("open") and not negative else 0)
        found.append(Mention(text=text[start:m.end()].strip(), value=value, quantum=quantum,
                             percent=bool(pct), start=start))
    return found


def rounds_to(value: Decimal, quantum: Decimal, target: Decimal) -> bool:
    """True when ``value`` rounded half up (ties away from zero) to a multiple of ``quantum`` (a power
    of ten) is ``target``, decided exactly for finite decimals of any size: no context rounds or traps."""
    lo, hi = _around(target.copy_abs(), quantum)
    if target != 0 and (value < 0) != (target < 0):
        return False
    a = value.copy_abs()  # abs() would round to the context
    return a < hi if target == 0 else lo <= a < hi


_EXACT = Context(prec=10**7)  # wider than any number a brief can hold: + and - are exact


def _around(target: Decimal, quantum: Decimal) -> tuple[Decimal, Decimal]:
    """The exact half-way points below and above ``target`` (>= 0) at ``quantum``: values in [lo, hi)
    round half up to it."""
    half = Decimal(f"5E{quantum.adjusted() - 1}")
    return _EXACT.subtract(target, half), _EXACT.add(target, half)


def rounded(value: Decimal, quantum: Decimal) -> Decimal:
    """``value`` rounded half up to a multiple of ``quantum``, exactly (the context is as wide as the result)."""
    digits = max(value.adjusted() - quantum.as_tuple().exponent + 2, 1)  # type: ignore[operator]
    return value.quantize(quantum, rounding=ROUND_HALF_UP, context=Context(prec=digits))


def backed_by(mention: Mention, value: Decimal | None) -> bool:
    """True when ``value`` written to the mention's precision is the mention (sign ignored)."""
    if value is None:
        return False
    return rounds_to(value.copy_abs(), mention.quantum, mention.value.copy_abs())


class Backing:
    """The claim values of a brief, sorted once, so that whether a number is backed costs a binary search."""

    def __init__(self, values: Iterable[Decimal | None]):
        self.values = sorted(v.copy_abs() for v in values if v is not None)

    def backs(self, mention: Mention) -> bool:
        """``backed_by(mention, v)`` for some value ``v``: one lies in [lo, hi) around the mention."""
        lo, hi = _around(mention.value.copy_abs(), mention.quantum)
        if mention.value == 0:
            return bool(self.values) and self.values[0] < hi
        i = bisect_left(self.values, lo)
        return i < len(self.values) and self.values[i] < hi
