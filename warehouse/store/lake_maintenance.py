"""Lake maintenance: DuckLake's compaction, snapshot expiry and file cleanup, with figures before and after.

Every load commits snapshots and writes small Parquet files (32 small loads left 117 files and 56
snapshots); nothing removes them but this. One pass, on a writer connection (``maintain``):

1. ``ducklake_merge_adjacent_files``: the small files of each table merged into larger ones (a new
   snapshot; the merged-away files stay for the snapshots that still read them);
2. ``ducklake_expire_snapshots(older_than => now - keep)``: snapshots older than the retention go,
   the latest always stays;
3. ``ducklake_cleanup_old_files(cleanup_all => true)``: the files no kept snapshot reads any more
   (those of the expired snapshots, older than the retention) are deleted.

A reader pinned to a snapshot younger than ``keep`` keeps reading it throughout (its snapshot and its
files stay): ``keep`` must be longer than any reader lives (default 24 hours, at least 1 minute
outside tests). Each step commits on its own and is retried on a conflict with a concurrent writer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta

import duckdb

from warehouse.store.db import fetch_all, fetch_value
from warehouse.store.lake import ALIAS, LakeConfig, retry_on_conflict

DEFAULT_KEEP = timedelta(hours=24)


@dataclass(frozen=True)
class LakeFigures:
    """What the lake holds: snapshots, the data files current tables read, every Parquet file under the
    data path (those of old snapshots included) and their bytes."""

    snapshots: int
    live_files: int
    stored_files: int
    stored_bytes: int


@dataclass(frozen=True)
class MaintenanceReport:
    before: LakeFigures
    after: LakeFigures
    merged: int  # files merged away by compaction
    created: int  # files compaction wrote
    expired: int  # snapshots expired
    deleted: int  # files deleted
    keep: timedelta

    def line(self) -> str:
        b, a = self.before, self.after
        return (f"lake maintained: {self.merged:,} files merged into {self.created:,}, snapshots {b.snapshots:,} -> {a.snapshots:,} ({self.expired:,} expired), "
                f"live data files {b.live_files:,} -> {a.live_files:,}, stored files {b.stored_files:,} -> "
                f"{a.stored_files:,} ({self.deleted:,} deleted), {b.stored_bytes:,} -> {a.stored_bytes:,} bytes; "
                f"snapshots younger than {self.keep} kept")

    def as_dict(self) -> dict:
        return {"before": asdict(self.before), "after": asdict(self.after), "merged": self.merged,
                "created": self.created,
                "expired": self.expired, "deleted": self.deleted, "keep_seconds": self.keep.total_seconds()}


def figures(con: duckdb.DuckDBPyConnection, cfg: LakeConfig) -> LakeFigures:
    """The lake's figures now (its data path listed through DuckDB: a folder or an object store)."""
    snapshots = fetch_value(con, f"SELECT count(*) FROM {ALIAS}.snapshots()")
    live = fetch_value(con, "SELECT coalesce(sum(file_count + delete_file_count), 0) FROM ducklake_table_info(?)",
                       [ALIAS])
    pattern = cfg.data_path.rstrip("/") + "/**/*.parquet"
    files, size = 0, 0
    if fetch_value(con, "SELECT count(*) FROM glob(?)", [pattern]):  # read_blob refuses a pattern matching nothing
        ((files, size),) = fetch_all(con, "SELECT count(*), coalesce(sum(size), 0) FROM read_blob(?)", [pattern])
    return LakeFigures(int(snapshots), int(live), int(files), int(size))


def maintain(con: duckdb.DuckDBPyConnection, cfg: LakeConfig, *, keep: timedelta = DEFAULT_KEEP,
             now: datetime | None = None) -> MaintenanceReport:
    """One maintenance pass (see the module docstring) on ``con``, a writer connection to the lake."""
    cut = (now or datetime.now(UTC)) - keep
    before = figures(con, cfg)

    def step(sql: str, params: list | None = None) -> list[tuple]:
        return retry_on_conflict(lambda: fetch_all(con, sql, params))

    # (schema, table, files_processed, files_created) per table compacted
    compacted = step(f"CALL ducklake_merge_adjacent_files('{ALIAS}')")
    merged, created = sum(row[2] for row in compacted), sum(row[3] for row in compacted)
    expired = len(step(f"CALL ducklake_expire_snapshots('{ALIAS}', older_than => ?)", [cut]))
    deleted = len(step(f"CALL ducklake_cleanup_old_files('{ALIAS}', cleanup_all => true)"))
    return MaintenanceReport(before, figures(con, cfg), merged, created, expired, deleted, keep)
