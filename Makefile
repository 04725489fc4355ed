# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.run-stamp
TEST_STAMP := $(VENV)/.test-stamp
PORT ?= 5000

.PHONY: run test lint bench install clean

# What running the referee needs (pyproject.toml's dependencies) ...
$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(RUN_STAMP)

# ... and what testing it needs besides (the test extras: pytest, ruff, the wheel's build ...).
$(TEST_STAMP): $(RUN_STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

# The JavaScript linter (Biome, pinned in package.json) lives in node_modules like the venv.
BIOME := node_modules/.bin/biome

$(BIOME): package.json
	@command -v npm >/dev/null || { echo; echo "*** make lint needs node and npm to lint the JavaScript (apt-get install nodejs npm) ***"; echo; exit 1; }
	npm install --no-audit --no-fund
	touch $(BIOME)

install: $(RUN_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/referee serve --port $(PORT)

lint: $(TEST_STAMP) $(BIOME)
	$(VENV)/bin/ruff check .
	$(BIOME) lint
	$(BIOME) format

# Both cores (pytest-xdist): each test file runs whole on one worker, so a file's module-scoped
# browser and its tests' order are as they are run alone; servers take free ports, tmp_path is
# per test and every screenshot has its own name.
test: $(TEST_STAMP) lint
	$(VENV)/bin/pytest -n 2 --dist loadfile

bench: $(TEST_STAMP)
	$(PY) bench/core_bench.py
	$(PY) bench/printables_bench.py
	$(PY) bench/postmortem_bench.py
	$(PY) bench/server_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
