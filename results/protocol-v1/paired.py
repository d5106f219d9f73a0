"""Compares two agents' protocol v1 result files of one game, deal by deal.

    python results/protocol-v1/paired.py limited hop mc
    python results/protocol-v1/paired.py limited hop solver   # the share of the ceiling's wins

Prints each agent's wins of the 1,000 evaluation deals with a 95 % Wilson
interval, the deals only one of them won, the exact two-sided McNemar p on
those, and the first agent's wins as a share of the second's (with the
deals both won), from results/protocol-v1/GAME-AGENT.json.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
Z95 = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + Z95**2 / n
    c = (p + Z95**2 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def mcnemar(b: int, c: int) -> float:
    """The exact two-sided McNemar p of b and c discordant pairs."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def row(game: str, agent: str) -> dict:
    return json.loads((HERE / f"{game}-{agent}.json").read_text())["results"][0]


def main() -> None:
    game, a, b = sys.argv[1:4]
    ra, rb = row(game, a), row(game, b)
    oa, ob = ra["outcomes"], rb["outcomes"]
    if len(oa) != len(ob):
        sys.exit(f"{a} played {len(oa)} deals, {b} {len(ob)}")
    n = len(oa)
    for name, r, o in ((a, ra, oa), (b, rb, ob)):
        k = o.count("W")
        lo, hi = wilson(k, n)
        print(f"{name:>10}: {k} of {n} won, {100 * k / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]  ({r['settings']})")
    only_a = sum(x == "W" and y != "W" for x, y in zip(oa, ob))
    only_b = sum(y == "W" and x != "W" for x, y in zip(oa, ob))
    both = sum(x == "W" and y == "W" for x, y in zip(oa, ob))
    print(f"only {a}: {only_a}, only {b}: {only_b}, both: {both}; McNemar p = {mcnemar(only_a, only_b):.2g}")
    kb = ob.count("W")
    if kb:
        print(f"{a}'s wins are {100 * oa.count('W') / kb:.1f} % of {b}'s ({both} of {b}'s {kb} won by both)")


if __name__ == "__main__":
    main()
