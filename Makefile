# The two commands: `make serve` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

.PHONY: serve test check bench bench-site lint docs clean

# `make serve` installs what serving needs and nothing more (a fresh clone answers sooner); the test
# extras (pytest, playwright, mypy, …) come with `make test`, `make lint` and the benches.
$(BIN)/.served: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e .
	touch $@

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(BIN)/.served $@

serve: $(BIN)/.served
	$(BIN)/judge index --if-stale
	$(BIN)/gunicorn -c gunicorn.conf.py --workers $(WORKERS) --bind $(HOST):$(PORT) 'judge.web:create_app()'

# lint first: a lint or type error fails `make test` (and CI, which runs it) before the suite starts
# the suite on every core (pytest-xdist): each test file runs whole on one worker, so a file's module
# fixtures (a live server, a kept offline site) are made once; `make test PYTEST_WORKERS=0` runs it in
# this one process.
PYTEST_WORKERS ?= auto
test: lint
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

check: $(BIN)/.served
	$(BIN)/judge codex-check
	$(BIN)/judge check scenarios/

bench: $(BIN)/.installed
	$(BIN)/python bench/search.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/desk_time.py

bench-site: $(BIN)/.installed
	$(BIN)/python bench/abuse.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/venue.py
	$(BIN)/python bench/fuzz.py

# Cyclomatic complexity as radon counts it (each `and` / `or` is a branch, which ruff's C901 does not
# count): no function of judge/ over 20. `radon cc -n D` lists every block ranked D or worse, i.e. of
# complexity 21 or more, so the gate is "that list is empty" (tests/test_complexity.py checks the same).

# ruff (rules and the few reasoned per-file exceptions in pyproject.toml), then mypy over judge/ with
# the engine held to --strict (config in pyproject.toml), then the complexity gate above. `make test`
# runs it first.
lint: $(BIN)/.installed
	$(BIN)/ruff check judge tests bench
	$(BIN)/mypy
	@over="$$($(BIN)/radon cc -s -n D judge)"; if [ -n "$$over" ]; then echo "$$over"; \
	  echo "cyclomatic complexity over 20 (radon, and/or counted): split these functions"; exit 1; fi

# the tables in docs/ made from data (the slot tree); tests/test_docs_tables.py fails when one is stale
docs: $(BIN)/.installed
	$(BIN)/python -m judge.docs_tables

clean:
	rm -rf $(VENV) instance .pytest_cache
