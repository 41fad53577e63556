"""Shared fixtures: fixture paths, a fresh writable warehouse, one shared fully loaded warehouse, Prefect."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cost_log import LOG_ENV, CostLog, slow_tests

from helpers import COMPANYFACTS_FILES, lake_extensions_missing_off_the_pin, load_files
from warehouse.store.db import connect, raw_dir_for

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config):
    # pytest-xdist (make test runs -n 2): each worker gets its own Prefect home (its ephemeral API's
    # SQLite database) and its own SEC rate-limit/throttle-block folder, so workers never share state.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if "PREFECT_HOME" not in os.environ:
        os.environ["PREFECT_HOME"] = tempfile.mkdtemp(prefix="edgar-prefect-")
    if worker:
        os.environ["PREFECT_HOME"] = os.path.join(os.environ["PREFECT_HOME"], worker)
    os.makedirs(os.environ["PREFECT_HOME"], exist_ok=True)  # Prefect makes only the last folder (a warning per worker)
    if worker and "EDGAR_WAREHOUSE_STATE_DIR" not in os.environ:
        os.environ["EDGAR_WAREHOUSE_STATE_DIR"] = tempfile.mkdtemp(prefix=f"edgar-state-{worker}-")
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "90")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    if not worker and _shared_prefect_wanted(config):
        _start_shared_prefect(config)


# One Prefect server for the whole run (started by the run's first process, before pytest-xdist
# starts its workers, which inherit PREFECT_API_URL): every CLI process a test starts, and every flow
# run in a process, talks to it instead of starting Prefect's ephemeral server, ~15 s CPU each
# (tests/prefect_server.py). Only for a run on pytest-xdist workers; not for the fast set (make check:
# no Prefect), nor when the caller gave PREFECT_API_URL, nor with EDGAR_TEST_SHARED_PREFECT=0 (then each
# process starts its own, as users' do).
SHARED_PREFECT_ENV = "EDGAR_TEST_SHARED_PREFECT"
SHARED_PREFECT_URL_ENV = "EDGAR_TEST_SHARED_PREFECT_URL"  # the server this run started (never a user's own)


def _shared_prefect_wanted(config) -> bool:
    # a run on workers (make test; -n): a one-file run in one process does not wait for a server
    on_workers = bool(getattr(config.option, "numprocesses", None))
    return (os.environ.get(SHARED_PREFECT_ENV, "1") != "0" and not os.environ.get("PREFECT_API_URL")
            and on_workers and "not slow" not in (config.getoption("markexpr", "") or ""))


def _start_shared_prefect(config) -> None:
    import prefect_server

    home = Path(tempfile.mkdtemp(prefix="edgar-prefect-server-"))
    proc, url = prefect_server.start(home)
    config.stash[_SHARED_PREFECT] = (proc, url, home)
    os.environ["PREFECT_API_URL"] = os.environ[SHARED_PREFECT_URL_ENV] = url


_SHARED_PREFECT = pytest.StashKey[tuple]()


@pytest.hookimpl(trylast=True)  # after pytest-xdist has started its workers (they collect meanwhile)
def pytest_sessionstart(session):
    import prefect_server

    if _SHARED_PREFECT in session.config.stash:
        proc, url, home = session.config.stash[_SHARED_PREFECT]
        prefect_server.wait_healthy(proc, url, home)


def pytest_unconfigure(config):
    import prefect_server

    if _SHARED_PREFECT in config.stash:
        proc, _, home = config.stash[_SHARED_PREFECT]
        prefect_server.stop(proc)
        shutil.rmtree(home, ignore_errors=True)


# What `make check` leaves out (pytest -m "not slow"): a module whose tests spawn processes (the CLI,
# servers, browsers, a wheel build) or kill them says `pytestmark = pytest.mark.slow`; a test that
# asks for one of SLOW_FIXTURES (Prefect, PostgreSQL), or runs on DuckLake (a ducklake parameter, or
# backend_of without a duckdb one: it starts PostgreSQL when asked for a lake), is slow wherever it is.
SLOW_FIXTURES = {"prefect_harness", "postgres_loopback"}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    """Marks slow tests (above) and, for pytest-xdist's --dist loadgroup (make test), keeps each
    module's tests on one worker, so its module fixtures are built once, unless the module says
    ``SPREAD_OVER_WORKERS = True`` (long, independent tests); every Prefect test goes to one worker,
    which starts the Prefect harness once per run instead of once per worker. A test tests/slow_tests.tsv
    lists (measured: tests/cost_log.py) is slow too."""
    measured_slow = slow_tests()
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        lake = "ducklake" in params.values() or ("backend_of" in item.fixturenames and "duckdb" not in params.values())
        if SLOW_FIXTURES & set(item.fixturenames) or lake:
            item.add_marker(pytest.mark.slow)
        item.stash[_SLOW_BY_RULE] = item.get_closest_marker("slow") is not None
        if not item.stash[_SLOW_BY_RULE] and item.nodeid in measured_slow:
            item.add_marker(pytest.mark.slow(reason=f"measured {measured_slow[item.nodeid]} s CPU"))
        if "prefect_harness" in item.fixturenames:
            item.add_marker(pytest.mark.xdist_group("prefect"))
        elif not getattr(item.module, "SPREAD_OVER_WORKERS", False):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


_SLOW_BY_RULE = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With EDGAR_TEST_COST_LOG set, what each test cost (tests/cost_log.py); slow tests by the rules
    above are left out of the log (the fast set's candidates only)."""
    path = os.environ.get(LOG_ENV)
    if not path or item.stash.get(_SLOW_BY_RULE, False):
        yield
        return
    log = CostLog(path)
    log.start()
    yield
    log.write(item.nodeid)


def _our_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith("EDGAR_WAREHOUSE_")}


@pytest.fixture(autouse=True)
def environment_kept() -> Iterator[None]:
    """Every test leaves the warehouse's environment (EDGAR_WAREHOUSE_*) as it found it: a lake's
    backend variables left behind send every later writer of that worker into the lake (CI of
    stop 29: the publish, sandbox and checkpoint tests wrote into a lake). A test that changes it
    fails at teardown, naming what changed, and the environment is put back."""
    before = _our_environment()
    yield
    after = _our_environment()
    if after != before:
        changed = sorted(set(before.items()) ^ set(after.items()))
        for k in set(after) - set(before):
            del os.environ[k]
        os.environ.update(before)
        pytest.fail(f"the test left the environment changed: {changed}")


@pytest.fixture(scope="session")
def replay_root() -> Path:
    """Recorded SEC responses laid out by URL (host/path), for the replay transport."""
    return FIXTURES / "sec"


@pytest.fixture
def warehouse(tmp_path):
    """An open, writable, migrated warehouse in tmp_path/w.duckdb; closed at teardown."""
    con = connect(tmp_path / "w.duckdb")
    yield con
    con.close()


@pytest.fixture
def raw_dir(tmp_path) -> Path:
    """The raw payload store that belongs beside tmp_path/w.duckdb."""
    d = raw_dir_for(tmp_path / "w.duckdb")
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="session")
def loaded_warehouse(tmp_path_factory) -> Path:
    """Path of a warehouse holding ALL vendored companyfacts, loaded once in one batch.

    Open it read-only: ``warehouse.store.db.connect(path, read_only=True)``. Raw payloads are in
    ``warehouse.store.db.raw_dir_for(path)``.
    """
    path = tmp_path_factory.mktemp("loaded") / "w.duckdb"
    con = connect(path)
    try:
        report = load_files(con, COMPANYFACTS_FILES, raw_dir_for(path))
        assert report.status == "succeeded" and report.loaded == len(COMPANYFACTS_FILES), report.summary()
    finally:
        con.close()
    return path


@pytest.fixture(scope="module")
def loaded_con(loaded_warehouse):
    """A read-only connection to ``loaded_warehouse`` (all vendored companyfacts), one per test module."""
    c = connect(loaded_warehouse, read_only=True)
    yield c
    c.close()


@pytest.fixture(scope="session")
def prefect_harness():
    """Prefect for flow tests run in this process (not autouse): the server this run started (above),
    else Prefect's test harness (a temporary API + database; never a PREFECT_API_URL the user set)."""
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.testing.utilities import prefect_test_harness

    shared = os.environ.get(SHARED_PREFECT_URL_ENV)
    if shared and os.environ.get("PREFECT_API_URL") == shared:
        with temporary_settings({PREFECT_API_URL: shared}):
            yield
        return
    with prefect_test_harness(server_startup_timeout=300):
        yield


# --- storage backends: the DuckDB file and DuckLake (catalog in a PostgreSQL on loopback) -------------

@dataclass
class Lakes:
    """A PostgreSQL on 127.0.0.1 (scripts/pg_loopback.py) that hands out fresh DuckLake catalogs."""

    folder: Path
    port: int
    data_root: Path
    made: int = 0

    def new(self, name: str = "lake") -> dict[str, str]:
        """Environment of a new, empty lake (its own database and data folder)."""
        from scripts import pg_loopback

        self.made += 1
        dbname = f"{name}_{self.made}"
        return {"EDGAR_WAREHOUSE_BACKEND": "ducklake",
                "EDGAR_WAREHOUSE_LAKE_CATALOG": pg_loopback.createdb(self.folder, self.port, dbname),
                "EDGAR_WAREHOUSE_LAKE_DATA": str(self.data_root / dbname)}


@pytest.fixture(scope="session")
def postgres_loopback(tmp_path_factory) -> Iterator[Lakes]:
    """A PostgreSQL server started for the session on a free loopback port, stopped at the end.
    Skips (saying why) only where PostgreSQL is not installed (.ci/install-services.sh installs it),
    or off the pinned DuckDB without its extensions (``lake_extensions_missing_off_the_pin``)."""
    from scripts import pg_loopback

    missing = lake_extensions_missing_off_the_pin()
    if missing:
        pytest.skip(missing)
    try:
        pg_loopback.bin_dir()
    except pg_loopback.PostgresUnavailable as exc:
        pytest.skip(f"the DuckLake backend tests need PostgreSQL: {exc}")
    folder = Path(tempfile.mkdtemp(prefix="edgar-pg-"))  # short: the Unix socket path must fit 107 bytes
    port = pg_loopback.free_port()
    pg_loopback.start(folder, port)
    try:
        yield Lakes(folder, port, tmp_path_factory.mktemp("lake-data"))
    finally:
        pg_loopback.stop(folder)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def backend_of(request):
    """``backend_of(name) -> env``: the environment selecting backend ``name`` (a new empty lake for
    ducklake; PostgreSQL is started only when a DuckLake test asks)."""
    def make(name: str) -> dict[str, str]:
        if name == "duckdb":
            return {"EDGAR_WAREHOUSE_BACKEND": "duckdb"}
        return request.getfixturevalue("postgres_loopback").new()
    return make
