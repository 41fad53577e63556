"""Compare companies on one metric or standard concept for a fiscal year, with the warnings an
analyst needs: misaligned fiscal years (even where a value is missing), reporting currency and
convenience translations, matched tags of different scope."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

import duckdb

from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import MetricsError, resolve_name

#: Fiscal year ends further apart than this (in days) make a comparison warn.
MISALIGNED_DAYS = 45


def _rows(con: duckdb.DuckDBPyConnection, query: str, params: dict) -> list[dict]:
    cur = con.execute(query, params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def _is_currency(unit: str | None) -> bool:
    return bool(unit) and len(unit) == 3 and unit.isalpha() and unit.isupper()


def _reporting_choice(cands: list[dict]) -> tuple[dict, list[dict]]:
    """The value in the company's reporting currency (the unit most of its values of this name
    use; USD on a tie) and the other-currency values of the same period."""
    ranked = sorted(cands, key=lambda r: (-(r["unit_rows"] or 0), r["currency"] != "USD", r["unit"] or "",
                                          r["chain_rank"] or 0))
    best = ranked[0]
    others = [r for r in ranked[1:] if _is_currency(r["currency"]) and r["currency"] != best["currency"]
              and r["period_end"] == best["period_end"]]
    return best, others


def compare(con: duckdb.DuckDBPyConnection, metric_or_concept: str, ciks: Iterable[int], fiscal_year: int,
            fiscal_period: str = "FY", segment: str | None = None) -> list[dict[str, Any]]:
    """One row per company for ``fiscal_year``/``fiscal_period`` with the warnings that matter.

    ``metric_or_concept`` is a derived metric, a standard concept or a plain-English alias
    (``sales``, ``R&D``, ``FCF``); an unknown name raises UnknownMetricError with suggestions. A
    derived metric is read from derived_metrics_current, a standard concept from standard_facts
    (fiscal years: the annual value, or the instant at the year end; quarters: the discrete
    quarter). Each company's value is in its reporting currency (the currency most of its values
    use); another currency's value for the same period is named as a convenience translation.
    Each row: cik, name, metric, fiscal_year, fiscal_period, period_start, period_end, value, unit,
    currency, matched_tag, scope, accession(s), derivation, null_reason, fy_end, warnings.

    ``segment`` (a member's QName or readable name, e.g. ``Americas``) compares that segment's value of a
    standard concept (or prefixed XBRL concept) instead, read from filing_facts
    (warehouse.read.segments): each row also has axis, member, member_label and element_id.
    """
    cik_list = [int(c) for c in ciks]
    if not cik_list:
        raise MetricsError("compare needs at least one company")
    fp = fiscal_period.upper()
    if segment is not None:
        from warehouse.read.segments import segment_compare

        segment_rows = segment_compare(con, metric_or_concept, cik_list, segment, fiscal_year, fp)
        _add_warnings(segment_rows, fp)
        return segment_rows
    resolved = resolve_name(con, metric_or_concept)
    metric = resolved.name
    params = {"name": metric, "ciks": cik_list, "fy": int(fiscal_year), "fp": fp}
    query = sql("read/standard/compare_metric") if resolved.kind == "metric" else sql("read/standard/compare_concept")
    by_cik: dict[int, list[dict]] = {}
    for r in _rows(con, query, params):
        by_cik.setdefault(r["cik"], []).append(r)
    ends = {r["cik"]: r for r in _rows(con, sql("read/standard/compare_year_ends"), {"ciks": cik_list, "fy": int(fiscal_year)})}
    rows: list[dict[str, Any]] = []
    for cik in cik_list:
        name = ends.get(cik, {}).get("name")
        if cik not in by_cik:
            rows.append({"cik": cik, "name": name, "metric": metric, "fiscal_year": fiscal_year,
                         "fiscal_period": fp, "period_start": None, "period_end": None, "value": None,
                         "unit": None, "currency": None, "matched_tag": None, "scope": None, "accession": None,
                         "derivation": None, "null_reason": "no value for this fiscal period",
                         "fy_end": ends.get(cik, {}).get("fy_end"), "fy_end_source": ends.get(cik, {}).get("fy_end_source"),
                         "warnings": [f"{cik}: no {metric} for FY{fiscal_year} {fp}"]})
            continue
        best, others = _reporting_choice(by_cik[cik])
        row = {"cik": cik, "name": name, "metric": metric, **{k: v for k, v in best.items() if k != "unit_rows"},
               "fy_end": ends.get(cik, {}).get("fy_end"), "fy_end_source": ends.get(cik, {}).get("fy_end_source"),
               "warnings": []}
        for o in others:
            row["warnings"].append(
                f"{cik}: reports {metric} in {best['currency']}; its {o['currency']} value {o['value']} for the same"
                f" period is a convenience translation (not used)")
        rows.append(row)
    if resolved.asked != metric:
        for r in rows:
            r["warnings"].append(f"{resolved.asked!r} read as {metric}")
    _add_warnings(rows, fp)
    return rows


def _year_end(r: dict[str, Any], fp: str) -> date | None:
    if r["period_end"] is not None and (fp != "FY" or r.get("duration_class") in ("annual", "instant")):
        return r["period_end"]
    return r.get("fy_end") if fp == "FY" else None


def _add_warnings(rows: list[dict[str, Any]], fp: str) -> None:
    dated = [(r, _year_end(r, fp)) for r in rows]
    dated = [(r, d) for r, d in dated if d is not None]
    if len(dated) > 1:
        spread = (max(d for _, d in dated) - min(d for _, d in dated)).days
        if spread > MISALIGNED_DAYS:
            detail = ", ".join(
                f"{r['cik']} ends {d}" + ("" if r["value"] is not None else f" (no value; from {r.get('fy_end_source')})")
                for r, d in dated)
            for r in rows:
                r["warnings"].append(f"period ends differ by {spread} days (> {MISALIGNED_DAYS}): {detail}")
    present = [r for r in rows if r["period_end"] is not None]
    tags = {r["matched_tag"] for r in present}
    if len(tags) > 1:
        detail = ", ".join(f"{r['cik']} {r['matched_tag']}" for r in present)
        for r in present:
            r["warnings"].append(f"matched tags differ: {detail}")
    scopes = {r.get("scope") for r in present if r.get("scope")}
    if len(scopes) > 1:
        detail = ", ".join(f"{r['cik']} {r['matched_tag']} ({r.get('scope')})" for r in present)
        for r in present:
            r["warnings"].append(f"matched tags differ in scope: {detail}")
    currencies = {r["currency"] for r in present}
    if len(currencies) > 1:
        detail = ", ".join(f"{r['cik']} {r['currency']}" for r in present)
        for r in present:
            r["warnings"].append(f"currencies differ: {detail}")
    for r in present:
        if r["value"] is None:
            r["warnings"].append(f"{r['cik']}: value is NULL ({r.get('null_reason') or 'no reason given'})")

