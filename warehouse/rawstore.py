"""Content-addressed store of raw payloads (gzip, keyed by sha256) so any table can be rebuilt."""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
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
    with os.fdopen(fd, "wb") as fh:
        fh.write(gzip.compress(body, compresslevel=1, mtime=0))
    os.replace(tmp, target)
    return rel


def read_raw(raw_dir: Path, rel: str) -> bytes:
    return gzip.decompress((raw_dir / rel).read_bytes())
