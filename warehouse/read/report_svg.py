"""Inline SVG charts for the company report: pure functions from rows to SVG text, no dependencies.

Every mark carries a class (``version``, ``restated``, ``trade``, ``filing``) and a ``<title>`` tooltip,
so a browser test can count what is drawn and a reader can hover for the receipt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from html import escape

WIDTH = 960
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 86, 16, 14, 30
CURRENT = "#1f77b4"    # current values
RESTATED = "#d62728"   # versions whose value was later changed
PURCHASE = "#2ca02c"
SALE = "#d62728"
LANE_COLOURS = ("#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#7f7f7f")


def compact(value: float | None, unit: str = "") -> str:
    """331800000000 -> '331.8B' (with '$' for USD); None -> 'n/a'."""
    if value is None:
        return "n/a"
    sign, v = ("-" if value < 0 else ""), abs(float(value))
    for div, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if v >= div:
            text = f"{v / div:.1f}{suffix}"
            break
    else:
        text = f"{v:.2f}".rstrip("0").rstrip(".") if v % 1 else f"{v:.0f}"
    return f"{sign}${text}" if unit == "USD" else f"{sign}{text}"


def shown(value: float | Decimal | None, unit: str | None, metric: str | None = None) -> str:
    """A number as a reader should see it, in its own unit: a fraction as a percentage (0.1589 ->
    '15.89%'), a ratio as a multiple (0.8933 -> '0.89x'; which metrics are ratios: their rule files'
    headers, warehouse.schema.vocabulary.metric_shown_as), an amount compactly ('$4.1B'); None -> 'n/a'."""
    from warehouse.schema.vocabulary import metric_shown_as

    if value is None:
        return "n/a"
    if unit == "pure":
        if metric_shown_as().get(metric or "") == "multiple":
            return f"{float(value):.2f}x"
        return f"{float(value):.2%}"
    return compact(float(value), unit or "")


@dataclass(frozen=True)
class Linear:
    """Map [d0, d1] onto [r0, r1]."""

    d0: float
    d1: float
    r0: float
    r1: float

    def __call__(self, v: float) -> float:
        if self.d1 == self.d0:
            return (self.r0 + self.r1) / 2
        return self.r0 + (v - self.d0) * (self.r1 - self.r0) / (self.d1 - self.d0)


def _days(d: date) -> float:
    return float(d.toordinal())


def _nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / n
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = (lo // step) * step
    ticks, t = [], first
    while t <= hi + step / 2:
        if t >= lo - step / 2:
            ticks.append(t)
        t += step
    return ticks


def _year_ticks(start: date, end: date, x: Linear, height: float) -> str:
    years = list(range(start.year, end.year + 2))
    every = max(1, len(years) // 12)
    out = []
    for y in years[::every]:
        d = date(y, 1, 1)
        if start <= d <= end:
            px = x(_days(d))
            out.append(f'<line class="grid" x1="{px:.1f}" x2="{px:.1f}" y1="{MARGIN_TOP}" y2="{height - MARGIN_BOTTOM}"/>'
                       f'<text class="tick" x="{px:.1f}" y="{height - MARGIN_BOTTOM + 16}" text-anchor="middle">{y}</text>')
    return "".join(out)


def _svg(height: float, body: str, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{escape(label)}" '
            f'width="{WIDTH}" height="{height:.0f}" viewBox="0 0 {WIDTH} {height:.0f}">{body}</svg>')


@dataclass(frozen=True)
class VersionPoint:
    """One published version of one fact: where it goes and what its tooltip says."""

    period_end: date
    value: float
    version_number: int
    superseded: bool   # a later version of the same fact has another value
    title: str


def versions_chart(points: Sequence[VersionPoint], unit: str, label: str) -> str:
    """Every version as a circle (restated ones red, hollow), the current values joined by a line."""
    height = 320
    if not points:
        return _svg(80, '<text x="10" y="40">no versions to draw</text>', label)
    start = min(p.period_end for p in points)
    end = max(p.period_end for p in points)
    pad = max(30.0, (_days(end) - _days(start)) * 0.03)
    x = Linear(_days(start) - pad, _days(end) + pad, MARGIN_LEFT, WIDTH - MARGIN_RIGHT)
    lo, hi = min(0.0, min(p.value for p in points)), max(p.value for p in points)
    y = Linear(lo, hi * 1.05 if hi > 0 else 1.0, height - MARGIN_BOTTOM, MARGIN_TOP)
    parts = [_year_ticks(start, end, x, height)]
    for t in _nice_ticks(lo, hi * 1.05 if hi > 0 else 1.0):
        py = y(t)
        parts.append(f'<line class="grid" x1="{MARGIN_LEFT}" x2="{WIDTH - MARGIN_RIGHT}" y1="{py:.1f}" y2="{py:.1f}"/>'
                     f'<text class="tick" x="{MARGIN_LEFT - 6}" y="{py + 4:.1f}" text-anchor="end">{compact(t, unit)}</text>')
    latest: dict[date, VersionPoint] = {}
    for p in points:
        if p.period_end not in latest or p.version_number > latest[p.period_end].version_number:
            latest[p.period_end] = p
    line = " ".join(f"{x(_days(d)):.1f},{y(latest[d].value):.1f}" for d in sorted(latest))
    parts.append(f'<polyline class="current" fill="none" stroke="{CURRENT}" stroke-width="1.5" points="{line}"/>')
    for p in sorted(points, key=lambda p: (p.period_end, p.version_number)):
        cx = x(_days(p.period_end)) + (p.version_number - 1) * 4  # versions side by side
        cls, style = ("version restated", f'fill="white" stroke="{RESTATED}" stroke-width="2"') if p.superseded \
            else ("version", f'fill="{CURRENT}"')
        parts.append(f'<circle class="{cls}" cx="{cx:.1f}" cy="{y(p.value):.1f}" r="4.5" {style}>'
                     f'<title>{escape(p.title)}</title></circle>')
    return _svg(height, "".join(parts), label)


@dataclass(frozen=True)
class Bar:
    """One day's open-market trades on one side (purchase above the axis, sale below)."""

    day: date
    side: str
    shares: float
    title: str


def trades_chart(bars: Sequence[Bar], label: str) -> str:
    """Open-market purchases (up, green) and sales (down, red) over time, one bar per day and side."""
    height = 220
    if not bars:
        return _svg(60, '<text class="empty" x="10" y="35">no open-market purchases or sales in the warehouse</text>',
                    label)
    start, end = min(b.day for b in bars), max(b.day for b in bars)
    pad = max(20.0, (_days(end) - _days(start)) * 0.03)
    x = Linear(_days(start) - pad, _days(end) + pad, MARGIN_LEFT, WIDTH - MARGIN_RIGHT)
    top = max(b.shares for b in bars)
    mid = (height - MARGIN_BOTTOM + MARGIN_TOP) / 2
    y = Linear(0, top, 0, mid - MARGIN_TOP)
    parts = [_year_ticks(start, end, x, height),
             f'<line class="axis" x1="{MARGIN_LEFT}" x2="{WIDTH - MARGIN_RIGHT}" y1="{mid}" y2="{mid}" stroke="#333"/>',
             f'<text class="tick" x="{MARGIN_LEFT - 6}" y="{MARGIN_TOP + 8}" text-anchor="end">+{compact(top)} sh</text>',
             f'<text class="tick" x="{MARGIN_LEFT - 6}" y="{height - MARGIN_BOTTOM}" text-anchor="end">-{compact(top)} sh</text>']
    for b in bars:
        h = max(1.0, y(b.shares))
        bx = x(_days(b.day)) - 3
        by, colour = (mid - h, PURCHASE) if b.side == "purchase" else (mid, SALE)
        parts.append(f'<rect class="trade {escape(b.side)}" x="{bx:.1f}" y="{by:.1f}" width="6" height="{h:.1f}" '
                     f'fill="{colour}"><title>{escape(b.title)}</title></rect>')
    return _svg(height, "".join(parts), label)


@dataclass(frozen=True)
class Mark:
    """One filing on the timeline."""

    day: date
    lane: str
    title: str
    href: str | None = None


def timeline_chart(marks: Sequence[Mark], lanes: Sequence[str], label: str) -> str:
    """One tick per filing, one lane per kind of form."""
    lane_h = 26
    height = MARGIN_TOP + lane_h * len(lanes) + MARGIN_BOTTOM
    if not marks:
        return _svg(60, '<text class="empty" x="10" y="35">no filings in the warehouse</text>', label)
    start, end = min(m.day for m in marks), max(m.day for m in marks)
    pad = max(20.0, (_days(end) - _days(start)) * 0.01)
    x = Linear(_days(start) - pad, _days(end) + pad, MARGIN_LEFT + 30, WIDTH - MARGIN_RIGHT)
    parts = [_year_ticks(start, end, x, height)]
    row = {lane: i for i, lane in enumerate(lanes)}
    for lane, i in row.items():
        ly = MARGIN_TOP + i * lane_h
        parts.append(f'<text class="lane" x="{MARGIN_LEFT + 24}" y="{ly + lane_h / 2 + 4:.1f}" text-anchor="end">'
                     f'{escape(lane)}</text>')
    for m in marks:
        i = row[m.lane]
        ly = MARGIN_TOP + i * lane_h
        mx = x(_days(m.day))
        tick = (f'<line class="filing" x1="{mx:.1f}" x2="{mx:.1f}" y1="{ly + 4}" y2="{ly + lane_h - 4}" '
                f'stroke="{LANE_COLOURS[i % len(LANE_COLOURS)]}" stroke-width="1.5"><title>{escape(m.title)}</title></line>')
        parts.append(f'<a href="{escape(m.href)}">{tick}</a>' if m.href else tick)
    return _svg(height, "".join(parts), label)
