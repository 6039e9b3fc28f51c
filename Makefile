# shedkit: `make run` starts the web server (shedkit serve), `make test` checks everything,
# `make bench` measures speed against the peer engines.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(BENCH_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

run: $(STAMP)
	$(BIN)/shedkit serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

pytest: $(STAMP)
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

# Web server tests: Debian's chromium for the browser tests and a PostgreSQL server on
# loopback (scripts/server-test-deps.sh installs them as root, skips what is present).
.PHONY: server-test-deps
server-test-deps:
	sh scripts/server-test-deps.sh build
pytest: server-test-deps
pytest: export SHEDKIT_TEST_PG_URL = $(shell cat build/pg-url 2>/dev/null)
