"""Generic test helpers (import with ``from helpers import ...``; tests/ is on sys.path via conftest)."""

from __future__ import annotations

import dataclasses
import gzip
import json
import shutil
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest

from pipelines.companyfacts import parse_companyfacts
from pipelines.documents import Document, read_local_document
from pipelines.errors import RejectedDocument
from warehouse.load.batch import BatchReport, Parsed, Rejected, load_batch
from warehouse.store.db import connect, fetch_value, raw_dir_for
from warehouse.store.integrity import FETCH_CLOCK_COLUMNS, integrity_problems, table_checksums

FIXTURES = Path(__file__).parent / "fixtures"
COMPANYFACTS_DIR = FIXTURES / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"
COMPANYFACTS_FILES = sorted(COMPANYFACTS_DIR.glob("*.json.gz"))
VINTAGES_DIR = FIXTURES / "vintages" / "companyfacts"
SUBMISSIONS_DIR = FIXTURES / "sec" / "data.sec.gov" / "submissions"
# One vendored document of every kind pipelines.detect tells (the FSDS zip: its first filing is one;
# the daily index is read by the nightly, never loaded)
KIND_EXAMPLES = {
    "companyfacts": COMPANYFACTS_DIR / "CIK0001835632.json.gz",
    "submissions": SUBMISSIONS_DIR / "CIK0001318605.json.gz",
    "submissions_page": SUBMISSIONS_DIR / "CIK0001318605-submissions-001.json.gz",
    "company_tickers": FIXTURES / "sec/www.sec.gov/files/company_tickers.json.gz",
    "company_tickers_exchange": FIXTURES / "sec/www.sec.gov/files/company_tickers_exchange.json.gz",
    "ownership": FIXTURES / "form4/0000320193-22-000061.txt",
    "filing_document": FIXTURES / "filings/8-K/0000912057-00-002128.txt.gz",
    "fsds_filing": FIXTURES / "fsds/2009q3.zip",
    "daily_index": FIXTURES / "nights/night2/www.sec.gov/Archives/edgar/daily-index/2022/QTR2/form.20220505.idx.gz",
}


def read_body(path: str | Path) -> bytes:
    """Decoded bytes of a (possibly gzipped) fixture."""
    raw = Path(path).read_bytes()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def parse_document(doc: Document) -> Parsed | Rejected:
    """Parse a companyfacts Document into what load_batch takes (a bad payload becomes Rejected)."""
    try:
        return Parsed(doc, parse_companyfacts(doc.body, document=doc.uri, expected_cik=doc.expected_cik))
    except RejectedDocument as exc:
        return Rejected(doc, exc)


def load_files(con: duckdb.DuckDBPyConnection, paths: Iterable[str | Path], raw_dir: Path,
               kind: str | None = None, *, expected_cik: int | None = None, load_id: str | None = None,
               command: str = "load") -> BatchReport:
    """Read local companyfacts files (``.gz`` ok), parse them and load them all in ONE batch.

    ``kind`` defaults to companyfacts (the only kind this helper parses); a file that cannot be
    read or parsed goes into the batch as Rejected, exactly as the CLI/flow would do.
    """
    items: list[Parsed | Rejected] = []
    for p in paths:
        try:
            doc = read_local_document(p, kind=kind or "companyfacts")
        except RejectedDocument as exc:
            items.append(Rejected(Document(uri=str(p), origin="file", body=b"", kind=kind or "companyfacts"), exc))
            continue
        if expected_cik is not None:
            doc = dataclasses.replace(doc, expected_cik=expected_cik)
        items.append(parse_document(doc))
    return load_batch(con, items, raw_dir=raw_dir, load_id=load_id, command=command)


# Storage backends every contract test runs on (tests/conftest.py: ``backend_of(name)`` gives the env).
BACKENDS = ("duckdb", "ducklake")


@contextmanager
def backend_env(env: dict[str, str]) -> Iterator[None]:
    """Set the backend's environment variables for the block (connections opened inside keep the lake)."""
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        yield


def fresh_warehouse(env: dict[str, str], folder: Path) -> duckdb.DuckDBPyConnection:
    """A new, empty warehouse ``folder/w.duckdb`` opened on the backend ``env`` selects (``backend_of(name)``)."""
    with backend_env(env):
        return connect(folder / "w.duckdb")


def on_lake(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` is a DuckLake warehouse (its current database is the lake)."""
    return fetch_value(con, "SELECT current_database()") == "lake"


def sound_state(db: Path) -> dict:
    """Open the warehouse at ``db`` read-only, assert it passes the integrity checks, and return its
    per-table checksums (fetch-clock columns left out): what a killed-then-rerun run must converge to."""
    con = connect(db, read_only=True)
    try:
        assert integrity_problems(con, raw_dir_for(db)) == []
        return table_checksums(con, exclude=FETCH_CLOCK_COLUMNS)
    finally:
        con.close()


# "now" for the as-of definitions: their rows as of the end of time (what the stored tables hold)
NOW = "TIMESTAMP '9999-12-31 00:00:00'"


def private_schema(tmp_path: Path, monkeypatch) -> Path:
    """A private copy of schema/ that warehouses opened in this test use (EDGAR_WAREHOUSE_SCHEMA_DIR)."""
    from warehouse.schema.folder import schema_dir

    folder = tmp_path / "schema"
    shutil.copytree(schema_dir(), folder)
    monkeypatch.setenv("EDGAR_WAREHOUSE_SCHEMA_DIR", str(folder))
    return folder


def differences(con: duckdb.DuckDBPyConnection, a: str, b: str, params=None) -> int:
    """Rows of query ``a`` not in ``b`` plus rows of ``b`` not in ``a`` (duplicates counted)."""
    return (con.execute(f"SELECT count(*) FROM (({a}) EXCEPT ALL ({b}))", params or []).fetchone()[0]
            + con.execute(f"SELECT count(*) FROM (({b}) EXCEPT ALL ({a}))", params or []).fetchone()[0])


def table_scans(con: duckdb.DuckDBPyConnection, query: str, params=None) -> dict[str, tuple[int, int]]:
    """(rows read, rows emitted) of each table scan of ``query``, summed per table, from DuckDB's
    profile (EXPLAIN ANALYZE, JSON): whether a filter reached the scan (emitted) and whether the
    scan skipped other companies' row groups (read)."""
    found: dict[str, tuple[int, int]] = {}
    for name, read, out in each_table_scan(con, query, params):
        before = found.get(name, (0, 0))
        found[name] = (before[0] + read, before[1] + out)
    return found


def each_table_scan(con: duckdb.DuckDBPyConnection, query: str, params=None) -> list[tuple[str, int, int]]:
    """(table, rows read, rows emitted) of every table scan of ``query``, one entry per scan, from DuckDB's
    profile (EXPLAIN ANALYZE, JSON). Emitted: the rows through the scan's filters, its own or those of
    the FILTER right above it. DuckDB 2.x turns ``list_contains(<list>, col)`` into ``col IN (...)``,
    which the scan takes for pruning only ("optional: ...") and a FILTER right above it applies (for a
    long list, over a MARK join with the list's values); 1.5 applies list_contains in the scan. The
    profile's counts are operator_rows_scanned and operator_cardinality under the root's "children" on
    1.5, rows_scanned and intermediate_rows under the root's "operator" list on 2.x."""
    plan = json.loads(con.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}", params).fetchall()[0][1])
    found: list[tuple[str, int, int]] = []

    def count(node, key_15: str, key_2: str) -> int:
        return int(node.get(key_15, node.get(key_2)) or 0)

    def kind(node) -> str:
        return str(node.get("operator_type") or node.get("type") or "")

    def children(node) -> list:
        return [*node.get("children", []), *node.get("operator", [])]

    def walk(node, parents: list) -> None:
        table = (node.get("extra_info") or {}).get("Table")
        if table:
            emitted, above = count(node, "operator_cardinality", "intermediate_rows"), list(parents)
            if (above and kind(above[-1]) == "HASH_JOIN" and (above[-1].get("extra_info") or {}).get("Join Type") == "MARK"
                    and any(kind(c) == "COLUMN_DATA_SCAN" for c in children(above[-1]))):
                above.pop()
            if above and kind(above[-1]) == "FILTER":
                emitted = count(above[-1], "operator_cardinality", "intermediate_rows")
            found.append((table.rsplit(".", 1)[-1], count(node, "operator_rows_scanned", "rows_scanned"), emitted))
        for child in children(node):
            walk(child, [*parents, node])

    for root in plan if isinstance(plan, list) else [plan]:
        walk(root, [])
    return found


def small_fsds_zip(quarter: Path, path: Path, ciks: set[int], first: int) -> tuple[Path, set[bytes]]:
    """``quarter`` (an FSDS zip) with only the rows of the filings of ``ciks`` and of its first ``first``
    filings (the real rows, byte for byte, in their order; tag.txt whole), written to ``path``;
    (path, the accessions kept)."""
    with zipfile.ZipFile(quarter) as zin:
        sub = zin.read("sub.txt").split(b"\n")
        keep = {line.split(b"\t")[0] for line in sub[1:] if line and int(line.split(b"\t")[1]) in ciks}
        keep |= {line.split(b"\t")[0] for line in sub[1:1 + first]}
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
            for member in ("sub.txt", "pre.txt", "num.txt", "tag.txt"):
                lines = zin.read(member).split(b"\n")
                rows = [lines[0]] + [line for line in lines[1:] if line.split(b"\t")[0] in keep or member == "tag.txt"]
                zout.writestr(member, b"\n".join(rows) + b"\n")
    return path, keep


def lake_extensions_missing_off_the_pin() -> str | None:
    """Why the DuckLake tests cannot run on this DuckDB, or None (conftest's postgres_loopback, and the lake
    tests that need no PostgreSQL, skip with it). Only off the pin (a DuckDB other than pyproject.toml's,
    as when the suite is tried on 2.x): PyPI carries the DuckLake, postgres and httpfs extensions for the
    pinned version only, and an extension loads only in its exact version. On the pin a missing extension
    fails the tests (the `scale` extra belongs to every test environment)."""
    import tomllib

    from warehouse.store.lake import LakeError, extension_files

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    pin = next(d.split("==", 1)[1] for d in project["dependencies"] if d.startswith("duckdb=="))
    if duckdb.__version__ == pin:
        return None
    try:
        extension_files()
    except LakeError as exc:
        return (f"the DuckLake backend tests need the DuckLake and postgres extensions built for DuckDB "
                f"{duckdb.__version__}, which PyPI does not carry (the pin, {pin}, has them): {exc}")
    return None
