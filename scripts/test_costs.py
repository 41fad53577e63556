"""Write tests/slow_tests.tsv from cost logs (tests/cost_log.py): the tests that cost at least
SLOW_CPU_SECONDS of CPU, which make check leaves out. Prints what the fast set costs with and without them.

    EDGAR_TEST_COST_LOG=/tmp/costs .venv/bin/pytest -q -n auto --dist loadgroup
    .venv/bin/python scripts/test_costs.py /tmp/costs.*
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cost_log import SLOW_CPU_SECONDS, SLOW_TESTS, slow_tests  # noqa: E402


def main(paths: list[str]) -> None:
    costs: dict[str, float] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            nodeid, cpu, _wall = line.split("\t")
            costs[nodeid] = float(cpu)
    listed = slow_tests()
    slow = {n: c for n, c in costs.items() if c >= SLOW_CPU_SECONDS}
    # a listed test not measured this time (e.g. a run of the fast set) stays listed
    keep = {n: cpu for n, cpu in listed.items() if n not in costs}
    rows = sorted({**keep, **slow}.items(), key=lambda kv: (-kv[1], kv[0]))
    SLOW_TESTS.write_text(f"# written by scripts/test_costs.py: tests costing >= {SLOW_CPU_SECONDS} s CPU, left out of make check\n"
                          + "".join(f"{n}\t{c:.1f}\n" for n, c in rows))
    rest = sum(c for n, c in costs.items() if n not in slow)
    print(f"{len(costs)} tests measured, {sum(costs.values()):.0f} s CPU; {len(rows)} listed slow "
          f"({len(slow)} measured now, {sum(slow.values()):.0f} s); the rest {rest:.0f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
