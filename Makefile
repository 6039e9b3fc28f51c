# shedkit: `make run` starts the web server (shedkit serve), `make test` checks everything,
# `make docs` builds the docs site into build/site, `make bench` measures speed against the
# peer engines.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVER_STAMP := $(VENV)/.installed-server
BENCH_STAMP := $(VENV)/.installed-bench
DOCS_STAMP := $(VENV)/.installed-docs
# `make run PORT=8080` serves on another port; `make run HOST=0.0.0.0` to every address.
PORT ?= 8000
HOST ?= 127.0.0.1
# `make cluster` starts NODES nodes on loopback, on ports PORT+1 to PORT+NODES, on a fresh
# database unless KEEP_DB=1.
NODES ?= 3
KEEP_DB ?= 0
# `make run COMPILED=1` serves with the compiled build (.venv-compiled, made by `make compiled`
# when it is missing or older than the sources); a plain `make run` never builds it.
COMPILED ?= 0
# Test workers (pytest-xdist): a test file stays on one worker, so a module's server,
# cluster or browser is started once, and files start in the order tests/conftest.py puts
# them (slowest first), not xdist's by count of tests. TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= 2
XDIST := $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder)
COMPILED_VENV := .venv-compiled
COMPILED_BIN := $(COMPILED_VENV)/bin
COMPILED_STAMP := $(COMPILED_VENV)/.installed
RUN_BIN := $(if $(filter 1,$(COMPILED)),$(COMPILED_BIN),$(BIN))

.PHONY: run cluster test test-compiled compiled lint typecheck pytest docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# douzero, a test-only package like those of [dev], goes in without its dependencies:
# it requires torch and rlcard, and the DouZero encoding cross-check
# (tests/agents/douzero) imports only its numpy modules.
DOUZERO := douzero==1.1.0
# PyTorch for `shedkit train` ([train], in [dev]) and the DouZero bridging test: pinned to
# the release whose CPU build pip finds on this project's machines (about 20 s and 1 GB in
# the venv); a bare `torch` would fetch a CUDA build of several GB.
TORCH := torch==2.13.0

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,docs]' '$(TORCH)'
	$(BIN)/python -m pip install --quiet --no-deps '$(DOUZERO)'
	touch $@ $(SERVER_STAMP) $(DOCS_STAMP)

# Only what `shedkit serve` needs: no test, RL or docs tools.
$(SERVER_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server]'
	touch $@

# Only what `make docs` needs: mkdocstrings reads the sources without importing them.
$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@

$(BENCH_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]' '$(TORCH)'
	touch $@

run: $(if $(filter 1,$(COMPILED)),$(COMPILED_STAMP),$(SERVER_STAMP))
	@echo "The shedkit command is $(RUN_BIN)/shedkit; 'source $(RUN_BIN)/activate' puts it on PATH."
	$(RUN_BIN)/shedkit serve --host $(HOST) --port $(PORT)

# Nodes of one room on loopback, sharing a PostgreSQL and a Redis that
# scripts/server-test-deps.sh brings up (and leaves running); Ctrl-C stops the nodes. Each
# start is on a fresh database (shedkit_cluster dropped and created again); `make cluster
# KEEP_DB=1` keeps the last run's tables.
cluster: $(SERVER_STAMP)
	sh scripts/cluster.sh --port $(PORT) --nodes $(NODES) $(if $(filter 1,$(KEEP_DB)),--keep-db)

# lint-imports: the architecture's contracts in pyproject.toml ([tool.importlinter]).
lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks setup.py build_backend examples
	$(BIN)/ruff format --check src tests benchmarks setup.py build_backend examples
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy src

# The PostgreSQL server and the Redis that server-test-deps started (if it did) are stopped,
# pass or fail.
pytest: $(STAMP)
	status=0; $(BIN)/pytest $(XDIST) || status=$$?; sh scripts/server-test-deps.sh build stop; \
		exit $$status

# NO_MKDOCS_2_WARNING: Material's notice about its own end of life is not a build warning.
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir build/site

test: lint typecheck docs pytest

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench.py

# The compiled build (mypyc, SHEDKIT_COMPILE=1) lives in its own venv, installed from its
# wheel (not editable) so that nothing is imported from src/.
WHEELHOUSE := build/wheelhouse-compiled

$(COMPILED_BIN)/python:
	$(PYTHON) -m venv $(COMPILED_VENV)
	$(COMPILED_BIN)/python -m pip install --quiet --upgrade pip

compiled: | $(COMPILED_BIN)/python
	rm -rf $(WHEELHOUSE)
	SHEDKIT_COMPILE=1 $(COMPILED_BIN)/python -m pip wheel --quiet --no-deps -w $(WHEELHOUSE) .
	$(COMPILED_BIN)/python -m pip install --quiet --force-reinstall --no-deps $(WHEELHOUSE)/shedkit-*.whl
	$(COMPILED_BIN)/python -m pip install --quiet "$$(ls $(WHEELHOUSE)/shedkit-*.whl)[dev,bench]" '$(TORCH)'
	$(COMPILED_BIN)/python -m pip install --quiet --no-deps '$(DOUZERO)'
	$(COMPILED_BIN)/python -c "import sys, shedkit.core.compiled as c; sys.exit(c.main(['--require']))"
	touch $(COMPILED_STAMP)

# The wheel holds every file of src/ (the server's pages too): any newer one means a rebuild.
$(COMPILED_STAMP): pyproject.toml setup.py build_backend/shedkit_backend.py \
		$(if $(filter 1,$(COMPILED)),$(shell find src -type f -not -path '*/__pycache__/*'))
	$(MAKE) compiled

# The suites in which compilation changes what runs, against the installed compiled wheel:
# the engine, the games, the agents, the environments, the arena, the packaging, and the
# server's bots and a whole deal served (tests/ only: the doctests of src/ run in `make
# test`; the browser suite and the rest of the server's run there, on the same engine code).
# Then a short benchmark of both builds.
COMPILED_SUITES := tests/core tests/doudizhu tests/dominoes tests/president tests/tiengow tests/rules \
	tests/agents tests/envs tests/arena tests/benchmarks tests/packaging \
	tests/server/test_api.py tests/server/test_bots.py
test-compiled: compiled | $(STAMP)
	SHEDKIT_EXPECT_COMPILED=1 $(COMPILED_BIN)/python -m pytest -p no:cacheprovider $(XDIST) \
		$(COMPILED_SUITES)
	$(BIN)/python benchmarks/bench.py --quick

clean:
	rm -rf $(VENV) $(COMPILED_VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build/site

# Web server tests: Debian's chromium for the browser tests, a PostgreSQL server and a Redis
# on loopback (scripts/server-test-deps.sh installs them as root, skips what is present).
.PHONY: server-test-deps
server-test-deps:
	sh scripts/server-test-deps.sh build
pytest: server-test-deps
pytest: export SHEDKIT_TEST_PG_URL = $(shell cat build/pg-url 2>/dev/null)
pytest: export SHEDKIT_TEST_REDIS_URL = $(shell cat build/redis-url 2>/dev/null)
