# edgar-warehouse — `make help` lists the targets.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DB ?= edgar.duckdb
export PREFECT_HOME ?= $(CURDIR)/.prefect
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS ?= 90
export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export PREFECT_LOGGING_LEVEL ?= WARNING

.PHONY: help setup demo test lint bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-8s %s\n", $$1, $$2}'

setup: ## create .venv and install the project with its dev tools
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,scale]'

demo: ## build a real warehouse ($(DB)) from bundled recorded SEC responses (no network) and print it
	rm -f $(DB) $(DB).wal
	SEC_USER_AGENT="$${SEC_USER_AGENT:-edgar-warehouse demo demo@example.invalid}" \
	  $(BIN)/edgar-warehouse --db $(DB) refresh --replay tests/fixtures/sec \
	  --ticker AAPL --ticker NVDA --ticker TSM --ticker GOOGL \
	  --insider-since 2022-05-06 --insider-until 2022-05-06; \
	  rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 3 ]  # 3 = loaded, with documents the replay folder lacks
	$(BIN)/edgar-warehouse --db $(DB) status

test: lint ## lint (layer rules included) and run the test suite
	$(BIN)/pytest -q

lint: ## ruff, with per-folder import bans that keep the three layers apart
	$(BIN)/ruff check pipelines warehouse flows tests

BENCH_DIR ?= $(CURDIR)/.bench
bench: ## quick benchmarks (~5 min on 2 cores; prints figures, and how to run the big ones)
	$(BIN)/pip install -q -e '.[bench]' || echo "edgartools not installable: bench prints our figures only"
	mkdir -p $(BENCH_DIR)
	$(BIN)/python tests/bench/bench_companyfacts.py --runs 3
	$(BIN)/python tests/bench/bench_parse_companyfacts.py --runs 5
	$(BIN)/python tests/bench/bench_scale.py --scales 1,10 --incremental --work $(BENCH_DIR)/scale \
	  --queries 1000000 --query-budget 20
	@echo "Bigger runs (not in make bench; the 100x inputs take 2.4 GB, the universe ~15 GB of JSON):"
	@echo "  $(BIN)/python tests/bench/bench_scale.py --scales 1,10,100 --incremental --queries 5000000 --work $(BENCH_DIR)/scale"
	@echo "  $(BIN)/python tests/bench/bench_scale.py --scales 1 --universe --incremental --queries 5000000 --work $(BENCH_DIR)/scale"
	@echo "  $(BIN)/python tests/bench/bench_companyfacts.py --profile    # where a full ingest's time goes"
	@echo "  $(BIN)/python tests/bench/bench_parse_memory.py --mb 200     # peak RSS parsing one 200 MB payload"

clean: ## remove the demo warehouse and caches
	rm -rf $(DB) $(DB).wal .pytest_cache .ruff_cache .prefect .bench
