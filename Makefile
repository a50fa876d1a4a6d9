# wovepaper: `make run` serves the site with a demo corpus, `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: run test install chromium lint bench loadtest lock

# Exactly the versions of requirements-dev.lock (pyproject.toml's pins and everything they need, with the
# embedded servers and the test tools), each checked against its hash. torch is locked as its CPU build,
# 2.13.0+cpu, which the machines carry on disk (pip finds it there) and PyPI does not.
$(INSTALLED): pyproject.toml requirements-dev.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	@touch $@

install: $(INSTALLED)

run: $(INSTALLED)
	$(BIN)/python -m devserver

# Debian's Chromium drives the browser tests, its nginx checks deploy/nginx.conf (`nginx -t`), and its
# PgBouncer (transaction mode) stands between harvest runs and PostgreSQL in tests/harvest/test_run_leases.py;
# installed when missing and we are root.
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v nginx >/dev/null 2>&1 && test -x /usr/sbin/pgbouncer || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's chromium, nginx and pgbouncer for the browser, deployment and lease tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium nginx-light pgbouncer >/dev/null; \
		else echo "chromium, nginx or pgbouncer is not installed: their tests will be skipped (apt-get install chromium nginx-light pgbouncer)"; fi; }

# Two pytest-xdist workers, one a core, each with its own PostgreSQL and Redis (tests/services.py);
# the slowest 25 tests are listed at the end, to see where the 15-minute budget goes.
TEST_WORKERS ?= 2
test: $(INSTALLED) chromium
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --durations=25

lint: $(INSTALLED)
	$(BIN)/python -m ruff check .

# Search latency and recall on a synthetic corpus in its own database (see README, "Performance"), then
# the ingest of as many OAI-PMH records into another (it runs alone: its own process and database).
# `make bench PAPERS=1000000` for a million papers; the corpus is kept under var/bench and reused.
PAPERS ?= 100000
bench: $(INSTALLED)
	$(BIN)/python -m bench --papers $(PAPERS)
	$(BIN)/python -m bench --only ingest --papers $(PAPERS)

# Concurrent readers (locust, headless) against a running site, `make run` in another terminal, while a
# harvest runs and Celery embeds (see README, "Performance"); LOADTEST_HOST and DATABASE_URL for another.
LOADTEST_USERS ?= 20,50
LOADTEST_SECONDS ?= 300
loadtest: $(INSTALLED)
	$(BIN)/python -m bench.loadtest --users $(LOADTEST_USERS) --duration $(LOADTEST_SECONDS)

# The lock files again, after a change to pyproject.toml: a new dependency's dependencies at their newest
# allowed versions, the others kept (`make lock` after deleting the files moves them all), with hashes
# (pip-tools, in a venv of its own under var/).
LOCK_VENV := var/lock-venv
lock:
	@test -x $(LOCK_VENV)/bin/pip-compile || { $(PYTHON) -m venv $(LOCK_VENV) && $(LOCK_VENV)/bin/pip install --quiet pip-tools==7.6.2; }
	$(LOCK_VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-header \
		--no-emit-index-url --no-emit-find-links --extra embedded --extra test -o requirements-dev.lock pyproject.toml
	@# The image's lock: the same versions (pip takes no hashes in a constraints file), fewer packages.
	sed -e '/--hash=/d' -e 's/ \\$$//' requirements-dev.lock > var/lock-constraints.txt
	$(LOCK_VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-header \
		--no-emit-index-url --no-emit-find-links -c var/lock-constraints.txt -o requirements.lock pyproject.toml
