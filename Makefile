# The two commands a new user needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
SERVE_STAMP := $(VENV)/.installed-serve
GAMES ?= games

.PHONY: demo test typecheck serve lint bench bench-scaling serve-load constraints clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; v=sys.version_info; sys.exit(0 if (3,10) <= v[:2] < (3,13) else "whybot needs Python 3.10 to 3.12 (durable-rules does not import on 3.13+); set PYTHON=python3.12")'
	@$(PYTHON) -m venv $(VENV)

# pip's output goes to a log, shown only if the install fails. Every install takes the versions
# in constraints.txt, the ones the suite last passed with (pyproject.toml keeps ranges for users);
# update it on purpose: `make constraints` after a green run on newer versions.
INSTALL = @echo "installing $(1) into $(VENV) (log: $(VENV)/install.log)"; \
	$(BIN)/python -m pip install --upgrade -c constraints.txt $(1) >>$(VENV)/install.log 2>&1 \
	|| { cat $(VENV)/install.log; exit 1; }

# durable-rules is built from its sdist with scripts/durable_rules-2.0.28.patch applied: as
# released, retracting a fact of a fired activation can corrupt the heap or drop a pending
# activation (docs/durable_rules.md). `-e .` then finds the version it asks for installed.
DURABLE := $(VENV)/durable-rules
$(DURABLE)/.built: $(BIN)/python constraints.txt scripts/durable_rules-2.0.28.patch
	$(call INSTALL,pip)
	@rm -rf $(DURABLE) && mkdir -p $(DURABLE)
	@$(BIN)/python -m pip download --no-deps --no-binary :all: -c constraints.txt durable-rules \
		-d $(DURABLE) >>$(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@tar -xzf $(DURABLE)/durable_rules-*.tar.gz -C $(DURABLE)
	@patch -s -d $(DURABLE)/durable_rules-2.0.28 -p1 < scripts/durable_rules-2.0.28.patch
	$(call INSTALL,--force-reinstall --no-deps $(DURABLE)/durable_rules-2.0.28)
	@touch $@

$(STAMP): $(BIN)/python pyproject.toml constraints.txt $(DURABLE)/.built
	$(call INSTALL,-e .)
	@touch $@

$(TEST_STAMP): $(STAMP)
	$(call INSTALL,-e '.[test]')
	@touch $@

$(SERVE_STAMP): $(STAMP)
	$(call INSTALL,-e '.[serve]')
	@touch $@

demo: $(STAMP)
	@$(BIN)/whybot why facts/examples/arcs/demo.yaml --seed 7 --brief

# The browser tests (tests/serve, marked `browser`) drive Debian's Chromium; without it they
# are skipped, and this says how to install it. The type check runs first; the tests run on
# every core (pytest-xdist; the workers share the compiled packs through the session's cache).
test: typecheck $(TEST_STAMP)
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		echo "note: no Chromium, so the browser tests of whybot serve are skipped; install it with: sudo apt-get install -y chromium"
	$(BIN)/python -m pytest -n auto --dist worksteal

# mypy on engine/ and facts/ ([tool.mypy] in pyproject.toml). mypy cannot follow the package-dir
# mapping (the editable install finds whybot.engine through an import hook), so the folders are
# linked into $(MYPY_TREE) as the packages they install as, and mypy reads them from there
# (mypy_path): an error in .venv/mypy/whybot/engine/x.py is one in engine/x.py.
MYPY_TREE := $(VENV)/mypy/whybot
typecheck: $(TEST_STAMP)
	@mkdir -p $(MYPY_TREE)
	@for p in engine facts knowledge; do ln -sfn ../../../$$p $(MYPY_TREE)/$$p; done
	$(BIN)/mypy

# The table companion on this machine (GAMES=folder for the game files; default games/).
serve: $(SERVE_STAMP)
	@mkdir -p $(GAMES)
	$(BIN)/whybot serve $(GAMES)

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/whybot rules lint

bench: $(STAMP)
	$(BIN)/python benchmarks/batch.py

bench-scaling: $(STAMP)
	$(BIN)/python benchmarks/scaling.py

serve-load: $(TEST_STAMP)
	$(BIN)/python benchmarks/serve_load.py

# Pins what the test environment has now (run after `make test` passed on newer versions).
constraints: $(TEST_STAMP)
	@{ echo "# The versions the suite last passed with (make constraints writes this file)."; \
	  $(BIN)/python -m pip list --format=freeze --exclude-editable --exclude whybot --exclude pip --exclude setuptools; } > constraints.txt
	@echo "constraints.txt: $$(grep -vc '^#' constraints.txt) packages pinned"

clean:
	rm -rf $(VENV) build *.egg-info
