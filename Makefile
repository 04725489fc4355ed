# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.run-stamp
TEST_STAMP := $(VENV)/.test-stamp
PORT ?= 5000

.PHONY: run test soak lint bench bench-league bench-servers bench-phones install clean

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
	$(VENV)/bin/mypy  # the type check: [tool.mypy] in pyproject.toml says what and how strictly
	$(BIOME) lint
	$(BIOME) format

# Both cores (pytest-xdist): each test file runs whole on one worker, so a file's module-scoped
# browser and its tests' order are as they are run alone; servers take free ports, tmp_path is
# per test and every screenshot has its own name.
# The referee's modules are compiled first: the tests start many `referee serve` processes,
# and where PYTHONDONTWRITEBYTECODE is set (as on CI machines) each would compile every module
# again as it starts (half a second of a core each).
test: $(TEST_STAMP) lint
	$(PY) -m compileall -q referee printables
	$(VENV)/bin/pytest -n 2 --dist loadfile

# The property tests of every rule set with several times as many random games as `make test`
# plays (half an hour and more on two cores): the long run before a release.
soak: $(TEST_STAMP)
	REFEREE_SOAK=1 $(VENV)/bin/pytest -n 2 tests/test_properties.py tests/test_tcg_properties.py \
		tests/test_broadside_properties.py tests/test_boarding_properties.py

bench: $(TEST_STAMP)
	$(PY) bench/core_bench.py
	$(PY) bench/printables_bench.py
	$(PY) bench/postmortem_bench.py
	$(PY) bench/server_bench.py

# The league over streams, polling, 2,000 open streams, and boardgame.io's server on the same
# workload (it installs its own npm packages in bench/peer: never needed to run the referee).
bench-league: $(TEST_STAMP)
	$(PY) bench/league_streams.py

# A league across servers: two referee servers on one PostgreSQL behind nginx, beside the SQLite
# default (docs/scaling.md). Debian's nginx and postgresql are installed if missing, their
# services not started; the bench starts its own in temporary folders. BENCH_ARGS=--quick
bench-servers: $(TEST_STAMP)
	scripts/install-debian-packages /usr/sbin/nginx:nginx '/usr/lib/postgresql/*/bin/initdb:postgresql'
	$(PY) bench/league_across_servers.py $(BENCH_ARGS)

# A club night on phones: every game played to its end by taps on 390 x 844 phones in Debian's
# Chromium, two phones against each other and one against every computer level, with each
# phone's console and refused requests recorded (about half an hour; BENCH_ARGS=--quick).
bench-phones: $(TEST_STAMP)
	nice -n 5 $(PY) bench/club_night_phones.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
