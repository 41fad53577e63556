"""Publishing: one writer at a time builds a private copy of the warehouse and renames it into place.

A DuckDB file admits one writer process and no other process at all meanwhile (not even a
read-only one). So writers never open the published file: a writer takes the writer lock
(``<db>.lock``, fcntl.flock, holding who/what/since as text), copies the published file to
``<db>.build`` (reflink when the filesystem can), loads into the copy, and at the end of the run
CHECKPOINTs, closes, fsyncs and ``os.replace``s it over the published path (then fsyncs the
directory). Readers open the published path read-only: one that opened before the rename keeps
reading the old inode, a new one sees the new file — never half a run, never a lock error caused by
a writer. A killed writer leaves the published file untouched; its stale build is discarded by the
next writer.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import platform
import shutil
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from warehouse.errors import WarehouseError, WriterBusy

BUILD_SUFFIX = ".build"
LOCK_SUFFIX = ".lock"
WAIT_ENV = "EDGAR_WAREHOUSE_LOCK_WAIT"
INTERACTIVE_WAIT = 30.0   # seconds a command typed by a person waits for the writer lock
NIGHTLY_WAIT = 600.0      # ... and the scheduled nightly refresh


def build_path_for(db_path: str | Path) -> Path:
    """edgar.duckdb -> edgar.duckdb.build (the writer's private copy)."""
    p = Path(db_path)
    return p.with_name(p.name + BUILD_SUFFIX)


def published_path_for(path: str | Path) -> Path:
    """The published path a build file belongs to (a published path maps to itself)."""
    p = Path(path)
    return p.with_name(p.name[:-len(BUILD_SUFFIX)]) if p.name.endswith(BUILD_SUFFIX) else p


def lock_path_for(db_path: str | Path) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + LOCK_SUFFIX)


def lock_wait(default: float) -> float:
    """Seconds to wait for the writer lock: ``$EDGAR_WAREHOUSE_LOCK_WAIT`` when set, else ``default``."""
    value = os.environ.get(WAIT_ENV)
    if not value:
        return default
    try:
        return max(float(value), 0.0)
    except ValueError:
        raise WarehouseError(f"{WAIT_ENV}={value!r}: not a number of seconds") from None


@dataclass(frozen=True)
class Holder:
    """Who holds (or last held) the writer lock, as written in the lock file."""

    pid: int | None
    host: str
    command: str
    since: str

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}, `{self.command}`, since {self.since}"


def read_holder(lock_path: Path) -> Holder | None:
    try:
        info = json.loads(lock_path.read_text() or "null")
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict):
        return None
    return Holder(info.get("pid"), str(info.get("host", "?")), str(info.get("command", "?")),
                  str(info.get("since", "?")))


def current_writer(db_path: str | Path) -> Holder | None:
    """Who is writing ``db_path`` right now (None when nobody holds the writer lock)."""
    path = lock_path_for(published_path_for(db_path))
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return read_holder(path) or Holder(None, "?", "?", "?")
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


@contextmanager
def writer_lock(db_path: str | Path, *, command: str, wait: float = INTERACTIVE_WAIT,
                poll: float = 0.2, on_wait=None) -> Iterator[Path]:
    """Hold the exclusive writer lock of ``db_path`` for the block.

    Waits at most ``wait`` seconds (calling ``on_wait(holder)`` once, so the caller can say who it
    waits for), then raises WriterBusy naming the holder. The kernel releases a flock when its
    process dies, so a lock left by a killed writer is simply taken over."""
    path = lock_path_for(db_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise WarehouseError(f"{path}: cannot lock ({exc.strerror})") from exc
            holder = read_holder(path)
            if not told and on_wait is not None:
                on_wait(holder)
                told = True
            if time.monotonic() >= deadline:
                who = holder.describe() if holder else "another process"
                raise WriterBusy(f"{published_path_for(db_path)}: another writer holds it ({who}); "
                                 f"gave up after {wait:g} s (set {WAIT_ENV} to wait longer)")
            time.sleep(poll)
        me = {"pid": os.getpid(), "host": platform.node(), "command": command,
              "since": datetime.now(UTC).isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
        try:
            yield path
        finally:
            os.ftruncate(fd, 0)  # released: nobody holds it (a reader of the file sees nothing)
    finally:
        os.close(fd)  # closing the descriptor releases the flock


def copy_file(src: Path, dst: Path) -> str:
    """Copy src to dst, sharing extents (reflink) where the filesystem can, else copy_file_range;
    returns how: ``reflink`` (instant, whatever the size) or ``copy`` (a cost per GB)."""
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        try:
            import fcntl as _f  # FICLONE: instant copy-on-write clone on btrfs/xfs
            _f.ioctl(fout.fileno(), 0x40049409, fin.fileno())
            return "reflink"
        except OSError:
            pass
        size = os.fstat(fin.fileno()).st_size
        copied = 0
        try:
            while copied < size:
                n = os.copy_file_range(fin.fileno(), fout.fileno(), size - copied)
                if n == 0:
                    break
                copied += n
        except OSError:
            fin.seek(0)
            fout.seek(0)
            fout.truncate()
            shutil.copyfileobj(fin, fout, 16 << 20)
    return "copy"


# A full copy slower than this is reported (a log warning naming the remedy).
SLOW_COPY_SECONDS = 1.0
log = logging.getLogger(__name__)


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(*paths: Path) -> None:
    for p in paths:
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def base_path_for(db_path: str | Path) -> Path:
    """edgar.duckdb -> edgar.duckdb.build.base: which published file (and command) the build was made from."""
    build = build_path_for(db_path)
    return build.with_name(build.name + ".base")


def _base(db: Path, command: str) -> str:
    """What a build is a copy of: the published file's identity (inode, size, mtime) and the command."""
    try:
        st = db.stat()
        ident = [st.st_ino, st.st_size, st.st_mtime_ns]
    except FileNotFoundError:
        ident = None
    return json.dumps({"published": ident, "command": command})


def write_locker(path: Path) -> int | None:
    """The pid of another process holding ``path`` open read-write with DuckDB (its fcntl write lock:
    a plain ``duckdb.connect(path)``), else None."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        held = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0))
    except OSError:
        return None
    finally:
        os.close(fd)
    kind, _, _, _, pid = struct.unpack("hhqqi", held)
    return pid if kind == fcntl.F_WRLCK else None


def _written_behind(db: Path) -> str | None:
    """Why publishing over ``db`` would lose writes made to it directly (not through a build), if it would."""
    pid = write_locker(db)
    if pid is not None:
        return f"process {pid} holds {db.name} open read-write"
    try:
        recorded = json.loads(base_path_for(db).read_text())["published"]
    except (OSError, ValueError, KeyError):
        return None
    now = json.loads(_base(db, ""))["published"]
    if recorded != now:
        return f"{db.name} was written since this run copied it"
    return None


def discard_build(db_path: str | Path) -> None:
    """Remove a build file (and its WAL and spill folder) left by a writer that did not publish."""
    build = build_path_for(db_path)
    _remove(build, wal_of(build), build.with_name(build.name + ".tmp"), base_path_for(db_path))


def prepare_build(db_path: str | Path, *, command: str = "", resume: bool = False) -> Path:
    """Discard any stale build, then copy the published file (and a WAL left by an older version
    of this program) to the build path. Call only while holding the writer lock.

    ``resume`` (the bulk bootstrap): a build left by a killed run of the same ``command``, copied
    from the very file still published, is kept and carried on from: its committed batches (DuckDB
    replays their WAL) are not redone, and it is published whole when this run ends."""
    db = Path(db_path)
    build = build_path_for(db)
    base = base_path_for(db)
    pid = write_locker(db)
    if pid is not None:
        raise WarehouseError(f"{db}: process {pid} holds it open read-write (a duckdb.connect of the published "
                             f"file?); what it writes would be lost when this run publishes: close it, or open "
                             f"it read_only=True, and run again")
    try:
        same = resume and build.exists() and base.read_text() == _base(db, command)
    except OSError:
        same = False
    if same:
        return build
    discard_build(db)
    if db.exists():
        started = time.monotonic()
        how = copy_file(db, build)
        took = time.monotonic() - started
        if how == "copy" and took > SLOW_COPY_SECONDS:
            # a write's fixed cost grows with the warehouse here: say so once per write, with the fix
            log.warning("%s: copying the published file (%.1f GB) for this write took %.1f s; on a filesystem"
                        " with reflinks (XFS, btrfs) the copy is instant whatever the size", db,
                        db.stat().st_size / 2**30, took)
        if wal_of(db).exists():
            copy_file(wal_of(db), wal_of(build))
    base.write_text(_base(db, command))
    return build


def publish_build(db_path: str | Path) -> None:
    """Make the (closed, checkpointed) build file the published warehouse, atomically.

    Refused (the build discarded) when the published file was written directly meanwhile, or is held
    open read-write by another process: renaming over it would silently drop those writes.
    fsync the build, rename it over the published path, fsync the directory. A WAL beside the
    published file (from an older version of this program) was copied into the build, so it is
    removed first: a reader in between sees the last checkpoint, never the old WAL on the new file."""
    db = Path(db_path)
    build = build_path_for(db)
    if wal_of(build).exists():
        raise WarehouseError(f"{build}: still has a WAL after closing; not published")
    behind = _written_behind(db)
    if behind:  # a connection wrote to the published file itself: replacing it would drop that silently
        discard_build(db)
        raise WarehouseError(f"{db}: not published, this run's work is discarded: {behind} (a duckdb.connect of "
                             f"the published file?), and publishing would drop what it wrote; open the "
                             f"warehouse read_only=True, and run again")
    _fsync_path(build)
    wal_of(db).unlink(missing_ok=True)
    os.replace(build, db)
    _fsync_path(db.parent)
    _remove(build.with_name(build.name + ".tmp"), base_path_for(db))
