"""What each test costs, measured, and the fast set it decides (``make check``).

``EDGAR_TEST_COST_LOG=FILE pytest ...`` appends one line per test to ``FILE.<worker>``: node id, CPU
seconds (the process's own and its waited children's, setup and teardown included), wall seconds.
``python scripts/test_costs.py FILE.*`` keeps the tests costing at least ``SLOW_CPU_SECONDS`` in
``tests/slow_tests.tsv``; tests/conftest.py marks those ``slow``, so ``make check`` leaves them out
(``make test`` runs everything). A module fixture's cost lands on the first test that builds it:
measure again after a change and the file follows.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

LOG_ENV = "EDGAR_TEST_COST_LOG"
SLOW_TESTS = Path(__file__).with_name("slow_tests.tsv")
SLOW_CPU_SECONDS = 2.0


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class CostLog:
    """Times one test: ``start()`` before it, ``write(nodeid)`` after."""

    def __init__(self, path: str):
        self.path = f"{path}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
        self.cpu = self.wall = 0.0

    def start(self) -> None:
        self.cpu, self.wall = cpu_seconds(), time.monotonic()

    def write(self, nodeid: str) -> None:
        with open(self.path, "a") as out:
            out.write(f"{nodeid}\t{cpu_seconds() - self.cpu:.2f}\t{time.monotonic() - self.wall:.2f}\n")


def slow_tests() -> dict[str, float]:
    """Node id -> its measured CPU seconds, from tests/slow_tests.tsv."""
    if not SLOW_TESTS.exists():
        return {}
    rows = (line.split("\t") for line in SLOW_TESTS.read_text().splitlines() if line and not line.startswith("#"))
    return {nodeid: float(cpu) for nodeid, cpu, *_ in rows}
