"""Crash-test instrumentation: SIGKILL this process at a named point when the environment asks.

``EDGAR_WAREHOUSE_KILL_AT=<point>:<n>`` kills the process (SIGKILL: no cleanup, no atexit, like
the OOM killer or a power cut of the process) the n-th time it passes ``kill_point(<point>)``.
Unset (always, outside the crash harness in tests/warehouse/store/test_crash_harness.py) it costs one
dictionary lookup. Points: see POINTS.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

ENV = "EDGAR_WAREHOUSE_KILL_AT"
POINTS = (
    "run_started",        # the load_runs row says running, nothing loaded yet
    "document_loaded",    # inside a batch transaction, after one document's rows
    "raw_stored",         # a raw payload was written (before the batch commits)
    "before_commit",      # a batch is complete and about to commit
    "batch_committed",    # a batch committed, the run goes on
    "run_finished",       # the run has its final status
)
_passed: Counter = Counter()


def kill_point(name: str) -> None:
    spec = os.environ.get(ENV)
    if not spec:
        return
    point, _, n = spec.partition(":")
    if point != name:
        return
    _passed[name] += 1
    if _passed[name] >= int(n or 1):
        os.kill(os.getpid(), signal.SIGKILL)
