"""The incremental nightly as a Prefect deployment (cron in New York time), served by a long-running process."""

from __future__ import annotations

from pathlib import Path

from prefect.client.schemas.objects import ConcurrencyLimitConfig, ConcurrencyLimitStrategy
from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron

from flows.maintain import MAINTENANCE_CRON, maintenance_flow
from flows.nightly import nightly_flow
from flows.refresh import http_cache_for
from warehouse.store.publish import NIGHTLY_WAIT, lock_wait

# 06:00 in New York: EDGAR publishes each business day's daily index in the evening (it closes at
# 22:00 Eastern), so by morning yesterday's form.idx is there.
NIGHTLY_CRON = "0 6 * * *"
NIGHTLY_TIMEZONE = "America/New_York"


def nightly_deployment(db: str | Path, *, cron: str = NIGHTLY_CRON, timezone: str = NIGHTLY_TIMEZONE,
                       batch_size: int = 50, insider_history_days: int = 90,
                       name: str = "edgar-nightly", work_pool: str | None = None) -> RunnerDeployment:
    """The incremental nightly over the tracked universe (`edgar-warehouse track`) on ``cron`` in
    ``timezone``: daily indexes since each company's last sync, then only the companies that filed
    (see flows/nightly.py). A writer still running (a manual load) is waited for up to 10 minutes
    ($EDGAR_WAREHOUSE_LOCK_WAIT). The deployment runs one at a time: a run scheduled while another
    is still going waits in line (Prefect's deployment concurrency limit 1, ENQUEUE). ``work_pool``
    (DuckLake): its batches are loaded by that pool's workers (flows/pool.py)."""
    return nightly_flow.to_deployment(
        name=name, schedule=Cron(cron, timezone=timezone),
        parameters={"db": str(db), "cache_dir": str(http_cache_for(db)), "batch_size": batch_size,
                    "insider_history_days": insider_history_days, "lock_wait": lock_wait(NIGHTLY_WAIT),
                    **({"work_pool": work_pool} if work_pool else {})},
        description="Incremental EDGAR nightly: the tracked companies that filed since their last sync.",
        tags=["edgar-warehouse", "nightly"],
        concurrency_limit=ConcurrencyLimitConfig(limit=1, collision_strategy=ConcurrencyLimitStrategy.ENQUEUE),
    )


def maintenance_deployment(*, cron: str = MAINTENANCE_CRON, timezone: str = NIGHTLY_TIMEZONE,
                           keep_hours: float = 24.0, name: str = "edgar-lake-maintenance") -> RunnerDeployment:
    """Lake maintenance (flows/maintain.py) on ``cron`` in ``timezone``, one run at a time; snapshots
    younger than ``keep_hours`` (and the files they read) are kept for the readers pinned to them."""
    return maintenance_flow.to_deployment(
        name=name, schedule=Cron(cron, timezone=timezone), parameters={"keep_hours": keep_hours},
        description="DuckLake compaction, snapshot expiry and file cleanup, with its figures.",
        tags=["edgar-warehouse", "maintenance"],
        concurrency_limit=ConcurrencyLimitConfig(limit=1, collision_strategy=ConcurrencyLimitStrategy.ENQUEUE),
    )


def deployments(db: str | Path, **kwargs) -> list[RunnerDeployment]:
    """What ``serve`` runs: the nightly, and on the DuckLake backend its maintenance too."""
    from warehouse.store.lake import lake_config

    return [nightly_deployment(db, **kwargs)] + ([maintenance_deployment()] if lake_config() is not None else [])


def serve_nightly(db: str | Path, **kwargs) -> None:
    """Serve the deployments until stopped (needs a Prefect API: `prefect server start`)."""
    from prefect import serve

    serve(*deployments(db, **kwargs))
