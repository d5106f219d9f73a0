"""Prints the results table of docs/protocol.md from the result files here.

    python results/protocol-v1/table.py          # docs/protocol.md's table
    python results/protocol-v1/table.py --wins   # the README's short one

One row per game and agent (the files GAME-AGENT.json that `run.sh` writes),
with the command that made it; with --wins, one row per game: each fair
agent's wins of the 1,000 evaluation deals and the verdict table's counts.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ["random", "heuristic", "mc", "mcline", "uct", "hop", "ismcts", "policy", "solver"]
GAMES = ["limited", "fourquarters", "cromwell", "royalparade", "fifteen", "ladder"]


def pct(p: float | None, lo: float | None, hi: float | None) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "—"
    return f"{100 * p:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]" if lo is not None and hi is not None else f"{100 * p:.1f}"


def ms(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:.2f}"


FAIR = ["random", "heuristic", "policy", "mc", "mcline", "uct", "hop"]
HEADS = {"mcline": "mc line=best"}
OPEN = {"cromwell", "fifteen"}  # the games mc's line=best plays; hop plays the others
README_GAMES = ["cromwell", "fifteen", "limited", "royalparade", "ladder", "fourquarters"]


def wins_table() -> None:
    """One row per game: the fair agents' wins, and what the table knows."""
    found: dict[tuple[str, str], dict] = {}
    for f in HERE.glob("*.json"):
        game, agent = f.stem.split("-", 1)
        found[game, agent] = json.loads(f.read_text())["results"][0]
    print("| game | " + " | ".join(HEADS.get(a, a) for a in FAIR) + " | the solver's verdicts: won / lost / open |")
    print("|---|" + "--:|" * len(FAIR) + "---|")
    for game in README_GAMES:
        cells = []
        for agent in FAIR:
            r = found.get((game, agent))
            if r is None and ((agent == "mcline" and game not in OPEN) or (agent == "hop" and game in OPEN)):
                cells.append("—")
                continue
            cells.append("no model" if r is None and agent == "policy" else "not run" if r is None else str(r["wins"]))
        r = next(r for (g, _), r in found.items() if g == game)
        t = r["table"]
        seen = " (sees the hidden cards)" if t["clairvoyant"] else ""
        cells.append(f"{t['won']} / {t['lost']} / {t['unknown']}{seen}")
        print(f"| {r['title']} | " + " | ".join(cells) + " |")


def main() -> int:
    if sys.argv[1:] == ["--wins"]:
        wins_table()
        return 0
    rows = []
    for f in sorted(HERE.glob("*.json")):
        res = json.loads(f.read_text())
        game, agent = f.stem.split("-", 1)
        for r in res["results"]:
            rows.append((GAMES.index(game) if game in GAMES else 99, ORDER.index(agent) if agent in ORDER else 99, r, res, f))
    rows.sort(key=lambda x: (x[0], x[1]))
    print("| game | agent | wins of 1,000 | win % [95 % CI] | wins among winnable % [95 % CI] | wins on unknown | progress % [95 % CI] | ms/game | command |")
    print("|---|---|--:|--:|--:|--:|--:|--:|---|")
    for _, _, r, res, f in rows:
        name = r["agent"] + (" (ceiling: sees the hidden cards)" if r["ceiling"] else "")
        if r["winnable"]:
            winnable = f"{r['wins_winnable']}/{r['winnable']} = {pct(r['winnable_rate'], r['winnable_lo'], r['winnable_hi'])}"
        else:
            winnable = "— (no deal won by the solver)"
        print(
            f"| {r['title']} | {name} | {r['wins']} | {pct(r['win_rate'], r['win_lo'], r['win_hi'])} | {winnable} | "
            f"{r['wins_unknown']} | {pct(r['progress_mean'], r['progress_lo'], r['progress_hi'])} | {ms(r['ms_per_game'])} | "
            f"`{res['command']}` |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
