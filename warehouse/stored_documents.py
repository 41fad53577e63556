"""Every loaded payload back out of the raw store, as the Document it arrived as (for `rebuild`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import duckdb

from pipelines.documents import Document
from warehouse.db import WarehouseError, fetch_all
from warehouse.rawstore import read_raw


def loaded_documents(con: duckdb.DuckDBPyConnection, raw_dir: Path) -> Iterator[Document]:
    """The payloads that were loaded, in load order, read back from the content-addressed raw store
    (sha256 checked) with everything their parser and loader were given: kind, URL, origin, fetch
    time, HTTP validators, and the CIK and accession the fetcher asked for (``expected_cik``,
    ``given_accession``; before migration 0007 the latter is approximated by the stored
    accession unless it was a made-up ``sha256:`` key). The rows are read now; the bodies lazily,
    one in memory at a time, so ``con`` may be closed before iterating."""
    given = fetch_all(con, "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'source_documents'"
                           " AND column_name = 'given_accession'")[0][0]
    rows = fetch_all(
        con,
        "SELECT kind, uri, origin, sha256, fetched_at, http_status, etag, last_modified, raw_path, "
        + ("expected_cik, given_accession" if given else "NULL, NULL")
        + ", CASE WHEN accession NOT LIKE 'sha256:%' THEN accession END"
        " FROM source_documents WHERE status = 'loaded' ORDER BY source_document_id")
    return _read(rows, raw_dir)


def _read(rows: list[tuple], raw_dir: Path) -> Iterator[Document]:
    for kind, uri, origin, sha, fetched_at, status, etag, last_modified, raw_path, cik, given, stored in rows:
        accession = given or stored
        if not raw_path or not (raw_dir / raw_path).exists():
            raise WarehouseError(f"{uri}: raw payload {raw_path or sha} is missing from {raw_dir}")
        body = read_raw(raw_dir, raw_path)
        if hashlib.sha256(body).hexdigest() != sha:
            raise WarehouseError(f"{uri}: raw payload {raw_path} does not match its sha256")
        yield Document(uri=uri, origin=origin, body=body, fetched_at=fetched_at, kind=kind, http_status=status,
                       etag=etag, last_modified=last_modified, expected_cik=cik, accession=accession)
