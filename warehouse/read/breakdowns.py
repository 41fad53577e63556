"""Standard breakdowns of a filing's facts (revenue by business segment, by product or service, by
geography) from filing_facts' dimensions, the members' sum checked against the consolidated total.

A member that is the sum of other members of the same axis (Apple's ProductMember = iPhone + Mac + iPad
+ Wearables) is a subtotal, not a part: it is set aside (``subtotals``) before the sum is checked, so
the parts are counted once. Any difference left between the parts and the total is named (``gap``).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations
from typing import Any

import duckdb

from warehouse.schema.sql_files import sql
from warehouse.store.db import WarehouseError, fetch_all

BREAKDOWNS = {
    "business_segment": "us-gaap:StatementBusinessSegmentsAxis",
    "product_or_service": "srt:ProductOrServiceAxis",
    "geography": "srt:StatementGeographicalAxis",
}
REVENUE = ("us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "us-gaap:Revenues",
           "us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax", "us-gaap:SalesRevenueNet")
_MAX_SUBSET = 12  # members tried for subtotals (2**12 subsets)


class BreakdownNotFound(WarehouseError, LookupError):
    """An unknown breakdown name, or a filing whose facts carry no such breakdown."""


def _labels(con: duckdb.DuckDBPyConnection, accession: str, axis: str) -> dict[str, str]:
    """Member -> its readable name (filing_fact_members: the document's label, else made from the QName)."""
    found = fetch_all(con, sql("read/api/breakdown_labels"), {"accession": accession, "axis": axis})
    return {m: label for m, label in found}


def _subtotals(values: dict[str, Decimal]) -> set[str]:
    """Members whose value is the sum of two or more other members' values."""
    members = sorted(values, key=lambda m: -abs(values[m]))[:_MAX_SUBSET]
    out: set[str] = set()
    for m in members:
        others = [o for o in members if o != m and o not in out]
        if any(sum(values[o] for o in combo) == values[m]
               for n in range(2, len(others) + 1) for combo in combinations(others, n)):
            out.add(m)
    return out


def breakdown(con: duckdb.DuckDBPyConnection, accession: str, name: str, concept: str | None = None) -> dict[str, Any]:
    """``{"accession", "breakdown", "axis", "concept", "periods": [{"period_start", "period_end", "unit",
    "total", "total_element_id", "members": [{"member", "label", "value", "element_id"}], "subtotals",
    "members_sum", "gap", "sums_to_total"}]}``; values are strings (exact decimals)."""
    axis = BREAKDOWNS.get(name)
    if axis is None:
        raise BreakdownNotFound(f"unknown breakdown {name!r}: one of {', '.join(BREAKDOWNS)}")
    for candidate in ([concept] if concept else REVENUE):
        rows = fetch_all(con, sql("read/api/breakdown"), {"accession": accession, "axis": axis, "concept": candidate})
        if rows:
            concept = candidate
            break
    else:
        raise BreakdownNotFound(f"filing {accession} has no {name} breakdown of {concept or 'revenue'} in filing_facts")
    labels = _labels(con, accession, axis)
    reconciling: dict[tuple, list[dict[str, Any]]] = {}
    if name == "business_segment":
        for start, end, unit, member, label, value, decimals, element_id in fetch_all(
                con, sql("read/api/breakdown_reconciling"), {"accession": accession, "concept": concept}):
            reconciling.setdefault((start, end, unit), []).append(
                {"member": member, "label": label, "value": value, "decimals": decimals, "element_id": element_id})
    periods: dict[tuple, dict[str, Any]] = {}
    for start, end, unit, member, value, element_id, total, total_id, decimals, total_decimals in rows:
        p = periods.setdefault((start, end, unit), {"total": total, "total_element_id": total_id,
                                                    "total_decimals": total_decimals, "members": {}})
        p["members"].setdefault(member, (value, element_id, decimals))
    out = []
    for (start, end, unit), p in periods.items():
        values = {m: v for m, (v, _, _) in p["members"].items()}
        subtotals = _subtotals(values) if p["total"] is None or sum(values.values()) != p["total"] else set()
        parts = sum((v for m, v in values.items() if m not in subtotals), Decimal(0))
        gap = None if p["total"] is None else p["total"] - parts
        items = reconciling.get((start, end, unit), []) if gap else []
        residual = None if gap is None else gap - sum((r["value"] for r in items), Decimal(0))
        # each value is rounded to its decimals: the sum may miss the total by half a unit of each
        tolerance = sum((_half_unit(d) for m, (_, _, d) in p["members"].items() if m not in subtotals),
                        _half_unit(p["total_decimals"])) + sum((_half_unit(r["decimals"]) for r in items), Decimal(0))
        explained = [] if not residual or abs(residual) <= tolerance else [
            {"concept": c, "value": _plain(v), "element_id": e, "label": lab} for c, v, e, lab in fetch_all(
                con, sql("read/api/breakdown_gap_facts"), {"accession": accession, "concept": concept, "unit": unit,
                                                            "period_start": start, "period_end": end, "gap": residual})]
        adds_up = residual is not None and (abs(residual) <= tolerance or bool(explained))
        out.append({
            "period_start": str(start) if start else None, "period_end": str(end), "unit": unit,
            "total": _plain(p["total"]), "total_element_id": p["total_element_id"],
            "members": [{"member": m, "label": labels[m], "value": _plain(v), "element_id": e,
                         "subtotal": m in subtotals} for m, (v, e, _) in p["members"].items()],
            "members_sum": _plain(parts), "gap": _plain(gap), "sums_to_total": gap == 0,
            "reconciling": [{k: _plain(v) if k == "value" else v for k, v in r.items() if k != "decimals"} for r in items],
            "residual": _plain(residual), "rounding": _plain(tolerance), "explained_by": explained, "adds_up": adds_up,
            "note": _note(gap, residual, tolerance, items, explained),
        })
    return {"accession": accession, "breakdown": name, "axis": axis, "concept": concept, "periods": out}


def _half_unit(decimals: str | None) -> Decimal:
    """Half a unit of the last digit a value's decimals give (decimals -6: 500000); 0 when exact (INF)."""
    if decimals is None or not decimals.lstrip("-").isdigit():
        return Decimal(0)
    return Decimal(5).scaleb(-int(decimals) - 1)


def _note(gap: Decimal | None, residual: Decimal | None, tolerance: Decimal, items: list[dict[str, Any]],
          explained: list[dict[str, Any]]) -> str | None:
    """The gap named: 0, no total, the filing's reconciling items, another fact of that value, rounding, or untagged."""
    if gap == 0:
        return None
    if gap is None or residual is None:
        return "no consolidated total tagged for this period"
    said = f"the parts differ from the total by {_plain(gap)}"
    if items:
        said += " (reconciling items the filing tags: " + ", ".join(
            f"{r['label']} {_plain(r['value'])}" for r in items) + f"; {_plain(residual)} left)"
    if residual == 0:
        return said
    if abs(residual) <= tolerance:
        return f"{said}, within the rounding of the values (at most {_plain(tolerance)})"
    if explained:
        return f"{said}: the value of " + " or ".join(
            e["concept"] + (f" ({e['label']!r})" if e["label"] else "") for e in explained) + " in the same period"
    return f"{said} (an untagged remainder: corporate, eliminations or other)"


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")
