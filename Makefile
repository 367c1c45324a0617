# The two commands: `make run` serves the game, `make test` runs every check and test.
# Both install into .venv exactly what requirements/dev.txt locks (`make lock` regenerates it).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements/dev.txt
LOCKED := $(VENV)/.locked
STAMP := $(VENV)/.installed
MYPYC_DIR := build/mypyc
# the server's compiled engine, built (see mypyc below)
COMPILED := $(MYPYC_DIR)/.current
# `make lock` runs this uv; the lock it writes is installed by plain pip, so nothing else needs uv.
UV_VERSION := 0.13.9
# extra flags for `make lock`, e.g. ARGS='--upgrade-package starlette'; `make upgrade` takes all
ARGS ?=
COMPILE = $(BIN)/uv pip compile --no-config --universal --generate-hashes --python-version 3.11 \
	--custom-compile-command 'make lock' --quiet $(ARGS)

.PHONY: run test lint bench mypyc test-mypyc lock upgrade clean

define NEW_VENV
@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	|| { echo "Python 3.11 or newer is needed; $(PY) is older (try make PY=python3.12)" >&2; exit 1; }
rm -rf $(VENV)
@echo "make: creating $(VENV), a Python environment of this project's own"
$(PY) -m venv $(VENV)
endef

$(BIN)/python:
	$(NEW_VENV)

# A new lock makes a new .venv, so a package dropped from the lock does not linger in it. The
# hashes are checked, and pip refuses a dependency that the lock forgot.
$(LOCKED): $(LOCK)
	$(NEW_VENV)
	@echo "make: installing the locked packages of $(LOCK) into $(VENV): a minute or two the first time, quiet while it works"
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	touch $(LOCKED)

# The project itself, editable, with the locked setuptools and no dependency resolution.
$(STAMP): pyproject.toml $(LOCKED)
	@echo "make: installing the project itself into $(VENV)"
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

run: $(STAMP) $(COMPILED)
	@echo "make: migrating the database, then serving (the address follows once it listens)"
	env $$([ -f $(COMPILED) ] && echo PYTHONSAFEPATH=1 PYTHONPATH=$(CURDIR)/$(MYPYC_DIR)) $(BIN)/python -m app

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Two workers (pytest-xdist), each taking whole files: many tests wait on real servers, sockets
# and browsers, so two share the machine's cores well (three were no faster on two slow cores, and
# overloaded them); TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= 2
PYTEST = $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

test: lint
	$(PYTEST)

bench: $(STAMP)
	$(BIN)/python -m bench.engine --games 2000

# The optional compiled engine (issue 14): the pure-Python engine stays the reference and is what
# the app runs; `make mypyc` compiles a copy of engine/ (Watergate's rules and bots) with the
# locked mypy's mypyc into build/mypyc, where the compiled modules shadow their sources.
# bench.engine then prints both figures, bench.match and bench.ladder play the copy (their
# `engine` line says which played; --no-compiled plays the pure engine), and `make test-mypyc`
# runs the engine tests against the copy.
# Not compiled: engine/core/game.py (runtime-checkable Protocols) and the modules of frozen
# dataclasses with ClassVar fields (actions, events/plays, events/tokens: mypyc takes a ClassVar
# for a field, mypyc issue 1122); they run as Python beside the compiled ones.
MYPYC_MODULES = engine/core/actions.py engine/core/rng.py \
	$(filter-out engine/watergate/actions.py,$(wildcard engine/watergate/*.py)) \
	$(filter-out engine/watergate/events/plays.py engine/watergate/events/tokens.py,\
		$(wildcard engine/watergate/events/*.py)) \
	$(wildcard engine/watergate/bots/*.py)

# (one shell line, so `make run` can fall back to the pure engine when it fails)
MYPYC_BUILD = rm -rf $(MYPYC_DIR) && mkdir -p $(MYPYC_DIR) \
	&& cp -r engine pyproject.toml $(MYPYC_DIR)/ \
	&& find $(MYPYC_DIR) -name __pycache__ -prune -exec rm -rf {} + \
	&& ln -s ../../tests ../../docs $(MYPYC_DIR)/ \
	&& (cd $(MYPYC_DIR) && ../../$(BIN)/mypyc $(MYPYC_MODULES) >build.log 2>&1)

mypyc: $(STAMP)
	$(MYPYC_BUILD) || { tail -30 $(MYPYC_DIR)/build.log >&2; exit 1; }

# The server plays the compiled copy (issue 44): `make run` builds it from the engine's files as
# they are, when a C compiler is here, and serves with it first on PYTHONPATH (the server and
# the processes it spawns import it; PYTHONSAFEPATH keeps `python -m` from putting engine/'s
# folder first; app/engine_build.py says which engine plays, and refuses a copy built from other
# files). Without a compiler, or if compiling fails, the pure engine plays.
ENGINE_FILES := $(shell find engine -type f -not -path '*/__pycache__/*')
$(COMPILED): $(ENGINE_FILES) | $(STAMP)
	@echo "make: compiling the engine with mypyc into $(MYPYC_DIR), if a C compiler is here (a minute or two, again after each change to engine/)"
	@command -v cc >/dev/null 2>&1 || { echo "make: no C compiler (cc): the server plays the pure-Python engine"; exit 0; }; \
		$(MYPYC_BUILD) && touch $@ \
		|| echo "make: compiling the engine failed ($(MYPYC_DIR)/build.log): the server plays the pure-Python engine"

# The same engine tests, run from the copy, so `engine` is the compiled one there.
test-mypyc: mypyc
	cd $(MYPYC_DIR) && ../../$(BIN)/python -c \
		'import engine.watergate.flow as f; assert f.__file__.endswith(".so"), f.__file__'
	cd $(MYPYC_DIR) && ../../$(PYTEST) -p no:cacheprovider tests/engine

# Rewrites both locks from pyproject.toml (and requirements/build.in), keeping every version that
# still fits; the image's lock is the test lock's versions, cut to what the server needs. A lock
# whose text did not change keeps its date, so it does not rebuild .venv.
define RELOCK
cp requirements/$(1) requirements/$(1).new 2>/dev/null || :
$(COMPILE) $(2) -o requirements/$(1).new
cmp -s requirements/$(1).new requirements/$(1) && rm requirements/$(1).new \
	|| mv requirements/$(1).new requirements/$(1)
endef

lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(call RELOCK,dev.txt,--extra dev pyproject.toml requirements/build.in)
	$(call RELOCK,app.txt,pyproject.toml requirements/build.in -c requirements/dev.txt)

upgrade:
	$(MAKE) lock ARGS='--upgrade $(ARGS)'

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
