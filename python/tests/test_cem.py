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


def by_hand(game: str, obs: np.ndarray, params: np.ndarray, features: str) -> np.ndarray:
    """The linear correction computed from the observation's cells, without
    the one-hot layout: per segment, a weight per non-empty cell, then one
    per unit of value (a card's rank), or with features "ranks" in a card
    segment one per card of each rank."""
    out = np.zeros(len(obs))
    p = 0
    for seg in sorted(SPECS[game].segments, key=lambda g: g.offset):
        cells = obs[:, seg.offset : seg.offset + seg.len].astype(np.int64)
        vals = np.where((cells == 0) | (cells == 53), 0, (cells - 1) % 13 + 1) if seg.card else cells
        out += params[p] * (cells != 0).sum(1)
        if seg.card and features == "ranks":
            for r in range(1, 14):
                out += params[p + r] * (vals == r).sum(1)
            p += 14
        else:
            out += params[p + 1] * vals.sum(1)
            p += 2
    assert p == len(params)
    return out


@pytest.mark.parametrize("features", ["segments", "ranks"])
@pytest.mark.parametrize("game", sorted(SPECS))
def test_segment_features_are_cells_and_values(game: str, features: str) -> None:
    """The file's one-hot weights (the trainer's PolicyNet reading them) give
    each observation the segment counts and value sums (or rank counts) the
    parameters weigh."""
    spec = SPECS[game]
    envs = PatienceVectorEnv(game, 8)
    obs, _ = envs.reset(seed=55)
    rng = np.random.default_rng(1)
    for _ in range(20):
        m = envs.action_masks()
        obs, *_ = envs.step((rng.random(m.shape) * m).argmax(1).astype(np.int64))
    obs = obs.copy()
    envs.close()
    names = parameter_names(spec, features)
    params = rng.normal(size=len(names))
    f = segment_features(spec, features)
    assert f.shape == (spec.one_hot_len, len(names))
    if features == "ranks":
        assert "fans.K" in names or not any(s.name == "fans" for s in spec.segments)
    net = train.PolicyNet(spec, (), 1)
    with torch.no_grad():
        net.first.weight.copy_(torch.from_numpy(f @ params).float().unsqueeze(1))
    with torch.no_grad():
        got = net(torch.from_numpy(obs)).squeeze(1).double().numpy()
    assert np.allclose(got, by_hand(game, obs, params, features), atol=1e-3)


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


def test_rank_parameters_reach_the_go_agent(tmp_path: Path) -> None:
    """With --features ranks a card segment has a weight per rank: a large
    one on the aces left in Cromwell's fans makes the Go agent keep them
    there while it has another move, so it places far fewer cards than the
    same file with that weight at 0; the file names its parameters and
    their set."""
    spec = SPECS["cromwell"]
    f = segment_features(spec, "ranks")
    names = parameter_names(spec, "ranks")
    assert names[:3] == ["fans.cells", "fans.A", "fans.2"] and "foundations.K" in names and "swap.values" in names
    zero = np.zeros(len(names))
    keep = zero.copy()
    keep[names.index("fans.A")] = 50.0
    deals = np.arange(900_000, 900_040)
    flat = linear_model(spec, f, zero, tmp_path / "flat.safetensors", "test", {"cem_features": "ranks"}, names)
    _, meta = load_model(flat, "cromwell")
    assert list(json.loads(meta["cem_parameters"])) == names and meta["cem_features"] == "ranks"
    r_flat = evaluate_agent("cromwell", f"policy:model={flat}", deals)
    r_keep = evaluate_agent("cromwell", f"policy:model={linear_model(spec, f, keep, tmp_path / 'k.safetensors', 'test', {}, names)}",
                            deals)
    assert r_keep.mean_return < r_flat.mean_return - 0.2, (r_keep.mean_return, r_flat.mean_return)
    with pytest.raises(ValueError):
        linear_model(spec, f, zero, tmp_path / "bad.safetensors", "test", {})  # the two-per-segment names


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
    assert train.main([*argv, "--resume", "--features", "ranks"]) == 2  # not the run's parameters
    with pytest.raises(SystemExit):
        train.main(["cem", "--features", "suits"])
