"""A page per company: one static HTML file (no scripts, no network, charts as inline SVG).

Sections: a concept's history with every published version (restatements visible), the derived
metrics with their lineage one click away (``<details>``), insider open-market activity over time,
and the filing timeline. Data comes through the notebook API (read-only, sandboxed).
"""

from __future__ import annotations

from collections import Counter
from html import escape

import polars as pl

from warehouse.read.api import Warehouse
from warehouse.read.report_svg import (
    CURRENT,
    RESTATED,
    Bar,
    Mark,
    VersionPoint,
    compact,
    shown,
    timeline_chart,
    trades_chart,
    versions_chart,
)
from warehouse.schema.sql_files import sql

# No network, ever: the browser may load nothing but this file's inline styles and data: images.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
METRIC_YEARS = 8  # fiscal years of derived metrics shown
LANES = ("10-K", "10-Q", "8-K", "3/4/5", "other")
STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1000px;color:#222}
h1{margin:0 0 4px}h2{margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#555}.chart{display:block;margin:6px 0;background:#fff}
.grid{stroke:#eee}.tick,.lane{font-size:11px;fill:#555}
table{border-collapse:collapse;font-size:12.5px;margin:6px 0}td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}details summary{cursor:pointer;color:#1f77b4}
.legend span{margin-right:16px}.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px}
"""


def _lane(form: str | None) -> str:
    base = (form or "").removesuffix("/A")
    if base in {"10-K", "20-F", "40-F", "10-KT"}:
        return "10-K"
    if base in {"10-Q", "10-QT"}:
        return "10-Q"
    if base in {"8-K", "6-K"}:
        return "8-K"
    if base in {"3", "4", "5"}:
        return "3/4/5"
    return "other"


def default_concept(wh: Warehouse, cik: int) -> str:
    """Of the XBRL tags behind the company's annual ``revenue``, the one whose history shows the
    most restatements (then the most versions); else the company's most reported concept."""
    rev = wh.standard_facts(cik, "revenue", fiscal_period="FY")
    tags = sorted({f"{t}:{c}" for t, c in rev.select("taxonomy", "matched_tag").rows()})
    if tags:
        def weight(tag: str) -> tuple[int, int]:
            v = concept_versions(wh, cik, tag)[0]
            return int(v["changed_value"].sum() or 0), v.height
        return max(tags, key=weight)
    top = wh.sql("SELECT taxonomy || ':' || concept AS c FROM facts WHERE cik = ? GROUP BY ALL"
                 " ORDER BY count(*) DESC, 1 LIMIT 1", [cik])
    return top["c"][0] if top.height else ""


def concept_versions(wh: Warehouse, cik: int, concept: str) -> tuple[pl.DataFrame, str]:
    """Annual versions of ``concept`` in its most used unit (the points the history chart draws)."""
    v = wh.fact_versions(cik, concept, fiscal_period="FY").filter(
        pl.col("duration_class").is_in(["annual", "instant"]) & pl.col("value").is_not_null())
    if v.is_empty():
        return v, ""
    unit = v["unit"].value_counts(sort=True)["unit"][0]
    return v.filter(pl.col("unit") == unit), unit


def _table(headers: list[str], rows: list[list[str]], numeric: frozenset[int] = frozenset()) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _v(x) -> float | None:
    return None if x is None else float(x)


def _history_section(wh: Warehouse, cik: int, concept: str) -> str:
    versions, unit = concept_versions(wh, cik, concept)
    final = {(r["period_start"], r["period_end"]): r["value"] for r in versions.iter_rows(named=True)
             if r["version_number"] == r["versions"]}
    points = []
    for r in versions.iter_rows(named=True):
        superseded = r["value"] != final.get((r["period_start"], r["period_end"]), r["value"])
        title = (f"FY{r['fiscal_year']} ending {r['period_end']}: {compact(_v(r['value']), unit)} ({r['value']} {unit}),"
                 f" version {r['version_number']} of {r['versions']}, {r['form']} {r['accession']} filed {r['filed']}"
                 f"{' (later restated)' if superseded else ''}")
        points.append(VersionPoint(r["period_end"], float(r["value"]), r["version_number"], superseded, title))
    changes = versions.filter(pl.col("changed_value")).sort("period_end")
    chart = versions_chart(points, unit, f"{concept}: every published version")
    legend = (f'<p class="legend"><span><i class="dot" style="background:{CURRENT}"></i>current value</span>'
              f'<span><i class="dot" style="border:2px solid {RESTATED}"></i>a version later restated</span>'
              f"<span>{len(points)} versions of {len(final)} annual values; {changes.height} changes of value</span></p>")
    rows = [[f"FY{r['fiscal_year']}", str(r["period_end"]), compact(_v(r["prior_value"]), unit),
             compact(_v(r["value"]), unit), escape(r["form"] or ""), escape(r["accession"]), str(r["filed"])]
            for r in changes.iter_rows(named=True)]
    table = _table(["year", "period end", "was", "became", "form", "accession", "filed"], rows,
                   frozenset({2, 3})) if rows else "<p>No restatements of this concept.</p>"
    return (f'<section id="history"><h2>{escape(concept)}: history with every version</h2>'
            f'<p class="meta">Annual values in {escape(unit)}; each dot is one filing that reported the value.</p>'
            f"{chart}{legend}{table}</section>")


def _metrics_section(wh: Warehouse, cik: int) -> str:
    m = wh.metrics(cik, fiscal_period="FY").filter(pl.col("value").is_not_null())
    if m.height:
        m = m.filter(pl.col("fiscal_year") > m["fiscal_year"].max() - METRIC_YEARS).sort("metric", "period_end")
    if m.is_empty():
        return '<section id="metrics"><h2>Derived metrics</h2><p>No derived metrics.</p></section>'
    edges = wh.sql("SELECT * FROM metric_lineage WHERE list_contains($ids, metric_id) ORDER BY ALL",
                   {"ids": m["metric_id"].to_list()})
    by_metric = edges.partition_by("metric_id", as_dict=True) if edges.height else {}
    blocks = []
    for (name,), group in m.partition_by("metric", as_dict=True, maintain_order=True).items():
        rows = []
        for r in group.sort("period_end", descending=True).iter_rows(named=True):
            e = by_metric.get((r["metric_id"],), pl.DataFrame())
            cols = [c for c in ("role", "taxonomy", "concept", "unit", "period_start", "period_end", "value",
                                "accession", "known_from", "input_metric_id") if c in e.columns]
            lineage = _table(cols, [[escape("" if v is None else str(v)) for v in row] for row in e.select(cols).rows()])
            value = shown(r["value"], r["unit"], r["metric"])
            rows.append([f"FY{r['fiscal_year']}", str(r["period_end"]), value,
                         f'<details class="lineage" data-metric-id="{escape(r["metric_id"])}" data-edges="{e.height}">'
                         f"<summary>{escape(r['formula'] or '')} · rule {escape(r['rule_version'] or '')}</summary>"
                         f"{lineage}</details>"])
        blocks.append(f"<h3>{escape(name)}</h3>"
                      + _table(["year", "period end", "value", "formula and lineage"], rows, frozenset({2})))
    return ('<section id="metrics"><h2>Derived metrics (annual, current versions)</h2>'
            f'<p class="meta">The last {METRIC_YEARS} fiscal years. Open a formula to see the exact fact versions'
            " it was computed from.</p>"
            + "".join(blocks) + "</section>")


def trade_bars(wh: Warehouse, cik: int) -> list[Bar]:
    """One bar per (transaction day, side) of open-market purchases and sales."""
    t = wh.insider_trades(cik)
    if t.is_empty():
        return []
    days = t.group_by("transaction_date", "side").agg(
        pl.col("shares").sum(), pl.col("line_value").sum(), pl.len().alias("lines"),
        pl.col("owner_names").explode().unique().sort().str.join("; ")).sort("transaction_date", "side")
    return [Bar(r["transaction_date"], r["side"], float(r["shares"]),
                f"{r['transaction_date']} {r['side']}: {float(r['shares']):,.0f} shares in {r['lines']} lines"
                f" ({compact(_v(r['line_value']), 'USD')}) by {r['owner_names']}") for r in days.iter_rows(named=True)]


def _insider_section(wh: Warehouse, cik: int) -> str:
    bars = trade_bars(wh, cik)
    return ('<section id="insiders"><h2>Insider open-market activity</h2>'
            '<p class="meta">Form 4 purchases (code P, up) and sales (code S, down), shares per day;'
            ' amendments applied.</p>' + trades_chart(bars, "insider open-market purchases and sales") + "</section>")


def filing_marks(wh: Warehouse, cik: int) -> list[Mark]:
    """One mark per filing of the company, in its form's lane."""
    f = wh.filings(cik)
    return [Mark(r["filing_date"], _lane(r["form"]), f"{r['form']} {r['accession']} filed {r['filing_date']}",
                 r["index_url"]) for r in f.iter_rows(named=True) if r["filing_date"] is not None]


def _filings_section(wh: Warehouse, cik: int) -> str:
    marks = filing_marks(wh, cik)
    counts = Counter(m.lane for m in marks)
    summary = ", ".join(f"{lane}: {counts[lane]}" for lane in LANES if counts[lane])
    rows = [[str(r["filing_date"]), escape(r["form"] or ""),
             f'<a href="{escape(r["index_url"])}">{escape(r["accession"])}</a>' if r["index_url"]
             else escape(r["accession"]), escape(r["primary_doc_description"] or "")]
            for r in wh.filings(cik).head(15).iter_rows(named=True)]
    return ('<section id="filings"><h2>Filing timeline</h2>'
            f'<p class="meta">{len(marks)} filings ({escape(summary) or "none"}); the 15 latest below.</p>'
            + timeline_chart(marks, LANES, "filing timeline")
            + (_table(["filed", "form", "accession", "document"], rows) if rows else "") + "</section>")


def _text_section(wh: Warehouse, cik: int) -> str:
    """The latest 10-K held: its items folded, each opening on its first paragraphs ("" when none is held)."""
    latest = wh.sql(sql("read/report/latest_10k"), [cik])
    if not latest.height:
        return ""
    doc = latest.row(0, named=True)
    items = []
    for r in wh.sections(doc["accession"]).iter_rows(named=True):
        flags = f' <span class="meta">[{escape(", ".join(r["flags"]))}]</span>' if r["flags"] else ""
        text = r["text"] if len(r["text"]) <= 1500 else r["text"][:1500].rsplit(" ", 1)[0] + " …"
        items.append(f'<details><summary>{escape(r["heading"])}{flags}</summary>'
                     f'<p>{escape(text).replace(chr(10), "<br>")}</p>'
                     f'<p class="meta">{len(r["text"]):,} characters · bytes {r["byte_start"]:,}-{r["byte_end"]:,}'
                     "</p></details>")
    return (f'<section id="text"><h2>Latest 10-K: {escape(doc["form"])} {escape(doc["accession"])}'
            f'{" filed " + str(doc["filed"]) if doc["filed"] else ""}</h2>'
            f'<p class="meta"><a href="{escape(doc["document_url"])}">the document on sec.gov</a>; '
            f"{len(items)} items, folded.</p>" + "".join(items) + "</section>")


def render_report(wh: Warehouse, company: int | str, concept: str | None = None) -> str:
    """The whole page as one HTML string (UTF-8, no scripts, nothing fetched)."""
    cik = wh.cik(company)
    found = wh.sql("SELECT name, tickers, fiscal_year_end, sic_description FROM companies WHERE cik = ?", [cik])
    info = found.row(0, named=True) if found.height else {}
    name = info.get("name") or f"CIK {cik}"
    concept = concept or default_concept(wh, cik)
    if concept:
        wh.facts(cik, concept)  # unknown concept: raises naming the closest ones
    data_time = wh.sql("SELECT max(known_from) AS t FROM fact_versions WHERE cik = ?", [cik])["t"][0]
    meta = " · ".join(x for x in (
        f"CIK {cik}", ", ".join(info.get("tickers") or []),
        f"fiscal year ends {info['fiscal_year_end']}" if info.get("fiscal_year_end") else "",
        info.get("sic_description") or "",
        f"data as of {data_time:%Y-%m-%d %H:%M} UTC" if data_time else "") if x)
    body = "".join((_history_section(wh, cik, concept) if concept else "", _metrics_section(wh, cik),
                    _insider_section(wh, cik), _filings_section(wh, cik), _text_section(wh, cik)))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f"<title>{escape(name)} — edgar-warehouse</title><style>{STYLE}</style></head>"
            f'<body><header><h1>{escape(name)}</h1><p class="meta">{escape(meta)}</p></header>{body}'
            '<footer><p class="meta">Generated by edgar-warehouse from SEC EDGAR data; hover a mark for its'
            " filing (accession, form, filed).</p></footer></body></html>\n")
