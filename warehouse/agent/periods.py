"""Periods written in prose (FY2024, fiscal 2023, Q1 FY2024, the third quarter of 2024, 2024, May 4,
2022), and whether a claim's cited evidence contains them.

What is read:

* a fiscal year: ``FY2024``, ``FY24``, ``FY 2024``, ``fiscal 2024``, ``fiscal year 2024``;
* a quarter: ``Q1``, ``1Q``, ``first quarter``, optionally with its (fiscal) year: ``Q1 FY2024``,
  ``Q3 2024``, ``3Q24``, ``the third quarter of fiscal 2024``;
* a calendar year: a bare year 1900-2100 (``in 2024``), not one inside another period;
* a date: ``2024-09-28``, ``9/28/2024``, ``September 28, 2024``, ``Sept 28 2024``.

:class:`Evidence` is what a claim's evidence says about time (the fiscal years and quarters of
the facts cited, the calendar years and dates of their periods and filings, a transaction's date)
and :meth:`Evidence.lacks` lists the periods of a text it does not contain. A bare year counts as
contained when it is one of the evidence's calendar or fiscal years (writers say "2024 revenue"
for fiscal 2024); a fiscal year only when it is a fiscal year of the evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

_MONTHS = {m: n for n, names in enumerate(
    ["jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august",
     "sep sept september", "oct october", "nov november", "dec december"], start=1) for m in names.split()}
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_YEAR = r"(?:19|20)\d{2}"
_FISCAL = r"(?:FY\s?'?|fiscal\s+(?:year\s+)?'?)"

_PERIOD = re.compile(
    r"(?P<iso>\b(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})\b)"
    r"|(?P<us>\b(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4})\b)"
    rf"|(?P<long>\b(?P<lm>{'|'.join(sorted(_MONTHS, key=len, reverse=True))})\.?\s+(?P<ld>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<ly>{_YEAR})\b)"
    r"|(?P<quarter>\b(?:Q(?P<q1>[1-4])|(?P<q2>[1-4])Q|(?P<q3>first|second|third|fourth)\s+(?:fiscal\s+)?quarter)"
    rf"(?:\s*(?:of\s+)?(?:{_FISCAL})?(?P<qy>{_YEAR}|(?<=[Q\s'Y])\d{{2}}))?(?![\w-]))"
    rf"|(?P<fiscal>\b{_FISCAL}(?P<fy>{_YEAR}|\d{{2}})(?![\w-]))"
    rf"|(?P<year>(?<![\w$.,-]){_YEAR}(?![\w%-]|\.\d|,\d))",
    re.IGNORECASE)


def _year(text: str) -> int:
    y = int(text)
    return 2000 + y if y < 100 else y


@dataclass(frozen=True)
class Period:
    """One period a text names: ``kind`` fiscal_year (year), quarter (quarter 1-4, year or None),
    year (a calendar year) or date (day)."""

    text: str
    kind: str
    year: int | None = None
    quarter: int | None = None
    day: date | None = None


def periods(text: str) -> list[Period]:
    """Every period ``text`` names, in order (see the module doc)."""
    out = []
    for m in _PERIOD.finditer(text or ""):
        g = m.groupdict()
        try:
            if g["iso"]:
                out.append(Period(m.group(), "date", day=date(int(g["iy"]), int(g["im"]), int(g["id"]))))
            elif g["us"]:
                out.append(Period(m.group(), "date", day=date(int(g["uy"]), int(g["um"]), int(g["ud"]))))
            elif g["long"]:
                out.append(Period(m.group(), "date", day=date(int(g["ly"]), _MONTHS[g["lm"].lower()], int(g["ld"]))))
            elif g["quarter"]:
                q = int(g["q1"] or g["q2"] or _ORDINAL[g["q3"].lower()])
                out.append(Period(m.group().strip(), "quarter", year=_year(g["qy"]) if g["qy"] else None, quarter=q))
            elif g["fiscal"]:
                out.append(Period(m.group(), "fiscal_year", year=_year(g["fy"])))
            else:
                out.append(Period(m.group(), "year", year=int(m.group())))
        except ValueError:  # 2024-13-45 is no date: not a period either
            continue
    return out


@dataclass
class Evidence:
    """What a claim's evidence says about time (see the module doc)."""

    fiscal_years: set[int] = field(default_factory=set)
    quarters: set[tuple[int, int]] = field(default_factory=set)  # (fiscal year, quarter)
    years: set[int] = field(default_factory=set)
    days: set[date] = field(default_factory=set)

    def add_days(self, *days: date | None) -> None:
        for d in days:
            if d is not None:
                self.days.add(d)
                self.years.add(d.year)

    def merge(self, other: Evidence) -> None:
        self.fiscal_years |= other.fiscal_years
        self.quarters |= other.quarters
        self.years |= other.years
        self.days |= other.days

    def contains(self, p: Period) -> bool:
        if p.kind == "date":
            return p.day in self.days
        if p.kind == "fiscal_year":
            return p.year in self.fiscal_years
        if p.kind == "year":
            return p.year in self.years or p.year in self.fiscal_years
        return any(q == p.quarter and (p.year is None or fy == p.year) for fy, q in self.quarters)

    def lacks(self, text: str) -> list[Period]:
        """The periods ``text`` names that this evidence does not contain."""
        return [p for p in periods(text) if not self.contains(p)]
