# Two commands matter: `make serve` runs the site, `make test` runs every test.
# Both set everything up first on a fresh machine (Python venv, npm packages).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup check test serve build bench clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements-dev.txt requirements-site.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

check: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy src

test: check
	$(BIN)/python -m pytest

serve: setup
	$(BIN)/mkdocs serve

build: setup
	$(BIN)/mkdocs build --strict

clean:
	rm -rf site build dist .pytest_cache .mypy_cache .ruff_cache

bench: setup
	$(BIN)/python bench/site_bench.py
