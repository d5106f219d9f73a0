"""How much of a move's label under the file's own play is the file's
tie-breaks? On a `qlabels -reseeds R` CSV (every move of each drawn position
continued R times, the agent's generator seeded anew each time), it prints
how often the R continuations of one move agree, and, with the continuations
split in two halves (A: the first R/2, B: the others), what the halves say
of the moves: the mean win rate (over B) of the move the file played, of a
random legal move, and of the move that wins most often in A; and the
correlation between the halves' win rates of a position's moves, each taken
from its position's mean. It needs pandas.

    python research/round19/reseed.py runs/r19/reseed-530000.csv
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd


def main() -> None:
    d = pd.read_csv(sys.argv[1], usecols=["seed", "step", "move", "played", "keep", "rep"])
    reps = int(d["rep"].max()) + 1
    half = reps // 2
    d["half"] = np.where(d["rep"] < half, "A", "B")
    m = d.groupby(["seed", "step", "move"]).agg(q=("keep", "mean"), played=("played", "max")).reset_index()
    a = d[d.half == "A"].groupby(["seed", "step", "move"])["keep"].mean().rename("qa")
    b = d[d.half == "B"].groupby(["seed", "step", "move"])["keep"].mean().rename("qb")
    m = m.join(a, on=["seed", "step", "move"]).join(b, on=["seed", "step", "move"])
    same = m.q.isin([0.0, 1.0]).mean()
    pair = (m.q * m.q + (1 - m.q) * (1 - m.q)).mean()  # with replacement; near enough for R = 8
    print(f"{m.groupby(['seed', 'step']).ngroups} positions of {d.seed.nunique()} deals, {len(m)} moves, {reps} continuations each")
    print(f"moves whose {reps} continuations all end alike: {same:.3f}; two continuations agree: {pair:.3f}")
    r0 = d[d.rep == 0].groupby(["seed", "step"])["keep"].agg(["min", "max"])
    mixed0 = r0[(r0["min"] == 0) & (r0["max"] == 1)].index
    print(f"positions mixed by the game's own generator alone (what plain qlabels keeps): {len(mixed0)}")
    pos = m.groupby(["seed", "step"])
    played = m[m.played == 1].qb.mean()
    rand = pos.qb.mean().mean()
    best = m.loc[pos.qa.idxmax()].qb.mean()
    print(f"win rate over half B: the file's move {played:.3f}, a random move {rand:.3f}, the best move by half A {best:.3f}")
    ca = m.qa - pos.qa.transform("mean")
    cb = m.qb - pos.qb.transform("mean")
    ok = ca.notna() & cb.notna()
    print(f"correlation of the halves' win rates within positions: {np.corrcoef(ca[ok], cb[ok])[0, 1]:.3f}")


if __name__ == "__main__":
    main()
