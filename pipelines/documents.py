"""The Document record: one fetched or local SEC payload with the metadata provenance needs."""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from pipelines.errors import RejectedDocument

GZIP_MAGIC = b"\x1f\x8b"


def utcnow() -> datetime:
    """Naive UTC timestamp (the warehouse stores every time as naive UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class Document:
    """One payload as received: decoded body plus where and how it came.

    ``uri`` is the URL (http/replay) or the file path (file). ``origin`` is ``http``,
    ``replay`` or ``file``. ``kind`` is set by the fetcher when it knows what it asked for, else
    detected from content (see ``pipelines.detect``). ``expected_cik`` is the CIK the request was
    for, so a body about another company can be rejected. ``accession`` is known for Archives
    documents and for ownership files whose name carries one.
    """

    uri: str
    origin: str
    body: bytes
    fetched_at: datetime = field(default_factory=utcnow)
    kind: str | None = None
    http_status: int | None = None
    etag: str | None = None
    last_modified: str | None = None
    expected_cik: int | None = None
    accession: str | None = None
    from_cache: bool = False

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.body).hexdigest()

    @property
    def size(self) -> int:
        return len(self.body)


def read_local_document(path: str | Path, *, kind: str | None = None) -> Document:
    """Read a local SEC file (``.gz`` accepted) into a Document with origin ``file``."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RejectedDocument(str(p), f"cannot read file: {exc.strerror or exc}") from exc
    if raw[:2] == GZIP_MAGIC:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise RejectedDocument(str(p), f"corrupt gzip: {exc}") from exc
    return Document(uri=str(p), origin="file", body=raw, kind=kind)
