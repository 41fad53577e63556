"""Per-company fiscal calendar: fiscal year ends and labels from the company's own annual filings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# Two candidate year ends closer than this are the same fiscal year; keep the better-attested one.
SAME_YEAR_DAYS = 300
# A fiscal year "belongs" to the calendar year in which its end falls, after moving early-January
# ends (52/53-week years that spill past Dec 31) back into the previous year.
LABEL_SHIFT = timedelta(days=14)
# A fiscal year is at most 53 weeks (371 days) plus slack; a longer gap between two observed ends
# means missing years or a change of year end.
MAX_YEAR_DAYS = 380


@dataclass(frozen=True)
class FiscalYear:
    fiscal_year: int
    fy_start: date
    fy_end: date
    basis: str  # observed | extrapolated | transition | assumed_calendar

    @property
    def weeks_53(self) -> bool:
        return (self.fy_end - self.fy_start).days + 1 > 367


def _add_years(d: date, years: int) -> date:
    try:
        return d.replace(year=d.year + years)
    except ValueError:  # Feb 29
        return d.replace(year=d.year + years, day=28)


def _natural_year(end: date) -> int:
    return (end - LABEL_SHIFT).year


def build_calendar(candidates: list[tuple[date, int]], own_ends: list[tuple[date, int | None]],
                   span: tuple[date, date] | None) -> list[FiscalYear]:
    """Build a company's fiscal years.

    ``candidates``: (period_end, how many annual-duration facts end there) from annual forms.
    ``own_ends``: (an annual filing's own period end, the fy SEC gave that filing).
    ``span``: earliest and latest period_end of all the company's facts, to extrapolate to.
    The label convention (NVIDIA calls the year ending 2024-01-28 FY2024, Home Depot calls the
    year ending 2024-01-28 fiscal 2023) is learned from the fy of the company's own filings.
    """
    kept = []
    for end, n in candidates:
        rivals = [(m, e) for e, m in candidates if e != end and abs((e - end).days) < SAME_YEAR_DAYS]
        if all((n, end) > r for r in rivals):
            kept.append(end)
    kept.sort()

    offsets_by_end: dict[date, Counter] = {}
    all_offsets: Counter = Counter()
    for end, fy in own_ends:
        if fy is None:
            continue
        off = fy - _natural_year(end)
        if -1 <= off <= 1:
            offsets_by_end.setdefault(end, Counter())[off] += 1
            all_offsets[off] += 1
    default_off = all_offsets.most_common(1)[0][0] if all_offsets else 0

    years: list[FiscalYear] = []
    if not kept:
        if span is None:
            return []
        return [FiscalYear(y, date(y, 1, 1), date(y, 12, 31), "assumed_calendar")
                for y in range(span[0].year, span[1].year + 1)]

    observed: list[tuple[date, int]] = []
    for end in kept:
        local = offsets_by_end.get(end)
        off = local.most_common(1)[0][0] if local else default_off
        label = _natural_year(end) + off
        if observed and label <= observed[-1][1]:
            label = observed[-1][1] + 1  # two observed ends never share a label
        observed.append((end, label))

    ends: list[tuple[date, int, str]] = []
    for end, label in observed:
        if ends and (end - ends[-1][0]).days > MAX_YEAR_DAYS:
            # Missing years, or a year-end change: fill whole years back from this end; what is
            # left before the first of them is a transition period (a 10-KT), labelled only when
            # a label is free between its neighbours.
            prev_end, prev_label, _ = ends[-1]
            fill = []
            k = 1
            while _add_years(end, -k) > prev_end + timedelta(days=31):
                fill.insert(0, _add_years(end, -k))
                k += 1
            for i, fill_end in enumerate(fill):
                fill_label = label - len(fill) + i
                if fill_label <= prev_label:
                    continue
                short = i == 0 and (fill_end - prev_end).days < 350
                ends.append((fill_end, fill_label, "transition" if short else "extrapolated"))
                prev_label = fill_label
        ends.append((end, label, "observed"))

    if span is not None:
        first_end, first_label, _ = ends[0]
        k = 1
        while _add_years(first_end, -k) >= span[0] - timedelta(days=370):
            ends.insert(0, (_add_years(first_end, -k), first_label - k, "extrapolated"))
            k += 1
        last_end, last_label, _ = ends[-1]
        k = 1
        while _add_years(last_end, k - 1) < span[1] + timedelta(days=3):
            ends.append((_add_years(last_end, k), last_label + k, "extrapolated"))
            k += 1

    for i, (end, label, basis) in enumerate(ends):
        start = _add_years(end, -1) + timedelta(days=1)
        if i and (end - ends[i - 1][0]).days <= MAX_YEAR_DAYS:
            start = ends[i - 1][0] + timedelta(days=1)
        years.append(FiscalYear(label, start, end, basis))
    return years


# How far after a fiscal year end a period may end and still belong to that year (52/53-week
# filers sometimes tag a period a day or two past the calendar's end).
END_SLACK_DAYS = 3


def fiscal_year_columns(period_end: pa.Array, years: list[FiscalYear]) -> dict[str, pa.Array]:
    """For each period end (ISO date strings), the fiscal year it falls in: the first year ending on
    or after period_end - 3 days; NULL when it falls in an uncovered gap or outside the calendar.

    Returns Arrow columns cal_year, cal_start, cal_end, cal_basis (vectorised: a sorted search over
    the company's few dozen year ends, not a join)."""
    n = len(period_end)
    if not years:
        return {"cal_year": pa.nulls(n, pa.int32()), "cal_start": pa.nulls(n, pa.date32()),
                "cal_end": pa.nulls(n, pa.date32()), "cal_basis": pa.nulls(n, pa.string())}
    ends = np.array([y.fy_end for y in years], dtype="datetime64[D]")
    starts = np.array([y.fy_start for y in years], dtype="datetime64[D]")
    d = pc.cast(period_end, pa.date32()).to_numpy(zero_copy_only=False).astype("datetime64[D]")
    match = d - np.timedelta64(END_SLACK_DAYS, "D")
    idx = np.searchsorted(ends, match, side="left")
    inside = idx < len(years)
    safe = np.where(inside, idx, 0)
    inside &= d >= starts[safe]  # a period ending in a gap before this year belongs to no year
    mask = ~inside
    labels = np.array([y.fiscal_year for y in years], dtype=np.int32)
    bases = np.array([y.basis for y in years], dtype=object)
    return {
        "cal_year": pa.array(labels[safe], pa.int32(), mask=mask),
        "cal_start": pa.array(starts[safe], pa.date32(), mask=mask),
        "cal_end": pa.array(ends[safe], pa.date32(), mask=mask),
        "cal_basis": pa.array(bases[safe], pa.string(), mask=mask),
    }
