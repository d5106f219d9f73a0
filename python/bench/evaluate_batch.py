"""The speed-up of patience_gym.evaluate's batched form for a small PyTorch
policy: the protocol's 1,000 Limited deals played one deal at a time (the
policy asked about one observation per call) and in batches, with the same
figures (checked).

    python python/bench/evaluate_batch.py --batches 0,256 --json out.json

0 stands for one deal at a time (batch=None). The network is a fixed random
MLP (seeded), so every form plays the same games.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from torch import nn

import patience_gym
from patience_gym.protocol import evaluate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="limited")
    ap.add_argument("--batches", default="0,256", help="batch sizes, 0 for one deal at a time")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    spec = patience_gym.SPECS[args.game]
    net = nn.Sequential(nn.Linear(spec.obs_len, args.hidden), nn.ReLU(), nn.Linear(args.hidden, spec.actions)).eval()

    def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = net(torch.from_numpy(obs).float())
            logits[~torch.from_numpy(mask.astype(bool))] = -torch.inf
            return logits.argmax(dim=-1).numpy()

    def one(obs: np.ndarray, info: dict[str, Any]) -> int:
        return int(act(obs[None], info["action_mask"][None])[0])

    def batched(obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
        return act(obs, info["action_mask"])

    rows = []
    first: dict[str, Any] | None = None
    for b in [int(x) for x in args.batches.split(",")]:
        t0 = time.perf_counter()
        res = evaluate(one, args.game, name="mlp") if b == 0 else evaluate(batched, args.game, name="mlp", batch=b)
        secs = time.perf_counter() - t0
        row = res["results"][0]
        if first is None:
            first = row
        same = row["outcomes"] == first["outcomes"] and row["progress"] == first["progress"]
        rows.append({"batch": b or None, "seconds": round(secs, 2), "wins": row["wins"],
                     "progress_mean": row["progress_mean"], "mean_steps": row["mean_steps"], "same_games": same})
        print(json.dumps(rows[-1]), flush=True)
    base = rows[0]["seconds"]
    for r in rows:
        r["speedup"] = round(base / r["seconds"], 1)
    out = {"game": args.game, "hidden": args.hidden, "threads": args.threads, "torch": torch.__version__, "rows": rows}
    print(json.dumps(out, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
