"""Can the terms tell apart the moves that win under the file's play? On a
`qlabels` CSV, scorers of a move from its position's terms (a linear one and
networks of two hidden layers; from the terms of the position the move leads
to, or those and their difference from the mean over the position's moves)
are trained by a listwise loss (the log of the softmax mass on the winning
moves) on four deals in five, and the share of positions whose first-scored
move wins is printed for those deals and for the fifth held out (deal mod 5
= 0). Given the value file the labels came from, it first prints the same
for the file's weighed terms (the evaluation's weights plus its eval_terms).
It needs torch and pandas, and the installed package for the file.

    python research/round17/qmlp.py runs/r17/q-290000.csv [FILE]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from patience_research.ranking import first_choice, listwise
from patience_research.valuefile import read, spec_weights


def main() -> None:
    torch.manual_seed(0)
    d = pd.read_csv(sys.argv[1])
    terms = list(d.columns[list(d.columns).index("home"):])
    pos = d.groupby(["seed", "step"]).ngroup().to_numpy()
    x = d[terms].to_numpy(np.float32)
    mean = pd.DataFrame(x).groupby(pos).transform("mean").to_numpy(np.float32)
    won = d["keep"].to_numpy(np.float32)
    held = (d["seed"].to_numpy() % 5) == 0
    if len(sys.argv) > 2:
        meta = read(Path(sys.argv[2]))[0]["__metadata__"]
        own, extra = spec_weights(meta["game"]), json.loads(meta.get("eval_terms", "{}"))
        w = np.array([own.get(t, 0.0) + extra.get(t, 0.0) for t in terms], np.float32)
        print(f"the file: training deals {first_choice(x[~held] @ w, pos[~held], won[~held]):.3f},"
              f" held-out deals {first_choice(x[held] @ w, pos[held], won[held]):.3f}", flush=True)
    mu, sd = x.mean(0), x.std(0) + 1e-6
    inputs = {"after": (x - mu) / sd}
    inputs["after+diff"] = np.concatenate([inputs["after"], (x - mean) / sd], 1)
    for name, f in inputs.items():
        for hidden in (0, 32, 128):
            net: torch.nn.Module = torch.nn.Linear(f.shape[1], 1) if hidden == 0 else torch.nn.Sequential(
                torch.nn.Linear(f.shape[1], hidden), torch.nn.ReLU(),
                torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
            opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
            tr, te = np.where(~held)[0], np.where(held)[0]
            ft, pt, yt = torch.tensor(f[tr]), torch.tensor(pos[tr]), torch.tensor(won[tr])
            for _ in range(800):
                loss = listwise(net(ft).squeeze(1), pt, yt)
                opt.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                opt.step()
            with torch.no_grad():
                a = first_choice(net(ft).squeeze(1).numpy(), pos[tr], won[tr])
                b = first_choice(net(torch.tensor(f[te])).squeeze(1).numpy(), pos[te], won[te])
            print(f"{name}, hidden {hidden or 'none'}: training deals {a:.3f}, held-out deals {b:.3f}", flush=True)


if __name__ == "__main__":
    main()
