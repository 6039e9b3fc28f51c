# shedkit: `make run` starts the web server (shedkit serve), `make test` checks everything,
# `make docs` builds the docs site into build/site, `make bench` measures speed against the
# peer engines.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVER_STAMP := $(VENV)/.installed-server
BENCH_STAMP := $(VENV)/.installed-bench
# `make run PORT=8080` serves on another port.
PORT ?= 8000

.PHONY: run test lint typecheck pytest docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,docs]'
	touch $@ $(SERVER_STAMP)

# Only what `shedkit serve` needs: no test, RL or docs tools.
$(SERVER_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server]'
	touch $@

$(BENCH_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

run: $(SERVER_STAMP)
	$(BIN)/shedkit serve --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

# The PostgreSQL server that server-test-deps started (if it did) is stopped, pass or fail.
pytest: $(STAMP)
	status=0; $(BIN)/pytest || status=$$?; sh scripts/server-test-deps.sh build stop; exit $$status

docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir build/site

test: lint typecheck docs pytest

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build/site

# Web server tests: Debian's chromium for the browser tests and a PostgreSQL server on
# loopback (scripts/server-test-deps.sh installs them as root, skips what is present).
.PHONY: server-test-deps
server-test-deps:
	sh scripts/server-test-deps.sh build
pytest: server-test-deps
pytest: export SHEDKIT_TEST_PG_URL = $(shell cat build/pg-url 2>/dev/null)
