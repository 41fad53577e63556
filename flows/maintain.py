"""Lake maintenance as a Prefect flow (compaction, snapshot expiry, file cleanup), scheduled beside the nightly.

The work is ``warehouse.store.lake_maintenance.maintain``; this flow opens a writer connection to the
configured lake, runs one pass, logs its figures (snapshots and files before and after) and leaves
them as a markdown artifact of the run. The CLI's ``maintain`` runs the same pass without Prefect.
"""

from __future__ import annotations

from contextlib import closing
from datetime import timedelta

from prefect import flow, get_run_logger
from prefect.artifacts import create_markdown_artifact

from warehouse.store.lake import LakeError, connect_lake, lake_config
from warehouse.store.lake_maintenance import DEFAULT_KEEP, MaintenanceReport, maintain

# 07:30 in New York: after the nightly (06:00) has committed, before readers start their day.
MAINTENANCE_CRON = "30 7 * * *"


def run_maintenance(keep: timedelta = DEFAULT_KEEP) -> MaintenanceReport:
    """One maintenance pass over the configured lake (LakeError when the backend is the DuckDB file:
    DuckDB's own file needs none)."""
    cfg = lake_config()
    if cfg is None:
        raise LakeError("maintenance is for the DuckLake backend (--backend ducklake or EDGAR_WAREHOUSE_BACKEND): "
                        "the DuckDB file keeps itself")
    with closing(connect_lake(cfg, migrate=False)) as con:
        return maintain(con, cfg, keep=keep)


@flow(name="edgar-lake-maintenance", log_prints=False)
def maintenance_flow(keep_hours: float = DEFAULT_KEEP.total_seconds() / 3600) -> dict:
    """Compact the lake's files, expire snapshots older than ``keep_hours``, delete unread files."""
    report = run_maintenance(timedelta(hours=keep_hours))
    get_run_logger().info(report.line())
    b, a = report.before, report.after
    create_markdown_artifact(key="lake-maintenance", description="Lake maintenance figures", markdown="\n".join([
        "| | before | after |", "|---|---:|---:|",
        f"| snapshots | {b.snapshots:,} | {a.snapshots:,} |",
        f"| live data files | {b.live_files:,} | {a.live_files:,} |",
        f"| stored files | {b.stored_files:,} | {a.stored_files:,} |",
        f"| stored bytes | {b.stored_bytes:,} | {a.stored_bytes:,} |"]))
    return report.as_dict()
