"""The shared helpers read and compute what the rounds' figures rest on, and
every round's script at least imports (its main is not run)."""

from __future__ import annotations

import importlib.util
import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest
import torch

from patience_research.benchfile import episodes, mcnemar
from patience_research.ranking import first_choice, listwise
from patience_research.valuefile import read, write

ROOT = Path(__file__).resolve().parent.parent


def test_mcnemar_exact() -> None:
    assert mcnemar(0, 0) == 1.0
    # 10 discordant pairs all one way: 2 * (1/2)^10.
    assert mcnemar(10, 0) == pytest.approx(2 / 1024)
    assert mcnemar(3, 7) == mcnemar(7, 3)
    # b = c gives 1 (capped), never more.
    assert mcnemar(5, 5) == 1.0
    # A hand count: n = 6, min = 1 -> 2 * (1 + 6) / 64.
    assert mcnemar(1, 5) == pytest.approx(14 / 64)
    assert math.isclose(mcnemar(239, 17), 2.6e-51, rel_tol=0.1)  # round 19's Cromwell figure


def test_episodes_by_agent_and_deal() -> None:
    bench = {"episodes": [
        {"agent": "mc", "seed": 5, "won": True},
        {"agent": "mc", "seed": 6, "won": False},
        {"agent": "heuristic", "seed": 5, "won": False},
    ]}
    runs = episodes(bench)
    assert set(runs) == {"mc", "heuristic"}
    assert runs["mc"][6]["won"] is False
    assert list(runs["heuristic"]) == [5]


def test_value_file_round_trip(tmp_path: Path) -> None:
    header = {"__metadata__": {"game": "fifteen", "eval_terms": json.dumps({"home": 1.5})},
              "w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}
    rest = struct.pack("<2f", 1.0, -2.0)
    path = tmp_path / "v.safetensors"
    write(path, header, rest)
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    assert n % 8 == 0, "the header is padded to 8 bytes"
    assert read(path) == (header, rest)
    assert not path.with_suffix(".tmp").exists()


def test_first_choice_and_listwise() -> None:
    pos = np.array([0, 0, 1, 1], np.int64)
    won = np.array([1, 0, 0, 1], np.float32)
    assert first_choice(np.array([2, 1, 2, 1], np.float32), pos, won) == 0.5
    assert first_choice(np.array([2, 1, 1, 2], np.float32), pos, won) == 1.0
    # A tie shares: position 0's two moves score alike -> 0.5 there.
    assert first_choice(np.array([1, 1, 1, 2], np.float32), pos, won) == 0.75
    good = listwise(torch.tensor([5.0, -5.0, -5.0, 5.0]), torch.tensor(pos), torch.tensor(won))
    bad = listwise(torch.tensor([-5.0, 5.0, 5.0, -5.0]), torch.tensor(pos), torch.tensor(won))
    assert 0 <= good.item() < 0.01 < bad.item()


@pytest.mark.parametrize("script", sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("**/*.py")
                                           if "tests" not in p.parts and "patience_research" not in p.parts))
def test_script_imports(script: str) -> None:
    spec = importlib.util.spec_from_file_location("script", ROOT / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    import sys

    sys.path.insert(0, str((ROOT / script).parent))  # symmetry_probe reads its sibling, as `python SCRIPT` would
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    assert hasattr(module, "main")
