"""Content-addressed store of raw payloads (gzip, keyed by sha256) so any table can be rebuilt."""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path


def raw_relpath(sha256: str) -> str:
    return f"{sha256[:2]}/{sha256}.gz"


def store_raw(raw_dir: Path, body: bytes) -> str:
    """Write ``body`` once under its sha256; return the path relative to ``raw_dir``."""
    sha = hashlib.sha256(body).hexdigest()
    rel = raw_relpath(sha)
    target = raw_dir / rel
    if target.exists():
        return rel
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(gzip.compress(body, compresslevel=1, mtime=0))
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):  # the write failed before the rename: leave no temp file behind
            os.unlink(tmp)
    return rel


class RawWriter:
    """Stores payloads in a background thread (zlib releases the GIL, so compression overlaps the
    database work); leaving the ``with`` block waits for every write and re-raises a failure."""

    def __init__(self, raw_dir: Path):
        self.raw_dir = raw_dir
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="raw-store")
        self._pending: list[Future] = []

    def store(self, body: bytes, sha256: str) -> str:
        self._pending.append(self._pool.submit(store_raw, self.raw_dir, body))
        return raw_relpath(sha256)

    def __enter__(self) -> RawWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self._pool.shutdown(wait=True)
        if exc_type is None:  # never let a write error mask the error already on its way
            for fut in self._pending:
                fut.result()


def read_raw(raw_dir: Path, rel: str) -> bytes:
    return gzip.decompress((raw_dir / rel).read_bytes())
