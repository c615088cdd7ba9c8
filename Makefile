# The README's commands. Each target creates .venv and installs the project when needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Numba compiles each engine once and caches it next to the sources; a test run reuses it.
REPORT_DIR ?= report

.PHONY: report readme test bench bench-compile lint golden install clean validate evidence

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

install: $(STAMP)

# The report compiles its engines itself, in other processes, one per core, while it builds
# the pages whose engines are ready (simulate/compile.py, Ahead).
report: $(STAMP)
	$(BIN)/rumsim report --out $(REPORT_DIR)

# The README's answers block, rewritten from the report's page summaries (reports/readme.py).
readme: $(STAMP)
	$(BIN)/python -m reports.readme $(REPORT_DIR)

# Each engine is compiled first, one process per core (simulate/compile.py), so two test
# workers never compile the same engine at once and no test waits on a compile.
# One test process per core; a file's tests stay together (they share module fixtures).
test: $(STAMP)
	$(BIN)/python -m simulate.compile
	$(BIN)/python -m pytest -n auto --dist loadfile --durations=25

bench: $(STAMP)
	$(BIN)/rumsim bench

# Each engine's cold compile time (a fresh interpreter, an empty Numba cache), one engine at
# a time, with the functions that take most of it: tracked like throughput.
bench-compile: $(STAMP)
	$(BIN)/rumsim bench --compile

# Coverage of every interval and error rate of every verdict, 1,000 replications a case;
# then the rules fuzzing of every game with many more (and fresh) examples than make test.
validate: $(STAMP)
	$(BIN)/python -m analyses.validation --reps 1000 --out validation.csv
	HYPOTHESIS_PROFILE=validate $(BIN)/python -m pytest tests/test_fuzz_rules.py

# The report's shipped evidence (reports/evidence): each page's strength ladder at its main
# player count on its declared deals, played into the pack (only what it lacks; about an hour
# on 2 cores from empty). EVIDENCE_ARGS="--cluster local:2" or "--scheduler tcp://..." plays
# it on Dask (the same blocks); after an engine change the pack is stale and
# tests/test_evidence.py fails until this is run again.
EVIDENCE_ARGS ?=
evidence: $(STAMP)
	$(BIN)/rumsim evidence make $(EVIDENCE_ARGS)

# Rewrite tests/golden/*.txt from the command on each file's first line (after an intended change).
golden: $(STAMP)
	$(BIN)/python -m pytest tests/test_golden.py --update-golden -q

lint: $(STAMP)
	$(BIN)/ruff check engines simulate analyses reports tests

clean:
	rm -rf $(VENV) $(REPORT_DIR) .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
