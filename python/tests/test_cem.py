"""patience_gym.train.cem: the cross-entropy method over a linear correction to
the evaluation, end to end with the Go policy agent."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from conftest import train_extra

torch = train_extra()

from safetensors import safe_open

from patience_gym import (
    SPECS,
    PatienceVectorEnv,
    train,
)
from patience_gym.train import evaluate_agent, load_model
from patience_gym.train.cem import init_parameters, linear_model, parameter_names, segment_features
from patience_gym.train.model_file import export_model


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


def test_term_parameters_reach_the_go_agent(tmp_path: Path) -> None:
    """With +terms the parameters weigh the game's evaluation terms, named
    by the Go core's spec: the file holds them as eval_terms, and a large
    weight against the cards home makes the Go agent place far fewer cards
    than the same file with the terms at 0. A game whose evaluation has no
    named terms refuses them."""
    spec = SPECS["cromwell"]
    assert [t.name for t in spec.terms][:5] == ["home", "fits", "king_depth", "pairs", "swap_unused"]
    assert "next_buried" in [t.name for t in spec.terms] and spec.terms[0].weight == 1.0
    names = parameter_names(spec, "ranks+terms")
    assert names[: len(parameter_names(spec, "ranks"))] == parameter_names(spec, "ranks")
    assert names[-len(spec.terms):] == ["term." + t.name for t in spec.terms]
    assert parameter_names(spec, "terms") == names[-len(spec.terms):]
    f = segment_features(spec, "terms")
    assert f.shape == (spec.one_hot_len, len(spec.terms)) and not f.any()  # no one-hot weight
    zero = np.zeros(len(spec.terms))
    against = zero.copy()
    against[0] = -3.0  # a card home now costs two cards
    deals = np.arange(900_000, 900_040)
    path = linear_model(spec, f, against, tmp_path / "against.safetensors", "test", {}, parameter_names(spec, "terms"))
    _, meta = load_model(path, "cromwell")
    assert json.loads(meta["eval_terms"]) == {t.name: (-3.0 if t.name == "home" else 0.0) for t in spec.terms}
    flat = linear_model(spec, f, zero, tmp_path / "flat.safetensors", "test", {}, parameter_names(spec, "terms"))
    r_flat = evaluate_agent("cromwell", f"policy:model={flat}", deals)
    r_against = evaluate_agent("cromwell", f"policy:model={path}", deals)
    assert r_against.mean_return < r_flat.mean_return - 0.2, (r_against.mean_return, r_flat.mean_return)
    with pytest.raises(ValueError, match="limited's evaluation has no named terms"):
        parameter_names(SPECS["limited"], "ranks+terms")


def test_cem_init_starts_at_an_earlier_files_parameters(tmp_path: Path) -> None:
    """--init starts the mean at an earlier file's parameters by name (a
    parameter the file lacks at 0): generation 0 of a run with no more
    generations is that file, with the terms added at 0. A file with no
    cem_parameters is refused."""
    spec = SPECS["cromwell"]
    names = parameter_names(spec, "ranks")
    params = np.linspace(-0.5, 0.5, len(names))
    old = linear_model(spec, segment_features(spec, "ranks"), params, tmp_path / "old.safetensors", "test", {}, names)
    out = tmp_path / "run"
    argv = ["cem", "--game", "cromwell", "--features", "ranks+terms", "--init", str(old), "--deals", "4",
            "--generations", "0", "--eval-deals", "4", "--references", "", "--out", str(out)]
    assert train.main(argv) == 0
    state = json.loads((out / "state.json").read_text())
    got = state["parameters"]
    assert [got[n] for n in names] == pytest.approx(params.tolist(), abs=1e-6)  # the file keeps six decimals
    assert all(got["term." + t.name] == 0.0 for t in spec.terms)
    flat = linear_model(spec, segment_features(spec, "terms"), np.zeros(len(spec.terms)), tmp_path / "flat.safetensors",
                        "test", {}, parameter_names(spec, "terms"))
    net = export_model(train.PolicyNet(spec, (), 1), tmp_path / "plain.safetensors", "test", dtype="f32", extra={"head": "value"})
    limited = SPECS["limited"]
    other = linear_model(limited, segment_features(limited), np.zeros(2 * len(limited.segments)), tmp_path / "l.safetensors",
                         "test", {})
    for bad, why in [(flat, "none of its parameters"), (net, "not a cem file"), (other, "a file of limited, not cromwell"),
                     (tmp_path / "missing.safetensors", "no such file")]:
        with pytest.raises(ValueError, match=why):
            init_parameters(bad, spec, parameter_names(spec, "ranks"))
    assert train.main([*argv[:-1], str(tmp_path / "bad"), "--init", str(net)]) == 2


def test_cem_lookahead_samples_reach_the_files(tmp_path: Path) -> None:
    """--lookahead-samples K writes lookahead_samples K into the files (the
    Go agent then averages its look-ahead over K reshuffles), a resumed run
    must keep it, and K above 1 for a game without hidden cards, or outside
    1..256, is refused."""
    out = tmp_path / "run"
    argv = ["cem", "--game", "fourquarters", "--features", "terms", "--deals", "8", "--population", "2", "--elite", "1",
            "--generations", "1", "--eval-deals", "8", "--references", "", "--lookahead-samples", "4", "--out", str(out)]
    assert train.main(argv) == 0
    for name in ("model.safetensors", "best.safetensors"):
        with safe_open(str(out / name), framework="pt") as f:
            assert (f.metadata() or {}).get("lookahead_samples") == "4"
    assert json.loads((out / "state.json").read_text())["lookahead_samples"] == 4
    argv[argv.index("--lookahead-samples") + 1] = "8"
    assert train.main([*argv, "--resume"]) == 2
    assert train.main(["cem", "--game", "fifteen", "--lookahead-samples", "4", "--out", str(tmp_path / "open")]) == 2
    assert train.main(["cem", "--game", "limited", "--lookahead-samples", "257", "--out", str(tmp_path / "many")]) == 2
