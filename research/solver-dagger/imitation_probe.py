"""A probe, not part of the trainer: can a one-logit-per-action network
imitate the solver's moves in The Fifteen?

The solver (``solver:nodes=30000``, through ``PatienceVectorEnv.agent_actions``)
plays 128 environments for 400 steps each (same-step autoreset, so each plays
its next deal when one ends), from deal 123,456 up (training deals); in every
position the solver's move (the first of the winning line it finds, the
heuristic's where it finds none) and the heuristic's move are recorded. The
network of ``train dagger`` for The Fifteen (card codes of width 8, hidden
layers 192 and 256) is trained with cross-entropy on the solver's moves of
environments 0-95 and tested on those of environments 96-127, whose deals it
never saw; the heuristic's agreement with the solver is the yardstick.

    python research/solver-dagger/imitation_probe.py > results/train/solver-dagger/imitation_probe.txt

Needs the package with its train extra (PyTorch). The figures are in
docs/research/solver-labels.md (DAgger with the solver).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F
from gymnasium.vector import AutoresetMode

from patience_gym import PatienceVectorEnv
from patience_gym._lib import game_spec
from patience_gym.train.net import PolicyNet, masked_logits

N, T, TRAIN_ENVS, EPOCHS = 128, 400, 96, 6
TEACHER = "solver:nodes=30000"


def label(steps: int) -> dict[str, np.ndarray]:
    """The solver's and the heuristic's move in every position of the
    solver's games: N environments, steps steps each, from deal 123,456 up
    (symmetry_probe.py labels its positions with this too)."""
    spec = game_spec("fifteen")
    envs = PatienceVectorEnv("fifteen", N, autoreset_mode=AutoresetMode.SAME_STEP)
    o, _ = envs.reset(seed=123456)
    obs = np.zeros((steps, N, spec.obs_len), np.uint8)
    masks = np.zeros((steps, N, spec.actions), np.bool_)
    solver = np.zeros((steps, N), np.int64)
    heuristic = np.zeros((steps, N), np.int64)
    t0 = time.perf_counter()
    for t in range(steps):
        masks[t], obs[t] = envs.action_masks(), o
        solver[t] = envs.agent_actions(TEACHER, seed=1)
        heuristic[t] = envs.agent_actions("heuristic", seed=1)
        o, *_ = envs.step(solver[t])
    envs.close()
    print(f"{steps * N} positions labelled by {TEACHER} in {time.perf_counter() - t0:.0f} s")
    return {"obs": obs, "masks": masks, "solver": solver, "heuristic": heuristic}


def fit(net: torch.nn.Module, data: dict[str, np.ndarray], name: str = "",
        relabel: Callable[[np.random.Generator, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
        | None = None) -> None:
    """Trains net with cross-entropy on the solver's moves of label's
    environments 0 to TRAIN_ENVS-1 (AdamW, EPOCHS epochs of minibatches of
    512 positions, each passed through relabel(rng, obs, masks, moves) first
    when given, rng the generator that draws them), and after each epoch
    prints, headed by name, how often its move is the solver's there and
    on the other environments' deals, which it never saw (the heuristic's
    agreement there beside it). symmetry_probe.py trains its networks with
    this too."""
    rng = np.random.default_rng(0)

    def rows(x: np.ndarray, envs_: slice) -> np.ndarray:
        return np.ascontiguousarray(x[:, envs_]).reshape(-1, *x.shape[2:])

    tr, te = slice(0, TRAIN_ENVS), slice(TRAIN_ENVS, N)
    o_tr, m_tr, y_tr = rows(data["obs"], tr), rows(data["masks"], tr), rows(data["solver"], tr)
    o_te, m_te, y_te = rows(data["obs"], te), rows(data["masks"], te), rows(data["solver"], te)
    h_te = rows(data["heuristic"], te)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)

    def accuracy(o_: np.ndarray, m_: np.ndarray, y_: np.ndarray) -> float:
        hits = 0
        with torch.no_grad():
            for k in range(0, len(y_), 2048):
                logits = net(torch.from_numpy(o_[k : k + 2048]))
                p = masked_logits(logits, torch.from_numpy(m_[k : k + 2048])).argmax(-1)
                hits += int((p == torch.from_numpy(y_[k : k + 2048])).sum())
        return hits / len(y_)

    head = f"{name}, " if name else ""
    for ep in range(1, EPOCHS + 1):
        net.train()
        perm = rng.permutation(len(y_tr))
        for k in range(0, len(perm), 512):
            i = perm[k : k + 512]
            o, m, y = o_tr[i], m_tr[i], y_tr[i]
            if relabel is not None:
                o, m, y = relabel(rng, o, m, y)
            loss = F.cross_entropy(masked_logits(net(torch.from_numpy(o)), torch.from_numpy(m)), torch.from_numpy(y))
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
        net.eval()
        print(f"{head}epoch {ep}: the solver's move on the training deals {accuracy(o_tr, m_tr, y_tr):.3f}, "
              f"on unseen deals {accuracy(o_te, m_te, y_te):.3f} (the heuristic's there: {(h_te == y_te).mean():.3f})")
        sys.stdout.flush()


def main() -> None:
    torch.set_num_threads(1)
    torch.manual_seed(1)
    spec = game_spec("fifteen")
    data = label(T)
    legal = data["masks"].sum(-1)
    print(f"legal moves per position: mean {legal.mean():.1f}, median {np.median(legal):.0f}")
    print(f"the heuristic's move is the solver's in {(data['solver'] == data['heuristic']).mean():.3f} of the positions")
    fit(PolicyNet(spec, (192, 256), spec.actions, card_dim=8), data)


if __name__ == "__main__":
    main()
