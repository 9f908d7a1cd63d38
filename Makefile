# The two commands: `make serve` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

.PHONY: serve test check bench lint clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

serve: $(BIN)/.installed
	$(BIN)/judge index --if-stale
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) 'judge.web:create_app()'

test: $(BIN)/.installed
	$(BIN)/python -m pytest -q

check: $(BIN)/.installed
	$(BIN)/judge codex-check
	$(BIN)/judge check scenarios/

bench: $(BIN)/.installed
	$(BIN)/python bench/search.py
	$(BIN)/python bench/engine.py

# ruff (rules and per-file list in pyproject.toml), then mypy over judge/ (config in pyproject.toml).
# `make test` will run lint first once mypy is clean on judge/engine too (issue 10).
lint: $(BIN)/.installed
	$(BIN)/ruff check judge tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) instance .pytest_cache
