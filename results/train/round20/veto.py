"""Can the terms say which of the file's moves a strong player could no
longer win from? On a `qlabels -rollout` CSV (each move labelled by whether
the rollout agent, a search, wins from the position it leads to), a
classifier of a move's label from the terms of that position is trained on
four deals in five (logistic, or a network of two hidden layers; the terms
and their difference from the mean over the position's moves), and on the
fifth held out (deal mod 5 = 0) it prints:

- how well it ranks winning above losing moves within a position (the share
  of a position's winning/losing pairs it orders right);
- the share of positions where the file's own move wins, and where a veto
  would: the file's move unless the classifier gives it a chance below F,
  then the move the classifier likes best; with how often the veto moved.

Only positions with moves of both kinds are in the file, so the veto's cost
where every move wins is not seen here: play shows it. Needs torch and
pandas.

    python results/train/round20/veto.py runs/r20/v-570000.csv [--hidden 0] [--floors 0.2,0.3,0.5]
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


def file_weights(path: str, terms: list[str]) -> NDArray[np.float64]:
    """The weights the file scores a position's terms by: the evaluation's
    own plus its eval_terms."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "round16"))
    from coord import read
    from rankfit import spec_weights

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


def train(x: NDArray[np.float32], y: NDArray[np.float32], hidden: int, epochs: int, seed: int) -> torch.nn.Module:
    """A classifier of y from x (binary cross-entropy, Adam)."""
    torch.manual_seed(seed)
    n = x.shape[1]
    net: torch.nn.Module = (torch.nn.Linear(n, 1) if hidden == 0 else
                            torch.nn.Sequential(torch.nn.Linear(n, hidden), torch.nn.ReLU(),
                                                torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
                                                torch.nn.Linear(hidden, 1)))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-5)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
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
    sys.path.insert(0, str(Path(__file__).parent.parent / "round16"))
    from coord import read, write

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
    net = train(x[~held], won[~held], a.hidden, a.epochs, 0)
    with torch.no_grad():
        p = torch.sigmoid(net(torch.from_numpy(x)).squeeze(1)).numpy().astype(np.float64)
    for name, m in (("training", ~held), ("held out", held)):
        for kind in sorted(set(kinds[m])) + ["all"]:
            k = m & ((kinds == kind) | (kind == "all"))
            base = float(pd.Series(won[k & played]).mean())
            rand = float(pd.Series(won[k]).groupby(pos[k]).mean().mean())
            print(f"{name}, {kind} ({len(np.unique(pos[k]))} positions): pairs ordered right"
                  f" {pairs_right(p[k], pos[k], won[k]):.3f}; a random move wins {rand:.3f}, the file's {base:.3f}")
            for f in (float(s) for s in a.floors.split(",")):
                w, mv = veto(p[k], pos[k], won[k], played[k], score[k], f, a.weight)
                print(f"  veto below {f:.2f}: wins {w:.3f}, moved at {mv:.3f} of the positions")


if __name__ == "__main__":
    main()
