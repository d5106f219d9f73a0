"""Add a run of `patience solve --json` to runs.csv and verdicts.csv.

    python results/solver/addrun.py RUN FILE.json

RUN names the run (a row of runs.csv, a column of verdicts.csv; an existing
one is replaced). Before writing, every deal's verdict is compared with the
earlier runs of the same game and variant: a deal solved there must not be
proved lost here, nor the other way round (a contradiction: printed, and
nothing is written, exit 1). A deal decided by an earlier run at the same or
a smaller budget and left open here is printed as a regression (the run is
written: retry those deals at a larger budget and say so).
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = HERE / "runs.csv"
VERDICTS = HERE / "verdicts.csv"
LETTER = {"solved": "s", "unsolvable": "l", "unknown": "u"}
FIELDS = [
    "run", "game", "budget", "deals", "solved", "unsolvable", "unknown", "winnable", "winnable_low",
    "winnable_high", "nodes_per_second", "median_seconds", "p95_seconds", "mean_moves", "command",
]


def spec(command: str) -> str:
    """The game and variant a run's command solved (its third word)."""
    return command.split()[2]


def nodes(budget: str) -> float:
    """A node budget as a number (a time budget is infinite: not comparable)."""
    word = budget.split()[0]
    scale = {"k": 1e3, "M": 1e6}.get(word[-1], 1.0)
    try:
        return float(word.rstrip("kM")) * scale
    except ValueError:
        return float("inf")


def main(run: str, path: Path) -> int:
    """Check the run against the earlier ones and write both files."""
    data = json.loads(path.read_text())
    summary = data["summary"]
    verdicts = {str(r["seed"]): LETTER[r["verdict"]] for r in data["results"]}
    with RUNS.open() as f:
        runs = [r for r in csv.DictReader(f) if r["run"] != run]
    with VERDICTS.open() as f:
        table = list(csv.DictReader(f))
    if {row["deal"] for row in table} != set(verdicts):
        print(f"{path}: its deals are not the deals of {VERDICTS.name}", file=sys.stderr)
        return 1
    bad = 0
    budget = nodes(data["budget"])
    for earlier in runs:
        if spec(earlier["command"]) != spec(data["command"]):
            continue
        for row in table:
            old, new = row[earlier["run"].replace("-", "_")], verdicts[row["deal"]]
            if {old, new} == {"s", "l"}:
                print(f"deal {row['deal']}: {earlier['run']} says {old}, {run} says {new}", file=sys.stderr)
                bad += 1
            elif old != "u" and new == "u" and nodes(earlier["budget"]) <= budget:
                print(f"regression: deal {row['deal']}: {earlier['run']} says {old} at {earlier['budget']}, {run} leaves it open")
    if bad:
        print(f"{bad} contradictions; nothing written", file=sys.stderr)
        return 1
    s = summary
    runs.append({
        "run": run, "game": data["game"], "budget": data["budget"], "deals": s["deals"], "solved": s["solved"],
        "unsolvable": s["unsolvable"], "unknown": s["unknown"], "winnable": f"{s['winnable']:.4f}",
        "winnable_low": f"{s['winnable_low']:.4f}", "winnable_high": f"{s['winnable_high']:.4f}",
        "nodes_per_second": round(s["nodes_per_second"]), "median_seconds": f"{s['median_seconds']:.3f}",
        "p95_seconds": f"{s['p95_seconds']:.3f}", "mean_moves": f"{s['mean_moves']:.1f}", "command": data["command"],
    })
    with RUNS.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(runs)
    column = run.replace("-", "_")
    for row in table:
        row[column] = verdicts[row["deal"]]
    with VERDICTS.open("w", newline="") as f:
        w = csv.DictWriter(f, list(table[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(table)
    print(f"{run}: {s['solved']} solved, {s['unsolvable']} lost, {s['unknown']} open; no contradiction with earlier runs")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
