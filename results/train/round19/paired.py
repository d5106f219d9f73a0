"""Every pair of agents of a `patience bench --json` file, paired on its
deals: the deals only the one won and only the other, the exact McNemar p,
each agent's mean time a game (from the episodes' wall time; of the games
won, the median; of the others, the mean and their share of the time), and the mean
difference of time on the same deal with its 95 % interval (normal).

    python results/train/round19/paired.py runs/measure/cromwell-line-1094000.json
"""

from __future__ import annotations

import itertools
import json
import math
import statistics
import sys


def mcnemar(b: int, c: int) -> float:
    """The exact two-sided McNemar p of b against c discordant pairs."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def main() -> None:
    with open(sys.argv[1]) as f:
        d = json.load(f)
    won: dict[str, dict[int, bool]] = {}
    ns: dict[str, dict[int, int]] = {}
    for e in d["episodes"]:
        won.setdefault(e["agent"], {})[e["seed"]] = e["won"]
        ns.setdefault(e["agent"], {})[e["seed"]] = e["wall_ns"]
    names = {a: f"agent {i}" for i, a in enumerate(d["agents"])}
    for a in d["agents"]:
        print(f"{names[a]}: {a}: {sum(won[a].values())} wins of {len(won[a])}, {sum(ns[a].values()) / len(ns[a]) / 1e6:.0f} ms a game")
        w = [ns[a][s] / 1e6 for s in ns[a] if won[a][s]]
        lost = [ns[a][s] / 1e6 for s in ns[a] if not won[a][s]]
        if w and lost:
            print(f"  won: median {statistics.median(w):.0f} ms; not won: {len(lost)}, mean {statistics.mean(lost):.0f} ms,"
                  f" {sum(lost) / (sum(w) + sum(lost)):.0%} of the time")
    for a, b in itertools.combinations(d["agents"], 2):
        only_a = sum(won[a][s] and not won[b][s] for s in won[a])
        only_b = sum(won[b][s] and not won[a][s] for s in won[a])
        diff = [(ns[b][s] - ns[a][s]) / 1e6 for s in ns[a]]
        mean = sum(diff) / len(diff)
        se = math.sqrt(sum((x - mean) ** 2 for x in diff) / (len(diff) - 1) / len(diff))
        print(f"{names[a]} against {names[b]}: {only_a} / {only_b}, McNemar p = {mcnemar(only_a, only_b):.2g};"
              f" {names[b]} takes {mean:+.0f} [{mean - 1.96 * se:+.0f}, {mean + 1.96 * se:+.0f}] ms a game more")


if __name__ == "__main__":
    main()
