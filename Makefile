# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PORT ?= 5000

.PHONY: run test lint bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/referee serve --port $(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: $(STAMP) lint
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) bench/core_bench.py
	$(PY) bench/printables_bench.py
	$(PY) bench/postmortem_bench.py
	$(PY) bench/server_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
