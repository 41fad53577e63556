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
    periods: dict[tuple, dict[str, Any]] = {}
    for start, end, unit, member, value, element_id, total, total_id in rows:
        p = periods.setdefault((start, end, unit), {"total": total, "total_element_id": total_id, "members": {}})
        p["members"].setdefault(member, (value, element_id))
    out = []
    for (start, end, unit), p in periods.items():
        values = {m: v for m, (v, _) in p["members"].items()}
        subtotals = _subtotals(values) if p["total"] is None or sum(values.values()) != p["total"] else set()
        parts = sum((v for m, v in values.items() if m not in subtotals), Decimal(0))
        gap = None if p["total"] is None else p["total"] - parts
        out.append({
            "period_start": str(start) if start else None, "period_end": str(end), "unit": unit,
            "total": _plain(p["total"]), "total_element_id": p["total_element_id"],
            "members": [{"member": m, "label": labels[m], "value": _plain(v), "element_id": e,
                         "subtotal": m in subtotals} for m, (v, e) in p["members"].items()],
            "members_sum": _plain(parts), "gap": _plain(gap), "sums_to_total": gap == 0,
            "note": None if gap == 0 else ("no consolidated total tagged for this period" if gap is None else
                                           f"the parts differ from the total by {_plain(gap)} (an untagged "
                                           "remainder: corporate, eliminations or other)"),
        })
    return {"accession": accession, "breakdown": name, "axis": axis, "concept": concept, "periods": out}


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")
