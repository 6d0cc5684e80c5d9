# One entry point for people and CI. Only python3 (>= 3.11) and make are needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: test demo lint bench clean golden-recaps golden-threads

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall when pyproject.toml changes; the stamp files remember what was installed.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

demo: $(VENV)/.installed
	$(BIN)/python examples/play.py

# Benchmarks (not part of `make test`): their own venv, so sqlite-utils, psycopg and
# pyinstrument never become the project's dependencies. BENCH_ARGS, e.g. --memory-events 100000.
BENCH_VENV := bench/.venv
$(BENCH_VENV)/.installed: pyproject.toml bench/requirements.txt
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -e . -r bench/requirements.txt
	touch $@

bench: $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python -m bench $(BENCH_ARGS)

# Mutation testing (not part of `make test`): mutmut in its own venv, over the rule modules of
# the four systems and domain/dice.py, from a copy of the tree per selection under
# build/mutation/<selection>/ (so runs of different selections do not collide). Select with
# SYSTEM="code_green sims" (or dice, all) or MODULES="domain/rulesets/sims domain/dice.py";
# FRESH=1 forgets earlier verdicts. Writes build/mutation/<selection>/REPORT.md and the scores
# in tests/mutation/RESULTS.md; fails when a module scores under MIN_SCORE.
MUT_VENV     := build/mutation/.venv
MAX_CHILDREN ?= 1
MIN_SCORE    ?= 90
.PHONY: mutation
$(MUT_VENV)/.installed: pyproject.toml tests/mutation/requirements.txt
	$(PYTHON) -m venv $(MUT_VENV)
	$(MUT_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MUT_VENV)/bin/python -m pip install --quiet -e '.[test]' -r tests/mutation/requirements.txt
	touch $@

mutation: $(MUT_VENV)/.installed
	$(MUT_VENV)/bin/python tests/mutation/run.py --max-children $(MAX_CHILDREN) \
	    --min-score $(MIN_SCORE) $(if $(SYSTEM),--system $(SYSTEM)) \
	    $(if $(MODULES),--modules $(MODULES)) $(if $(FRESH),--fresh)

# Rewrite tests/golden/recaps/ from the example campaigns (review the diff before committing).
golden-recaps: $(VENV)/.installed-test
	$(BIN)/python -m tests.golden.test_recap_golden

# Rewrite tests/golden/threads/ from the example campaigns (review the diff before committing).
golden-threads: $(VENV)/.installed-test
	$(BIN)/python -m tests.golden.test_thread_golden

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
