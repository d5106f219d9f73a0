# One command for every test: `make test` runs the Go tests, then installs
# the Python package (building its Go core) with its test and train extras
# (PyTorch among them) into a virtual environment and runs the Python tests.

PYTHON ?= python3
VENV   ?= $(CURDIR)/.venv
VPY    := $(VENV)/bin/python

.PHONY: test test-go test-python python bench docs clean

test: test-go test-python

# The browser tests (web/e2e) need Chromium at /usr/bin/chromium and the
# npm packages of web/e2e; without them they skip and say why.
# `web/e2e/setup.sh` installs both (as root: apt-get install chromium).
test-go:
	@if command -v npm >/dev/null && [ ! -d web/e2e/node_modules ]; then (cd web/e2e && npm ci --no-audit --no-fund --silent); fi
	go test ./...

$(VPY):
	$(PYTHON) -m venv $(VENV)

# pip install ./python builds the shared library with the Go toolchain.
python: $(VPY)
	$(VPY) -m pip install --quiet --disable-pip-version-check "./python[test,train]"

# Run from the repository root, so that the installed package is the one tested.
test-python: python
	$(VPY) -m pytest -q python/tests

# The speed comparison of docs/performance.md (installs the peers it compares with).
bench: python
	$(VPY) python/bench/bench.py

# The documentation site: mkdocs with the Material theme and mkdocstrings
# (pinned in docs/requirements.txt) into .venv, then a strict build into
# site/ (a broken link, a missing page or a bad API reference fails it).
# It reads the Python package's source; it needs neither the Go core nor an
# installed package.
docs: $(VPY)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r docs/requirements.txt
	NO_MKDOCS_2_WARNING=1 $(VPY) -m mkdocs build --strict

clean:
	rm -rf $(VENV) site python/build python/*.egg-info python/patience_gym/libpatience.*
