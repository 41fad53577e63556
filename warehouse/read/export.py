"""Parquet export as a data product: a folder per table, a manifest with checksums, swapped in atomically.

Layout of ``DEST`` (a symlink to the sibling folder ``DEST.<id>`` that holds one complete export)::

    DEST -> DEST.3f9c0a1b2c4d/
        README.txt                          how to read it (and why pyarrow.dataset(DEST) fails)
        manifest.json                       tables, row counts, schema + column comments, sha256 per file,
                                            load ids covered, as-of instant, project version
        companies/part-0.parquet
        facts/fiscal_year=2024/part-0.parquet     hive partitions (NULL -> __HIVE_DEFAULT_PARTITION__)
        fact_versions/fiscal_year=.../part-0.parquet
        ...

Atomicity: the export is built in ``DEST.tmp-<pid>``, renamed to ``DEST.<id>`` (``<id>`` is a hash of
its manifest) and published by replacing the symlink ``DEST`` with one ``rename(2)``: a reader
resolves DEST either to the old export or to the new one, never to a mix. The previous
``DEST.<id>`` folder is removed afterwards (a reader still inside it keeps the files it has open).
If ``DEST`` is a plain folder holding an export (from an older version) it is moved aside first:
only then is there a window of a few microseconds in which ``DEST`` does not exist.

Determinism: rows are written ``ORDER BY ALL`` with fixed writer settings (zstd level 3, fixed row
group size), files carry no timestamps, and the manifest holds no wall-clock time, so exporting
unchanged data again gives byte-identical files and the same ``<id>`` (then nothing is swapped).

Timestamps are UTC: top-level TIMESTAMP columns are written as TIMESTAMP WITH TIME ZONE (Parquet
``isAdjustedToUTC``), so DuckDB, Polars and pyarrow all read them as UTC instants; JSON columns are
written as their text. The manifest gives both types (``type`` written, ``warehouse_type``).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import duckdb

from warehouse.schema.tables import PARTITIONED, PUBLIC
from warehouse.store.db import WarehouseError, fetch_all, quote_ident

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
README = "README.txt"
README_TEXT = """\
edgar-warehouse Parquet export: ONE DATASET PER FOLDER. Read a table's folder, never this folder
as a whole (this file is here so that pyarrow.dataset(<this folder>) fails instead of mixing tables).
manifest.json lists the tables, their row counts, columns (type + comment), files and sha256.
  DuckDB:  SELECT * FROM read_parquet('<here>/facts/**/*.parquet', hive_partitioning = true)
  Polars:  pl.read_parquet('<here>/facts/', hive_partitioning=True)
  pyarrow: pyarrow.dataset.dataset('<here>/facts', partitioning='hive')
facts and fact_versions are partitioned by fiscal_year (hive folders; NULL = __HIVE_DEFAULT_PARTITION__).
Timestamps are UTC.
"""
PARQUET_OPTIONS = "FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 3, ROW_GROUP_SIZE 122880"
# Types written differently from the warehouse so that every reader gets the same thing: naive UTC
# timestamps become instants (Parquet isAdjustedToUTC), JSON becomes its text (Polars would see bytes).
WRITTEN_AS = {"TIMESTAMP": "TIMESTAMP WITH TIME ZONE", "JSON": "VARCHAR"}
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"  # what DuckDB, Polars and pyarrow read back as NULL


class ExportError(WarehouseError):
    """The export could not be written as asked (unknown table, DEST not an export, ...)."""


@dataclass(frozen=True)
class Source:
    """How one exported table is read: ``query`` (``{ts}`` = the as-of instant), the relation whose
    column comments describe it, and the column it is partitioned by (hive style) if any."""

    query: str
    comments_from: str
    partition_by: str | None = None


# --as-of: only what has a publication time is exported, each as it was public at {ts}. Tables with
# no such time (companies, tickers, source_documents, ...) are refused rather than exported as of now.
AS_OF = {
    "filings": Source("SELECT * FROM filings WHERE acceptance_time <= {ts}", "filings"),
    "facts": Source("SELECT * EXCLUDE (revision, known_from, known_from_basis) FROM fact_versions"
                    " WHERE known_from <= {ts}", "facts", "fiscal_year"),
    "fact_versions": Source("SELECT * FROM fact_versions WHERE known_from <= {ts}", "fact_versions",
                            "fiscal_year"),
    "facts_as_of": Source("SELECT * FROM facts_as_of({ts})", "fact_versions"),
    "standard_facts_as_of": Source("SELECT * FROM standard_facts_as_of({ts})", "standard_facts"),
    "derived_metrics": Source("SELECT * FROM derived_metrics WHERE known_from <= {ts}", "derived_metrics"),
    "derived_metrics_as_of": Source("SELECT * FROM derived_metrics_as_of({ts})", "derived_metrics"),
    "metric_lineage": Source("SELECT * FROM metric_lineage WHERE metric_id IN"
                             " (SELECT metric_id FROM derived_metrics WHERE known_from <= {ts})", "metric_lineage"),
    "insider_filings": Source("SELECT * FROM insider_filings WHERE acceptance_time <= {ts}", "insider_filings"),
    "insider_transactions": Source("SELECT * FROM insider_transactions WHERE accession IN"
                                   " (SELECT accession FROM insider_filings WHERE acceptance_time <= {ts})",
                                   "insider_transactions"),
}


@dataclass(frozen=True)
class ExportResult:
    """Where the export was published, its id, and the manifest written."""

    path: Path
    target: Path
    export_id: str
    changed: bool
    manifest: dict


def _relations(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {r[0] for r in fetch_all(
        con, "SELECT table_name FROM duckdb_tables() WHERE NOT internal AND NOT temporary"
             " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal AND NOT temporary")}


def plan(con: duckdb.DuckDBPyConnection, names: list[str] | None, as_of: datetime | None) -> dict[str, Source]:
    """The tables to export and how each is read; unknown names raise naming the closest ones."""
    present = _relations(con)
    if as_of is None:
        available = {n: Source(f'SELECT * FROM "{n}"', n, PARTITIONED.get(n)) for n in PUBLIC if n in present}
        extra = present
    else:
        available = dict(AS_OF)
        extra = set(available)
    wanted = list(dict.fromkeys(names)) if names else list(available)
    out: dict[str, Source] = {}
    for n in wanted:
        if n in available:
            out[n] = available[n]
        elif as_of is None and n in extra:  # any other table or view, asked for by name
            out[n] = Source(f'SELECT * FROM "{n}"', n)
        else:
            close = difflib.get_close_matches(n, sorted(extra | set(available)), n=3, cutoff=0.5)
            hint = f"; closest: {', '.join(close)}" if close else ""
            why = (" with --as-of (only tables with a publication time can be exported as of an instant:"
                   f" {', '.join(available)})") if as_of is not None else ""
            raise ExportError(f"cannot export {n!r}{why}{hint}")
    return out


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _quote_path(p: Path) -> str:
    return "'" + str(p).replace("'", "''") + "'"


def _columns(con: duckdb.DuckDBPyConnection, query: str, comments_from: str) -> list[dict]:
    described = fetch_all(con, f"DESCRIBE {query}")
    comments = dict(fetch_all(con, "SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ?",
                              [comments_from]))
    cols = []
    for name, dtype, *_ in described:
        col = {"name": name, "type": WRITTEN_AS.get(dtype, dtype), "comment": comments.get(name)}
        if col["type"] != dtype:
            col["warehouse_type"] = dtype
        cols.append(col)
    return cols


def _select_list(columns: list[dict], exclude: str | None) -> str:
    parts = []
    for c in columns:
        if c["name"] == exclude:
            continue
        ident = quote_ident(c["name"])
        parts.append(f"CAST({ident} AS {c['type']}) AS {ident}" if "warehouse_type" in c else ident)
    return ", ".join(parts)


def _write_table(con: duckdb.DuckDBPyConnection, root: Path, name: str, src: Source, ts_sql: str) -> dict:
    query = src.query.replace("{ts}", ts_sql)
    columns = _columns(con, query, src.comments_from)
    folder = root / name
    folder.mkdir()
    files: list[dict] = []
    if src.partition_by is None:
        target = folder / "part-0.parquet"
        con.execute(f"COPY (SELECT {_select_list(columns, None)} FROM ({query}) ORDER BY ALL)"
                    f" TO {_quote_path(target)} ({PARQUET_OPTIONS})")
        files.append(target)
    else:
        key = src.partition_by
        con.execute(f"CREATE OR REPLACE TEMP TABLE export_stage AS {query}")
        try:
            values = [r[0] for r in fetch_all(con, f'SELECT DISTINCT "{key}" FROM export_stage ORDER BY 1')]
            for v in values:
                part = folder / f"{key}={NULL_PARTITION if v is None else v}"
                part.mkdir()
                target = part / "part-0.parquet"
                where = f'"{key}" IS NULL' if v is None else f'"{key}" = ?'
                con.execute(f"COPY (SELECT {_select_list(columns, key)} FROM export_stage WHERE {where}"
                            f" ORDER BY ALL) TO {_quote_path(target)} ({PARQUET_OPTIONS})",
                            [] if v is None else [v])
                files.append(target)
        finally:
            con.execute("DROP TABLE IF EXISTS temp.export_stage")
    entries = []
    total = 0
    for f in files:
        rows = fetch_all(con, f"SELECT count(*) FROM read_parquet({_quote_path(f)})")[0][0]
        total += rows
        entries.append({"path": f.relative_to(root).as_posix(), "rows": rows, "bytes": f.stat().st_size,
                        "sha256": _sha256(f)})
    load_ids = []
    if any(c["name"] == "load_id" for c in columns):
        written = ", ".join(_quote_path(f) for f in files)
        load_ids = [r[0] for r in fetch_all(con, f"SELECT DISTINCT load_id FROM read_parquet([{written}])"
                                                 " WHERE load_id IS NOT NULL ORDER BY 1")] if files else []
    table_comment = fetch_all(con, "SELECT comment FROM duckdb_tables() WHERE table_name = ? UNION ALL"
                                   " SELECT comment FROM duckdb_views() WHERE view_name = ?",
                              [src.comments_from, src.comments_from])
    return {
        "comment": table_comment[0][0] if table_comment else None,
        "source": query,
        "rows": total,
        "order": "ORDER BY ALL (every column, in schema order)",
        "partitioning": None if src.partition_by is None else {
            "flavor": "hive", "column": src.partition_by,
            "type": next(c["type"] for c in columns if c["name"] == src.partition_by),
            "null_value": NULL_PARTITION, "note": "the partition column is in the folder names, not in the files"},
        "columns": columns,
        "files": entries,
        "load_ids": load_ids,
    }


def project_version() -> str:
    try:
        return metadata.version("edgar-warehouse")
    except metadata.PackageNotFoundError:
        return "unknown"


def _utc(ts: datetime) -> datetime:
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)


def export_warehouse(con: duckdb.DuckDBPyConnection, dest: str | Path, tables: list[str] | None = None, *,
                     as_of: datetime | None = None) -> ExportResult:
    """Export ``tables`` (default: the public data contract) to ``dest`` and publish it atomically.

    ``as_of`` (naive = UTC) exports what was public at that instant. ``con`` must allow file
    writes (``connect(path, read_only=True, external_access=True)``). Returns an ExportResult;
    ``changed`` is False when the data was identical to the export already at ``dest``.
    """
    dest = Path(dest).absolute()
    _check_dest(dest)
    as_of_utc = _utc(as_of) if as_of is not None else None
    ts_sql = "NULL" if as_of_utc is None else \
        f"TIMESTAMP '{as_of_utc.replace(tzinfo=None).isoformat(sep=' ')}'"
    sources = plan(con, tables, as_of_utc)
    build = dest.with_name(f"{dest.name}.tmp-{os.getpid()}")
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    try:
        described = {name: _write_table(con, build, name, src, ts_sql) for name, src in sources.items()}
        manifest = {
            "format": "edgar-warehouse parquet export",
            "format_version": FORMAT_VERSION,
            "project_version": project_version(),
            "as_of": None if as_of_utc is None else as_of_utc.isoformat().replace("+00:00", "Z"),
            "timestamps": "UTC; top-level timestamp columns are TIMESTAMP WITH TIME ZONE (isAdjustedToUTC)",
            "load_ids": sorted({i for t in described.values() for i in t["load_ids"]}),
            "tables": described,
            "read_with": {
                "duckdb": "SELECT * FROM read_parquet('DEST/<table>/**/*.parquet', hive_partitioning = true)",
                "polars": "pl.read_parquet('DEST/<table>/', hive_partitioning=True)",
                "pyarrow": "pyarrow.dataset.dataset('DEST/<table>', partitioning='hive')",
            },
        }
        body = json.dumps(manifest, indent=1, sort_keys=True, default=str) + "\n"
        (build / MANIFEST).write_text(body, encoding="utf-8")
        (build / README).write_text(README_TEXT, encoding="utf-8")
        export_id = hashlib.sha256(body.encode()).hexdigest()[:12]
        return _publish(build, dest, export_id, manifest)
    finally:
        shutil.rmtree(build, ignore_errors=True)


def _check_dest(dest: Path) -> None:
    if dest.is_symlink() or not dest.exists():
        return
    if not dest.is_dir() or not (dest / MANIFEST).is_file():
        raise ExportError(f"{dest} exists and is not an edgar-warehouse export (no {MANIFEST});"
                          " choose another DEST or remove it")


def _publish(build: Path, dest: Path, export_id: str, manifest: dict) -> ExportResult:
    final = dest.with_name(f"{dest.name}.{export_id}")
    previous = dest.resolve() if dest.is_symlink() else None
    if previous is not None and previous == final and final.is_dir():
        return ExportResult(dest, final, export_id, False, manifest)  # identical: nothing to swap
    if final.exists():  # left over from an interrupted run: same content by construction
        shutil.rmtree(final)
    os.rename(build, final)
    link = dest.with_name(f"{dest.name}.link-{os.getpid()}")
    if link.is_symlink():
        link.unlink()
    os.symlink(final.name, link)  # relative: the pair can be moved together
    if dest.exists() and not dest.is_symlink():  # a plain-folder export: move aside (tiny window)
        aside = dest.with_name(f"{dest.name}.old-{os.getpid()}")
        os.rename(dest, aside)
        os.replace(link, dest)
        shutil.rmtree(aside, ignore_errors=True)
    else:
        os.replace(link, dest)  # the atomic step
    if previous is not None and previous != final and previous.parent == final.parent \
            and previous.name.startswith(f"{dest.name}."):
        shutil.rmtree(previous, ignore_errors=True)
    return ExportResult(dest, final, export_id, True, manifest)
