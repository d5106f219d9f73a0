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


def main() -> None:
    torch.set_num_threads(1)
    torch.manual_seed(1)
    spec = game_spec("fifteen")
    data = label(T)
    obs, masks, solver, heuristic = data["obs"], data["masks"], data["solver"], data["heuristic"]
    legal = masks.sum(-1)
    print(f"legal moves per position: mean {legal.mean():.1f}, median {np.median(legal):.0f}")
    print(f"the heuristic's move is the solver's in {(solver == heuristic).mean():.3f} of the positions")

    def rows(x: np.ndarray, envs_: slice) -> torch.Tensor:
        return torch.from_numpy(np.ascontiguousarray(x[:, envs_]).reshape(-1, *x.shape[2:]))

    tr, te = slice(0, TRAIN_ENVS), slice(TRAIN_ENVS, N)
    o_tr, m_tr, y_tr = rows(obs, tr), rows(masks, tr), rows(solver, tr)
    o_te, m_te, y_te, h_te = rows(obs, te), rows(masks, te), rows(solver, te), rows(heuristic, te)
    net = PolicyNet(spec, (192, 256), spec.actions, card_dim=8)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)

    def accuracy(o_: torch.Tensor, m_: torch.Tensor, y_: torch.Tensor) -> float:
        hits = 0
        with torch.no_grad():
            for k in range(0, len(y_), 2048):
                p = masked_logits(net(o_[k : k + 2048]), m_[k : k + 2048]).argmax(-1)
                hits += int((p == y_[k : k + 2048]).sum())
        return hits / len(y_)

    for ep in range(1, EPOCHS + 1):
        net.train()
        perm = torch.from_numpy(rng.permutation(len(y_tr)))
        for k in range(0, len(perm), 512):
            i = perm[k : k + 512]
            loss = F.cross_entropy(masked_logits(net(o_tr[i]), m_tr[i]), y_tr[i])
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
        net.eval()
        print(f"epoch {ep}: the solver's move on the training deals {accuracy(o_tr, m_tr, y_tr):.3f}, "
              f"on unseen deals {accuracy(o_te, m_te, y_te):.3f} (the heuristic's there: {(h_te == y_te).float().mean():.3f})")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
