"""python/examples/sb3_maskable_ppo.py: sb3-contrib's MaskablePPO trains on
patience/Fifteen-v1 as it is."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from conftest import ROOT

pytest.importorskip("sb3_contrib")


def test_maskable_ppo_learns_the_fifteen_and_plays_legal_moves() -> None:
    path = ROOT / "python" / "examples" / "sb3_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("sb3_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # dataclasses look their module up there
    spec.loader.exec_module(example)
    # About a minute on two busy cores. The evaluation env raises on an
    # illegal action, so a finished evaluation already shows legal play.
    r = example.train_and_evaluate(steps=16_384, seed=0, deals=100)
    assert r.all_legal
    # Random legal play places 5.3 % of the cards on these deals; the model
    # learns at least to take foundation moves first (7.5 % for a player who
    # does only that).
    assert r.model_return > r.random_return + 0.005, r
