"""patience_gym.train: the policy file, the network, masked argmax, PPO and
behaviour cloning, end to end with the Go policy agent."""

from __future__ import annotations

import csv
import json
import math
import shlex
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, train_extra

torch = train_extra()

from patience_gym import (
    SPECS,
    PatienceVectorEnv,
    train,
)
from patience_gym.train import ModelError, PolicyNet, export_model, load_model, masked_argmax

GOLDEN = ROOT / "policy" / "testdata"


def random_net(game: str, hidden: tuple[int, ...] = (16, 8), seed: int = 0, card_dim: int = 0, outputs: int = 0) -> PolicyNet:
    torch.manual_seed(seed)
    spec = SPECS[game]
    net = PolicyNet(spec, hidden, outputs or spec.actions, card_dim=card_dim)
    with torch.no_grad():
        for p in net.parameters():
            p.normal_(0, 0.3)
    return net


def dense_logits(net: PolicyNet, obs: np.ndarray) -> torch.Tensor:
    """The network of docs/models.md over the one-hot vector, from the
    exported layer layout (not PolicyNet.forward)."""
    spec = net.spec
    x = torch.zeros(len(obs), spec.one_hot_len, dtype=torch.float64)
    o = 0
    for seg in spec.segments:
        for c in range(seg.offset, seg.offset + seg.len):
            x[np.arange(len(obs)), o + np.minimum(obs[:, c].astype(np.int64), seg.max)] = 1.0
            o += seg.max + 1
    h = x
    for i, (w, b) in enumerate(net.linears()):
        if i:
            h = torch.relu(h)
        h = h @ w.double().T + b.double()
    return h


def env_observations(game: str, n: int = 16, steps: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks met in random play."""
    envs = PatienceVectorEnv(game, n)
    obs, _ = envs.reset(seed=123)
    masks = envs.action_masks()
    rng = np.random.default_rng(0)
    all_obs, all_masks = [], []
    for _ in range(steps):
        all_obs.append(obs.copy())
        all_masks.append(masks.copy())
        u = rng.random(masks.shape) * masks
        obs, *_ = envs.step(u.argmax(1).astype(np.int64))
    envs.close()
    return np.concatenate(all_obs), np.concatenate(all_masks)


@pytest.mark.parametrize("model,logits", [("golden_policy", "golden_logits"), ("golden_cards_policy", "golden_cards_logits"),
                                          ("golden_stacks_policy", "golden_stacks_logits")])
def test_golden_logits_are_what_the_trainer_computes(model: str, logits: str) -> None:
    """The committed golden files (compared with Go's forward pass by
    TestGoldenLogits) are what this trainer's reader and forward pass give."""
    inp = json.loads((GOLDEN / "golden_inputs.json").read_text())
    want = json.loads((GOLDEN / f"{logits}.json").read_text())
    net, meta = load_model(GOLDEN / f"{model}.safetensors", inp["game"])
    assert meta["command"] and meta["hidden"] == "16,8"
    obs = torch.tensor(inp["obs"]).clamp(0, 255).to(torch.uint8)
    with torch.no_grad():
        got = net(obs).double()
    w = torch.tensor(want["logits"], dtype=torch.float64)
    assert torch.allclose(got, w, rtol=1e-5, atol=1e-5)
    mask = torch.zeros(got.shape, dtype=torch.bool)
    for i, legal in enumerate(inp["legal"]):
        mask[i, legal] = True
    assert masked_argmax(got, mask).tolist() == want["argmax"]


@pytest.mark.parametrize("card_dim", [0, 3])
@pytest.mark.parametrize("game", sorted(SPECS))
def test_forward_is_the_one_hot_mlp(game: str, card_dim: int) -> None:
    """The embedding-sum forward pass (and the card-embedding one) equals
    the dense MLP over the one-hot vector, clipping included."""
    net = random_net(game, card_dim=card_dim)
    net.fold_zero_rows()
    obs, _ = env_observations(game, n=4, steps=5)
    obs[0, 0] = 255  # above its segment's max: counts as the max
    with torch.no_grad():
        got = net(torch.from_numpy(obs)).double()
    assert torch.allclose(got, dense_logits(net, obs), atol=1e-4)


def test_export_and_load_round_trip(tmp_path: Path) -> None:
    net = random_net("limited")  # value-0 rows not zero: the reader folds them
    obs, _ = env_observations("limited", n=8, steps=10)
    x = torch.from_numpy(obs)
    want = dense_logits(net, obs)
    for dtype, tol in (("f32", 1e-4), ("f16", None), ("bf16", None)):
        path = export_model(net, tmp_path / f"m-{dtype}.safetensors", "python -m patience_gym.train test",
                            dtype=dtype, trained_steps=42, extra={"seed": "7"})
        back, meta = load_model(path, "Limited")
        assert meta["game"] == "limited" and meta["trained_steps"] == "42" and meta["seed"] == "7"
        assert meta["command"] == "python -m patience_gym.train test"
        assert meta["hidden"] == "16,8" and meta["onehot_len"] == str(SPECS["limited"].one_hot_len)
        with torch.no_grad():
            got = back(x).double()
        if tol is not None:
            assert torch.allclose(got, want, atol=tol)
        else:  # what the rounded network computes
            rounded = dense_logits(net.rounded(dtype), obs)
            assert torch.allclose(got, rounded, atol=1e-2, rtol=1e-3)
    # The file's layout: layers numbered without gaps, nn.Linear layout.
    raw = (tmp_path / "m-f32.safetensors").read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    spec = SPECS["limited"]
    assert {k: v["shape"] for k, v in header.items() if k != "__metadata__"} == {
        "layers.0.weight": [16, spec.one_hot_len], "layers.0.bias": [16],
        "layers.1.weight": [8, 16], "layers.1.bias": [8],
        "layers.2.weight": [spec.actions, 8], "layers.2.bias": [spec.actions],
    }
    assert all(v["dtype"] == "F32" for k, v in header.items() if k != "__metadata__")


def test_card_embedding_file_round_trip(tmp_path: Path) -> None:
    """A card-embedding network is stored compactly (cards.weight and the
    compact first layer) and reads back to the same function; a file whose
    input_len does not fit the game is refused."""
    net = random_net("cromwell", card_dim=4)
    obs, _ = env_observations("cromwell", n=4, steps=10)
    want = dense_logits(net, obs)
    path = export_model(net, tmp_path / "c.safetensors", "python -m patience_gym.train test")
    back, meta = load_model(path, "cromwell")
    assert meta["obs_encoding"] == "card-embedding" and meta["card_dim"] == "4"
    assert meta["input_len"] == str(train.card_input_len(SPECS["cromwell"], 4))
    with torch.no_grad():
        assert torch.allclose(back(torch.from_numpy(obs)).double(), want, atol=1e-4)
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    assert header["cards.weight"]["shape"] == [54, 4]
    assert header["layers.0.weight"]["shape"] == [16, int(meta["input_len"])]
    # The file is what model_file_bytes says, give or take the header.
    assert abs(len(raw) - train.model_file_bytes(SPECS["cromwell"], (16, 8), "f32", 4)) < 4096
    assert len(raw) < SPECS["cromwell"].one_hot_len * 16 * 4 / 4  # far smaller than the one-hot layer
    # A wrong input_len is named.
    from safetensors import safe_open
    from safetensors.torch import save_file

    with safe_open(str(path), framework="pt") as f:
        tensors = {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118 (safe_open is not a dict)
        bad = dict(f.metadata())
    bad["input_len"] = "7"
    save_file(tensors, str(tmp_path / "bad.safetensors"), metadata=bad)
    with pytest.raises(ModelError, match="input_len"):
        load_model(tmp_path / "bad.safetensors", "cromwell")


def test_masked_argmax_never_picks_an_illegal_action() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        a = int(rng.integers(1, 600))
        logits = torch.from_numpy(rng.normal(0, 10, (8, a)).astype(np.float32))
        # Illegal actions get the largest logits, infinities included.
        mask = torch.from_numpy(rng.random((8, a)) < 0.05)
        mask[:, int(rng.integers(a))] = True
        logits[~mask] += 1e30
        logits[0, ~mask[0]] = math.inf
        got = masked_argmax(logits, mask)
        assert mask[torch.arange(8), got].all()
    # Ties: the lowest legal id.
    logits = torch.tensor([[3.0, 5.0, 5.0, 5.0, 9.0]])
    mask = torch.tensor([[True, False, True, True, False]])
    assert masked_argmax(logits, mask).tolist() == [2]
    # Real play: a random network's argmax is always legal (the env raises otherwise).
    net = random_net("cromwell", (8, 8))
    envs = PatienceVectorEnv("cromwell", 8, illegal_action="raise")
    obs, _ = envs.reset(seed=5)
    with torch.no_grad():
        for _ in range(150):
            act = masked_argmax(net(torch.from_numpy(obs)), torch.tensor(envs.action_masks()))
            obs, *_ = envs.step(act.numpy())
    envs.close()


def test_a_wrong_model_file_is_a_clear_error(tmp_path: Path) -> None:
    net = random_net("fourquarters", (4,))
    good = export_model(net, tmp_path / "fq.safetensors", "cmd")
    with pytest.raises(ModelError, match="trained for fourquarters, not limited"):
        load_model(good, "limited")
    with pytest.raises(ModelError, match="no such file"):
        load_model(tmp_path / "missing.safetensors")
    truncated = tmp_path / "truncated.safetensors"
    truncated.write_bytes(good.read_bytes()[:-10])
    with pytest.raises(ModelError, match="not a readable safetensors file"):
        load_model(truncated)

    def rewrite(
        name: str, edit_meta: dict[str, str | None] | None = None, edit_tensors: dict[str, torch.Tensor | None] | None = None
    ) -> Path:
        from safetensors.torch import load_file, save_file

        tensors = load_file(str(good))
        from safetensors import safe_open

        with safe_open(str(good), framework="pt") as f:
            meta = dict(f.metadata())
        for k, v in (edit_meta or {}).items():
            if v is None:
                meta.pop(k)
            else:
                meta[k] = v
        for k, t in (edit_tensors or {}).items():
            if t is None:
                tensors.pop(k)
            else:
                tensors[k] = t
        p = tmp_path / name
        save_file(tensors, str(p), metadata=meta)
        return p

    with pytest.raises(ModelError, match="lacks the required keys command"):
        load_model(rewrite("nocmd.safetensors", {"command": None}))
    with pytest.raises(ModelError, match="rules version 99; this build plays rules version 1"):
        load_model(rewrite("rules.safetensors", {"rules_version": "99"}))
    with pytest.raises(ModelError, match="onehot_len is 7"):
        load_model(rewrite("width.safetensors", {"onehot_len": "7"}))
    with pytest.raises(ModelError, match=r"layers.1 has shapes \[105, 5\]"):
        load_model(rewrite("shape.safetensors", edit_tensors={"layers.1.weight": torch.zeros(105, 5)}))
    with pytest.raises(ModelError, match="NaN or an infinity"):
        load_model(rewrite("nan.safetensors", edit_tensors={"layers.1.bias": torch.full((105,), math.nan)}))
    with pytest.raises(ModelError, match="want exactly"):
        load_model(rewrite("extra.safetensors", edit_tensors={"layers.2.bias": torch.zeros(3)}))
    with pytest.raises(ModelError, match='format is "other"'):
        load_model(rewrite("format.safetensors", {"format": "other"}))
    # lookahead_samples: a value network's, 1 to 256, above 1 only where cards are hidden.
    good = export_model(random_net("fourquarters", (), outputs=1), tmp_path / "v.safetensors", "cmd")
    assert load_model(rewrite("k16.safetensors", {"lookahead_samples": "16"}))[1]["lookahead_samples"] == "16"
    for k in ("0", "257", "two", "-1", "²"):
        with pytest.raises(ModelError, match=f'lookahead_samples is "{k}"; want a whole number from 1 to 256'):
            load_model(rewrite(f"k{k}.safetensors", {"lookahead_samples": k}))
    with pytest.raises(ModelError, match="has lookahead_samples but no head=value"):
        load_model(rewrite("kpolicy.safetensors", {"lookahead_samples": "4", "head": None}))
    good = export_model(random_net("fifteen", (), outputs=1), tmp_path / "open.safetensors", "cmd")
    load_model(rewrite("open1.safetensors", {"lookahead_samples": "1"}))
    with pytest.raises(ModelError, match="fifteen has no hidden cards"):
        load_model(rewrite("open4.safetensors", {"lookahead_samples": "4"}))


def random_level(game: str, deals: np.ndarray) -> float:
    """Mean return of uniformly random legal play on the deals (one episode each)."""
    envs = PatienceVectorEnv(game, len(deals))
    envs.reset(seed=deals)
    rng = np.random.default_rng(0)
    ret = np.zeros(len(deals))
    done = np.zeros(len(deals), bool)
    while not done.all():
        u = rng.random(envs.action_masks().shape) * envs.action_masks()
        _, r, term, trunc, _ = envs.step(u.argmax(1).astype(np.int64))
        ret += np.where(done, 0.0, r)
        done |= term | trunc
    envs.close()
    return float(ret.mean())


def test_ppo_smoke_beats_random_on_the_fifteen(tmp_path: Path) -> None:
    """A small budget of PPO on The Fifteen beats random play on fixed deals."""
    out = tmp_path / "run"
    # The one-hot first layer (--card-dim 0): the setting this budget was tuned for.
    argv = ["ppo", "--game", "fifteen", "--steps", "40k", "--hidden", "16", "--card-dim", "0",
            "--num-envs", "32", "--num-steps", "64",
            "--lr", "3e-3", "--no-anneal", "--epochs", "2", "--minibatches", "4", "--eval-every", "20k",
            "--eval-deals", "100", "--references", "", "--seed", "2", "--out", str(out)]
    assert train.main(argv) == 0
    rows = (out / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("step,") and len(rows) >= 3
    assert (out / "curve.png").stat().st_size > 1000
    net, meta = load_model(out / "best.safetensors", "fifteen")
    assert meta["command"] == "python -m patience_gym.train " + shlex.join(argv)
    # Random play places 5 % of the cards; taking foundation moves first, 7.5 %.
    deals = np.arange(900_000, 900_200)
    learned = train.evaluate(net, deals).mean_return
    rand = random_level("fifteen", deals)
    assert learned > rand + 0.01, (learned, rand)
    # Resuming continues from the checkpoint.
    assert train.main([*argv[:4], "48k", *argv[5:], "--resume"]) == 0
    assert len((out / "curve.csv").read_text().splitlines()) > len(rows)


def test_bc_from_a_dataset_plays_in_go(patience_cli: Path, tmp_path: Path) -> None:
    """generate --agent heuristic → bc → the Go policy agent plays the model."""
    pytest.importorskip("pyarrow")
    data = tmp_path / "limited-heuristic"
    subprocess.run([str(patience_cli), "generate", "--game", "limited", "--agent", "heuristic", "--episodes", "60",
                    "--out", str(data)], check=True, capture_output=True)
    out = tmp_path / "bc"
    assert train.main(["bc", "--data", str(data), "--epochs", "2", "--hidden", "32", "--eval-deals", "32",
                       "--references", "", "--out", str(out)]) == 0
    model = out / "best.safetensors"
    net, meta = load_model(model, "limited")
    assert meta["command"].startswith("python -m patience_gym.train bc --data ")
    res = subprocess.run([str(patience_cli), "bench", "--games", "limited", "--agents", "policy", "--model", str(model),
                          "--deals", "20", "--seed-start", "900000", "--json", str(tmp_path / "b.json")],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    go = json.loads((tmp_path / "b.json").read_text())["summaries"][0]["progress_mean"]
    py = train.evaluate(net, np.arange(900_000, 900_020)).mean_return
    # The same network on the same deals: Go and Python play the same games.
    assert abs(go - py) < 1e-9, (go, py)
    # So does the Go policy agent asked through agent_actions.
    via = train.evaluate_agent("limited", f"policy:model={model}", np.arange(900_000, 900_020)).mean_return
    assert abs(go - via) < 1e-9, (go, via)
    # PPO can start from the BC model.
    assert train.main(["ppo", "--game", "limited", "--init", str(model), "--steps", "2k", "--num-envs", "8",
                       "--num-steps", "128", "--eval-deals", "8", "--references", "", "--out", str(tmp_path / "ppo")]) == 0
    _, meta2 = load_model(tmp_path / "ppo" / "model.safetensors")
    assert meta2["init"] == str(model) and meta2["hidden"] == "32"


def test_dagger_learns_from_a_go_teacher(tmp_path: Path) -> None:
    """DAgger with the Go heuristic as teacher: the labels are the teacher's
    moves in the positions the student reaches; a small card-embedding
    network trained so beats random play on fixed deals, and its file plays."""
    out = tmp_path / "dagger"
    argv = ["dagger", "--game", "limited", "--teacher", "heuristic", "--rounds", "3", "--steps-per-round", "3k",
            "--num-envs", "32", "--hidden", "64", "--card-dim", "4", "--epochs", "3", "--eval-deals", "64",
            "--references", "", "--out", str(out)]
    assert train.main(argv) == 0
    net, meta = load_model(out / "best.safetensors", "limited")
    assert meta["obs_encoding"] == "card-embedding" and meta["teacher"] == "heuristic"
    assert int(meta["trained_steps"]) > 0 and meta["command"].startswith("python -m patience_gym.train dagger")
    rows = (out / "curve.csv").read_text().splitlines()
    assert len(rows) == 1 + 4  # header, round 0 and three rounds
    deals = np.arange(900_000, 900_064)
    learned = train.evaluate(net, deals).mean_return
    rand = float(np.mean(train.evaluate(random_net("limited"), deals).returns))
    assert learned > rand + 0.05, (learned, rand)


def test_value_file_round_trip(tmp_path: Path) -> None:
    """A network with one output is exported as a value file (head=value)
    and reads back as the same function."""
    torch.manual_seed(3)
    spec = SPECS["royalparade"]
    net = PolicyNet(spec, (16,), 1, card_dim=3)
    with torch.no_grad():
        for p in net.parameters():
            p.normal_(0, 0.3)
    obs, _ = env_observations("royalparade", n=8, steps=6)
    path = export_model(net, tmp_path / "v.safetensors", "test", dtype="f32")
    back, meta = load_model(path, "royalparade")
    assert meta["head"] == "value"
    with torch.no_grad():
        got = back(torch.from_numpy(obs)).double()
    assert got.shape == (len(obs), 1)
    assert torch.allclose(got, dense_logits(net, obs), atol=1e-4)
    # A policy file has no head key; an unknown head is refused.
    _, pmeta = load_model(export_model(random_net("royalparade"), tmp_path / "p.safetensors", "test"), "royalparade")
    assert "head" not in pmeta
    from safetensors.torch import load_file, save_file

    bad = tmp_path / "q.safetensors"
    save_file(load_file(str(path)), str(bad), metadata={**meta, "head": "q"})
    with pytest.raises(ModelError, match='head is "q"'):
        load_model(bad)
    with pytest.raises(ValueError, match="evaluate plays policies"):
        train.evaluate(back, np.arange(900_000, 900_004))
    # A run starts only from a file of its own kind.
    with pytest.raises(ValueError, match="is a value network; this run starts from a policy"):
        train.start_net(train.BCConfig(init=str(path)), spec)
    with pytest.raises(ValueError, match="is a policy; this run starts from a value network"):
        train.start_net(train.ValueConfig(init=str(tmp_path / "p.safetensors")), spec, train.HEAD_VALUE)


def test_value_from_labelled_moves_plays_in_go(patience_cli: Path, tmp_path: Path) -> None:
    """patience label → train value → the network fits the labels it holds
    out better than at the start, and the Go policy agent plays the value
    file (one-step look-ahead): bench and agent_actions give the same games."""
    pytest.importorskip("pyarrow")
    moves = tmp_path / "moves"
    subprocess.run([str(patience_cli), "label", "fifteen", "--deals", "60", "--per-deal", "10", "--rollouts", "2",
                    "--rollout-steps", "20", "--out", str(moves)],
                   check=True, capture_output=True)
    out = tmp_path / "value"
    argv = ["value", "--moves", str(moves), "--epochs", "3", "--hidden", "32", "--card-dim", "4", "--eval-deals", "40",
            "--references", "", "--out", str(out)]
    assert train.main(argv) == 0
    model = out / "best.safetensors"
    _, meta = load_model(model, "fifteen")
    assert meta["head"] == "value" and meta["command"] == "python -m patience_gym.train " + shlex.join(argv)
    with open(out / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4
    assert float(rows[-1]["val_loss"]) < 0.5 * float(rows[0]["val_loss"]), [r["val_loss"] for r in rows]
    deals = np.arange(900_000, 900_060)
    res = subprocess.run([str(patience_cli), "bench", "--games", "fifteen", "--agents", "policy", "--model", str(model),
                          "--deals", "60", "--seed-start", "900000", "--json", str(tmp_path / "b.json")],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    go = json.loads((tmp_path / "b.json").read_text())["summaries"][0]["progress_mean"]
    via = train.evaluate_agent("fifteen", f"policy:model={model}", deals).mean_return
    assert abs(go - via) < 1e-9, (go, via)
    # train eval plays a value file with the Go agent too.
    code = train.main(["eval", "--model", str(model), "--deals", "60"])
    assert code == 0


def test_soft_targets() -> None:
    """The targets behaviour cloning builds from move scores: softmax of mc's
    values at temperature T, visits^(1/T) of uct's, weight on the scores and
    the rest on the move played, and the move played alone where nothing was
    weighed."""
    from patience_gym.datasets import MoveScores

    mc = MoveScores("mean rollout value in cards (mc)", np.array([0, 2, 2, 5]), np.array([4, 7, 1, 2, 3], np.int32),
                    np.array([10, 12, 5, 5, 5], np.float32))
    acts = np.array([4, 6, 3])
    t = train.soft_targets(mc, acts, temperature=2.0, weight=0.5)
    d = t.dense(np.array([0, 1, 2]), 8).numpy()
    e = np.exp(np.array([10, 12]) / 2.0)
    p = e / e.sum()
    np.testing.assert_allclose(d[0, [4, 7]], [0.5 * p[0] + 0.5, 0.5 * p[1]], rtol=1e-6)
    np.testing.assert_allclose(d[1], np.eye(8)[6])  # nothing weighed: the move played
    np.testing.assert_allclose(d[2, [1, 2, 3]], [1 / 6, 1 / 6, 1 / 6 + 0.5], rtol=1e-6)
    np.testing.assert_allclose(d.sum(axis=1), 1, rtol=1e-6)
    # Rows come out in the order asked.
    np.testing.assert_allclose(t.dense(np.array([2, 0]), 8).numpy(), d[[2, 0]])
    uct = MoveScores("root visits (uct)", np.array([0, 2]), np.array([0, 5], np.int32), np.array([1, 3], np.float32))
    np.testing.assert_allclose(train.soft_targets(uct, np.array([5]), 1.0, 1.0).dense(np.array([0]), 6).numpy()[0, [0, 5]],
                               [0.25, 0.75], rtol=1e-6)
    with pytest.raises(ValueError, match="temperature must be above 0"):
        train.soft_targets(mc, acts, 0.0, 1.0)


def test_bc_on_move_scores(patience_cli: Path, tmp_path: Path) -> None:
    """generate --agent mc --scores → bc --scores-temperature: the network
    learns the teacher's moves (validation loss on the moves played falls),
    the file says what it was trained on, and a dataset without scores is a
    clear error."""
    pytest.importorskip("pyarrow")
    data = tmp_path / "limited-mc"
    subprocess.run([str(patience_cli), "generate", "--game", "limited", "--agent", "mc:rollouts=2,rollout-steps=10,width=4",
                    "--episodes", "40", "--scores", "--out", str(data)], check=True, capture_output=True)
    out = tmp_path / "bc"
    assert train.main(["bc", "--data", str(data), "--epochs", "3", "--hidden", "32", "--eval-deals", "8",
                       "--references", "", "--scores-temperature", "0.5", "--scores-weight", "0.8", "--out", str(out)]) == 0
    _, meta = load_model(out / "model.safetensors", "limited")
    assert meta["scores"] == "mean rollout value in cards (mc), temperature 0.5, weight 0.8"
    with (out / "curve.csv").open() as f:
        losses = [float(r["val_loss"]) for r in csv.DictReader(f)]
    assert min(losses[1:]) < 0.8 * losses[0], losses
    plain = tmp_path / "limited-heuristic"
    subprocess.run([str(patience_cli), "generate", "--game", "limited", "--agent", "heuristic", "--episodes", "4",
                    "--out", str(plain)], check=True, capture_output=True)
    with pytest.raises(ValueError, match="needs move scores in every --data dataset"):
        train.main(["bc", "--data", str(plain), "--epochs", "1", "--hidden", "8", "--eval-deals", "2",
                    "--references", "", "--scores-temperature", "1", "--out", str(tmp_path / "bc2")])


def test_group_log_softmax() -> None:
    """The softmax over each position's moves, on a hand-made case: each
    group's probabilities sum to 1 and equal torch's softmax of the group."""
    v = torch.tensor([1.0, 2.0, 3.0, -1.0, 500.0, 499.0])
    local = torch.tensor([0, 0, 0, 1, 2, 2])
    lp = train.group_log_softmax(v, local, 3)
    assert torch.allclose(lp[:3], torch.log_softmax(v[:3], 0))
    assert lp[3].item() == 0.0
    assert torch.allclose(lp[4:], torch.log_softmax(v[4:], 0))


def test_value_choice_learns_mc_choices(patience_cli: Path, tmp_path: Path) -> None:
    """patience label --rollouts 0 → train value --choice: the cross-entropy
    on held-out choices of mc falls as it trains, the learnt weight of the
    evaluation (from the game's card count: one card, one logit) is in the
    file, a fixed one stays as given, and the Go agent plays the file."""
    pytest.importorskip("pyarrow")
    moves = tmp_path / "moves"
    subprocess.run([str(patience_cli), "label", "limited", "--agent", "mc:rollouts=4", "--deals", "80", "--per-deal", "15",
                    "--rollouts", "0", "--out", str(moves)], check=True, capture_output=True)
    rows = train.read_move_rows([str(moves)])
    assert rows.chosen.sum() == rows.group[-1] + 1  # one chosen move per position
    assert np.all(rows.value[rows.end == 0] == rows.eval[rows.end == 0])  # no continuations: the label is the evaluation
    out = tmp_path / "choice"
    argv = ["value", "--choice", "--moves", str(moves), "--epochs", "3", "--hidden", "32", "--card-dim", "4", "--eval-deals", "30",
            "--references", "", "--val-frac", "0.2", "--lr", "3e-3", "--out", str(out)]
    assert train.main(argv) == 0
    with open(out / "curve.csv") as f:
        curve = list(csv.DictReader(f))
    assert len(curve) == 4
    assert float(curve[-1]["val_loss"]) < float(curve[0]["val_loss"]), [r["val_loss"] for r in curve]
    _, meta = load_model(out / "model.safetensors", "limited")
    assert meta["head"] == "value" and meta["objective"] == "choice"
    assert float(meta["eval_weight"]) != 0.0
    assert float(meta["eval_weight"]) != 104.0  # learnt from the card count of Limited
    res = subprocess.run([str(patience_cli), "bench", "--games", "limited", "--agents", "heuristic,policy", "--model",
                          str(out / "best.safetensors"), "--deals", "30", "--seed-start", "900000"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    with pytest.raises(SystemExit) as exit_info:  # the choice options without --choice: a usage error
        train.main(["value", "--moves", str(moves), "--ties-only"])
    assert exit_info.value.code == 2
    # A fixed weight stays what it was given.
    fixed = tmp_path / "fixed"
    assert train.main([*argv[:-1], str(fixed), "--epochs", "1", "--eval-weight", "500", "--fixed-eval-weight"]) == 0
    _, meta = load_model(fixed / "model.safetensors", "limited")
    assert float(meta["eval_weight"]) == 500.0


def test_top_ties() -> None:
    """--ties-only keeps, of each position, the moves the evaluation ranks
    first (a win above all, a dead end below all), and only the positions
    where two or more share that rank and the agent chose one of them."""
    z = np.zeros((9, 3), np.uint8)
    rows = train.MoveRows(
        "limited", z, np.zeros(9, np.float32),
        group=np.array([0, 0, 0, 1, 1, 2, 2, 2, 3]),
        eval=np.array([0.5, 0.5, 0.2, 0.5, 0.5, 0.1, 0.9, 0.1, 0.3], np.float32),
        chosen=np.array([0, 1, 0, 1, 0, 1, 0, 0, 1], np.bool_),
        end=np.array([0, 0, 0, 0, -1, 1, 0, 1, 0], np.int8),
    )
    t = train.top_ties(rows)
    # position 0: two tied at 0.5, chosen among them; 1: the tie is broken by a dead end;
    # 2: two wins tie, the chosen one among them; 3: a single move.
    assert t.group.tolist() == [0, 0, 1, 1]
    assert t.chosen.tolist() == [False, True, True, False]
    assert np.all(t.eval == 0) and np.all(t.end == 0)


def test_winnable_from_solver_labels_plays_in_go(patience_cli: Path, tmp_path: Path) -> None:
    """patience label --solver → read_solver_labels → train winnable (with the
    loss over siblings) → a value file with the stacks encoding and the
    logsigmoid link that the Go policy agent plays (bench and agent_actions
    give the same games), that names its game, and that the other games and
    a file with broken stacks refuse with a clear message."""
    pq = pytest.importorskip("pyarrow.parquet")
    from patience_gym.train.winnable import KINDS, read_solver_labels

    labels = tmp_path / "labels"
    subprocess.run([str(patience_cli), "label", "fifteen", "--solver", "5k", "--agent", "heuristic,random", "--explore", "0.1",
                    "--deals", "6", "--seed-start", "500", "--part-deals", "3", "--path-positions", "12",
                    "--sibling-positions", "1", "--line-positions", "4", "--out", str(labels)],
                   check=True, capture_output=True)
    lab = read_solver_labels([str(labels)])
    t = pq.read_table(sorted(labels.glob("part-*.parquet")))
    decided = t.column("worlds").to_numpy() - t.column("unknown").to_numpy()
    assert lab.game == "fifteen" and len(lab.target) == int((decided > 0).sum()) > 0
    want = t.column("wins").to_numpy()[decided > 0] / decided[decided > 0]
    np.testing.assert_allclose(lab.target, want)
    assert set(np.unique(lab.target)) <= {0.0, 1.0}  # The Fifteen is open: one world, won or lost
    child = np.flatnonzero(lab.kind == KINDS.index("child"))
    assert len(child) > 0 and (lab.parent[child] >= 0).all()
    assert (lab.deal[lab.parent[child]] == lab.deal[child]).all()
    # Read without their parents, the children still group by parent.
    only = read_solver_labels([str(labels)], ("child",))
    assert len(only.target) == len(child) and (only.parent < -1).all()
    assert len(np.unique(only.parent)) == len(np.unique(lab.parent[child]))
    assert (lab.target[lab.kind == KINDS.index("line")] == 1).all()  # on a winning line: winnable
    # The heuristic's score: the evaluation, and a finished game's bonus or penalty (as agents/greedy.go).
    ev, term = t.column("eval").to_numpy()[decided > 0], t.column("terminal").to_numpy()[decided > 0]
    np.testing.assert_allclose(lab.score[~term], ev[~term], rtol=1e-6)
    assert ((lab.score[term] > 1000) == (lab.target[term] == 1)).all() and (lab.score[term & (lab.target == 0)] < -9).all()

    out = tmp_path / "w"
    argv = ["winnable", "--labels", str(labels), "--epochs", "2", "--hidden", "16", "--card-dim", "4", "--rank-weight", "1",
            "--rank-groups", "4", "--rank-eval", "--eval-deals", "20", "--references", "", "--val-frac", "0.2", "--out", str(out)]
    assert train.main(argv) == 0
    model = out / "best.safetensors"
    net, meta = load_model(model, "fifteen")
    assert meta["head"] == "value" and meta["value_link"] == "logsigmoid" and meta["objective"] == "winnable"
    assert meta["stacks"] == "0:15:31" and meta["stacks_sorted"] == "1" and net.stacks == ((0, 15, 31),)
    res = subprocess.run([str(patience_cli), "bench", "--games", "fifteen", "--agents", "policy", "--model", str(model),
                          "--deals", "20", "--seed-start", "900000", "--json", str(tmp_path / "b.json")],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    go = json.loads((tmp_path / "b.json").read_text())["summaries"][0]["progress_mean"]
    via = train.evaluate_agent("fifteen", f"policy:model={model}", np.arange(900_000, 900_020)).mean_return
    assert abs(go - via) < 1e-9, (go, via)

    with pytest.raises(ModelError, match="trained for fifteen, not cromwell"):
        load_model(model, "cromwell")
    res = subprocess.run([str(patience_cli), "bench", "--games", "cromwell", "--agents", "policy", "--model", str(model),
                          "--deals", "2"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode != 0 and "fifteen" in res.stderr, res.stderr
    from safetensors import safe_open
    from safetensors.torch import load_file, save_file

    with safe_open(str(model), framework="pt") as f:
        md = dict(f.metadata())
    bad = tmp_path / "bad.safetensors"
    save_file(load_file(str(model)), str(bad), metadata=md | {"stacks": "0:15:40"})
    with pytest.raises(ModelError, match=r"stacks 0:15:40 \(cells 0 to 599\) do not lie within"):
        load_model(bad)
    res = subprocess.run([str(patience_cli), "bench", "--games", "fifteen", "--agents", "policy", "--model", str(bad),
                          "--deals", "2"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode != 0 and "stacks" in res.stderr, res.stderr
