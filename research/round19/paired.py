"""Every pair of agents of a `patience bench --json` file, paired on its
deals: the deals only the one won and only the other, the exact McNemar p,
each agent's mean time a game (from the episodes' wall time; of the games
won, the median; of the others, the mean and their share of the time), and the mean
difference of time on the same deal with its 95 % interval (normal).

    python research/round19/paired.py runs/measure/cromwell-line-1094000.json
"""

from __future__ import annotations

import itertools
import json
import math
import statistics
import sys

from patience_research.benchfile import episodes, mcnemar


def main() -> None:
    with open(sys.argv[1]) as f:
        bench = json.load(f)
    agents, runs = bench["agents"], episodes(bench)
    won = {a: {s: e["won"] for s, e in r.items()} for a, r in runs.items()}
    ns = {a: {s: e["wall_ns"] for s, e in r.items()} for a, r in runs.items()}
    names = {a: f"agent {i}" for i, a in enumerate(agents)}
    for a in agents:
        print(f"{names[a]}: {a}: {sum(won[a].values())} wins of {len(won[a])}, {sum(ns[a].values()) / len(ns[a]) / 1e6:.0f} ms a game")
        w = [ns[a][s] / 1e6 for s in ns[a] if won[a][s]]
        lost = [ns[a][s] / 1e6 for s in ns[a] if not won[a][s]]
        if w and lost:
            print(f"  won: median {statistics.median(w):.0f} ms; not won: {len(lost)}, mean {statistics.mean(lost):.0f} ms,"
                  f" {sum(lost) / (sum(w) + sum(lost)):.0%} of the time")
    for a, b in itertools.combinations(agents, 2):
        only_a = sum(won[a][s] and not won[b][s] for s in won[a])
        only_b = sum(won[b][s] and not won[a][s] for s in won[a])
        diff = [(ns[b][s] - ns[a][s]) / 1e6 for s in ns[a]]
        mean = sum(diff) / len(diff)
        se = math.sqrt(sum((x - mean) ** 2 for x in diff) / (len(diff) - 1) / len(diff))
        print(f"{names[a]} against {names[b]}: {only_a} / {only_b}, McNemar p = {mcnemar(only_a, only_b):.2g};"
              f" {names[b]} takes {mean:+.0f} [{mean - 1.96 * se:+.0f}, {mean + 1.96 * se:+.0f}] ms a game more")


if __name__ == "__main__":
    main()
