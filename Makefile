# The two commands: `make serve` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

.PHONY: serve test check bench bench-site lint clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

serve: $(BIN)/.installed
	$(BIN)/judge index --if-stale
	$(BIN)/gunicorn -c gunicorn.conf.py --workers $(WORKERS) --bind $(HOST):$(PORT) 'judge.web:create_app()'

test: $(BIN)/.installed
	$(BIN)/python -m pytest -q

check: $(BIN)/.installed
	$(BIN)/judge codex-check
	$(BIN)/judge check scenarios/

bench: $(BIN)/.installed
	$(BIN)/python bench/search.py
	$(BIN)/python bench/engine.py

bench-site: $(BIN)/.installed
	$(BIN)/python bench/abuse.py
	$(BIN)/python bench/load.py

lint: $(BIN)/.installed
	$(BIN)/ruff check judge tests bench

clean:
	rm -rf $(VENV) instance .pytest_cache
