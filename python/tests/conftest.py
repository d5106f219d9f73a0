"""Shared fixtures: the repository root and the patience command."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def patience_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The patience command, built from the repository (needs Go)."""
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is needed to build the patience command")
    out = tmp_path_factory.mktemp("bin") / "patience"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/patience"], cwd=ROOT, check=True)
    return out
