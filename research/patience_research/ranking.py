"""How well a score ranks each position's moves by whether they keep the
win: the share of first choices that win, and a listwise loss to train on."""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch
from numpy.typing import NDArray


def first_choice(score: NDArray[np.float32], pos: NDArray[np.int64], won: NDArray[np.float32]) -> float:
    """The share of positions whose best-scored moves win (ties share)."""
    df = pd.DataFrame({"pos": pos, "s": score, "y": won})
    best = df[df.s >= df.groupby("pos")["s"].transform("max") - 1e-9]
    return float(best.groupby("pos").y.mean().mean())


def listwise(s: torch.Tensor, pos: torch.Tensor, won: torch.Tensor) -> torch.Tensor:
    """The mean over positions of -log (softmax mass on the winning moves)."""
    n = int(pos.max()) + 1
    top = torch.zeros(n).scatter_reduce(0, pos, s, reduce="amax", include_self=False)
    e = torch.exp(s - top[pos])
    total = torch.zeros(n).index_add(0, pos, e)
    wins = torch.zeros(n).index_add(0, pos, e * won)
    seen = total > 0
    return -(torch.log(wins[seen] + 1e-12) - torch.log(total[seen])).mean()
