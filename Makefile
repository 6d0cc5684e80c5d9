# One entry point for people and CI. Only python3 (>= 3.11) and make are needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: test demo lint bench clean golden-recaps

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

# Rewrite tests/golden/recaps/ from the example campaigns (review the diff before committing).
golden-recaps: $(VENV)/.installed-test
	$(BIN)/python -m tests.golden.test_recap_golden

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
