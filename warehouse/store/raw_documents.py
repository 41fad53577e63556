"""Every loaded payload back out of the raw store, as the Document it arrived as (for `rebuild`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import duckdb

from pipelines.documents import Document
from warehouse.store.db import WarehouseError, fetch_all
from warehouse.store.raw_payloads import RawDir, raw_exists, read_raw


def loaded_documents(con: duckdb.DuckDBPyConnection, raw_dir: RawDir) -> Iterator[Document]:
    """The payloads that were loaded, in load order, read back from the content-addressed raw store
    (sha256 checked) with everything their parser and loader were given: kind, URL, origin, fetch
    time, HTTP validators, and the CIK and accession the fetcher asked for (``expected_cik``,
    ``given_accession``; for payloads loaded before migration 0007 the latter is approximated by
    the stored accession unless it was a made-up ``sha256:`` key). The rows are read now; the bodies lazily,
    one in memory at a time, so ``con`` may be closed before iterating."""
    after_0007 = fetch_all(con, "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'load_runs'"
                                " AND column_name = 'pid'")[0][0]
    # Runs since migration 0007 record their pid and what was given with each payload; for payloads
    # loaded before it, the stored accession stands in (unless it was a made-up sha256: key).
    given = ("CASE WHEN d.load_id IN (SELECT load_id FROM load_runs WHERE pid IS NOT NULL)"
             " THEN d.given_accession WHEN d.accession NOT LIKE 'sha256:%' THEN d.accession END"
             if after_0007 else "CASE WHEN d.accession NOT LIKE 'sha256:%' THEN d.accession END")
    rows = fetch_all(
        con,
        "SELECT d.kind, d.uri, d.origin, d.sha256, d.fetched_at, d.http_status, d.etag, d.last_modified,"
        f" d.raw_path, {'d.expected_cik' if after_0007 else 'NULL'}, {given}"
        " FROM source_documents d WHERE d.status = 'loaded' ORDER BY d.source_document_id")
    return _read(rows, raw_dir)


def _read(rows: list[tuple], raw_dir: RawDir) -> Iterator[Document]:
    for kind, uri, origin, sha, fetched_at, status, etag, last_modified, raw_path, cik, accession in rows:
        if not raw_path or not raw_exists(raw_dir, raw_path):
            raise WarehouseError(f"{uri}: raw payload {raw_path or sha} is missing from {raw_dir}")
        body = read_raw(raw_dir, raw_path)
        if hashlib.sha256(body).hexdigest() != sha:
            raise WarehouseError(f"{uri}: raw payload {raw_path} does not match its sha256")
        yield Document(uri=uri, origin=origin, body=body, fetched_at=fetched_at, kind=kind, http_status=status,
                       etag=etag, last_modified=last_modified, expected_cik=cik, accession=accession)
