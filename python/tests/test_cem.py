"""patience_gym.train.cem: the cross-entropy method over a linear correction to
the evaluation, end to end with the Go policy agent."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

from patience_gym import (
    SPECS,
    PatienceVectorEnv,
    train,
)
from patience_gym.train import evaluate_agent, load_model
from patience_gym.train.cem import linear_model, parameter_names, segment_features


def by_hand(game: str, obs: np.ndarray, params: np.ndarray) -> np.ndarray:
    """The linear correction computed from the observation's cells, without
    the one-hot layout: per segment, params[2s] per non-empty cell plus
    params[2s+1] per unit of value (a card's rank)."""
    out = np.zeros(len(obs))
    for s, seg in enumerate(sorted(SPECS[game].segments, key=lambda g: g.offset)):
        cells = obs[:, seg.offset : seg.offset + seg.len].astype(np.int64)
        if seg.card:
            vals = np.where((cells == 0) | (cells == 53), 0, (cells - 1) % 13 + 1)
        else:
            vals = cells
        out += params[2 * s] * (cells != 0).sum(1) + params[2 * s + 1] * vals.sum(1)
    return out


@pytest.mark.parametrize("game", sorted(SPECS))
def test_segment_features_are_cells_and_values(game: str) -> None:
    """The file's one-hot weights (the trainer's PolicyNet reading them) give
    each observation the segment counts and value sums the parameters weigh."""
    spec = SPECS[game]
    envs = PatienceVectorEnv(game, 8)
    obs, _ = envs.reset(seed=55)
    rng = np.random.default_rng(1)
    for _ in range(20):
        m = envs.action_masks()
        obs, *_ = envs.step((rng.random(m.shape) * m).argmax(1).astype(np.int64))
    obs = obs.copy()
    envs.close()
    params = rng.normal(size=2 * len(spec.segments))
    f = segment_features(spec)
    assert f.shape == (spec.one_hot_len, len(parameter_names(spec)))
    net = train.PolicyNet(spec, (), 1)
    with torch.no_grad():
        net.first.weight.copy_(torch.from_numpy(f @ params).float().unsqueeze(1))
    with torch.no_grad():
        got = net(torch.from_numpy(obs)).squeeze(1).double().numpy()
    assert np.allclose(got, by_hand(game, obs, params), atol=1e-3)


def test_parameters_reach_the_go_agent(tmp_path: Path) -> None:
    """A file of all-zero parameters plays as the heuristic ranks; a large
    negative weight on the cards built on Royal Parade's bases (its
    progress) makes the Go agent avoid building, and it places far fewer
    cards: the parameters, with their sign, are what the agent plays."""
    spec = SPECS["royalparade"]
    f = segment_features(spec)
    names = parameter_names(spec)
    zero = np.zeros(len(names))
    shy = zero.copy()
    shy[names.index("heights.values")] = -50.0
    deals = np.arange(900_000, 900_040)
    flat = linear_model(spec, f, zero, tmp_path / "flat.safetensors", "test", {})
    _, meta = load_model(flat, "royalparade")
    assert meta["eval_weight"] == str(spec.cards) and meta["objective"] == "cem"
    assert json.loads(meta["cem_parameters"]) == dict.fromkeys(names, 0.0)
    r_flat = evaluate_agent("royalparade", f"policy:model={flat}", deals)
    r_heur = evaluate_agent("royalparade", "heuristic", deals)
    r_shy = evaluate_agent("royalparade", f"policy:model={linear_model(spec, f, shy, tmp_path / 's.safetensors', 'test', {})}",
                           deals)
    assert abs(r_flat.mean_return - r_heur.mean_return) < 0.05  # the same ranking, other random tie-breaks
    assert r_shy.mean_return < r_flat.mean_return - 0.2, (r_shy.mean_return, r_flat.mean_return)


def test_cem_run_keeps_the_best_and_resumes(tmp_path: Path) -> None:
    """A short run: the curve has a point per generation, best.safetensors
    is the file whose evaluation-deal return is the curve's best, state.json
    lets --resume go on to more generations, and deals in the measuring
    range or training deals among the evaluation deals are refused."""
    out = tmp_path / "run"
    argv = ["cem", "--game", "limited", "--deals", "24", "--population", "4", "--elite", "2", "--generations", "2",
            "--eval-deals", "24", "--references", "", "--out", str(out)]
    assert train.main(argv) == 0
    with open(out / "curve.csv") as fh:
        curve = list(csv.DictReader(fh))
    assert [float(r["step"]) for r in curve] == [0.0, 96.0, 192.0]  # 4 candidates × 24 deals a generation
    best = evaluate_agent("limited", f"policy:model={out / 'best.safetensors'}", np.arange(900_000, 900_024))
    assert best.mean_return == pytest.approx(max(float(r["mean_return"]) for r in curve), abs=1e-9)
    state = json.loads((out / "state.json").read_text())
    assert state["generation"] == 2 and len(state["mu"]) == 2 * len(SPECS["limited"].segments)
    assert not list(out.glob("candidate-*"))
    argv[argv.index("--generations") + 1] = "3"
    assert train.main([*argv, "--resume"]) == 0
    with open(out / "curve.csv") as fh:
        assert len(list(csv.DictReader(fh))) == 4
    assert json.loads((out / "state.json").read_text())["generation"] == 3
    assert train.main(["cem", "--game", "limited", "--seed-start", "999990", "--out", str(tmp_path / "x")]) == 2
    assert train.main(["cem", "--game", "limited", "--seed-start", "899990", "--deals", "20", "--out", str(tmp_path / "y")]) == 2
    assert train.main(["cem", "--resume", "--out", str(tmp_path / "none")]) == 2
