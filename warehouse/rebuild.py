"""Rebuild support: every loaded payload back out of the raw store, as the Document it arrived as."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

from pipelines.documents import Document
from warehouse.db import WarehouseError, fetch_all
from warehouse.rawstore import read_raw


def loaded_documents(con: duckdb.DuckDBPyConnection, raw_dir: Path) -> list[Document]:
    """The payloads that were loaded, in load order, read back from the content-addressed raw store
    (sha256 checked) with the metadata they arrived with (URL, origin, fetch time, HTTP validators)."""
    rows = fetch_all(
        con,
        "SELECT kind, uri, origin, sha256, fetched_at, http_status, etag, last_modified, accession, raw_path"
        " FROM source_documents WHERE status = 'loaded' ORDER BY source_document_id")
    docs = []
    for kind, uri, origin, sha, fetched_at, status, etag, last_modified, accession, raw_path in rows:
        if not raw_path or not (raw_dir / raw_path).exists():
            raise WarehouseError(f"{uri}: raw payload {raw_path or sha} is missing from {raw_dir}")
        body = read_raw(raw_dir, raw_path)
        if hashlib.sha256(body).hexdigest() != sha:
            raise WarehouseError(f"{uri}: raw payload {raw_path} does not match its sha256")
        docs.append(Document(uri=uri, origin=origin, body=body, fetched_at=fetched_at, kind=kind,
                             http_status=status, etag=etag, last_modified=last_modified, accession=accession))
    return docs
