"""A `patience bench --json` file's episodes, paired by deal, and the exact
McNemar test on the deals only one of two agents won."""

from __future__ import annotations

import math
from typing import Any


def episodes(bench: dict[str, Any]) -> dict[str, dict[int, dict[str, Any]]]:
    """The episodes of a bench JSON file (as json.load reads it) by agent,
    then by deal."""
    runs: dict[str, dict[int, dict[str, Any]]] = {}
    for e in bench["episodes"]:
        runs.setdefault(e["agent"], {})[e["seed"]] = e
    return runs


def mcnemar(b: int, c: int) -> float:
    """The exact two-sided McNemar p of b against c discordant pairs."""
    n = b + c
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n)
