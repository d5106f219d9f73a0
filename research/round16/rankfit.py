"""A value file's term weights fitted to the solver's labels instead of to
play: on the positions of a `lost -csv -sample K` file that have moves that
keep the win and moves that lose it, a correction to the file's weights is
fitted by logistic regression on pairs of one position's moves (one that
keeps the win, one that loses it; each position weighs 1 in all), with an
L2 penalty LAMBDA on the correction. It prints how often the first choice
by the weights (the evaluation's own weights plus the file's) keeps the win,
for the file and for the fit on positions of deals held out (five folds by
deal), and writes the fitted file when asked.

    python research/round16/rankfit.py LOST.csv FILE [--lambda 1] [--out FITTED]

The first choice here is by the weighed terms of the positions the moves
lead to; the agent also adds the evaluation's win bonus and dead-end and
repeat costs, so its choice can differ. It needs pandas and scipy.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.optimize import minimize

from patience_research.valuefile import read, spec_weights, write

FIRST_TERM = "home"


class Positions:
    """The labelled positions with both kinds of move, as term matrices."""

    def __init__(self, rows: pd.DataFrame, terms: list[str]) -> None:
        rows = rows.assign(pos=rows["seed"].astype(str) + "/" + rows["step"].astype(str))
        self.groups = [g for _, g in rows.groupby("pos") if g["keep"].nunique() == 2]
        self.terms = terms
        self.deal = np.array([int(g["seed"].iloc[0]) for g in self.groups])

    def subset(self, mask: NDArray[np.bool_]) -> list[pd.DataFrame]:
        return [g for g, m in zip(self.groups, mask) if m]

    def first_keeps(self, groups: list[pd.DataFrame], w: NDArray[np.float64]) -> float:
        """The share of positions whose best-scored moves keep the win
        (ties share the position)."""
        shares = []
        for g in groups:
            s = g[self.terms].to_numpy(float) @ w
            shares.append(g["keep"].to_numpy()[s >= s.max() - 1e-9].mean())
        return float(np.mean(shares))

    def fit(self, groups: list[pd.DataFrame], w: NDArray[np.float64], lam: float) -> NDArray[np.float64]:
        """The correction to w that the pairwise logistic loss chooses."""
        diffs, weights = [], []
        for g in groups:
            x = g[self.terms].to_numpy(float)
            keep, lose = x[g["keep"].to_numpy() == 1], x[g["keep"].to_numpy() == 0]
            for k in keep:
                diffs.extend(k - lose)
                weights.extend([1 / (len(keep) * len(lose))] * len(lose))
        p, q = np.array(diffs), np.array(weights)

        def loss(dw: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
            z = p @ (w + dw)
            return float(q @ np.logaddexp(0, -z) + lam * dw @ dw), p.T @ (q * -1 / (1 + np.exp(z))) + 2 * lam * dw

        return np.asarray(minimize(loss, np.zeros(len(w)), jac=True, method="L-BFGS-B").x)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="a lost -csv file")
    ap.add_argument("file", help="the value file whose weights are corrected")
    ap.add_argument("--lambda", dest="lam", type=float, default=1.0, help="the L2 penalty on the correction")
    ap.add_argument("--out", help="write the file with the fitted weights here")
    a = ap.parse_args()
    rows = pd.read_csv(a.csv)
    header, rest = read(Path(a.file))
    meta = header["__metadata__"]
    own = spec_weights(meta["game"])
    file_w = json.loads(meta.get("eval_terms", "{}"))
    terms = list(rows.columns[list(rows.columns).index(FIRST_TERM):])
    w = np.array([own.get(t, 0.0) + file_w.get(t, 0.0) for t in terms])
    pos = Positions(rows, terms)
    kinds = {k: sum(g["kind"].iloc[0] == k for g in pos.groups) for k in ("sample", "critical")}
    print(f"{len(pos.groups)} positions with moves that keep and lose the win {kinds}")
    for kind in ("sample", "critical", None):
        groups = [g for g in pos.groups if kind is None or g["kind"].iloc[0] == kind]
        if groups:
            print(f"{kind or 'all'}: a random legal move keeps the win {np.mean([g['keep'].mean() for g in groups]):.3f},"
                  f" the file's first choice {pos.first_keeps(groups, w):.3f}")
    fold = np.random.default_rng(0).integers(0, 5, size=pos.deal.max() + 1)[pos.deal]
    held = sum(pos.first_keeps(pos.subset(fold == k), w + pos.fit(pos.subset(fold != k), w, a.lam))
               * (fold == k).sum() for k in range(5) if (fold == k).any())
    print(f"the fit's first choice on held-out deals (lambda {a.lam}): {held / len(pos.groups):.3f}")
    if a.out:
        dw = pos.fit(pos.groups, w, a.lam)
        meta["eval_terms"] = json.dumps({t: float(w[i] + dw[i] - own.get(t, 0.0)) for i, t in enumerate(terms)})
        write(Path(a.out), header, rest)
        print("correction:", {t: round(float(x), 3) for t, x in zip(terms, dw)})


if __name__ == "__main__":
    main()
