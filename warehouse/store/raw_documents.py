"""Payloads back out of the raw store as Documents: every loaded one (for `rebuild`), or one by its sha256 (a pool's shard)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import duckdb

from pipelines.documents import Document
from warehouse.store.db import WarehouseError, fetch_all
from warehouse.store.raw_payloads import RawDir, raw_exists, raw_relpath, read_raw


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
        yield raw_document(raw_dir, sha, raw_path=raw_path or "", uri=uri, origin=origin, fetched_at=fetched_at, kind=kind,
                           http_status=status, etag=etag, last_modified=last_modified, expected_cik=cik,
                           accession=accession)


def raw_document(raw_dir: RawDir, sha256: str, *, raw_path: str | None = None, **fields: Any) -> Document:
    """The payload stored under ``sha256`` (at ``raw_path`` when given) as a Document with ``fields``
    (uri, origin, ...); a payload missing from the store, or whose bytes do not hash to ``sha256``, is
    a WarehouseError naming the document."""
    rel = raw_path if raw_path is not None else raw_relpath(sha256)
    what = fields.get("uri", sha256)
    if not rel or not raw_exists(raw_dir, rel):
        raise WarehouseError(f"{what}: raw payload {rel or sha256} is missing from {raw_dir}")
    body = read_raw(raw_dir, rel)
    if hashlib.sha256(body).hexdigest() != sha256:
        raise WarehouseError(f"{what}: raw payload {rel} does not match its sha256")
    return Document(body=body, **fields)
