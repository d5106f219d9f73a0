"""A network over the cards that learns which moves win under the file's own
play (round 19). On `qlabels -obs` CSVs of The Fifteen (every legal move of
positions drawn from the file's games, labelled by whether the file, playing
on from there, wins; the observation after the move in the column obs), it
trains a correction to the file's score: a card-embedding value network
over the columns turned over and sorted (so that the columns' order does
not matter), with the four suits relabelled at random in every epoch, by the
listwise loss of the round-17 probe (minus the log of the softmax mass on
the winning moves of each position). The score of a move is the file's
weighed terms (in cards) plus the network's output, so an untrained network
(last layer at zero) plays as the file.

Deals whose number is 0 mod 5 are held out. After every epoch it prints the
share of positions whose first-scored move wins, for the training deals and
the held-out ones, beside the file's own share; and it writes the network
with the file's keys (eval_weight, eval_terms) as a value file the Go policy
agent plays, keeping the epoch with the best held-out share.

    python research/round19/qnet.py --file models/fifteen.safetensors \\
        --out runs/r19/qnet.safetensors runs/r19/q-540000.csv [more CSVs]

It needs torch and pandas, and the installed package.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from numpy.typing import NDArray

from patience_gym import SPECS
from patience_gym.train.model_file import export_model
from patience_gym.train.net import PolicyNet, arrange_stacks, parse_stacks
from patience_research.ranking import first_choice, listwise
from patience_research.valuefile import read

SUITS, RANKS = 4, 13


def load(paths: list[str]) -> tuple[pd.DataFrame, NDArray[np.uint8]]:
    """The rows of the CSVs, and their observations as bytes."""
    d = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    d = d.sort_values(["seed", "step"], kind="stable", ignore_index=True)  # a position's rows together
    obs = np.frombuffer(bytes.fromhex("".join(d["obs"])), np.uint8).reshape(len(d), -1)
    return d.drop(columns="obs"), obs


def suit_maps() -> NDArray[np.uint8]:
    """For each of the 24 permutations of the suits, the card code map
    (codes 1..52 are suit*13 + rank; 0 and 53 stay)."""
    import itertools

    maps = []
    for sigma in itertools.permutations(range(SUITS)):
        m = np.arange(256, dtype=np.uint8)
        for c in range(1, 53):
            s, r = (c - 1) // RANKS, (c - 1) % RANKS + 1
            m[c] = sigma[s] * RANKS + r
        maps.append(m)
    return np.stack(maps)


def relabel(obs: NDArray[np.uint8], pile0: int, rng: np.random.Generator) -> NDArray[np.uint8]:
    """Each row under a random permutation of the suits: card codes mapped,
    and the eight pile cells (up and down of each suit, from pile0) moved
    to their new suit's places."""
    maps = suit_maps()
    k = rng.integers(0, len(maps), len(obs))
    out = maps[k[:, None], obs]
    piles = out[:, pile0 : pile0 + 2 * SUITS].reshape(len(obs), SUITS, 2).copy()
    # where the suit s's piles go: the suit its ace is mapped to
    dest = (maps[k][:, 1 + RANKS * np.arange(SUITS)] - 1) // RANKS
    new = np.empty_like(piles)
    rows = np.arange(len(obs))[:, None]
    new[rows, dest] = piles
    out[:, pile0 : pile0 + 2 * SUITS] = new.reshape(len(obs), -1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--file", required=True, help="the value file the labels came from")
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", default="128,64")
    ap.add_argument("--card-dim", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=256, help="positions a minibatch")
    ap.add_argument("--no-suits", action="store_true", help="do not relabel the suits")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    spec = SPECS["fifteen"]
    d, obs = load(args.csv)
    terms = list(d.columns[list(d.columns).index("home"):])
    meta = read(Path(args.file))[0]["__metadata__"]
    own, extra = {t.name: t.weight for t in spec.terms}, json.loads(meta.get("eval_terms", "{}"))
    w = np.array([own.get(t, 0.0) + extra.get(t, 0.0) for t in terms], np.float32)
    base = (d[terms].to_numpy(np.float32) @ w) * float(meta["eval_weight"]) / spec.cards
    pos = d.groupby(["seed", "step"]).ngroup().to_numpy()
    won = d["keep"].to_numpy(np.float32)
    held = (d["seed"].to_numpy() % 5) == 0
    print(f"{pos.max() + 1} positions, {len(d)} moves, {d.seed.nunique()} deals; held out {held.sum()} moves", flush=True)
    print(f"the file: training deals {first_choice(base[~held], pos[~held], won[~held]):.3f},"
          f" held-out deals {first_choice(base[held], pos[held], won[held]):.3f}", flush=True)
    stacks = parse_stacks("0:15:31")
    pile0 = next(s.offset for s in spec.segments if s.name == "foundations")
    net = PolicyNet(spec, [int(h) for h in args.hidden.split(",")], 1, out_std=0.0,
                    card_dim=args.card_dim, stacks=stacks, sort_stacks=True)
    # the score is base + net; the softmax reads it over a learnt temperature
    log_beta = torch.nn.Parameter(torch.tensor(0.0))
    opt = torch.optim.AdamW([*net.parameters(), log_beta], lr=args.lr, weight_decay=args.weight_decay)
    tr = np.flatnonzero(~held)
    te = np.flatnonzero(held)
    obs_te = torch.from_numpy(arrange_stacks(obs[te], stacks, True))
    tr_pos = np.unique(pos[tr])
    best = -1.0
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        x = obs[tr] if args.no_suits else relabel(obs[tr], pile0, rng)
        x = arrange_stacks(x, stacks, True)
        order = rng.permutation(tr_pos)
        # rows by position: tr is sorted by row, positions are contiguous
        starts = np.searchsorted(pos[tr], tr_pos)
        ends = np.append(starts[1:], len(tr))
        where = dict(zip(tr_pos, zip(starts, ends, strict=True), strict=True))
        total = 0.0
        for b in range(0, len(order), args.batch):
            idx = np.concatenate([np.arange(*where[p]) for p in order[b : b + args.batch]])
            local = np.unique(pos[tr][idx], return_inverse=True)[1]
            s = torch.from_numpy(base[tr][idx]) + net.forward_arranged(torch.from_numpy(x[idx])).squeeze(1)
            loss = listwise(s * log_beta.exp(), torch.from_numpy(local), torch.from_numpy(won[tr][idx]))
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total += float(loss.detach()) * min(args.batch, len(order) - b)
        with torch.no_grad():
            s_te = base[te] + net.forward_arranged(obs_te).squeeze(1).numpy()
            some = rng.choice(tr_pos, min(len(tr_pos), 5000), replace=False)
            sample = tr[np.isin(pos[tr], some)]
            s_tr = base[sample] + net(torch.from_numpy(obs[sample])).squeeze(1).numpy()
        a = first_choice(s_tr, pos[sample], won[sample])
        h = first_choice(s_te, pos[te], won[te])
        print(f"epoch {epoch}: loss {total / len(order):.4f}, beta {float(log_beta.detach().exp()):.2f},"
              f" training deals {a:.3f}, held-out deals {h:.3f} ({time.time() - t0:.0f} s)", flush=True)
        if h > best:
            best = h
            keep = {k: v for k, v in meta.items() if k in ("eval_weight", "eval_terms", "cem_features", "cem_parameters")}
            keep["objective"] = "qnet (round 19)"
            keep["training_deals"] = f"{int(d.seed.min())}..{int(d.seed.max())}"
            keep["epoch"] = str(epoch)
            export_model(net, args.out, " ".join(["python", *sys.argv]), extra=keep)
    print(f"kept the epoch with held-out share {best:.3f} in {args.out}")


if __name__ == "__main__":
    main()
