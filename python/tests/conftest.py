"""Shared fixtures: the repository root, the patience command, and the
skip of the tests that need the train extra."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def train_extra() -> Any:
    """Skips the calling test module, before it imports patience_gym.train,
    unless the train extra's PyTorch and safetensors are installed; returns
    torch."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("safetensors")
    return torch


@pytest.fixture(scope="session")
def patience_cli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The patience command, built from the repository (needs Go)."""
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is needed to build the patience command")
    out = tmp_path_factory.mktemp("bin") / "patience"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/patience"], cwd=ROOT, check=True)
    return out
