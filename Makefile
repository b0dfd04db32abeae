# Two commands that work on a fresh machine with nothing but Python: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BASE_STAMP := $(VENV)/.installed-base
TEST_STAMP := $(VENV)/.installed-test
# uv installs the packages into the venv: several at once, and compiled as pip would (else the first
# processes the tests start would each compile what they import), in about 35 s where pip takes a
# minute and a half. It comes from PyPI like everything else, into the venv, by the venv's own pip.
# It trusts the system's certificates, as pip does here through its configuration (a network that
# inspects TLS has its authority there; uv's own list would refuse PyPI): UV_SYSTEM_CERTS, and the
# older uv's UV_NATIVE_TLS.
UV := $(BIN)/uv
INSTALL := UV_SYSTEM_CERTS=1 UV_NATIVE_TLS=1 $(UV) pip install --quiet --compile-bytecode --python $(BIN)/python
NPM := $(shell command -v npm 2>/dev/null)
NODE_STAMP := node_modules/.installed
# The message catalogs: English is the source; each language is one .po file, compiled to the .mo
# gettext reads (built, never committed). `make catalogs` extracts the messages and updates every .po.
LOCALES := present_choices/locales
DOMAIN := agent_choices
CATALOGS := $(wildcard $(LOCALES)/*/LC_MESSAGES/$(DOMAIN).po)
COMPILED := $(CATALOGS:.po=.mo)
# Python keeps the compiled form of each module of ours it imports (__pycache__/, ignored by git), as
# an installation does: a shell's PYTHONDONTWRITEBYTECODE (some containers set it) would make every
# process the tests start compile the project again, a sixth of the terminal tests' CPU time.
unexport PYTHONDONTWRITEBYTECODE
# The demo's port: `make demo PORT=8081`, or PORT=0 for any free one (the address is printed).
PORT ?= 8080
# The documentation site's port: `make docs DOCS_PORT=8001`.
DOCS_PORT ?= 8000
# The tests run in several processes at once (pytest-xdist). Many unit tests wait on a process they
# start: two processes more than CI's 2 cores (on 2026-11-28, 81, 82 and 91 s against 88, 93 and
# 93 s with three, taking turns; five gain nothing). The e2e tests keep both cores busy (the
# browser, the servers and the terminals they start): three processes that work, and no more (four
# took 375 s against 357 and 378 s with three), or their time limits start to fail; and a fourth
# for the files that wait out real time, which stops once they are done (e2e/support/scheduling.py).
# `--dist loadfile` keeps a test file in one process (its module fixtures, a Chromium or a server,
# start once), the files with the most tests first; the e2e files in e2e/conftest.py's order.
# `make unit UNIT_WORKERS=0` runs them in this process, one after another.
# --tb=native: pytest's own traceback format crashed a worker on Python 3.11.7 (pytest#10874).
# An e2e test that fails is run again, up to twice, and the report names it under "rerun" (-rfER):
# on 2 cores busy with three browsers a page can take longer than a test's time limit, which no
# product change fixes; a real failure fails every run. The e2e tests' own time bounds stretch
# while they run in parallel (e2e/support/timing.py).
UNIT_WORKERS ?= 4
E2E_WORKERS ?= 4
PYTEST_PARALLEL = -q --dist loadfile --tb=native $(if $(SLOWEST),--durations=$(SLOWEST))
# Each run prints its 15 slowest tests, and writes its JUnit report into test-results/; `make test`
# prints one list for both instead, at its very end (scripts/slowest-tests): the next slowdown is
# seen when it comes.
SLOWEST ?= 15
REPORTS := test-results

.PHONY: demo test checks lint types unit e2e docs bench screenshots catalogs schemas new-language clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(UV): | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv

$(BASE_STAMP): pyproject.toml | $(UV)
	$(INSTALL) -e .
	touch $@

# Every extra: the tests' AG-UI agent is pydantic-ai's own AG-UI adapter, which [ag-ui] installs; the
# Gradio and Streamlit examples run on [gradio] and [streamlit]; [docs] builds the site, which
# `make lint` checks.
$(TEST_STAMP): pyproject.toml | $(UV)
	$(INSTALL) -e '.[test,docs,llm,ag-ui,redis,notify,push,gradio,streamlit,telegram,slack]'
	touch $@ $(BASE_STAMP)

# Node tools for the tests (the official TypeScript MCP client; the MCP Apps test host: the official
# host side, @modelcontextprotocol/ext-apps, bundled with esbuild) and the lint of every JavaScript
# file (eslint), where npm is found.
$(NODE_STAMP): package.json package-lock.json
ifneq ($(NPM),)
	npm ci --no-audit --no-fund --loglevel=error
	touch $@
else
	@echo "npm not found: the tests with the TypeScript MCP client and the MCP Apps host will be skipped, the JavaScript not linted"
endif

$(LOCALES)/%.mo: $(LOCALES)/%.po | $(BASE_STAMP)
	$(BIN)/pybabel compile --domain $(DOMAIN) --input-file $< --output-file $@

# What the pages need of each language's CLDR data (present_choices/_locale_facts.py), written as
# the build writes it (never committed): again when a catalog comes or goes.
FACTS := $(LOCALES)/facts.json
$(FACTS): $(CATALOGS) present_choices/_locale_facts.py | $(BASE_STAMP)
	$(BIN)/python present_choices/_locale_facts.py $(LOCALES)

# After changing messages: extract them all (Python, and the pages' messages.json) and update each
# language's .po, whose new entries then need a translation (a test says which).
catalogs: $(BASE_STAMP)
	scripts/extract-messages $(BIN)/pybabel $(LOCALES)/$(DOMAIN).pot
	$(BIN)/pybabel update --input-file $(LOCALES)/$(DOMAIN).pot --output-dir $(LOCALES) \
		--domain $(DOMAIN) --no-fuzzy-matching --ignore-obsolete --width 100

# After changing the request or the response: write the provide_choice tool's published schemas again
# (provide_choice/_server/tool_schemas.json, read at the server's start; a test says when they differ).
schemas: $(BASE_STAMP)
	$(BIN)/python -m provide_choice._server._tool_schemas

# A new language: `make new-language LOCALE=fr` starts its catalog, every message waiting for its
# translation (`make catalogs` keeps it up to date afterwards).
new-language: $(BASE_STAMP)
	scripts/extract-messages $(BIN)/pybabel $(LOCALES)/$(DOMAIN).pot
	$(BIN)/pybabel init --input-file $(LOCALES)/$(DOMAIN).pot --output-dir $(LOCALES) \
		--domain $(DOMAIN) --locale $(LOCALE) --width 100

demo: $(BASE_STAMP) $(COMPILED) $(FACTS)
	$(BIN)/choices-chat --agent demo --port $(PORT)

# The Python packages and the Node tools install side by side first (on a fresh clone 37 and 40 s,
# where one after the other took 44); then the checks, the unit tests and the e2e tests, in turn.
test:
	@$(MAKE) --no-print-directory -j2 $(TEST_STAMP) $(NODE_STAMP)
	@$(MAKE) --no-print-directory SLOWEST= checks unit e2e
	@scripts/slowest-tests $(REPORTS)/unit.xml $(REPORTS)/e2e.xml

# lint and types side by side (their output kept apart): the lint is a few processes one after the
# other, mypy checks with two workers, so both cores stay busy until the longer one ends (mypy; cold,
# beside the lint, 21 to 28 s where one worker took 29 to 32).
checks: $(TEST_STAMP) $(NODE_STAMP)
	@$(MAKE) --no-print-directory --output-sync=target -j2 lint types

lint: $(TEST_STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
ifneq ($(NPM),)
	node_modules/.bin/eslint .
else
	@echo "npm not found: the JavaScript files are not linted (eslint)"
endif
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The documentation site, served on 127.0.0.1 and rebuilt on every change (built into site/, which
# git ignores; `make lint` builds it with --strict, where a broken link or anchor fails).
docs: $(TEST_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:$(DOCS_PORT)

types: $(TEST_STAMP)
	$(BIN)/mypy --num-workers 2

# The Redis tests start their own redis-server, the desktop-alert tests their own session bus
# (Debian's redis-server and dbus, installed where missing when run as root); without one they are
# skipped, saying so. The browser tests draw their pages in Chromium's headless shell (about a third
# less CPU per page; Debian's, installed where missing as root), those of Web Notifications in the
# full Chromium; without a shell, all of them in the full one.
unit: $(TEST_STAMP) $(COMPILED) $(FACTS)
	REDIS_SERVER_PATH="$$(scripts/find-redis-server || true)" $(BIN)/pytest tests $(PYTEST_PARALLEL) -n $(UNIT_WORKERS) \
		--junitxml=$(REPORTS)/unit.xml

e2e: $(TEST_STAMP) $(NODE_STAMP) $(COMPILED) $(FACTS)
	REDIS_SERVER_PATH="$$(scripts/find-redis-server || true)" \
		DBUS_DAEMON_PATH="$$(scripts/find-dbus-daemon || true)" \
		CHROMIUM_PATH="$$(scripts/find-chromium $(BIN)/python)" \
		CHROMIUM_HEADLESS_SHELL_PATH="$$(scripts/find-headless-shell)" \
		$(BIN)/pytest e2e $(PYTEST_PARALLEL) -n $(E2E_WORKERS) --no-loadscope-reorder --reruns 2 -rfER \
		--junitxml=$(REPORTS)/e2e.xml

# Refresh the documentation's pictures in docs/: only this takes them (a plain test run takes none,
# e2e/support/screenshots.py); the Chinese page needs a CJK font (Debian's fonts-noto-cjk, installed
# where missing when run as root).
screenshots: $(TEST_STAMP) $(NODE_STAMP) $(COMPILED) $(FACTS)
	scripts/find-cjk-font || true
	UPDATE_SCREENSHOTS=1 CHROMIUM_PATH="$$(scripts/find-chromium $(BIN)/python)" \
		$(BIN)/pytest e2e -q -k "screenshot or multi_select or settings or two_agents or three_questions_at_once or inbox_counts or in_chinese_the_page"

bench: $(TEST_STAMP) $(NODE_STAMP) $(COMPILED) $(FACTS)
	export REDIS_SERVER_PATH="$$(scripts/find-redis-server || true)"; \
		for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) node_modules site $(REPORTS) .mypy_cache .ruff_cache .pytest_cache .hypothesis .nicegui
