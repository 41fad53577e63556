"""The nightly refresh as a Prefect deployment (cron schedule), served by a long-running process."""

from __future__ import annotations

from pathlib import Path

from prefect.client.schemas.objects import ConcurrencyLimitConfig, ConcurrencyLimitStrategy
from prefect.deployments.runner import RunnerDeployment

from flows.refresh import http_cache_for, refresh_flow
from warehouse.publish import NIGHTLY_WAIT, lock_wait

NIGHTLY_CRON = "30 6 * * *"  # 06:30 UTC: after EDGAR's overnight index and companyfacts updates


def nightly_deployment(db: str | Path, *, cron: str = NIGHTLY_CRON, tickers: list[str] | None = None,
                       ciks: list[int] | None = None, insider_lookback_days: int = 3,
                       batch_size: int = 100, name: str = "edgar-nightly") -> RunnerDeployment:
    """Refresh every company the warehouse holds (plus ``tickers``/``ciks``) on ``cron``.

    Cheap when little changed: the HTTP cache revalidates with ETag/Last-Modified, identical
    payloads are skipped as unchanged, and only Forms 3/4/5 not loaded yet are fetched. Every
    ``batch_size`` companies commit as they arrive (one load run), so memory stays bounded.
    A writer still running (a manual load) is waited for up to 10 minutes ($EDGAR_WAREHOUSE_LOCK_WAIT).
    The deployment runs one at a time: a run scheduled while another is still going waits in line
    (Prefect's deployment concurrency limit 1, ENQUEUE), it never runs beside it."""
    return refresh_flow.to_deployment(
        name=name, cron=cron,
        parameters={"db": str(db), "tickers": tickers or [], "ciks": ciks or [], "all_companies": True,
                    "cache_dir": str(http_cache_for(db)), "insider_lookback_days": insider_lookback_days,
                    "batch_size": batch_size, "lock_wait": lock_wait(NIGHTLY_WAIT)},
        description="Nightly EDGAR refresh of every company in the warehouse.",
        tags=["edgar-warehouse", "nightly"],
        concurrency_limit=ConcurrencyLimitConfig(limit=1, collision_strategy=ConcurrencyLimitStrategy.ENQUEUE),
    )


def serve_nightly(db: str | Path, **kwargs) -> None:
    """Serve the deployment until stopped (needs a Prefect API: `prefect server start`)."""
    from prefect import serve

    serve(nightly_deployment(db, **kwargs))
