"""python/bench/bench.py's ratios: each target's ratio is the median of the
ratios within runs, which a run measured across two of the host's speed
spells does not move."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import ROOT


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench", ROOT / "python" / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def run(go: float, py: float) -> dict[str, float]:
    """One run in which the VectorEnv makes py steps/s where Go's vector made
    go (one core at 55 % of all cores on both sides)."""
    return {"go_single": 4e6, "go_vector1": go * 0.55, "go_vector": go, "py_single": 2.5e5, "py_single_step": 4.6e5,
            "py_vector": py, "py_vector_step": py * 1.05, "py_vector1": py * 0.55, "py_vector1_step": py * 0.58,
            "py_vector_numpy": py / 2, "py_vector_numpy_step": py / 1.8}


def spells() -> list[dict[str, float]]:
    """Ten runs at a true ratio of 85 %: Go's windows fell in the fast spell
    (8 M) in six runs, Python's in four; in two runs Go's was fast and
    Python's slow."""
    fast, slow = 8e6, 4.8e6
    return [run(fast, 0.85 * fast)] * 4 + [run(fast, 0.85 * slow)] * 2 + [run(slow, 0.85 * slow)] * 4


def test_a_ratio_is_the_median_of_the_runs_ratios() -> None:
    bench = load_bench()
    r = bench.summarize("fourquarters", spells())
    assert bench.ratio(r, "vector") == pytest.approx(0.85)
    assert bench.ratio(r, "step") == pytest.approx(0.85 * 1.05)
    assert bench.ratio(r, "vector1") == pytest.approx(0.85)
    assert bench.ratio(r, "scaling") == pytest.approx(1 / 0.55)
    # The ratio of the medians is thrown off by the two mismatched runs.
    assert r["py_vector"] / r["go_vector"] < 0.6
    assert len(r["runs"]) == 10 and r["best"]["go_vector"] == 8e6


def test_the_targets_are_checked_on_the_paired_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    assert bench.print_targets([bench.summarize("fourquarters", spells())])
    out = capsys.readouterr().out
    assert "median of the runs' ratios" in out and "MISS" not in out
    slow = [run(8e6, 0.6 * 8e6)] * 10
    assert not bench.print_targets([bench.summarize("fourquarters", slow)])
    assert "MISS fourquarters: VectorEnv / Go vector: 60 %" in capsys.readouterr().out


def test_a_file_without_runs_prints_the_ratio_of_its_medians(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    old: dict[str, Any] = {"game": "limited", **run(5e6, 4e6)}
    assert bench.ratio(old, "vector") == pytest.approx(0.8)
    bench.print_tables([old], {}, 256)
    assert "| limited |" in capsys.readouterr().out


def test_the_kept_results_print(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    for f in sorted((Path(ROOT) / "python" / "bench" / "results").glob("*.json")):
        saved = json.loads(f.read_text())
        bench.print_tables(saved["rows"], saved["peers"], saved["envs"])
        assert "Targets" in capsys.readouterr().out, f
