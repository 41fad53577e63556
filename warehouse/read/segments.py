"""A company's segment over time: one member of a breakdown axis (named by its QName or its readable
name, e.g. ``Data Center``, ``iPhone``, ``Americas``) read from filing_facts across its filings, by fiscal
period, and the segment forms of ``growth`` and ``compare`` (``segment=`` in warehouse.read.growth and
warehouse.read.compare)."""

from __future__ import annotations

from typing import Any

import duckdb

from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import resolve_name
from warehouse.store.db import WarehouseError

#: Duration in days of a fiscal year's and a quarter's value (duration_class_of's annual and quarter).
_DURATIONS = {"FY": (350, 380), "Q": (80, 100)}


class SegmentNotFound(WarehouseError, LookupError):
    """No member of that name among the company's filing facts, or a name that fits several members."""


def _rows(con: duckdb.DuckDBPyConnection, query: str, params: dict) -> list[dict[str, Any]]:
    cur = con.execute(query, params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def segment_values(con: duckdb.DuckDBPyConnection, cik: int, segment: str, concept: str = "revenue") -> list[dict[str, Any]]:
    """Every period's value of ``concept`` (a standard concept or alias, or a prefixed XBRL concept) for the
    member ``segment`` of one company, as the latest filing reporting the period says, with its receipt
    (accession, element_id) and fiscal year/period; SegmentNotFound when no member (or several) fits."""
    name = concept if ":" in concept else resolve_name(con, concept, concepts_only=True).name
    found = _rows(con, sql("read/api/segment_values"), {"cik": int(cik), "segment": segment.strip(), "concept": name})
    members = sorted({(r["axis"], r["member"]) for r in found})
    if not members:
        raise SegmentNotFound(f"company {cik} has no {name} facts for a member named {segment!r} in filing_facts "
                              "(load its 10-K/10-Q documents; ask get_breakdown for the members' names)")
    if len(members) > 1:
        raise SegmentNotFound(f"{segment!r} names {len(members)} members of company {cik}: "
                              + ", ".join(f"{m} on {a}" for a, m in members) + "; ask for one by its QName")
    return found


def value_in(values: list[dict[str, Any]], fiscal_year: int, fiscal_period: str = "FY") -> dict[str, Any] | None:
    """The value of fiscal_year/fiscal_period among ``segment_values`` rows (an annual duration for FY, a
    quarter for Q1..Q4), or None."""
    fp = fiscal_period.upper()
    low, high = _DURATIONS["FY" if fp == "FY" else "Q"]
    for r in values:
        if r["fiscal_year"] == fiscal_year and r["fiscal_period"] == fp and r["duration_days"] is not None \
                and low <= r["duration_days"] <= high:
            return r
    return None


def segment_growth(con: duckdb.DuckDBPyConnection, concept: str, cik: int, segment: str, from_fiscal_year: int,
                   to_fiscal_year: int, fiscal_period: str = "FY") -> dict[str, Any]:
    """Growth of one segment between two fiscal years, as ``growth`` gives it for a consolidated concept
    (``to / from - 1``; value None with a null_reason when a side is missing or the earlier is not positive)."""
    values = segment_values(con, cik, segment, concept)
    old, new = value_in(values, from_fiscal_year, fiscal_period), value_in(values, to_fiscal_year, fiscal_period)
    member = values[0]
    out: dict[str, Any] = {
        "cik": cik, "concept": new["concept"] if new else old["concept"] if old else member["concept"],
        "segment": member["member_label"], "axis": member["axis"], "member": member["member"],
        "from_fiscal_year": from_fiscal_year, "to_fiscal_year": to_fiscal_year, "fiscal_period": fiscal_period.upper(),
        "value": None, "null_reason": None, "warnings": []}
    for side, r in (("from", old), ("to", new)):
        out.update({f"{side}_{k}": (r or {}).get(k) for k in ("value", "period_start", "period_end", "accession",
                                                               "element_id", "unit")})
    if old is None or new is None:
        missing = [str(y) for y, r in ((from_fiscal_year, old), (to_fiscal_year, new)) if r is None]
        out["null_reason"] = f"no {fiscal_period.upper()} value of the segment for fiscal year {', '.join(missing)}"
    elif old["unit"] != new["unit"]:
        out["null_reason"] = f"units differ: {old['unit']} vs {new['unit']}"
    elif old["value"] <= 0:
        out["null_reason"] = "earlier value is zero" if old["value"] == 0 else "earlier value is negative"
    else:
        out["value"] = round(new["value"] / old["value"] - 1, 10)
        out["unit"] = new["unit"]
    if old and new and old["concept"] != new["concept"]:
        out["warnings"].append(f"matched tags differ: {old['concept']} -> {new['concept']}")
    return out


def segment_compare(con: duckdb.DuckDBPyConnection, concept: str, ciks: list[int], segment: str, fiscal_year: int,
                    fiscal_period: str = "FY") -> list[dict[str, Any]]:
    """One row per company: its value of the segment in fiscal_year/fiscal_period (compare's row, plus
    axis, member, member_label and element_id), or a row with a null_reason when it has none."""
    ends = {r["cik"]: r for r in _rows(con, sql("read/standard/compare_year_ends"),
                                      {"ciks": [int(c) for c in ciks], "fy": int(fiscal_year)})}
    rows = []
    for cik in ciks:
        base: dict[str, Any] = {"cik": cik, "name": ends.get(cik, {}).get("name"), "metric": concept, "fiscal_year": fiscal_year,
                "fiscal_period": fiscal_period.upper(), "fy_end": ends.get(cik, {}).get("fy_end"),
                "fy_end_source": ends.get(cik, {}).get("fy_end_source"), "derivation": "reported", "warnings": []}
        try:
            found = value_in(segment_values(con, cik, segment, concept), fiscal_year, fiscal_period)
        except SegmentNotFound as exc:
            found, reason = None, str(exc)
        else:
            reason = f"no {fiscal_period.upper()} {fiscal_year} value of the segment {segment!r}"
        if found is None:
            rows.append({**base, "period_start": None, "period_end": None, "value": None, "unit": None,
                         "currency": None, "matched_tag": None, "scope": None, "accession": None,
                         "axis": None, "member": None, "member_label": None, "element_id": None,
                         "null_reason": reason, "warnings": [f"{cik}: {reason}"]})
            continue
        unit = found["unit"]
        rows.append({**base, **{k: found[k] for k in ("period_start", "period_end", "value", "unit", "accession", "axis",
                                                      "member", "member_label", "element_id")},
                     "currency": unit if unit and len(unit) == 3 and unit.isupper() else None,
                     "matched_tag": found["concept"], "scope": "segment", "null_reason": None})
    return rows
