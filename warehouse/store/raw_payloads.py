"""Content-addressed store of raw payloads (gzip, keyed by sha256) so any table can be rebuilt.

The store is a folder (a ``Path``) or an object store prefix (``s3://bucket/lake.raw``, a ``str``:
``warehouse.store.object_store``), with the same names in both. Every payload is durable before the
transaction naming it commits: in a folder the file is fsynced before its atomic rename, and its
directory after (RawWriter fsyncs each directory once per batch); in an object store the PUT has
returned.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from warehouse.store import object_store
from warehouse.store.killpoints import kill_point

#: Where raw payloads live: a folder, or an object store prefix (``s3://...``).
RawDir = Path | str


def raw_relpath(sha256: str) -> str:
    return f"{sha256[:2]}/{sha256}.gz"


def fsync_dir(path: Path) -> None:
    """Make a directory's entries (a rename into it) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _object(raw_dir: RawDir, rel: str) -> str | None:
    """The object store URL of payload ``rel``, or None when ``raw_dir`` is a folder (a Path, or a
    str that is not an object store URL)."""
    return f"{raw_dir.rstrip('/')}/{rel}" if isinstance(raw_dir, str) and object_store.is_remote(raw_dir) else None


def raw_exists(raw_dir: RawDir, rel: str) -> bool:
    """True when the payload ``rel`` is in the store."""
    url = _object(raw_dir, rel)
    return object_store.exists(url) if url else (Path(raw_dir) / rel).exists()


def store_raw(raw_dir: RawDir, body: bytes, *, sync_dir: bool = True) -> str:
    """Write ``body`` once under its sha256 (file fsynced before its atomic rename; the directory
    after it unless ``sync_dir`` is false, when the caller syncs it; an object: one PUT); return the
    path relative to ``raw_dir``."""
    sha = hashlib.sha256(body).hexdigest()
    rel = raw_relpath(sha)
    url = _object(raw_dir, rel)
    if url:
        if not object_store.exists(url):
            object_store.put(url, gzip.compress(body, compresslevel=1, mtime=0))
            kill_point("raw_stored")
        return rel
    raw_dir = Path(raw_dir)
    target = raw_dir / rel
    if target.exists():
        return rel
    if not target.parent.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        fsync_dir(raw_dir)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(gzip.compress(body, compresslevel=1, mtime=0))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        if sync_dir:
            fsync_dir(target.parent)
        kill_point("raw_stored")
    finally:
        if os.path.exists(tmp):  # the write failed before the rename: leave no temp file behind
            os.unlink(tmp)
    return rel


class RawWriter:
    """Stores payloads in a background thread (zlib releases the GIL, so compression overlaps the
    database work); leaving the ``with`` block waits for every write, fsyncs every directory
    written into (once each) and re-raises a failure."""

    def __init__(self, raw_dir: RawDir):
        self.raw_dir = raw_dir if _object(raw_dir, "") else Path(raw_dir)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="raw-store")
        self._pending: list[Future] = []
        self._dirs: set[Path] = set()

    def store(self, body: bytes, sha256: str) -> str:
        rel = raw_relpath(sha256)
        self._pending.append(self._pool.submit(store_raw, self.raw_dir, body, sync_dir=False))
        if isinstance(self.raw_dir, Path):
            self._dirs.add(self.raw_dir / rel.split("/")[0])
        return rel

    def __enter__(self) -> RawWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self._pool.shutdown(wait=True)
        if exc_type is None:  # never let a write error mask the error already on its way
            for fut in self._pending:
                fut.result()
            for d in sorted(self._dirs):
                fsync_dir(d)


def read_raw(raw_dir: RawDir, rel: str) -> bytes:
    url = _object(raw_dir, rel)
    return gzip.decompress(object_store.get(url) if url else (Path(raw_dir) / rel).read_bytes())
