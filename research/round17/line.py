"""Play along a direction in the term weights: the file's eval_terms plus
t times the correction a fitted file (rankfit.py --out) made, for each t,
on the same training deals with `patience bench`; prints each t's wins and
mean progress. With --fixed NAME (repeatable) the correction leaves those
terms at the file's weight.

    python research/round17/line.py FILE FITTED --t 0.1,0.2,0.4 \\
        --seed-start 288000 --deals 4000 --out DIR
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from patience_research.valuefile import bench, read, write


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="the value file to start from")
    ap.add_argument("fitted", help="the same file with fitted eval_terms (the direction)")
    ap.add_argument("--t", type=lambda s: [float(x) for x in s.split(",")], default=[0.1, 0.2, 0.4],
                    help="the steps along the direction, comma-separated")
    ap.add_argument("--fixed", action="append", default=[], metavar="NAME", help="a term the direction leaves alone")
    ap.add_argument("--seed-start", type=int, default=0, help="the first training deal")
    ap.add_argument("--deals", type=int, default=4000, help="deals each step plays")
    ap.add_argument("--exe", default="patience", help="the patience command")
    ap.add_argument("--out", required=True, help="the folder for the files played")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    header, rest = read(Path(a.file))
    base = json.loads(header["__metadata__"]["eval_terms"])
    fitted = json.loads(read(Path(a.fitted))[0]["__metadata__"]["eval_terms"])
    names = list(dict.fromkeys([*base, *fitted]))
    for t in a.t:
        w = {n: base.get(n, 0.0) + (0.0 if n in a.fixed else t * (fitted.get(n, 0.0) - base.get(n, 0.0)))
             for n in names}
        meta = header["__metadata__"] | {"eval_terms": json.dumps(w)}
        path = out / f"t{t}.safetensors"
        write(path, header | {"__metadata__": meta}, rest)
        wins, progress = bench(a.exe, header["__metadata__"]["game"], path, a.seed_start, a.deals, 2)
        print(f"t {t}: {wins} wins, progress {progress:.4f}", flush=True)


if __name__ == "__main__":
    main()
