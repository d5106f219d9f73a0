"""Can the terms say which of the file's moves lose the win? On a CSV of
labelled moves (`lost -csv -sample K`: the solver's verdicts at the last
winnable position of each lost game, kind critical, and at positions drawn
from won games, kind sample; or `qlabels -rollout AGENT`: whether that
agent wins after the move), a classifier of a move's label is trained on
four deals in five (logistic, or a network of two hidden layers; on the
terms of the position the move leads to, with --child-only, or on those
and their difference from the mean over the position's moves), and for
the training deals and the fifth held out (deal mod 5 = 0) it prints:

- how often it scores the file's move at a critical position below the
  file's move (one that keeps the win) at a sampled position: what a veto
  needs;
- by kind of position: how well it orders a position's winning moves above
  its losing ones, how often the file's own move and a random legal move
  win, and how often the file's ranking with the veto would choose a
  winning move (the file's score plus --weight times min(0, log p - log F)
  for each floor F), with how often that choice is not the file's move.

With --out FILE it writes a copy of --file whose veto (veto_terms,
veto_bias, veto_floor, veto_weight; see docs/models.md) is the logistic
classifier fitted to every deal, in the terms' own units; the agents no
longer play a veto and refuse such a file (docs/models.md, retired keys):
play it with patience built at commit 6e2897d. Only positions
with moves of both kinds are labelled, so the veto's cost where every move
keeps the win is not seen here: play shows it. Needs torch and pandas.

    python research/round20/veto.py LABELS.csv [--child-only] [--hidden 32] [--relative] [--floors 0.3,0.5]
    python research/round20/veto.py LABELS.csv --child-only --out runs/r20/veto.safetensors --floor 0.5 --weight 10
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from numpy.typing import NDArray

from patience_research.ranking import listwise
from patience_research.valuefile import read, spec_weights, write


def file_weights(path: str, terms: list[str]) -> NDArray[np.float64]:
    """The weights the file scores a position's terms by: the evaluation's
    own plus its eval_terms."""
    meta = read(Path(path))[0]["__metadata__"]
    own, extra = spec_weights(meta["game"]), json.loads(meta.get("eval_terms", "{}"))
    return np.array([own.get(t, 0.0) + extra.get(t, 0.0) for t in terms])


def features(d: pd.DataFrame, terms: list[str], pos: NDArray[np.int64]) -> NDArray[np.float32]:
    """The terms of the position each move leads to, and their difference
    from the mean over the position's moves."""
    x = d[terms].to_numpy(np.float32)
    mean = pd.DataFrame(x).groupby(pos).transform("mean").to_numpy(np.float32)
    return np.concatenate([x, x - mean], axis=1)


def pairs_right(p: NDArray[np.float64], pos: NDArray[np.int64], won: NDArray[np.float64]) -> float:
    """The share of (winning, losing) move pairs of one position that p
    orders right, ties counting half, each position weighing one."""
    shares = []
    for k in np.unique(pos):
        s, y = p[pos == k], won[pos == k]
        a, b = s[y == 1], s[y == 0]
        if len(a) and len(b):
            d = a[:, None] - b[None, :]
            shares.append(float(((d > 0) + 0.5 * (d == 0)).mean()))
    return float(np.mean(shares))


def veto(p: NDArray[np.float64], pos: NDArray[np.int64], won: NDArray[np.float64],
         played: NDArray[np.bool_], score: NDArray[np.float64], floor: float,
         weight: float) -> tuple[float, float]:
    """The share of positions whose choice with the veto wins, and the share
    where it is not the file's move: the best move by the file's score plus
    weight times min(0, log p - log floor), the file's own move among equals."""
    wins, moved = [], []
    for k in np.unique(pos):
        s, y, f, sc = p[pos == k], won[pos == k], played[pos == k], score[pos == k]
        total = sc + weight * np.minimum(0.0, np.log(np.maximum(s, 1e-12)) - np.log(floor))
        i = int(np.argmax(f))
        if total[i] >= total.max() - 1e-9:
            wins.append(float(y[i]))
            moved.append(0.0)
        else:
            wins.append(float(y[total >= total.max() - 1e-9].mean()))
            moved.append(1.0)
    return float(np.mean(wins)), float(np.mean(moved))


def relative(z: NDArray[np.float64], pos: NDArray[np.int64], won: NDArray[np.float64],
             played: NDArray[np.bool_], score: NDArray[np.float64], delta: float,
             weight: float) -> tuple[float, float]:
    """As veto, with weight times min(0, z - (the best z of the position) +
    delta) in place of the penalty: a move is held back when its logit is
    more than delta below its best sibling's."""
    zmax = pd.Series(z).groupby(pos).transform("max").to_numpy()
    p = np.exp(np.minimum(0.0, z - zmax + delta))  # so that veto's log p - log 1 is the penalty
    return veto(p, pos, won, played, score, 1.0, weight)


def train(x: NDArray[np.float32], y: NDArray[np.float32], hidden: int, epochs: int, seed: int,
          pos: NDArray[np.int64] | None = None) -> torch.nn.Module:
    """A classifier of y from x (binary cross-entropy, Adam); given pos,
    a scorer trained by the listwise loss over each position's moves."""
    torch.manual_seed(seed)
    n = x.shape[1]
    net: torch.nn.Module = (torch.nn.Linear(n, 1) if hidden == 0 else
                            torch.nn.Sequential(torch.nn.Linear(n, hidden), torch.nn.ReLU(),
                                                torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
                                                torch.nn.Linear(hidden, 1)))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-5)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    if pos is not None:
        _, inv = np.unique(pos, return_inverse=True)
        groups = torch.from_numpy(inv)
        for _ in range(epochs * 10):
            opt.zero_grad()
            listwise(net(xt).squeeze(1), groups, yt).backward()
            opt.step()
        return net
    for _ in range(epochs):
        for idx in torch.randperm(len(xt)).split(256):
            opt.zero_grad()
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(xt[idx]).squeeze(1), yt[idx])
            loss.backward()
            opt.step()
    return net


def write_veto(a: argparse.Namespace, terms: list[str], net: torch.nn.Module,
               mu: NDArray[np.float32], sd: NDArray[np.float32]) -> None:
    """Writes a copy of a.file with the logistic net as its veto, in the
    terms' own units."""
    assert isinstance(net, torch.nn.Linear)
    w = net.weight.detach().numpy()[0].astype(np.float64) / sd
    b = float(net.bias.detach().numpy()[0]) - float(w @ mu)
    header, rest = read(Path(a.file))
    meta = header["__metadata__"]
    meta["veto_terms"] = json.dumps({t: float(x) for t, x in zip(terms, w)})
    meta["veto_bias"], meta["veto_floor"], meta["veto_weight"] = repr(b), repr(a.floor), repr(a.weight)
    meta["command"] = "python " + " ".join(sys.argv)
    write(Path(a.out), header, rest)
    print(f"wrote {a.out}: bias {b:.3f}, " + ", ".join(f"{t} {x:+.3f}" for t, x in zip(terms, w)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--hidden", type=int, default=0, help="0: logistic; else the width of two hidden layers")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--floors", default="0.1,0.2,0.3,0.5")
    ap.add_argument("--relative", action="store_true",
                    help="train by the listwise loss; hold back moves whose logit is more than delta (the floors) below the best")
    ap.add_argument("--child-only", action="store_true", help="only the terms of the position a move leads to")
    ap.add_argument("--file", default="models/fifteen.safetensors", help="the value file the moves were sampled by")
    ap.add_argument("--out", help="write the file with a veto of the terms (--child-only, all deals) here")
    ap.add_argument("--floor", type=float, default=0.3, help="the written veto's floor")
    ap.add_argument("--weight", type=float, default=10.0, help="the veto's weight, in cards")
    a = ap.parse_args()
    d = pd.concat([pd.read_csv(f) for f in a.csv], ignore_index=True)
    terms = list(d.columns[list(d.columns).index("home"):])
    pos = d.groupby(["seed", "step", "kind"]).ngroup().to_numpy()
    x = features(d, terms, pos)
    if a.child_only:
        x = x[:, :len(terms)]
    score = d[terms].to_numpy(np.float64) @ file_weights(a.file, terms)
    mu, sd = x.mean(0), x.std(0) + 1e-6
    x = (x - mu) / sd
    if a.out:
        if not a.child_only:
            sys.exit("--out needs --child-only: the agent sees one move's position at a time")
        write_veto(a, terms, train(x, d["keep"].to_numpy(np.float32), 0, a.epochs, 0), mu, sd)
    won = d["keep"].to_numpy(np.float32)
    played = d["played"].to_numpy().astype(bool)
    kinds = d["kind"].to_numpy().astype(str)
    held = (d["seed"].to_numpy() % 5) == 0
    print(f"{pos.max() + 1} positions, {len(d)} moves, {won.mean():.3f} of them win;"
          f" held out: {len(np.unique(pos[held]))} positions")
    net = train(x[~held], won[~held], a.hidden, a.epochs, 0, pos[~held] if a.relative else None)
    with torch.no_grad():
        z = net(torch.from_numpy(x)).squeeze(1).numpy().astype(np.float64)
    p = 1 / (1 + np.exp(-z))
    for name, m in (("training", ~held), ("held out", held)):
        crit, samp = p[m & played & (kinds == "critical")], p[m & played & (kinds == "sample") & (won == 1)]
        if len(crit) and len(samp):
            auc = float(((crit[:, None] < samp[None, :]) + 0.5 * (crit[:, None] == samp[None, :])).mean())
            print(f"{name}: the file's move at critical positions against kept ones at sampled positions,"
                  f" ordered right {auc:.3f} ({len(crit)} and {len(samp)})")
        for kind in [*sorted(set(kinds[m])), "all"]:
            k = m & ((kinds == kind) | (kind == "all"))
            base = float(pd.Series(won[k & played]).mean())
            rand = float(pd.Series(won[k]).groupby(pos[k]).mean().mean())
            print(f"{name}, {kind} ({len(np.unique(pos[k]))} positions): pairs ordered right"
                  f" {pairs_right(p[k], pos[k], won[k]):.3f}; a random move wins {rand:.3f}, the file's {base:.3f}")
            for f in (float(s) for s in a.floors.split(",")):
                if a.relative:
                    w, mv = relative(z[k], pos[k], won[k], played[k], score[k], f, a.weight)
                else:
                    w, mv = veto(p[k], pos[k], won[k], played[k], score[k], f, a.weight)
                print(f"  veto below {f:.2f}: wins {w:.3f}, moved at {mv:.3f} of the positions")


if __name__ == "__main__":
    main()
