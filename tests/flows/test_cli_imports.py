"""What a CLI process imports: a command that fetches nothing never imports the HTTP client or Prefect.

Every module a command imports is paid by every run of it (a one-company `load` must stay < 2 s end
to end, process start included): `load`, `init`, `sql`, `status` of a local warehouse need neither
httpx (pipelines/sec_client.py) nor Prefect, and no command needs pydantic to read its command line.
Run in a fresh interpreter, as the console script is.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import COMPANYFACTS_DIR

pytestmark = pytest.mark.slow  # CLI processes (make check leaves it out)

ROOT = Path(__file__).resolve().parents[2]
NOT_FOR_LOCAL_COMMANDS = ("httpx", "prefect", "dask", "distributed")
# Parsing the command line must not import pydantic (typer 0.29 built a TypeAdapter per parameter:
# ~0.12 s CPU of every process, pinned below it in pyproject.toml); the agent's tools still use it.
NOT_FOR_THE_COMMAND_LINE = ("pydantic", "pydantic_core")

RUN = """
import json, sys
from flows.cli import main
out, argv = sys.argv[1], sys.argv[2:]
sys.argv = ["edgar-warehouse", *argv]
try:
    main()
except SystemExit as exc:
    code = exc.code or 0
else:
    code = 0
with open(out, "w") as fh:
    json.dump({"exit": code, "modules": sorted(sys.modules)}, fh)
"""


def run_cli(tmp_path: Path, *args: str) -> tuple[int, set[str], str]:
    """Exit code, top-level packages imported and stderr of one CLI process running ``args``."""
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", RUN, str(out), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert out.exists(), proc.stderr
    result = json.loads(out.read_text())
    return result["exit"], {m.split(".")[0] for m in result["modules"]}, proc.stderr


APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
NVIDIA = COMPANYFACTS_DIR / "CIK0001045810.json.gz"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("imports")
    db = folder / "w.duckdb"
    code, _, stderr = run_cli(folder, "--db", str(db), "load", str(APPLE))
    assert code == 0, stderr
    return db


@pytest.mark.parametrize("args", [
    ["load", str(NVIDIA)],  # a new document: parsed and loaded
    ["load", str(APPLE)],  # unchanged: found by sha256 before parsing
    ["init"],
    ["sql", "SELECT count(*) FROM facts"],
    ["status"],
], ids=["load", "reload", "init", "sql", "status"])
def test_local_commands_import_no_http_client_nor_prefect(warehouse, tmp_path, args):
    code, packages, stderr = run_cli(tmp_path, "--db", str(warehouse), *args)
    assert code == 0, stderr
    assert not packages & set(NOT_FOR_LOCAL_COMMANDS), sorted(packages & set(NOT_FOR_LOCAL_COMMANDS))
    assert not packages & set(NOT_FOR_THE_COMMAND_LINE), sorted(packages & set(NOT_FOR_THE_COMMAND_LINE))
    if args == ["load", str(NVIDIA)]:
        assert "duckdb" in packages and "pyarrow" in packages  # (the probe sees what the command imported)


def test_unchanged_reload_imports_no_loader_nor_arrow(warehouse, tmp_path):
    """A batch of documents already loaded stores nothing: it needs neither the loaders nor their
    numpy and pyarrow (0.24 s of a process); it still reports the document unchanged."""
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", RUN, str(out), "--db", str(warehouse), "load", str(APPLE)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    result = json.loads(out.read_text())
    assert result["exit"] == 0, proc.stderr
    assert "0 loaded, 1 unchanged, 0 rejected" in proc.stdout
    assert not {"warehouse.load.kinds", "numpy", "pyarrow"} & set(result["modules"])


def test_help_imports_no_database(tmp_path):
    code, packages, stderr = run_cli(tmp_path, "--help")
    assert code == 0, stderr
    assert not packages & {*NOT_FOR_LOCAL_COMMANDS, "pyarrow", "polars", "numpy"}


def test_resolve_imports_no_loader_nor_arrow(warehouse, tmp_path):
    """`resolve` (issue 26: under 0.3 s a process) needs neither the loaders nor pyarrow/numpy (~0.1 s of a
    process): they came with the bootstrap's default batch size (flows.bootstrap) and ticker_key."""
    code, packages, stderr = run_cli(tmp_path, "--db", str(warehouse), "resolve", "320193")
    assert code == 0, stderr
    assert not packages & {*NOT_FOR_LOCAL_COMMANDS, "pyarrow", "polars", "numpy"}, sorted(packages)


def test_a_load_outside_a_terminal_in_one_transaction_imports_no_progress_bar(tmp_path):
    """rich's Progress is made only where something shows it (a terminal's bar, the ETA of a run in
    batches): a script's `load` of a document paid for its import (~0.02 s CPU) and showed nothing."""
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", RUN, str(out), "--db", str(tmp_path / "w.duckdb"), "load",
                           str(APPLE)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    result = json.loads(out.read_text())
    assert result["exit"] == 0, proc.stderr
    assert "1 loaded, 0 unchanged, 0 rejected" in proc.stdout
    assert "rich.progress" not in result["modules"]


SEARCHES = """
import json, sys
from flows.cli import main
out, argv = sys.argv[1], sys.argv[2:]

class Count:  # last on sys.meta_path: sees every search that no earlier finder answered
    n = 0

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        cls.n += name == "pandas"

sys.meta_path.append(Count)
sys.argv = ["edgar-warehouse", *argv]
try:
    main()
except SystemExit:
    pass
with open(out, "w") as fh:
    json.dump({"searches": Count.n, "pandas": "pandas" in sys.modules}, fh)
"""


def test_a_load_searches_sys_path_for_pandas_once_not_per_statement(tmp_path):
    """DuckDB's client tries `import pandas` twice per statement with parameters; without pandas
    installed each try searched sys.path again (~0.1 ms): a one-company load made ~870. The CLI looks
    once (flows.cli.NotInstalled answers the rest)."""
    out = tmp_path / "searches.json"
    proc = subprocess.run([sys.executable, "-c", SEARCHES, str(out), "--db", str(tmp_path / "w.duckdb"), "load",
                           str(NVIDIA)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    result = json.loads(out.read_text())
    assert "1 loaded, 0 unchanged, 0 rejected" in proc.stdout, proc.stderr
    if result["pandas"]:
        pytest.skip("pandas is installed here: DuckDB finds it, nothing is searched again")
    assert result["searches"] <= 1
