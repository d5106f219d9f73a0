"""Paired comparisons of any two agents of a `patience bench --json` file:
wins, the deals only one of them won with the exact McNemar p-value, and
the mean progress difference (points of the cards) with its paired 95 %
Student t interval, as `patience bench` prints them against its baseline.

    python research/round13/paired.py BENCH.json "AGENT A|AGENT B" ...

It needs scipy for the t interval (the research project's dependencies).
"""

from __future__ import annotations

import json
import math
import sys

from patience_research.benchfile import episodes, mcnemar


def main(path: str, pairs: list[str]) -> None:
    from scipy import stats

    with open(path) as f:
        runs = episodes(json.load(f))
    for pair in pairs:
        a, b = pair.split("|")
        A, B = runs[a], runs[b]
        deals = sorted(A)
        only_a = sum(A[d]["won"] and not B[d]["won"] for d in deals)
        only_b = sum(B[d]["won"] and not A[d]["won"] for d in deals)
        p = mcnemar(only_a, only_b)
        diff = [100 * (A[d]["progress"] - B[d]["progress"]) / A[d]["cards"] for d in deals]
        m = sum(diff) / len(diff)
        sd = math.sqrt(sum((x - m) ** 2 for x in diff) / (len(diff) - 1))
        h = stats.t.ppf(0.975, len(diff) - 1) * sd / math.sqrt(len(diff))
        wins_a, wins_b = sum(A[d]["won"] for d in deals), sum(B[d]["won"] for d in deals)
        print(f"{a} vs {b}: wins {wins_a} / {wins_b}, only {only_a}/{only_b}, McNemar p={p:.2g}, "
              f"progress {m:+.1f} [{m - h:+.1f}, {m + h:+.1f}]")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
