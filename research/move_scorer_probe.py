"""A probe, not part of the trainer: a network that scores each legal move of
The Fifteen from a description of the move, instead of one logit per action id.

Each legal move is described by the cards it touches (the card moved, the
card it uncovers and the one under that, the card or pile top it lands on),
its kind (up pile, down pile, marriage, into a lane, emergency rule) and the
heights of the two columns (level "cards"); then by relations read off the
observation: the rank distance of the moved and uncovered cards to their
suit's up and down piles, and how many other column tops each could marry
(level "relations"); then by the number of legal moves the position after the
move has, computed here from the observation with The Fifteen's rules
(level "mobility"). One shared network scores every legal move from its
description and a context vector of the whole observation (a card-embedding
MLP); the scores go through a softmax over the legal moves, trained with
cross-entropy against the dataset's move.

Greedy play runs in Python on the fixed evaluation deals, with two guards
against loops (the Go policy agent avoids repeated positions instead): the
reverse of the last column move is set aside, and a position met a third
time gets a random legal move.

    python research/move_scorer_probe.py --data data/fifteen-mc4-scores --epochs 2 --deals 200

Needs the package with its train extra (PyTorch, pyarrow). The commands and
figures are in docs/research/training.md (the sixth probe).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray
from torch import nn

from patience_gym import PatienceEnv, datasets, train
from patience_gym._lib import game_spec

NC, DEPTH = 15, 31  # The Fifteen's columns and cells per column in the observation
FOUND = NC * DEPTH  # offset of the eight pile cells: per suit, up then down
LEVELS = ("cards", "relations", "mobility")


def _rank(c: NDArray[np.int64]) -> NDArray[np.int64]:
    return (np.maximum(c, 1) - 1) % 13 + 1


def _suit(c: NDArray[np.int64]) -> NDArray[np.int64]:
    return (np.maximum(c, 1) - 1) // 13


def describe(obs: NDArray[np.uint8], masks: NDArray[np.bool_], level: str = "mobility") -> tuple[NDArray[np.int64], NDArray[np.int16]]:
    """Every row's legal moves, padded with -1 to the widest row, and their
    descriptions (14 small integers each; those above level are 0)."""
    N = len(obs)
    width = max(1, int(masks.sum(1).max()))
    acts = np.full((N, width), -1, np.int64)
    rows, a = np.nonzero(masks)
    starts = np.concatenate([[0], np.cumsum(masks.sum(1))[:-1]])
    acts[rows, np.arange(len(rows)) - starts[rows]] = a
    cols = obs[:, :FOUND].reshape(N, NC, DEPTH).astype(np.int64)
    h = (cols != 0).sum(2)
    R = np.arange(N)[:, None]
    C = np.arange(NC)[None, :]
    top = np.where(h > 0, cols[R, C, np.maximum(h - 1, 0)], 0)
    below = np.where(h > 1, cols[R, C, np.maximum(h - 2, 0)], 0)
    below2 = np.where(h > 2, cols[R, C, np.maximum(h - 3, 0)], 0)
    piles = obs[:, FOUND:FOUND + 8].astype(np.int64).reshape(N, 4, 2)
    up_r = np.where(piles[:, :, 0] > 0, _rank(piles[:, :, 0]), 0)  # rank on the up pile, 0 empty
    dn_r = np.where(piles[:, :, 1] > 0, _rank(piles[:, :, 1]), 14)  # rank on the down pile, 14 empty
    A = np.maximum(acts, 0)
    kind = np.select([A < 15, A < 30, A < 255], [0, 1, 2], 4)
    x = np.select([A < 15, A < 30, A < 255], [A, A - 15, (A - 30) // 15], 0)
    y = np.where((A >= 30) & (A < 255), (A - 30) % 15, 0)
    real = kind < 4
    m = np.where(real, top[R, x], 0)
    u = np.where(real, below[R, x], 0)
    u2 = np.where(real, below2[R, x], 0)
    t = np.where(kind == 2, top[R, y], 0)
    t = np.where(kind == 0, piles[R, _suit(m), 0], np.where(kind == 1, piles[R, _suit(m), 1], t))
    kind = np.where((kind == 2) & (t == 0), 3, kind)
    hs = np.where(real, np.minimum(h[R, x], 31), 0)
    hd = np.where((kind == 2) | (kind == 3), np.minimum(h[R, y], 31), 0)
    zero = np.zeros_like(kind)
    rel = [zero] * 6
    mob = zero
    if level in ("relations", "mobility"):
        def dist(c: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
            du = np.clip(_rank(c) - up_r[R, _suit(c)], -13, 13) + 13
            dd = np.clip(dn_r[R, _suit(c)] - _rank(c), -13, 13) + 13
            return np.where(c > 0, du, 27), np.where(c > 0, dd, 27)

        def mates(c: NDArray[np.int64]) -> NDArray[np.int64]:
            ok = (top[:, None, :] > 0) & (_suit(top)[:, None, :] == _suit(c)[:, :, None])
            ok &= np.abs(_rank(top)[:, None, :] - _rank(c)[:, :, None]) == 1
            ok &= C[:, None, :] != x[:, :, None]
            return np.where(c > 0, np.minimum(ok.sum(-1), 3), 4)

        mu, md = dist(m)
        uu, ud = dist(u)
        rel = [mu, md, uu, ud, mates(u), mates(m)]
    if level == "mobility":
        mob = mobility_after(top, h, up_r, dn_r, kind, x, y, m, u)
    feats = np.stack([kind, m, u, t, hs, hd, *rel, u2, mob], -1)
    feats[acts < 0] = 0
    return acts, feats.astype(np.int16)


def mobility_after(top: NDArray[np.int64], h: NDArray[np.int64], up_r: NDArray[np.int64], dn_r: NDArray[np.int64],
                   kind: NDArray[np.int64], x: NDArray[np.int64], y: NDArray[np.int64], m: NDArray[np.int64],
                   u: NDArray[np.int64], chunk: int = 4000) -> NDArray[np.int64]:
    """The legal moves of the position after each move, capped at 15 (16 for
    the emergency rule, whose position is not worked out): pile moves,
    marriages, and moves into a lane of cards that do not lie alone."""
    N, L = kind.shape
    out = np.zeros((N, L), np.int64)
    for s0 in range(0, N, chunk):
        sl = slice(s0, min(N, s0 + chunk))
        n = sl.stop - sl.start
        k, xx, yy, mm, uu = kind[sl], x[sl], y[sl], m[sl], u[sl]
        T = np.repeat(top[sl][:, None, :], L, 1)
        H = np.repeat(h[sl][:, None, :], L, 1)
        U = np.repeat(up_r[sl][:, None, :], L, 1)
        D = np.repeat(dn_r[sl][:, None, :], L, 1)
        R, Lr = np.arange(n)[:, None], np.arange(L)[None, :]
        real = k < 4
        T[R, Lr, xx] = np.where(real, uu, T[R, Lr, xx])
        H[R, Lr, xx] = np.where(real, H[R, Lr, xx] - 1, H[R, Lr, xx])
        mv = (k == 2) | (k == 3)
        T[R, Lr, yy] = np.where(mv, mm, T[R, Lr, yy])
        H[R, Lr, yy] = np.where(mv, H[R, Lr, yy] + 1, H[R, Lr, yy])
        U[R, Lr, _suit(mm)] = np.where(k == 0, _rank(mm), U[R, Lr, _suit(mm)])
        D[R, Lr, _suit(mm)] = np.where(k == 1, _rank(mm), D[R, Lr, _suit(mm)])
        ts, tr_, has = _suit(T), _rank(T), T > 0
        fu = has & (tr_ == np.take_along_axis(U, ts, 2) + 1)
        fd = has & (tr_ == np.take_along_axis(D, ts, 2) - 1)
        mar = (has[..., :, None] & has[..., None, :] & (ts[..., :, None] == ts[..., None, :])
               & (np.abs(tr_[..., :, None] - tr_[..., None, :]) == 1))
        lanes = (H == 0).any(-1) * (has & (H > 1)).sum(-1)
        mob = fu.sum(-1) + fd.sum(-1) + mar.sum((-1, -2)) + lanes
        out[sl] = np.where(real, np.minimum(mob, 15), 16)
    return out


class MoveScorer(nn.Module):
    """Scores each described move: an MLP over the move's embedded
    description and a context vector of the observation."""

    def __init__(self, ctx: int = 64, d: int = 16, hid: int = 128) -> None:
        super().__init__()
        self.ctx = train.PolicyNet(game_spec("fifteen"), (192,), ctx, card_dim=8, out_std=1.0)
        self.card = nn.Embedding(54, d)
        self.kind = nn.Embedding(5, d)
        self.height = nn.Embedding(32, d)
        self.dist = nn.Embedding(28, d)
        self.mates = nn.Embedding(5, d)
        self.mob = nn.Embedding(17, d)
        self.inp = nn.Linear(ctx + 14 * d, hid)
        self.hid = nn.Linear(hid, hid)
        self.out = nn.Linear(hid, 1)

    def forward(self, obs: torch.Tensor, feats: torch.Tensor) -> torch.Tensor:
        c = torch.relu(self.ctx(obs))
        f = feats.long()
        B, L, _ = f.shape
        parts = [self.kind(f[..., 0]), self.card(f[..., 1]), self.card(f[..., 2]), self.card(f[..., 3]),
                 self.height(f[..., 4]), self.height(f[..., 5]), self.dist(f[..., 6]), self.dist(f[..., 7]),
                 self.dist(f[..., 8]), self.dist(f[..., 9]), self.mates(f[..., 10]), self.mates(f[..., 11]),
                 self.card(f[..., 12]), self.mob(f[..., 13])]
        z = torch.cat([c[:, None, :].expand(B, L, c.shape[1]), *parts], -1)
        return self.out(torch.relu(self.hid(torch.relu(self.inp(z))))).squeeze(-1)


def play(net: MoveScorer, deals: NDArray[np.int64], level: str) -> tuple[float, float]:
    """Greedy play on deals: mean share of the cards placed, and the win rate."""
    env = PatienceEnv("fifteen")
    placed, won = 0.0, 0
    for deal in deals:
        obs, info = env.reset(seed=int(deal))
        seen: dict[bytes, int] = {}
        last, steps = -1, 0
        while True:
            acts, feats = describe(obs[None, :], info["action_mask"].astype(bool)[None, :], level)
            with torch.no_grad():
                s = net(torch.from_numpy(obs[None, :]), torch.from_numpy(feats))[0].numpy()
            s = np.where(acts[0] >= 0, s, -np.inf)
            if 30 <= last < 255:  # set aside the reverse of the last column move
                s = np.where(acts[0] == 30 + 15 * ((last - 30) % 15) + (last - 30) // 15, s - 1e3, s)
            key = obs.tobytes()
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 2:
                a = int(np.random.default_rng(steps).choice(acts[0][acts[0] >= 0]))
            else:
                a = int(acts[0, int(np.argmax(s))])
            obs, _, te, tr, info = env.step(a)
            last, steps = a, steps + 1
            if te or tr:
                break
        placed += info["progress"] / 104
        won += info["outcome"] == "won"
    return placed / len(deals), won / len(deals)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, help="dataset directories of The Fifteen, comma-separated")
    p.add_argument("--episodes", type=int, default=0, help="use only each dataset's first N episodes (0: all)")
    p.add_argument("--level", choices=LEVELS, default="mobility", help="how much of the description the network sees")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--deals", type=int, default=200, help="evaluation deals from 900,000")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", default="", help="save the network's weights here after each epoch")
    p.add_argument("--scores-temperature", type=float, default=0.0,
                   help="above 0: train on the datasets' move scores (generate --scores) at this temperature, "
                        "as bc --scores-temperature does, instead of the move played")
    a = p.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    obs_l, mask_l, act_l, ep_l, off = [], [], [], [], 0
    score_l: list[datasets.MoveScores] = []
    for d in a.data.split(","):
        ds = datasets.load(d)
        if ds.meta["game"] != "fifteen":
            sys.exit(f"{d} holds {ds.meta['game']}, not fifteen")
        keep = ds.episode_index < a.episodes if a.episodes else np.ones(len(ds), bool)
        obs_l.append(ds.obs[keep])
        mask_l.append(ds.masks[keep])
        act_l.append(ds.actions[keep])
        if a.scores_temperature > 0:
            if ds.scores is None:
                sys.exit(f"{d} has no move scores (make it with generate --scores)")
            score_l.append(ds.scores.take(np.flatnonzero(keep)))
        ep_l.append(ds.episode_index[keep] + off)
        off = int(ep_l[-1].max()) + 1
    obs, masks, actions, eps = (np.concatenate(v) for v in (obs_l, mask_l, act_l, ep_l))
    t0 = time.time()
    acts, feats = describe(obs, masks, a.level)
    target = (acts == actions[:, None].astype(np.int64)).argmax(1)
    print(f"{len(acts):,} rows of {off:,} episodes described in {time.time() - t0:.0f} s", file=sys.stderr)
    val_eps = rng.choice(np.unique(eps), size=max(1, off // 20), replace=False)
    is_val = np.isin(eps, val_eps)
    tr, va = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    Ob, Fe, Ac, T = torch.from_numpy(obs), torch.from_numpy(feats), torch.from_numpy(acts), torch.from_numpy(target)
    soft = None
    if a.scores_temperature > 0:
        soft = train.soft_targets(datasets.MoveScores.concat(score_l), actions.astype(np.int64), a.scores_temperature, 1.0)
    net = MoveScorer()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    deals = np.arange(900_000, 900_000 + a.deals)

    def accuracy() -> float:
        net.eval()
        hit = 0
        with torch.no_grad():
            for s in range(0, len(va), 2048):
                i = torch.from_numpy(va[s:s + 2048])
                hit += int((net(Ob[i], Fe[i]).masked_fill(Ac[i] < 0, -1e9).argmax(1) == T[i]).sum())
        net.train()
        return hit / len(va)

    for epoch in range(1, a.epochs + 1):
        perm = rng.permutation(tr)
        for k in range(len(perm) // 256):
            i = torch.from_numpy(perm[k * 256:(k + 1) * 256])
            logits = net(Ob[i], Fe[i]).masked_fill(Ac[i] < 0, -1e9)
            if soft is not None:
                # the target of each row, read at its legal moves' slots
                tgt = soft.dense(i.numpy(), masks.shape[1]).gather(1, Ac[i].clamp(min=0)) * (Ac[i] >= 0)
                loss = -(tgt * F.log_softmax(logits, 1)).sum(1).mean()
            else:
                loss = F.cross_entropy(logits, T[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if k % 200 == 0:
                print(f"epoch {epoch} batch {k} loss {loss.item():.3f} {time.time() - t0:.0f} s", file=sys.stderr)
        acc = accuracy()
        net.eval()
        placed, wins = play(net, deals, a.level)
        net.train()
        print(f"epoch {epoch}: validation accuracy {acc:.3f}; greedy play places {100 * placed:.1f} % of the cards, "
              f"wins {100 * wins:.1f} % on deals {deals[0]}..{deals[-1]}; {time.time() - t0:.0f} s", flush=True)
        if a.save:
            torch.save(net.state_dict(), a.save)


if __name__ == "__main__":
    main()
