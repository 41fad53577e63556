# edgar-warehouse — `make help` lists the targets.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DB ?= edgar.duckdb
export PREFECT_HOME ?= $(CURDIR)/.prefect
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS ?= 90
export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export PREFECT_LOGGING_LEVEL ?= WARNING

.PHONY: help setup demo test check duckdb2 lint docs bench clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-8s %s\n", $$1, $$2}'

setup: ## create .venv and install the project with its dev tools
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,scale]'
	# bytecode once, as an installed wheel has it: with PYTHONDONTWRITEBYTECODE set (this machine's
	# environment) every CLI process would compile the project's modules again (~0.12 s CPU each)
	$(BIN)/python -m compileall -q pipelines warehouse flows

# The demo's companies are those whose recorded SEC data is whole: companyfacts, the submissions
# file and every page it declares (tests/fixtures/sec holds that for Marvell only; AAPL, NVDA, TSM,
# GOOGL each declare a page never recorded). tests/flows/test_demo.py runs these lines and checks the
# warehouse ends complete, with nothing rejected or not fetched.
DEMO_REFRESH = refresh --replay tests/fixtures/sec --ticker MRVL --no-insiders
DEMO_COMPARE = compare free_cash_flow -t MRVL -y 2025
DEMO_GROWTH = growth revenue -t MRVL --from 2023 --to 2025

demo: ## build a real warehouse ($(DB)) from bundled recorded SEC responses (no network) and print it
	rm -f $(DB) $(DB).wal
	@echo "==> 1/3 edgar-warehouse $(DEMO_REFRESH)"
	@echo "    the Prefect refresh flow over recorded SEC responses (no network); Prefect's first start takes ~20 s"
	SEC_USER_AGENT="$${SEC_USER_AGENT:-edgar-warehouse demo demo@example.invalid}" PREFECT_LOGGING_LEVEL=INFO \
	  $(BIN)/edgar-warehouse --db $(DB) $(DEMO_REFRESH)
	@echo "==> 2/3 edgar-warehouse status"
	$(BIN)/edgar-warehouse --db $(DB) status
	@echo "==> 3/3 numbers with their receipts"
	$(BIN)/edgar-warehouse --db $(DB) $(DEMO_COMPARE)
	$(BIN)/edgar-warehouse --db $(DB) $(DEMO_GROWTH)

# The suite on every core plus one (pytest-xdist): many tests wait on processes they start, so one more
# worker than cores keeps the cores busy (2 cores: 3 workers ran the suite in 12 min using 1.95 cores,
# 2 workers in 16-17 min). A module's tests stay on one worker (its fixtures are built once), Prefect's
# tests share one worker (tests/conftest.py).
TEST_WORKERS ?= $(shell $(PY) -c "import os; print(len(os.sched_getaffinity(0)) + 1)")
PYTEST_PARALLEL = $(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup

test: lint ## lint (layer rules included) and run every test: what CI runs
	$(PYTEST_PARALLEL)

check: lint ## lint and the fast tests (not marked slow: no Prefect, PostgreSQL or subprocesses); target < 3 min
	$(PYTEST_PARALLEL) -m "not slow"

# DuckDB 2.x beside the pin (docs/decisions.md, "DuckDB versions"): its own venv with the dev tools, then
# DuckDB $(DUCKDB2) over the pin (pip warns that it conflicts with duckdb==1.5.5: that is the point). No
# `scale` extra: its extensions exist for 1.5.5 only, so the DuckLake tests skip there, saying so.
DUCKDB2 ?= 2.0.1
VENV2 ?= .venv-duckdb2
duckdb2: ## the fast tests on DuckDB 2.x (DUCKDB2=2.0.1) in .venv-duckdb2; DuckLake tests skip (1.5.5 extensions only)
	test -x $(VENV2)/bin/python || $(PY) -m venv $(VENV2)
	$(VENV2)/bin/pip install -q --upgrade pip
	$(VENV2)/bin/pip install -q -e '.[dev]'
	$(VENV2)/bin/pip install -q duckdb==$(DUCKDB2)
	$(VENV2)/bin/python -c "import duckdb; assert duckdb.__version__ == '$(DUCKDB2)', duckdb.__version__"
	$(VENV2)/bin/pytest -q -n $(TEST_WORKERS) --dist loadgroup -m "not slow" -rs tests/pipelines tests/warehouse

docs: ## write the generated reference: docs/data-dictionary.md (a test fails when it is stale)
	$(BIN)/python scripts/data_dictionary.py

lint: ## ruff, with per-folder import bans that keep the three layers apart; mypy on pipelines/ and warehouse/
	$(BIN)/ruff check pipelines warehouse flows tests
	$(BIN)/mypy

BENCH_DIR ?= $(CURDIR)/.bench
BENCH_RUNS ?= 3
BENCH_UNIVERSE ?= 400
bench: ## side by side with edgartools (whole processes) + a universe-shaped bootstrap (~5 min on 2 cores)
	# edgartools (the yardstick) in its own venv: it brings pandas, which DuckDB and pyarrow import
	# on first use when present (0.5-0.9 s a process); the project's install has no pandas
	test -x .venv-bench/bin/python || $(PY) -m venv .venv-bench
	.venv-bench/bin/pip install -q -e '.[bench]' || echo "edgartools not installable: bench prints our figures only"
	$(BIN)/python tests/bench/bench_vs_edgartools.py --runs $(BENCH_RUNS) --universe-members $(BENCH_UNIVERSE) \
	  --work $(BENCH_DIR)
	@echo "The ~100M-fact universe (19,000 members, ~15 GB of JSON): make bench BENCH_UNIVERSE=19000"
	@echo "Other benchmarks (not in make bench; docs/benchmarks.md has their figures):"
	@echo "  $(BIN)/python tests/bench/bench_scale.py --scales 1,10 --incremental --queries 1000000 --work $(BENCH_DIR)/scale"
	@echo "  $(BIN)/python tests/bench/bench_load_phases.py -- --db NEW.duckdb load $(BENCH_DIR)/companyfacts-1x   # CPU by phase"
	@echo "  $(BIN)/python tests/bench/bench_companyfacts.py --profile    # in one process: where an ingest's time goes"
	@echo "  $(BIN)/python tests/bench/bench_parse_companyfacts.py --runs 5; bench_parse_memory.py --mb 200"

clean: ## remove the demo warehouse and caches
	rm -rf $(DB) $(DB).wal .pytest_cache .ruff_cache .mypy_cache .prefect .bench
