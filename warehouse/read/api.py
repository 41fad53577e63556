"""Notebook API: the warehouse as Polars DataFrames, through a read-only, sandboxed connection.

It fails loudly: an unknown company, concept, standard concept, metric or check raises
:class:`UnknownNameError` naming the closest matches; it never returns an empty frame for a typo.

Frames follow one convention whatever the method:

* every integer column is ``Int64`` (CIKs included: ``cik``, ``issuer_cik``, ``owner_ciks``);
* every timestamp is time-zone aware, ``Datetime("us", "UTC")`` (``known_from``, ``acceptance_time``);
* exact values stay exact: every decimal column is ``Decimal(38, 10)``;
* dates are ``Date``.

>>> wh = open_warehouse(path)          # or: with open_warehouse(path) as wh: ...
>>> wh.facts("AAPL", "SalesRevenueNet", fiscal_year=2009, fiscal_period="FY")["value"].to_list()
[Decimal('42905000000.0000000000')]
>>> wh.close()
"""

from __future__ import annotations

import difflib
from datetime import date, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from warehouse.read.queries import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT, QueryError, lineage_params, run_arrow
from warehouse.schema.sql_files import sql
from warehouse.store.db import WarehouseError, close, connect, default_db_path, fetch_all
from warehouse.store.publish import published_path_for

DECIMAL = pl.Decimal(38, 10)
UTC_TIME = pl.Datetime("us", "UTC")


class UnknownNameError(WarehouseError, LookupError):
    """A company, concept, metric or check the warehouse does not know; ``suggestions`` holds the
    closest names it does know (possibly empty)."""

    def __init__(self, kind: str, name: object, suggestions: list[str], hint: str = ""):
        self.kind, self.name, self.suggestions, self.hint = kind, name, suggestions, hint
        closest = f"; closest: {', '.join(suggestions)}" if suggestions else "; nothing close"
        super().__init__(f"unknown {kind} {name!r}{closest}{hint}")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # crosses a process boundary whole (pickled with its arguments)
        return type(self), (self.kind, self.name, self.suggestions, self.hint)


def _closest(name: str, known: list[str], n: int = 5) -> list[str]:
    """Closest names, case-insensitively (``Revenue`` finds ``Revenues``)."""
    by_lower: dict[str, str] = {}
    for k in known:
        by_lower.setdefault(k.lower(), k)
    hits = difflib.get_close_matches(name.lower(), list(by_lower), n=n, cutoff=0.6)
    # then the names that contain what was asked (``balance`` -> balance_sheet_identity)
    hits += [k for k in by_lower if name.lower() in k and k not in hits]
    return [by_lower[h] for h in hits[:n]]


# Frames built from Python rows (compare, growth, checks) have no SQL types: an all-NULL column
# comes out as Null. These columns get their SQL type; any other all-NULL column becomes String.
_NULL_AS = {"value": DECIMAL, "from_value": DECIMAL, "to_value": DECIMAL, "period_start": pl.Date,
            "period_end": pl.Date, "from_period_end": pl.Date, "to_period_end": pl.Date, "filed": pl.Date}


def _normalise(dtype: pl.DataType) -> pl.DataType:
    if dtype.is_integer():
        return pl.Int64
    if isinstance(dtype, pl.Datetime):
        return UTC_TIME
    if isinstance(dtype, pl.Decimal):
        return DECIMAL
    if isinstance(dtype, pl.List):
        return pl.List(pl.String if dtype.inner == pl.Null else _normalise(dtype.inner))
    if isinstance(dtype, pl.Struct):
        return pl.Struct({f.name: _normalise(f.dtype) for f in dtype.fields})
    return dtype


def _frame(df: pl.DataFrame) -> pl.DataFrame:
    """One dtype per kind of column across every method (see the module docstring)."""
    casts = []
    for name, dtype in df.schema.items():
        want = _NULL_AS.get(name, pl.String) if dtype == pl.Null else _normalise(dtype)
        if want == dtype:
            continue
        col = pl.col(name)
        if isinstance(dtype, pl.Datetime) and dtype.time_zone is None:
            col = col.dt.replace_time_zone("UTC")  # the warehouse stores UTC wall-clock time
        casts.append(col.cast(want).alias(name))
    return df.with_columns(casts) if casts else df


def _when(ts: datetime | date | str | None) -> datetime | str | None:
    """As-of instants: naive or ISO text = UTC; aware datetimes are converted to UTC."""
    if isinstance(ts, datetime) and ts.tzinfo is not None:
        from datetime import UTC

        return ts.astimezone(UTC).replace(tzinfo=None)
    return ts


class Warehouse:
    """Read-side handle; every method returns a Polars DataFrame whose rows carry their receipt
    (cik, concept or metric, unit, period, accession, form, filed, known_from).

    Use it with ``with`` or call :meth:`close` yourself:

    >>> with open_warehouse(path) as wh:
    ...     wh.cik("AAPL")
    320193
    >>> wh.closed
    True
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path | None = None):
        self.con = con
        self.path = path
        self.closed = False

    # -- lifetime -------------------------------------------------------------------------------
    def close(self) -> None:
        """Close the connection (idempotent). Later calls raise WarehouseError.

        >>> wh = open_warehouse(path); wh.close(); wh.close()
        >>> wh.closed
        True
        """
        if not self.closed:
            close(self.con)
            self.closed = True

    def __enter__(self) -> Warehouse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Warehouse {self.path} {'closed' if self.closed else 'open'}>"

    # -- plumbing -------------------------------------------------------------------------------
    def sql(self, query: str, params: dict | list | None = None, *, timeout: float | None = DEFAULT_TIMEOUT,
            max_rows: int | None = DEFAULT_MAX_ROWS) -> pl.DataFrame:
        """Run ONE statement that only reads, as the CLI's `sql` and the agents' `query` do
        (``warehouse.read.queries.admit``; the connection is sandboxed: no file or network access):
        stopped after ``timeout`` seconds, a QueryError when it has more than ``max_rows`` rows
        (None: no limit).

        >>> wh = open_warehouse(path)
        >>> wh.sql("SELECT count(DISTINCT cik) AS companies FROM facts")["companies"].to_list()
        [2]
        """
        self._check_open()
        return _frame(pl.from_arrow(run_arrow(self.con, query, params, timeout=timeout, max_rows=max_rows)))

    def _sql(self, query: str, params: dict | list | None = None) -> pl.DataFrame:
        """Our own SQL (a shipped query file): no statement check, no limits."""
        self._check_open()
        try:
            return _frame(pl.from_arrow(self.con.execute(query, params or []).to_arrow_table()))
        except duckdb.Error as exc:
            raise QueryError(f"{type(exc).__name__}: {exc}") from exc

    def _check_open(self) -> None:
        if self.closed:
            raise WarehouseError("this Warehouse is closed; open_warehouse() again")

    def _column(self, query: str, params: list | dict | None = None) -> list:
        return [r[0] for r in fetch_all(self.con, query, params)]

    def cik(self, company: int | str) -> int:
        """The CIK of a company the warehouse holds: a CIK, a ticker or a name (resolved, never guessed).

        >>> wh = open_warehouse(path)
        >>> wh.cik("AAPL"), wh.cik(1045810), wh.cik("0000320193")
        (320193, 1045810, 320193)
        >>> wh.cik("APPL")
        Traceback (most recent call last):
        ...
        warehouse.read.api.UnknownNameError: unknown company 'APPL'; closest: Apple Inc. (AAPL), ...
        """
        self._check_open()
        if isinstance(company, int) or (isinstance(company, str) and company.strip().isdigit()):
            cik = int(company)
            if self._holds(cik):
                return cik
            held = self._column("SELECT count(*) FROM (SELECT cik FROM companies UNION SELECT DISTINCT cik FROM facts)")[0]
            raise UnknownNameError("company", company, [], f"; no CIK {cik} in this warehouse"
                                   f" (it holds {held} companies: companies())")
        exact = self._column("SELECT cik FROM companies WHERE list_contains(tickers, upper(trim(?)))", [company])
        if len(exact) == 1:  # the company's own ticker, as its submissions list it: no ranking needed
            return exact[0]
        from warehouse.read.resolve import resolve

        r = resolve(self.con, company)
        if r.resolved and self._holds(r.cik):
            return r.cik
        if r.resolved:
            raise UnknownNameError("company", company, [], f"; it is CIK {r.cik} ({r.name}), which this"
                                   " warehouse holds no data for")
        suggestions = [f"{c.name} ({', '.join(c.tickers) or c.cik})" for c in r.candidates[:5]]
        if not suggestions:
            names = {str(n): n for n in self._column(
                "SELECT name FROM companies UNION SELECT unnest(tickers) FROM companies"
                " UNION SELECT ticker FROM company_tickers WHERE cik IN (SELECT cik FROM companies)")
                if n}
            suggestions = _closest(company, list(names))
        raise UnknownNameError("company", company, suggestions, f" ({r.message})" if r.message else "")

    def _holds(self, cik: int) -> bool:
        """Whether the warehouse holds this company (in companies, or facts of it): read by key, so a
        call costs that company's row groups, never a scan of every fact."""
        return bool(self._column("SELECT EXISTS (SELECT 1 FROM companies WHERE cik = $cik)"
                                 " OR EXISTS (SELECT 1 FROM facts WHERE cik = $cik)", {"cik": cik})[0])

    def _concept(self, cik: int, concept: str | None) -> tuple[str | None, str | None]:
        """(taxonomy, concept) of an XBRL concept this company reported; ``us-gaap:Revenues`` accepted."""
        if concept is None:
            return None, None
        taxonomy, _, name = concept.rpartition(":")
        pairs = fetch_all(self.con, "SELECT DISTINCT taxonomy, concept FROM facts WHERE cik = ?", [cik])
        if any(c == name and (not taxonomy or t == taxonomy) for t, c in pairs):
            return taxonomy or None, name
        hint = ""
        if self._column("SELECT DISTINCT standard_concept FROM standard_concepts WHERE standard_concept = ?",
                        [concept]):
            hint = f"; {concept!r} is a standard concept: use standard_facts()"
        return_names = sorted({c for _, c in pairs})
        raise UnknownNameError(f"concept for CIK {cik}", concept, _closest(name, return_names), hint)

    def _tags(self, cik: int, concept: str | None) -> list[str] | None:
        """The ``taxonomy:Concept`` tags of an XBRL concept this company reported (each taxonomy that has
        it when none is named), as the MCP tools name tags; None: every concept."""
        taxonomy, name = self._concept(cik, concept)
        if name is None:
            return None
        if taxonomy is not None:
            return [f"{taxonomy}:{name}"]
        return self._column("SELECT DISTINCT taxonomy || ':' || concept FROM facts WHERE cik = ? AND concept = ?"
                            " ORDER BY 1", [cik, name])

    def _name(self, name: str, *, concepts_only: bool = False) -> str:
        """A metric or standard concept by name or alias (warehouse.schema.vocabulary's rules)."""
        from warehouse.schema.vocabulary import UnknownMetricError, resolve_name

        try:
            return resolve_name(self.con, name, concepts_only=concepts_only).name
        except UnknownMetricError as exc:
            raise UnknownNameError("standard concept" if concepts_only else "metric", name, exc.suggestions) from exc

    def _standard_concept(self, concept: str | None) -> str | None:
        return None if concept is None else self._name(concept, concepts_only=True)

    def _metric(self, metric: str | None) -> str | None:
        """A derived metric name (or alias); a standard concept's name gives its derived quarters."""
        if metric is None or self._column("SELECT EXISTS (SELECT 1 FROM derived_metrics WHERE metric = ?)", [metric])[0]:
            return metric
        return self._name(metric)

    @staticmethod
    def _period(fiscal_period: str | None) -> str | None:
        if fiscal_period is None:
            return None
        fp = fiscal_period.upper()
        if fp not in {"FY", "Q1", "Q2", "Q3", "Q4"}:
            raise UnknownNameError("fiscal period", fiscal_period, _closest(fp, ["FY", "Q1", "Q2", "Q3", "Q4"]))
        return fp

    # -- companies and filings ------------------------------------------------------------------
    def companies(self) -> pl.DataFrame:
        """Every company the warehouse holds: cik, name, tickers, exchanges, fiscal year end, SIC.

        >>> wh = open_warehouse(path)
        >>> wh.companies().select("cik", "name").rows()
        [(320193, 'Apple Inc.'), (1045810, 'NVIDIA CORP')]
        """
        return self._sql(sql("read/api/companies"))

    def filings(self, company: int | str, *, form: str | None = None,
                since: date | str | None = None) -> pl.DataFrame:
        """Filings of a company, newest first; ``form="10-K"`` includes its amendments (10-K/A), any
        case (``"10-k"``), as the MCP tool list_filings matches it (one file: read/api/filings.sql).

        >>> wh = open_warehouse(path)
        >>> wh.filings("AAPL", form="10-K", since="2024-01-01").select("accession", "form", "filing_date").rows()
        [('0000320193-25-000079', '10-K', datetime.date(2025, 10, 31)), ('0000320193-24-000123', '10-K', datetime.date(2024, 11, 1))]
        """
        cik = self.cik(company)
        found = self._sql(sql("read/api/filings"), {"cik": cik, "form": form, "since": since, "limit": None})
        if form is not None and found.height == 0:  # a form the company never filed, or a misspelt one
            forms = self._column("SELECT DISTINCT form FROM filings WHERE cik = ? ORDER BY 1", [cik])
            if form.upper() not in {f.upper() for f in forms} | {f.split("/")[0].upper() for f in forms}:
                raise UnknownNameError("form", form, _closest(form, forms), f" (forms CIK {cik} filed)")
        return found

    def statement(self, accession: str, statement: str) -> pl.DataFrame:
        """A filing's statement as presented (income, balance, cash_flow, equity, comprehensive): one row
        per printed line in printed order (label, concept, depth) with its cells (period, value as shown,
        fact value, element id and byte offset in the document: the receipt).

        >>> wh = open_warehouse(path)
        >>> income = wh.statement("0000320193-25-000079", "income")
        >>> income.select("label", "depth").head(4).rows()
        [('Net sales:', 0), ('Products', 1), ('Services', 1), ('Total net sales', 2)]
        >>> income.filter(pl.col("label") == "Total net sales")["cells"][0][0]["value"]
        Decimal('416161000000.0000000000')
        """
        from warehouse.read.presented import STATEMENTS

        if statement not in STATEMENTS:
            raise UnknownNameError("statement", statement, _closest(statement, list(STATEMENTS)))
        frame = self._sql(sql("read/api/statement"), {"accession": accession, "statement": statement})
        if frame.is_empty():
            printed = self._sql("SELECT statement FROM filing_statements WHERE accession = $accession",
                                {"accession": accession})["statement"].to_list()
            raise UnknownNameError(f"statement of filing {accession}", statement, printed,
                                   "" if printed else "; its inline-XBRL document is not loaded")
        return frame

    # -- facts ----------------------------------------------------------------------------------
    def facts(self, company: int | str, concept: str | None = None, *, as_of: datetime | str | None = None,
              fiscal_year: int | None = None, fiscal_period: str | None = None) -> pl.DataFrame:
        """Latest version of each fact (or the version public at ``as_of``, UTC) of an XBRL concept
        (``SalesRevenueNet`` or ``us-gaap:SalesRevenueNet``); fiscal year/period are the VALUE's own.

        >>> wh = open_warehouse(path)
        >>> before = wh.facts("AAPL", "SalesRevenueNet", as_of="2010-01-01", fiscal_year=2009, fiscal_period="FY")
        >>> before.select("value", "accession", "form").rows()
        [(Decimal('36537000000.0000000000'), '0001193125-09-214859', '10-K')]
        >>> wh.facts("AAPL", "Revenue")
        Traceback (most recent call last):
        ...
        warehouse.read.api.UnknownNameError: unknown concept for CIK 320193 'Revenue'; closest: Revenues, ...
        """
        cik = self.cik(company)
        return self._sql(sql("read/api/facts"), {"cik": cik, "tags": self._tags(cik, concept), "as_of": _when(as_of),
                                                 "fiscal_year": fiscal_year, "fiscal_period": self._period(fiscal_period)})

    def fact_versions(self, company: int | str, concept: str | None = None, *, fiscal_year: int | None = None,
                      fiscal_period: str | None = None) -> pl.DataFrame:
        """Every published version of each fact, in publication order (restatements visible:
        ``version_number``, ``versions``, ``prior_value``, ``changed_value``, ``restated``), the versions
        the MCP tool get_fact_history lists (one file: read/api/fact_versions.sql).

        >>> wh = open_warehouse(path)
        >>> v = wh.fact_versions("AAPL", "SalesRevenueNet", fiscal_year=2009, fiscal_period="FY")
        >>> v.filter(v["duration_class"] == "annual").select("version_number", "value", "form", "changed_value").rows()
        [(1, Decimal('36537000000.0000000000'), '10-K', False), (2, Decimal('42905000000.0000000000'), '10-K/A', True), (3, Decimal('42905000000.0000000000'), '10-K', False), (4, Decimal('42905000000.0000000000'), '10-K', False)]
        """
        cik = self.cik(company)
        return self._sql(sql("read/api/fact_versions"), {"cik": cik, "tags": self._tags(cik, concept), "as_of": None,
                                                         "fiscal_year": fiscal_year,
                                                         "fiscal_period": self._period(fiscal_period)})

    def restatements(self, company: int | str, concept: str | None = None, *,
                     fiscal_year: int | None = None) -> pl.DataFrame:
        """Changes of value between consecutive published versions, with ``change_kind``.

        >>> wh = open_warehouse(path)
        >>> r = wh.restatements("AAPL", "SalesRevenueNet", fiscal_year=2009)
        >>> r.filter(r["fiscal_period"] == "FY").select("old_value", "new_value", "new_form", "change_kind").row(0)
        (Decimal('36537000000.0000000000'), Decimal('42905000000.0000000000'), '10-K/A', 'amendment')
        """
        cik = self.cik(company)
        taxonomy, name = self._concept(cik, concept)
        return self._sql(sql("read/api/restatements"), {"cik": cik, "concept": name, "taxonomy": taxonomy,
                                                   "fiscal_year": fiscal_year})

    def standard_facts(self, company: int | str, concept: str | None = None, *,
                       as_of: datetime | str | None = None, fiscal_year: int | None = None,
                       fiscal_period: str | None = None) -> pl.DataFrame:
        """Standard concepts (``revenue``, ``net_income``, ...): the fallback chain applied per
        period, with ``matched_tag`` and ``tags_tried``; quarters may be derived (``derivation``).
        Each row carries the receipt the MCP tool get_facts gives (the same files:
        read/api/standard_facts_now.sql, read/api/standard_facts.sql with ``as_of``): the filing's
        acceptance time and the matched tag's versions, restated, prior and first value.

        >>> wh = open_warehouse(path)
        >>> wh.standard_facts("NVDA", "revenue", fiscal_year=2024, fiscal_period="FY").select(
        ...     "period_end", "value", "matched_tag").rows()
        [(datetime.date(2024, 1, 28), Decimal('60922000000.0000000000'), 'Revenues')]
        """
        name = self._standard_concept(concept)
        params = {"cik": self.cik(company), "concept": name, "fiscal_year": fiscal_year,
                  "fiscal_period": self._period(fiscal_period),
                  "chain_concepts": self._column(sql("read/api/chain_concepts"), {"concept": name})[0]}
        when = _when(as_of)
        if when is None:  # the stored rows, by company: a file of its own, so the as-of computation is never planned
            found = self._sql(sql("read/api/standard_facts_now"), params)
        else:
            found = self._sql(sql("read/api/standard_facts"), {**params, "as_of": when})
        if fiscal_year is not None and found.height == 0:
            self._known_fiscal_year(params["cik"], name, fiscal_year)
        return found

    def _known_fiscal_year(self, cik: int, concept: str | None, fiscal_year: int) -> None:
        """Raise UnknownNameError naming the fiscal years the company has (for ``concept``) when
        ``fiscal_year`` is not one of them; a year it has but without rows asked for is no error."""
        years = self._column("SELECT DISTINCT fiscal_year FROM standard_facts WHERE cik = $1"
                             " AND ($2 IS NULL OR standard_concept = $2) ORDER BY 1", [cik, concept])
        if fiscal_year not in years:
            what = f" of {concept}" if concept else ""
            have = f"fiscal years {years[0]}..{years[-1]}" if years else "no fiscal year at all"
            raise UnknownNameError("fiscal year", fiscal_year, [], f"; CIK {cik} has standard facts{what} for {have}")

    # -- derived metrics ------------------------------------------------------------------------
    def metrics(self, company: int | str, metric: str | None = None, *, as_of: datetime | str | None = None,
                fiscal_year: int | None = None, fiscal_period: str | None = None) -> pl.DataFrame:
        """Derived metrics (current versions, or as known at ``as_of``) with formula and rule
        version; margins and growth are fractions (0.2397 = 23.97 %).

        >>> wh = open_warehouse(path)
        >>> wh.metrics("AAPL", "free_cash_flow", fiscal_year=2025, fiscal_period="FY").select("value", "formula").rows()
        [(Decimal('98767000000.0000000000'), 'operating_cash_flow - capital_expenditure')]
        >>> wh.metrics("AAPL", "ebitdax")
        Traceback (most recent call last):
        ...
        warehouse.read.api.UnknownNameError: unknown metric 'ebitdax'; closest: ebitda...
        """
        return self._sql(sql("read/api/metrics"), {
            "cik": self.cik(company), "metric": self._metric(metric), "as_of": _when(as_of),
            "fiscal_year": fiscal_year, "fiscal_period": self._period(fiscal_period)})

    def lineage(self, metric_id: str) -> pl.DataFrame:
        """The exact fact versions (or metrics) a derived metric version was computed from.

        >>> wh = open_warehouse(path)
        >>> fcf = wh.metrics("AAPL", "free_cash_flow", fiscal_year=2025, fiscal_period="FY")
        >>> wh.lineage(fcf["metric_id"][0]).select("role", "accession").sort("role").rows()
        [('capital_expenditure', '0000320193-25-000079'), ('operating_cash_flow', '0000320193-25-000079')]
        """
        self._check_open()
        prefix = metric_id.partition("-")[0] if isinstance(metric_id, str) else ""
        cik = int(prefix, 16) if len(prefix) == 8 and all(c in "0123456789abcdef" for c in prefix) else None
        frame = self._sql(sql("read/api/lineage"), lineage_params(self.con, cik, [metric_id]))
        if frame.is_empty() and not self._column("SELECT 1 FROM derived_metrics WHERE metric_id = ?", [metric_id]):
            raise UnknownNameError("metric_id", metric_id, [], "; take one from metrics()['metric_id']")
        return frame

    def growth(self, company: int | str, concept: str, from_fiscal_year: int, to_fiscal_year: int,
               fiscal_period: str = "FY", *, as_of: datetime | str | None = None) -> pl.DataFrame:
        """Growth of a standard concept between two fiscal years (one row, a fraction), with both
        inputs, their accessions and any warnings.

        >>> wh = open_warehouse(path)
        >>> g = wh.growth("NVDA", "revenue", 2022, 2024)
        >>> g.select("from_value", "to_value").row(0), round(float(g["value"][0]), 4)
        ((Decimal('26914000000.0000000000'), Decimal('60922000000.0000000000')), 1.2636)
        """
        from warehouse.read.growth import growth

        cik = self.cik(company)
        row = growth(self.con, self._standard_concept(concept), cik, from_fiscal_year, to_fiscal_year,
                     self._period(fiscal_period) or "FY", _when(as_of))
        return self._rows([{"cik": cik, **row}])

    def compare(self, metric_or_concept: str, companies: list[int | str], fiscal_year: int,
                fiscal_period: str = "FY") -> pl.DataFrame:
        """One row per company for a metric or standard concept, with a ``warnings`` list
        (misaligned period ends, different tags or currencies, missing values).

        >>> wh = open_warehouse(path)
        >>> c = wh.compare("revenue", ["AAPL", "NVDA"], 2024)
        >>> c.select("cik", "period_end").rows()
        [(320193, datetime.date(2024, 9, 28)), (1045810, datetime.date(2024, 1, 28))]
        >>> any("period ends differ" in w for w in c["warnings"][0])
        True
        """
        from warehouse.read.compare import compare

        rows = compare(self.con, self._name(metric_or_concept), [self.cik(c) for c in companies], fiscal_year,
                       self._period(fiscal_period) or "FY")
        return self._rows(rows)

    def _rows(self, rows: list[dict[str, Any]]) -> pl.DataFrame:
        return _frame(pl.DataFrame(rows, infer_schema_length=None))

    # -- data quality ---------------------------------------------------------------------------
    def checks(self, name: str | None = None) -> pl.DataFrame:
        """Latest result of every data-quality check, or one check's offending rows (worst first).

        >>> wh = open_warehouse(path)
        >>> wh.checks()["check_name"].to_list()
        ['balance_sheet_identity', 'filing_facts_agree_with_companyfacts', 'gross_profit_identity', 'metric_bases', 'quarters_sum_to_year']
        """
        if name is None:
            return self._sql(sql("read/status/check_results"))
        from warehouse.derive.checks import run_check
        from warehouse.schema.vocabulary import check_names

        if name not in check_names():
            raise UnknownNameError("check", name, _closest(name, check_names()))
        return self._rows(run_check(self.con, name))

    # -- insiders -------------------------------------------------------------------------------
    def insider_transactions(self, company: int | str, *, since: date | str | None = None,
                             codes: list[str] | None = None) -> pl.DataFrame:
        """Every Form 3/4/5 transaction line of an issuer (amendments applied), newest first, with its
        owners' names (a list), optionally some transaction codes (``["P", "S"]``) from a first trade
        date: the rows the MCP tool get_insider_transactions gives (one file: read/api/insider_transactions.sql).

        >>> wh = open_warehouse(path)
        >>> t = wh.insider_transactions("AAPL", codes=["S"])
        >>> t.height, t["owner_names"].explode().unique().to_list()
        (7, ['Adams Katherine L.'])
        """
        return self._sql(sql("read/api/insider_transactions"), {
            "cik": self.cik(company), "since": since, "limit": None,
            "codes": [c.strip().upper() for c in codes] if codes else None})

    def insider_trades(self, company: int | str, *, since: date | str | None = None) -> pl.DataFrame:
        """Open-market purchases (P) and sales (S) of an issuer, one row per line, with owner names (a list),
        roles and the computed line value.

        >>> wh = open_warehouse(path)
        >>> wh.insider_trades("AAPL").group_by("side").agg(pl.col("shares").sum()).rows()
        [('sale', Decimal('25000.0000000000'))]
        """
        return self._sql(sql("read/api/insider_trades"), {"cik": self.cik(company), "since": since})


    # -- filing text ----------------------------------------------------------------------------
    def sections(self, accession: str) -> pl.DataFrame:
        """Every item of a loaded 10-K/10-Q/8-K document in order: item, heading, text, flags,
        confidence and offsets (characters into the document text, bytes into the raw document).

        >>> wh = open_warehouse(path)
        >>> wh.sections("0000320193-25-000079").select("item", "heading").head(3).rows()
        [('1', 'Item 1. Business'), ('1A', 'Item 1A. Risk Factors'), ('1B', 'Item 1B. Unresolved Staff Comments')]
        """
        from warehouse.read.filing_text import sections

        return self._rows(sections(self.con, accession))

    def section(self, accession: str, item: str) -> dict[str, Any]:
        """One item of a filing (``"1A"``, ``"II-1A"``, ``"2.02"``) as a dict; an unknown item raises
        FilingTextError listing the items the filing has.

        >>> wh = open_warehouse(path)
        >>> risk = wh.section("0000320193-25-000079", "1A")
        >>> risk["heading"], risk["text"].split()[1:4]
        ('Item 1A. Risk Factors', ['following', 'summarizes', 'factors'])
        """
        from warehouse.read.filing_text import section

        return section(self.con, accession, item)

    def search(self, query: str | None = None, *, phrase: str | None = None, company: int | str | None = None,
               form: str | None = None, item: str | None = None, filed_from: date | str | None = None,
               filed_to: date | str | None = None, limit: int = 20) -> pl.DataFrame:
        """Full-text search of the stored items: ranked keywords (``query``) or an exact ``phrase``
        (case, whitespace, quotes and dashes normalised); one row per hit with accession, item,
        snippet and offsets.

        >>> wh = open_warehouse(path)
        >>> wh.search(phrase="tariffs").select("accession", "item").rows()
        [('0000320193-25-000079', '1A'), ('0000320193-25-000079', '7')]
        """
        from warehouse.read.filing_text import FilingTextError, Filters, search_keywords, search_phrase

        if (query is None) == (phrase is None):
            raise FilingTextError("give keywords (query) or a phrase, not both")
        filters = Filters(self.cik(company) if company is not None else None, form, item,
                          date.fromisoformat(filed_from) if isinstance(filed_from, str) else filed_from,
                          date.fromisoformat(filed_to) if isinstance(filed_to, str) else filed_to)
        hits = search_phrase(self.con, phrase, filters, limit) if phrase is not None \
            else search_keywords(self.con, query, filters, limit)
        return self._rows([h.as_dict() for h in hits])

def open_warehouse(path: str | Path | None = None) -> Warehouse:
    """Open the warehouse read-only and sandboxed; use it with ``with`` or call ``close()``.

    >>> wh = open_warehouse(path)
    >>> wh.metrics("AAPL", "net_margin", fiscal_year=2025, fiscal_period="FY")["value"].dtype
    Decimal(precision=38, scale=10)
    >>> wh.close()
    """
    p = published_path_for(Path(path) if path is not None else default_db_path())
    con = connect(p, read_only=True)  # the published file; never waits for (or blocks) a refresh
    return Warehouse(con, p)
