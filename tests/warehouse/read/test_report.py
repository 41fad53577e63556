"""The company report renders in a real headless Chromium (Debian's package) and draws exactly what the
warehouse holds: every version of the concept, every trade day, every filing, lineage one click away."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from flows.cli import EXIT_NOT_FOUND, app
from warehouse.read.report import METRIC_YEARS
from warehouse.read.report_svg import CURRENT, RESTATED

pytestmark = pytest.mark.slow  # headless Chromium (make check leaves it out)

APPLE = 320193
CONCEPT = "SalesRevenueNet"  # the revenue tag whose history Apple restated (10-K/A of January 2010)
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium not found: install Debian's chromium package "
                             "(.ci/install-services.sh does it in CI)")
runner = CliRunner()


@pytest.fixture(scope="module")
def page(company_warehouse, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "aapl.html"
    result = runner.invoke(app, ["--db", str(company_warehouse), "report", "AAPL", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def truth(company_warehouse) -> dict:
    """What the page must draw, counted straight from the warehouse (not through the report code)."""
    con = duckdb.connect(str(company_warehouse), read_only=True)
    try:
        key = "cik, taxonomy, concept, unit, period_start, period_end"
        one = lambda q, p=None: con.execute(q, p or []).fetchone()[0]  # noqa: E731
        annual = (f"FROM fact_versions WHERE cik = {APPLE} AND concept = '{CONCEPT}' AND unit = 'USD'"
                  " AND fiscal_period = 'FY' AND duration_class = 'annual'")
        metrics = con.execute(
            f"""SELECT m.metric_id, count(l.metric_id) FROM derived_metrics_current m
                LEFT JOIN metric_lineage l USING (metric_id)
                WHERE m.cik = {APPLE} AND m.fiscal_period = 'FY' AND m.value IS NOT NULL
                  AND m.fiscal_year > (SELECT max(fiscal_year) FROM derived_metrics_current
                                       WHERE cik = {APPLE} AND fiscal_period = 'FY' AND value IS NOT NULL)
                                      - {METRIC_YEARS}
                GROUP BY 1""").fetchall()
        return {
            "versions": one(f"SELECT count(*) {annual}"),
            "restated": one(f"SELECT count(*) FROM (SELECT * {annual}) v JOIN facts_current c USING ({key})"
                            " WHERE v.value <> c.value"),
            "trade_days": one(f"SELECT count(DISTINCT (transaction_date, side)) FROM insider_open_market"
                              f" WHERE issuer_cik = {APPLE}"),
            "filings": one(f"SELECT count(*) FROM filings WHERE cik = {APPLE}"),
            "lineage": dict(metrics),
        }
    finally:
        con.close()


class Marks(HTMLParser):
    """Counts elements by tag and class, and collects the <details class="lineage"> attributes."""

    def __init__(self):
        super().__init__()
        self.count: Counter[tuple[str, str]] = Counter()
        self.tags: Counter[str] = Counter()
        self.lineage: dict[str, int] = {}
        self.attrs_seen: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] += 1
        for cls in (a.get("class") or "").split():
            self.count[(tag, cls)] += 1
        if tag == "details" and "lineage" in (a.get("class") or ""):
            self.lineage[a["data-metric-id"]] = int(a["data-edges"])
        for k, v in a.items():
            self.attrs_seen.append((tag, k, v or ""))


def marks(html: str) -> Marks:
    m = Marks()
    m.feed(html)
    return m


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
           f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=True)


def test_page_is_static_and_self_contained(page):
    html = page.read_text(encoding="utf-8")
    found = marks(html)
    assert found.tags["script"] == 0 and found.tags["link"] == 0 and found.tags["img"] == 0 \
        and found.tags["iframe"] == 0
    assert not [(t, k, v) for t, k, v in found.attrs_seen if k in {"src", "srcset"} or k.startswith("on")]
    assert "@import" not in html and "url(" not in html
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert found.tags["svg"] == 3


@needs_chromium
def test_chromium_draws_every_version_trade_filing_and_lineage(page, truth, tmp_path):
    dom = chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    drawn = marks(dom)
    assert drawn.tags["svg"] == 3 and drawn.tags["script"] == 0
    assert truth["versions"] >= 30 and truth["restated"] == 3
    assert drawn.count[("circle", "version")] == truth["versions"]      # every version is a point
    assert drawn.count[("circle", "restated")] == truth["restated"]     # restated ones are visible
    assert drawn.count[("polyline", "current")] == 1
    assert drawn.count[("rect", "trade")] == truth["trade_days"] >= 1
    assert drawn.count[("line", "filing")] == truth["filings"] == 1000
    assert drawn.lineage == truth["lineage"] and len(drawn.lineage) >= 8 * 5
    assert all(n >= 1 for n in drawn.lineage.values())                  # lineage one click away


def _png_rgb(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG (as Chromium writes it) into rows of RGB bytes."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev, strict=True))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows


@needs_chromium
def test_screenshot_shows_the_chart_in_its_colours(page, tmp_path):
    shot = tmp_path / "shot.png"
    chromium(tmp_path, "--window-size=1000,700", f"--screenshot={shot}", page.as_uri())
    width, height, rows = _png_rgb(shot)
    assert (width, height) == (1000, 700)
    pixels = Counter(bytes(r[i:i + 3]) for r in rows for i in range(0, len(r), 3))
    white = pixels[b"\xff\xff\xff"]
    assert white < 0.97 * width * height, "blank page"
    colour = lambda hexcode: bytes.fromhex(hexcode[1:])  # noqa: E731
    assert pixels[colour(CURRENT)] > 50, "no current-value marks drawn"
    assert pixels[colour(RESTATED)] > 10, "no restated versions drawn"


def test_unknown_company_or_concept_is_a_clear_error(company_warehouse, tmp_path):
    out = tmp_path / "x.html"
    result = runner.invoke(app, ["--db", str(company_warehouse), "report", "AAPL", "--concept", "SalesRevenue",
                                 "--out", str(out)])
    assert result.exit_code == EXIT_NOT_FOUND and "closest: SalesRevenueNet" in result.output
    assert not out.exists()


def test_every_number_reads_in_its_own_unit(page, company_warehouse):
    """A ratio reads as a multiple and a margin as a percentage (issue 21: current_ratio 0.8933 read
    "89.33%", net_debt_to_ebitda 0.378 "37.84%"), from the rule files' headers."""
    html = page.read_text()
    con = duckdb.connect(str(company_warehouse), read_only=True)
    try:
        ratio, margin = (con.execute(
            f"""SELECT value FROM derived_metrics_current WHERE cik = {APPLE} AND metric = ? AND fiscal_period = 'FY'
                AND value IS NOT NULL ORDER BY period_end DESC LIMIT 1""", [m]).fetchone()[0]
            for m in ("current_ratio", "operating_margin"))
    finally:
        con.close()
    sections = {s.split("</h3>")[0]: s for s in html.split("<h3>")[1:]}
    assert f"{float(ratio):.2f}x" in sections["current_ratio"]
    assert f"{float(ratio):.2%}" not in sections["current_ratio"]
    assert f"{float(margin):.2%}" in sections["operating_margin"]
