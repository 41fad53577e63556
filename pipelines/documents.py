"""The Document record: one fetched or local SEC payload with the metadata provenance needs."""

from __future__ import annotations

import hashlib
import os
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from pipelines.errors import ConfigError, RejectedDocument
from pipelines.sec_formats import cik_from_file_name

GZIP_MAGIC = b"\x1f\x8b"

# No SEC payload comes near this decompressed (the 8 sample companyfacts are 0.9-4 MB; the largest
# companyfacts SEC serves are tens of MB): anything bigger is refused before it is all in memory.
DEFAULT_MAX_DOCUMENT_BYTES = 512 * 1024 * 1024
MAX_DOCUMENT_BYTES_ENV = "EDGAR_MAX_DOCUMENT_BYTES"
_STEP = 1 << 20  # inflate 1 MiB at a time


def max_document_bytes() -> int:
    """The size cap of one document (decompressed): ``$EDGAR_MAX_DOCUMENT_BYTES`` or 512 MiB."""
    raw = os.environ.get(MAX_DOCUMENT_BYTES_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_DOCUMENT_BYTES
    if not raw.isdigit() or int(raw) <= 0:
        raise ConfigError(f"{MAX_DOCUMENT_BYTES_ENV}={raw!r} is not a positive number of bytes")
    return int(raw)


def utcnow() -> datetime:
    """Naive UTC timestamp (the warehouse stores every time as naive UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


def inflate_gzip(raw: bytes, *, document: str, limit: int | None = None) -> bytes:
    """Decompress gzip data (every member) in steps, refusing it once it passes ``limit`` bytes.

    A gzip bomb (3 MB that would inflate to 3 GiB) is rejected after inflating ``limit`` bytes,
    never all of it; a truncated stream, a bad CRC and trailing garbage are rejected too.
    """
    limit = max_document_bytes() if limit is None else limit
    parts: list[bytes] = []
    total = 0
    data = raw
    while True:
        inflater = zlib.decompressobj(wbits=31)
        try:
            while data and not inflater.eof:
                chunk = inflater.decompress(data, _STEP)
                total += len(chunk)
                if total > limit:
                    raise RejectedDocument(
                        document, f"gzip inflates past the size cap of {limit:,} bytes ({MAX_DOCUMENT_BYTES_ENV}); "
                                  "refused without inflating the rest (a gzip bomb?)")
                parts.append(chunk)
                data = inflater.unconsumed_tail
        except zlib.error as exc:
            raise RejectedDocument(document, f"corrupt gzip: {exc}") from exc
        if not inflater.eof:
            raise RejectedDocument(document, "corrupt gzip: the stream is truncated (no end of data)")
        data = inflater.unused_data
        if not data.strip(b"\x00"):
            return b"".join(parts)
        if data[:2] != GZIP_MAGIC:
            raise RejectedDocument(document, "corrupt gzip: bytes after the end of the compressed data")


@dataclass(frozen=True)
class Document:
    """One payload as received: decoded body plus where and how it came.

    ``uri`` is the URL (http/replay) or the file path (file). ``origin`` is ``http``,
    ``replay`` or ``file``. ``kind`` is set by the fetcher when it knows what it asked for, else
    detected from content (see ``pipelines.detect``). ``expected_cik`` is the CIK the request was
    for (or the CIK a local file's name carries), so a body about another company is rejected.
    ``accession`` is known for Archives documents and for ownership files whose name carries one.
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


def read_local_document(path: str | Path, *, kind: str | None = None, limit: int | None = None) -> Document:
    """Read a local SEC file (``.gz`` accepted, capped at ``limit`` bytes) into a Document with origin ``file``.

    A file named ``CIK##########...`` must be about that company: its CIK becomes ``expected_cik``.
    """
    p = Path(path)
    limit = max_document_bytes() if limit is None else limit
    try:
        size = p.stat().st_size
        if size > limit:  # compressed or not, never read it: compressed, it would inflate to more still
            raise RejectedDocument(str(p), f"{size:,} bytes is over the size cap of {limit:,} bytes "
                                           f"({MAX_DOCUMENT_BYTES_ENV})")
        raw = p.read_bytes()
    except OSError as exc:
        raise RejectedDocument(str(p), f"cannot read file: {exc.strerror or exc}") from exc
    if raw[:2] == GZIP_MAGIC:
        raw = inflate_gzip(raw, document=str(p), limit=limit)
    return Document(uri=str(p), origin="file", body=raw, kind=kind, expected_cik=cik_from_file_name(p.name))
