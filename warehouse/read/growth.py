"""Growth of a standard concept between any two fiscal years of one company, as a fraction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import duckdb

from warehouse.schema.sql_files import sql
from warehouse.schema.vocabulary import MetricsError, resolve_name

#: Reads standard_facts_as_of far in the future when no as_of is given: that is standard_facts.
_NOW = datetime(9999, 12, 31)


def growth(con: duckdb.DuckDBPyConnection, concept: str, cik: int, from_fiscal_year: int, to_fiscal_year: int,
           fiscal_period: str = "FY", as_of: datetime | None = None, segment: str | None = None) -> dict[str, Any]:
    """Growth of a standard concept (name or alias) between two fiscal years (any distance).

    ``to / from - 1`` over standard_facts_as_of(as_of) (default: current); both values must share
    unit and taxonomy, the earlier must be positive, else value is None with a null_reason.
    Returns value, from/to values, periods, accessions, matched tags, unit, null_reason, warnings.
    ``segment`` (a member's QName or readable name, e.g. ``Data Center``) gives that segment's growth,
    read from filing_facts (warehouse.read.segments; as_of does not apply: it is the filings' latest word).
    """
    if segment is not None:
        from warehouse.read.segments import segment_growth

        if as_of is not None:
            raise MetricsError("growth of a segment reads the filings as filed: as_of is not supported")
        return segment_growth(con, concept, cik, segment, from_fiscal_year, to_fiscal_year, fiscal_period)
    name = resolve_name(con, concept, concepts_only=True).name
    params: dict[str, Any] = {"concept": name, "cik": int(cik), "fy_from": int(from_fiscal_year),
                              "fy_to": int(to_fiscal_year), "fp": fiscal_period.upper(), "as_of": as_of or _NOW}
    cur = con.execute(sql("read/standard/growth_between"), params)
    cols = [d[0] for d in cur.description]
    rows = [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    if not rows:
        return {"cik": cik, "concept": name, "value": None, "from_fiscal_year": from_fiscal_year,
                "to_fiscal_year": to_fiscal_year, "null_reason": "no comparable values for both years",
                "warnings": []}
    row = rows[0]
    warnings = []
    if row["from_matched_tag"] != row["to_matched_tag"]:
        warnings.append(f"matched tags differ: {row['from_matched_tag']} -> {row['to_matched_tag']}")
    if row["from_duration_days"] is not None and row["to_duration_days"] is not None \
            and abs(row["from_duration_days"] - row["to_duration_days"]) > 3:
        warnings.append(f"period lengths differ: {row['from_duration_days']} vs {row['to_duration_days']} days")
    row["warnings"] = warnings
    return row
