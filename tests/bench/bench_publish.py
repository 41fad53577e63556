"""Cost of a writer's private build copy (warehouse.store.publish.prepare_build) per GB on this filesystem.

    .venv/bin/python tests/bench/bench_publish.py [SIZE_GB] [DIR]

Prints seconds and GB/s for the copy (reflink when the filesystem can, else copy_file_range) and for
the publish (fsync + rename). Uses a file of random bytes: the copy does not look inside."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from warehouse.store.publish import build_path_for, prepare_build, publish_build


def main() -> None:
    size_gb = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    where = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        db = Path(tmp) / "w.duckdb"
        chunk = os.urandom(64 << 20)
        with open(db, "wb") as fh:
            for _ in range(int(size_gb * 1024 / 64)):
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        gb = db.stat().st_size / 1e9
        t0 = time.perf_counter()
        prepare_build(db)
        copy = time.perf_counter() - t0
        t0 = time.perf_counter()
        publish_build(db)
        publish = time.perf_counter() - t0
        assert not build_path_for(db).exists()
        print(f"file {gb:.2f} GB on {where}: copy {copy:.2f} s ({copy / gb:.2f} s/GB, {gb / copy:.2f} GB/s); "
              f"fsync+rename {publish:.2f} s ({publish / gb:.2f} s/GB)")


if __name__ == "__main__":
    main()
