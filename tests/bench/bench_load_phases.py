"""Benchmark: where one `edgar-warehouse load` process spends its CPU, phase by phase (no profiler).

Run: `.venv/bin/python tests/bench/bench_load_phases.py -- --db FILE load PATH...` (any CLI arguments
after ``--``). It runs the CLI in this process as the console script does (``flows.cli.main``'s
settings, no interpreter teardown skipped: the figures are printed first) and prints CPU seconds
(``time.process_time``: every thread of the process; the parse pool, when a batch starts one, is
not counted) spent in: start and imports up to the command, the schema check or creation
(``upgrade``), parsing (with the parser's imports), storing the records, the current facts
(``refresh_current_facts``), derive (metrics, checks, stored standard facts), the closing
CHECKPOINT, and the rest (commit, raw payloads, publishing, reporting). It is not a test.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# (module, function, label); where another module imported the function by name, it is rebound there too
PHASES = [
    ("warehouse.schema.migrate", "upgrade", "schema check or creation", ["warehouse.store.db"]),
    ("pipelines.parse", "parse_many", "parse (with its imports)", ["warehouse.load.ingest"]),
    ("warehouse.load.batch", "_load_items", "store records", []),
    ("warehouse.load.batch", "refresh_current_facts", "current facts", []),
    ("warehouse.load.batch", "_derive", "derive", []),
    ("warehouse.store.db", "small_checkpoint", "closing CHECKPOINT", []),
]


def timed(took: dict[str, float], label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            took[label] = took.get(label, 0.0) + time.process_time() - t0
    return run


def main(argv: list[str]) -> int:
    args = argv[1:] if argv and argv[0] == "--" else argv
    if not args:
        print(__doc__)
        return 2
    from flows import cli

    took: dict[str, float] = {}
    for module, name, label, also in PHASES:
        mod = importlib.import_module(module)
        wrapped = timed(took, label, getattr(mod, name))
        for where in [module, *also]:
            setattr(importlib.import_module(where), name, wrapped)
    started = time.process_time()  # the interpreter's start and the imports of a load (not the parser's)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    sys.argv = ["edgar-warehouse", *args]
    code: object = 0
    real_exit = cli._exit_without_teardown
    cli._exit_without_teardown = lambda c: None  # type: ignore[assignment]  # print the figures first
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code
    finally:
        cli._exit_without_teardown = real_exit  # type: ignore[assignment]
    total = time.process_time()
    rest = total - started - sum(took.values())
    parts = [f"start + imports {started:.3f}", *(f"{k} {v:.3f}" for k, v in took.items()), f"rest {rest:.3f}"]
    print(f"CPU s: {'; '.join(parts)}; total {total:.3f} (load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
    return code if isinstance(code, int) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
