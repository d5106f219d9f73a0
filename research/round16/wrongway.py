"""The Fifteen's marriages made the wrong way round, term by term: for each
deal of a `lost -csv` file whose losing move laid one available card on
another ("a>b") where the other way round ("b>a") kept the win, the terms
of the position the winning way leads to minus those of the way played.
It prints, for every term, the mean difference and in how many deals it
was above and below zero.

    python research/round16/wrongway.py LOST.csv

It needs pandas (pip install pandas).
"""

from __future__ import annotations

import sys

import pandas as pd

FIRST_TERM = "home"  # the CSV's columns from this one on are the terms


def main(path: str) -> None:
    rows = pd.read_csv(path)
    if "kind" in rows.columns:
        rows = rows[rows["kind"] == "critical"]
    terms = list(rows.columns[list(rows.columns).index(FIRST_TERM):])
    diffs = []
    for _, moves in rows.groupby("seed"):
        played = moves[moves["played"] == 1]
        if len(played) != 1:
            continue
        a, _, b = str(played["move"].iloc[0]).partition(">")
        if b in ("U", "D"):
            continue
        other = moves[(moves["move"] == f"{b}>{a}") & (moves["keep"] == 1)]
        if len(other) == 1:
            diffs.append(other[terms].to_numpy()[0] - played[terms].to_numpy()[0])
    d = pd.DataFrame(diffs, columns=terms)
    print(f"{len(d)} marriages made the wrong way round: the way that kept the win minus the way played")
    for t in terms:
        print(f"{t:14s} mean {d[t].mean():+.2f}   above 0 in {(d[t] > 0).sum():3d}, below in {(d[t] < 0).sum():3d}")


if __name__ == "__main__":
    main(sys.argv[1])
