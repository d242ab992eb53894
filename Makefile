# Two commands matter: `make serve` runs the site, `make test` runs every test.
# Each sets up only what it needs on a fresh machine: `make serve` the site's packages,
# `make test` those and the test tools; PyTorch only for `make gpu-test` (the GPU run).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1
# `make serve ADDR=127.0.0.1:8123` serves elsewhere.
ADDR ?= 127.0.0.1:8000

.PHONY: setup setup-site check test gpu-test serve build bench clean lock

setup-site: $(VENV)/.site-installed node_modules/.installed
setup: $(VENV)/.dev-installed node_modules/.installed

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Installed from the lock files (every package pinned, with its hashes); `make lock` writes them from
# the requirements-*.txt pins.
$(VENV)/.site-installed: requirements-site.lock pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --require-hashes -r requirements-site.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

$(VENV)/.dev-installed: requirements-dev.lock $(VENV)/.site-installed
	$(BIN)/pip install -q --require-hashes -r requirements-dev.lock
	touch $@

$(VENV)/.gpu-installed: requirements-gpu.txt $(VENV)/.dev-installed
	$(BIN)/pip install -q -r requirements-gpu.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

check: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy src

# One worker per core, each with its own browser; the site is built once for all (see tests/conftest.py).
test: check
	$(BIN)/python -m pytest -m "not torch" -n auto

# bench/gpu/measure.py on PyTorch (the GPU where there is one), then its output read by the core.
gpu-test: $(VENV)/.gpu-installed
	$(BIN)/python -c "import torch"
	$(BIN)/python -m pytest -m torch tests/test_measure.py

serve: setup-site
	$(BIN)/mkdocs serve -a $(ADDR)

build: setup-site
	$(BIN)/mkdocs build --strict

clean:
	rm -rf site build dist .pytest_cache .mypy_cache .ruff_cache

bench: setup
	$(BIN)/python bench/site_bench.py

# The lock files, from the pins in requirements-site.txt and requirements-dev.txt (pip-tools runs in a
# throwaway environment: it is not one of the project's dependencies).
LOCK_TOOL := build/lock-venv
lock:
	$(PYTHON) -m venv $(LOCK_TOOL)
	$(LOCK_TOOL)/bin/pip install -q pip-tools==7.6.2
	for f in site dev; do $(LOCK_TOOL)/bin/pip-compile -q --generate-hashes --allow-unsafe --strip-extras \
	  --no-emit-index-url --no-emit-find-links -o requirements-$$f.lock requirements-$$f.txt; done
