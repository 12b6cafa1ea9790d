# One command to run the app, one to run every test. See README.md.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run test test-sqlite test-browser test-postgres serve load push online import system-deps venv dev-venv bench lint translations

run: venv  ## set up and start the app on http://127.0.0.1:5000
	$(BIN)/flask --app app init-db
	$(BIN)/flask --app app run --host $(HOST) --port $(PORT)

# ruff and mypy, then the whole suite on SQLite, then in the browser, then the non-browser suite again on a
# throwaway PostgreSQL server (.ci/with-postgres: 127.0.0.1, a free port, removed afterwards), all but the
# tests of the pure packages (engine, table, ledger), which no database reaches. The three runs all run
# (a failure in one does not hide the others' results); the command fails at the end if any failed.
DATABASE_TESTS = --ignore=tests/engine --ignore=tests/table --ignore=tests/ledger
# The runs without a browser use every core (pytest-xdist: a worker per core, each test file on
# one worker; on PostgreSQL each worker has a database of its own, tests/conftest.py). The
# browser run stays one test at a time: its timings are the pages', not the machine's.
ON_EVERY_CORE = -n auto --dist loadfile
# Each run ends with its slowest tests and their times: where the CI's minutes go.
SLOWEST = --durations=15
test: system-deps dev-venv  ## set up and run all the tests
	$(BIN)/ruff check app.py chouette tests benchmarks docs
	$(BIN)/mypy  # chouette/, strict for the pure packages (pyproject.toml)
	failed=""; \
	$(BIN)/python -m pytest $(ON_EVERY_CORE) $(SLOWEST) -m "not browser and not postgres_only" || failed="$$failed sqlite"; \
	$(BIN)/python -m pytest $(SLOWEST) -m browser || failed="$$failed browser"; \
	bash .ci/with-postgres $(BIN)/python -m pytest $(ON_EVERY_CORE) $(SLOWEST) -m "not browser and not sqlite_only" $(DATABASE_TESTS) \
		|| failed="$$failed postgresql"; \
	if [ -n "$$failed" ]; then echo "the test runs that failed:$$failed"; exit 1; fi

test-sqlite: dev-venv
	$(BIN)/python -m pytest $(ON_EVERY_CORE) -m "not browser and not postgres_only"

test-browser: system-deps dev-venv
	$(BIN)/python -m pytest -m browser

test-postgres: system-deps dev-venv
	bash .ci/with-postgres $(BIN)/python -m pytest $(ON_EVERY_CORE) -m "not browser and not sqlite_only" $(DATABASE_TESTS)

# Production: gunicorn, one worker per core (2 here; WORKERS=4 on 4 cores), on 127.0.0.1 behind a proxy.
WORKERS ?= 2
serve: venv  ## the app under gunicorn (see docs/deployment.md)
	$(BIN)/flask --app app init-db
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) 'app:create_app()'  # settings: gunicorn.conf.py

load: dev-venv  ## a simulated club night against gunicorn on 127.0.0.1 (about a minute)
	$(BIN)/python benchmarks/load.py

# Push under a festival's load (20 tables, 160 phones, 10 screens; then 100 idle screens), on
# SQLite, then on PostgreSQL with two app nodes (a throwaway server): about 6 minutes.
push: system-deps dev-venv  ## push delay, command latency and idle cost against gunicorn on 127.0.0.1
	$(BIN)/python benchmarks/push.py
	bash .ci/with-postgres $(BIN)/python benchmarks/push.py --postgres

# A night online (20 tables played online, each by its five members from their own devices at
# human pace, a screen each), on SQLite, then on PostgreSQL with two app nodes: about 3 minutes.
online: system-deps dev-venv  ## online tables: a move's delay to every device of its table, command latency, against gunicorn on 127.0.0.1
	$(BIN)/python benchmarks/online.py
	bash .ci/with-postgres $(BIN)/python benchmarks/online.py --postgres

# Big imports (2,000, 10,000 and 50,000 events) on SQLite, with a phone polling and a tablet
# playing another table meanwhile: about 2 minutes.
import: dev-venv  ## import time of big logs, and the other table's latency meanwhile, against gunicorn on 127.0.0.1
	$(BIN)/python benchmarks/import.py

bench: dev-venv  ## print the speed figures described in docs/performance.md
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/table.py
	$(BIN)/python benchmarks/ledger.py

# After changing interface strings: re-extract them, merge into the Italian catalog, translate
# the new entries in chouette/translations/it/LC_MESSAGES/messages.po, then run this again to
# compile it (the app also compiles a catalog whose .po is newer at start: the .mo is not in git).
# The rules' refusals are extracted too: the first argument of their errors and of Phrase.
REFUSAL_KEYWORDS = $(foreach k,Phrase Refusal RulesError NotationError IllegalMoveError FormatError CubeError MatchError DiceError TableError SettingsError LedgerError,-k $(k))
translations: dev-venv
	$(BIN)/pybabel extract -F chouette/translations/babel.cfg -k _l -k lazy_gettext -k lazy_pgettext:1c,2 $(REFUSAL_KEYWORDS) --no-location --sort-output -o chouette/translations/messages.pot .
	$(BIN)/pybabel update -i chouette/translations/messages.pot -d chouette/translations --ignore-obsolete --no-fuzzy-matching --width 100
	$(BIN)/pybabel compile -d chouette/translations

lint: dev-venv
	$(BIN)/ruff check app.py chouette tests benchmarks docs
	$(BIN)/mypy

# Debian packages the project needs: make, venv support, and for the tests chromium and postgresql.
system-deps:
	@bash .ci/system-deps

# .ci/venv makes the virtualenv, or makes it anew when a half-made one has no working pip.
venv: $(VENV)/.runtime
$(VENV)/.runtime: requirements.txt
	@bash .ci/venv $(PYTHON) $(VENV)
	$(BIN)/python -m pip install -q -r requirements.txt
	touch $@

dev-venv: $(VENV)/.dev
$(VENV)/.dev: requirements.txt requirements-dev.txt
	@bash .ci/venv $(PYTHON) $(VENV)
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $(VENV)/.runtime $@
