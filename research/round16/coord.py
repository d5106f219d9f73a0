"""Coordinate search over a value file's evaluation-term weights, judged by
play: each term's weight in turn is moved by -STEP and +STEP, the file
plays the same training deals with `patience bench`, and the better move is
kept when it wins at least MIN_GAIN more games than the file before it.
Sweeps repeat until none is kept, then go on with the next, smaller step.

    python research/round16/coord.py --init FILE --out DIR \\
        --seed-start 268000 --deals 2000 --steps 0.1,0.05 --min-gain 10

DIR/best.safetensors is the best file so far (its eval_terms and
cem_parameters updated, so that `train cem --init` can start from it), written
at each step kept; DIR/log.txt has every probe. The patience command is
built once into DIR. The search is deterministic: the agent and the deals
are seeded.

With --opening P it searches instead the weights of the opening, the
positions that have placed less than P of the cards (the file's
eval_terms_opening, or eval_terms' weights where it has none, written with
opening_progress P); eval_terms stay as they are.

With --set NAME=VALUE (repeated), it only writes DIR/set.safetensors, the
file with those weights changed, for a probe by hand with `patience bench`.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

from patience_research.valuefile import bench, read, write

TERM_PREFIX = "term."  # cem's name for a term's weight


class Search:
    """The file being searched and the bench that judges it."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.header, self.rest = read(Path(args.init))
        meta = self.header["__metadata__"]
        self.game = meta["game"]
        self.exe = self.out / "patience"
        names = self.term_names()
        self.weights = dict.fromkeys(names, 0.0) | json.loads(meta.get("eval_terms", "{}"))
        self.opening = args.opening
        if self.opening is not None:
            self.weights |= json.loads(meta.get("eval_terms_opening", "{}"))
        self.args = args
        # Play is deterministic, so a file tried once (a later sweep tries
        # again the moves of the terms unchanged since) is not played again.
        self.played: dict[tuple[float, ...], tuple[int, float]] = {}

    def term_names(self) -> list[str]:
        """The game's term names, in the game's order, from the installed
        Python package; without it, the names the file weighs."""
        try:
            from patience_gym._lib import game_spec
        except ImportError:
            meta = self.header["__metadata__"]
            return list(json.loads(meta.get("eval_terms", "{}")))
        return [t.name for t in game_spec(self.game).terms]

    def save(self, path: Path, weights: dict[str, float], wins: int | None = None) -> None:
        """Writes the file with these weights; with wins, as a result of
        this search (its command, training deals and wins in the metadata)."""
        header = json.loads(json.dumps(self.header))
        meta = header["__metadata__"]
        if self.opening is not None:
            meta["eval_terms_opening"] = json.dumps(weights)
            meta["opening_progress"] = str(self.opening)
        else:
            meta["eval_terms"] = json.dumps(weights)
        if "cem_parameters" in meta and self.opening is None:
            params = json.loads(meta["cem_parameters"])
            params |= {TERM_PREFIX + k: round(v, 6) for k, v in weights.items()}
            meta["cem_parameters"] = json.dumps(params)
        if wins is not None:
            a = self.args
            meta["command"] = "python " + " ".join(shlex.quote(x) for x in sys.argv)
            meta["objective"] = "coordinate search"
            meta["training_deals"] = f"{a.seed_start}..{a.seed_start + a.deals - 1}"
            meta["coord_wins"] = str(wins)
        write(path, header, self.rest)

    def play(self, weights: dict[str, float]) -> tuple[int, float]:
        """The file with these weights: its wins and mean progress."""
        key = tuple(weights.values())
        if key not in self.played:
            self.played[key] = self.bench(weights)
        return self.played[key]

    def bench(self, weights: dict[str, float]) -> tuple[int, float]:
        """Plays the training deals with the file with these weights."""
        probe = self.out / "probe.safetensors"
        self.save(probe, weights)
        return bench(str(self.exe), self.game, probe, self.args.seed_start, self.args.deals, self.args.workers)

    def note(self, line: str) -> None:
        """Logs a line to log.txt and standard output."""
        with (self.out / "log.txt").open("a") as log:
            print(line, file=log)
        print(line, flush=True)

    def run(self) -> None:
        """The search: sweeps at each step until none keeps a move."""
        subprocess.run(["go", "build", "-o", str(self.exe), "./cmd/patience"], check=True)
        best = self.play(self.weights)
        self.note(f"start {best}")
        for step in self.args.steps:
            kept = True
            while kept:
                kept = False
                for name in list(self.weights):
                    tries = []
                    for d in (-step, step):
                        w = self.weights | {name: round(self.weights[name] + d, 4)}
                        score = self.play(w)
                        self.note(f"{name} {d:+} {score}")
                        tries.append((score, w, d))
                    score, w, d = max(tries, key=lambda t: t[0])
                    if score[0] >= best[0] + self.args.min_gain:
                        self.weights, best, kept = w, score, True
                        self.save(self.out / "best.safetensors", w, best[0])
                        self.note(f"KEEP {name} {d:+} -> {best}")
        self.note(f"done {best}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--init", required=True, help="the value file to start from (with eval_weight)")
    p.add_argument("--out", required=True, help="the folder for best.safetensors and log.txt")
    p.add_argument("--seed-start", type=int, default=0, help="the first training deal")
    p.add_argument("--deals", type=int, default=2000, help="training deals each probe plays")
    p.add_argument("--steps", type=lambda s: [float(x) for x in s.split(",")], default=[0.1, 0.05],
                   help="the steps, largest first, comma-separated")
    p.add_argument("--min-gain", type=int, default=10, help="wins a move must add to be kept")
    p.add_argument("--opening", type=float, metavar="P",
                   help="search the weights of the opening, the positions with less than this fraction of the cards placed")
    p.add_argument("--workers", type=int, default=2, help="bench workers")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="only write DIR/set.safetensors with this weight changed (repeatable)")
    args = p.parse_args()
    if args.opening is not None and not 0 < args.opening < 1:
        p.error(f"--opening {args.opening}: want a fraction above 0 and below 1")
    if not Path(args.init).is_file():
        p.error(f"--init {args.init}: no such file")
    search = Search(args)
    if args.set:
        changes = {}
        for item in args.set:
            name, _, value = item.partition("=")
            if name not in search.weights:
                p.error(f"--set {item}: no term {name!r}; the game's terms are {', '.join(search.weights)}")
            changes[name] = float(value)
        search.save(search.out / "set.safetensors", search.weights | changes)
        return
    search.run()


if __name__ == "__main__":
    main()
