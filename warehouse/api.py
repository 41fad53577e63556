"""Notebook API: the warehouse as Polars DataFrames, through a read-only, sandboxed connection.

    from warehouse.api import open_warehouse
    with open_warehouse("edgar.duckdb") as wh:
        wh.facts("AAPL", "RevenueFromContractWithCustomerExcludingAssessedTax")
        wh.metrics("NVDA", "free_cash_flow", as_of="2024-06-01")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl

from warehouse.db import WarehouseError, default_db_path, reader
from warehouse.queries import QueryError
from warehouse.sqlfiles import sql


class Warehouse:
    """Read-side handle. Every method returns a Polars DataFrame whose rows carry their receipt
    (cik, concept or metric, unit, period, accession, form, filed/known_from)."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con

    def sql(self, query: str, params: dict | list | None = None) -> pl.DataFrame:
        try:
            return self.con.execute(query, params or []).pl()
        except duckdb.Error as exc:
            raise QueryError(f"{type(exc).__name__}: {exc}") from exc

    def cik(self, company: int | str) -> int:
        """A CIK, or a ticker/name the registry resolves without guessing."""
        if isinstance(company, int):
            return company
        from warehouse.registry_resolve import resolve

        r = resolve(self.con, company)
        if not r.resolved:
            raise WarehouseError(r.message)
        return r.cik

    def facts(self, company: int | str, concept: str | None = None, *,
              as_of: datetime | str | None = None) -> pl.DataFrame:
        """Latest version of each fact, or the version public at ``as_of``."""
        return self.sql(sql("api/facts"), {"cik": self.cik(company), "concept": concept, "as_of": as_of})

    def restatements(self, company: int | str, concept: str | None = None) -> pl.DataFrame:
        return self.sql(sql("api/restatements"), {"cik": self.cik(company), "concept": concept})

    def metrics(self, company: int | str, metric: str | None = None, *,
                as_of: datetime | str | None = None) -> pl.DataFrame:
        """Derived metrics (current versions, or as known at ``as_of``); fractions for ratios."""
        return self.sql(sql("api/metrics"), {"cik": self.cik(company), "metric": metric, "as_of": as_of})

    def lineage(self, metric_id: str) -> pl.DataFrame:
        """The exact fact versions (or metrics) a derived metric was computed from."""
        return self.sql(sql("api/lineage"), {"metric_id": metric_id})

    def insider_trades(self, company: int | str) -> pl.DataFrame:
        """Open-market purchases (P) and sales (S) of an issuer, with owner names and roles."""
        return self.sql(sql("api/insider_trades"), {"cik": self.cik(company)})

    def compare(self, metric_or_concept: str, companies: list[int | str], fiscal_year: int,
                fiscal_period: str = "FY") -> pl.DataFrame:
        """One row per company, with a ``warnings`` list (misaligned periods, tags, currencies)."""
        from warehouse.compare import compare

        rows = compare(self.con, metric_or_concept, [self.cik(c) for c in companies], fiscal_year, fiscal_period)
        return pl.DataFrame(rows, infer_schema_length=None)


@contextmanager
def open_warehouse(path: str | Path | None = None) -> Iterator[Warehouse]:
    """The published warehouse, read-only and sandboxed; never waits for (or blocks) a refresh."""
    with reader(path or default_db_path()) as con:
        yield Warehouse(con)
