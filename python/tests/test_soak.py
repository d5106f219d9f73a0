"""The short form of python/bench/soak.py: a VectorEnv stepped for 20
seconds grows its resident set by less than 10 MB after a 5-second warm-up,
and `patience solve --memory 64` over 10 deals stays within 2 × 64 MiB of
tables (plus Cromwell's 7 MiB per worker) and 64 MiB of overhead. The
10-minute run and its figures are on docs/robustness.md."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT


def test_short_soak() -> None:
    if shutil.which("go") is None:
        pytest.skip("the Go toolchain is needed to build the patience command")
    res = subprocess.run(
        [sys.executable, str(ROOT / "python" / "bench" / "soak.py"), "--seconds", "20", "--warmup", "5", "--every", "1",
         "--solve-deals", "10", "--solve-budget", "100k"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "growth" in res.stdout and "peak RSS" in res.stdout, res.stdout
