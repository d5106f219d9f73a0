"""The shared model-file test vectors (policy/testdata/vectors, written and
checked on the Go side by policy/vectors_test.go): load_model reads every
valid file as its JSON says (the metadata's parse, and the network's
outputs on probe observations) and refuses every invalid one with a
ModelError holding the words its JSON lists, so that this reader and the
Go one cannot drift apart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import train_extra

torch = train_extra()

from patience_gym.train import ModelError, load_model
from patience_gym.train.model_meta import parse_metadata

from conftest import ROOT

VECTORS = ROOT / "policy" / "testdata" / "vectors"


def vectors(kind: str) -> list[tuple[Path, dict[str, Any]]]:
    files = sorted((VECTORS / kind).glob("*.safetensors"))
    return [(f, json.loads(f.with_suffix(".json").read_text())) for f in files]


def test_there_are_vectors() -> None:
    assert len(vectors("valid")) >= 5 and len(vectors("invalid")) >= 30


@pytest.mark.parametrize(("path", "want"), vectors("valid"), ids=lambda v: v.stem if isinstance(v, Path) else "")
def test_valid_vector(path: Path, want: dict[str, Any]) -> None:
    net, meta = load_model(path)
    assert parse_metadata(meta) == want["meta"]
    obs = torch.tensor(want["probe"]["obs"]).clamp(0, 255).to(torch.uint8)
    with torch.no_grad():
        got = net(obs).double()
    assert torch.allclose(got.reshape(len(obs), -1), torch.tensor(want["probe"]["outputs"], dtype=torch.float64),
                          rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("path", "want"), vectors("invalid"), ids=lambda v: v.stem if isinstance(v, Path) else "")
def test_invalid_vector(path: Path, want: dict[str, Any]) -> None:
    with pytest.raises(ModelError) as e:
        load_model(path)
    for word in want["error"]:
        assert word in str(e.value), f"{want['why']}: {e.value}"
