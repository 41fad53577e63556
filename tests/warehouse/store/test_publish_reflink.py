"""On a reflink filesystem (XFS, btrfs) a write clones the published file and rewrites only what changed.

The writer's build is a reflink of the published file; DuckDB's CHECKPOINT then writes the changed
blocks only, and the publish (fsync, rename) copies nothing. So the new published file shares its
physical extents with the previous one, except the blocks the run changed: a write costs what it
changed, not the size of the warehouse. Checked with FIEMAP (the file's physical extents) after a
small write through the CLI, in a fresh process.

Runs where reflinks work: the folder named by ``EDGAR_TEST_REFLINK_DIR`` (e.g. a folder on an XFS
volume), else pytest's temporary folder; skipped when neither can clone (ext4, tmpfs).
"""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import COMPANYFACTS_FILES
from warehouse.store.db import writer

ROOT = Path(__file__).resolve().parents[3]
FICLONE = 0x40049409
FS_IOC_FIEMAP = 0xC020660B
FIEMAP_FLAG_SYNC = 0x1
FIEMAP_EXTENT_LAST = 0x1
_HEADER = struct.Struct("=QQLLLL")  # fm_start, fm_length, fm_flags, fm_mapped_extents, fm_extent_count, reserved
_EXTENT = struct.Struct("=QQQQQLLLL")  # fe_logical, fe_physical, fe_length, 2 reserved, fe_flags, 3 reserved


def physical_extents(path: Path) -> list[tuple[int, int]]:
    """(physical start, length) of every extent of ``path`` (FIEMAP, after syncing the file)."""
    extents: list[tuple[int, int]] = []
    start, count = 0, 256
    with open(path, "rb") as fh:
        while True:
            buf = bytearray(_HEADER.pack(start, 2**64 - 1 - start, FIEMAP_FLAG_SYNC, 0, count, 0)
                            + bytes(_EXTENT.size * count))
            fcntl.ioctl(fh.fileno(), FS_IOC_FIEMAP, buf)
            mapped = _HEADER.unpack_from(buf)[3]
            last = False
            for n in range(mapped):
                logical, physical, length, _, _, flags, *_ = _EXTENT.unpack_from(buf, _HEADER.size + n * _EXTENT.size)
                extents.append((physical, length))
                start = logical + length
                last = bool(flags & FIEMAP_EXTENT_LAST)
            if mapped == 0 or last:
                return extents


def shared_bytes(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> int:
    """Bytes of physical storage that both extent lists cover."""
    total = 0
    for start, length in a:
        for other, other_length in b:
            total += max(0, min(start + length, other + other_length) - max(start, other))
    return total


@pytest.fixture
def reflink_dir(tmp_path) -> Path:
    base = os.environ.get("EDGAR_TEST_REFLINK_DIR")
    folder = Path(tempfile.mkdtemp(dir=base)) if base else tmp_path
    probe = folder / "probe"
    probe.write_bytes(os.urandom(1 << 16))
    try:  # the filesystem's own answer (not warehouse.store.publish's, which this test checks)
        with open(probe, "rb") as src, open(folder / "probe.clone", "wb") as dst:
            fcntl.ioctl(dst.fileno(), FICLONE, src.fileno())
    except OSError:
        pytest.skip(f"{folder}: this filesystem cannot clone files (set EDGAR_TEST_REFLINK_DIR to a folder on XFS/btrfs)")
    yield folder
    if base:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def cli(db: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(db), *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=300)


def test_a_small_write_rewrites_a_few_blocks_whatever_the_files_size(reflink_dir):
    db = reflink_dir / "w.duckdb"
    first = cli(db, "load", str(COMPANYFACTS_FILES[0]))
    assert first.returncode == 0, first.stderr
    with writer(db, command="test-padding") as con:  # a bigger warehouse: ~35 MB more of stored rows
        con.execute("CREATE TABLE padding AS SELECT md5(range::VARCHAR) || md5((range + 1)::VARCHAR) AS v"
                    " FROM range(1000000)")
    before = reflink_dir / "before.duckdb"
    os.link(db, before)  # keeps the published inode (and its blocks) after the rename
    size = db.stat().st_size
    assert size > 32 * 2**20
    again = cli(db, "load", str(COMPANYFACTS_FILES[0]))  # unchanged: the run writes its load_runs row only
    assert again.returncode == 0 and "0 loaded, 1 unchanged" in again.stdout, again.stdout + again.stderr
    assert db.stat().st_ino != before.stat().st_ino  # a new file was published...
    rewritten = db.stat().st_size - shared_bytes(physical_extents(db), physical_extents(before))
    # ...made of the previous one's blocks but those the run changed (measured: 1.8 MB, the same for an
    # 11 MB and a 153 MB warehouse); a copy would have rewritten all of them
    assert rewritten < 4 * 2**20, f"{rewritten:,} of {size:,} bytes rewritten by a write that changed one row"
