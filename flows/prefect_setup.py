"""Prefect's environment for every CLI process, and Prefect's start failures said in one line.

Set before Prefect is first imported (its settings are read then), never over what the user set.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

STARTUP_TIMEOUT_ENV = "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"
PREFECT_DEFAULTS = {
    # Prefect's default, 20 s, is too short on a busy machine: the ephemeral server (a uvicorn
    # process migrating its SQLite database) took longer on 2 shared cores and the run failed.
    STARTUP_TIMEOUT_ENV: "90",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",  # the ephemeral server sends no usage telemetry
    "PREFECT_LOGGING_LEVEL": "WARNING",  # the CLI prints its own summary; -v and Prefect's UI show more
}


def apply_prefect_defaults(environ: MutableMapping[str, str] = os.environ) -> None:
    """Give Prefect the CLI's defaults where ``environ`` sets nothing (the user's values stay)."""
    for name, value in PREFECT_DEFAULTS.items():
        if not environ.get(name, "").strip():
            environ[name] = value


def prefect_start_failure(exc: BaseException) -> str | None:
    """The one line (what happened, what to do) for Prefect's ephemeral API server failing to
    start, else None."""
    text = str(exc)
    if not isinstance(exc, RuntimeError) or "ephemeral Prefect API server" not in text:
        return None
    timeout = os.environ.get(STARTUP_TIMEOUT_ENV) or "20"
    if "exited with code" in text:
        code = text.split("exited with code", 1)[1].split(".", 1)[0].strip()
        what = f"Prefect's ephemeral API server exited (code {code}) before it answered"
    else:
        what = f"Prefect's ephemeral API server did not answer within {timeout} s (a busy machine?)"
    return (f"{what}; nothing was fetched or written. Run again, raise {STARTUP_TIMEOUT_ENV} "
            f"(now {timeout}), or start one server for every run (`prefect server start`) and set "
            f"PREFECT_API_URL=http://127.0.0.1:4200/api")
