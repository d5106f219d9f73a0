#!/usr/bin/env python3
"""Memory over time: a VectorEnv stepped for minutes, and `patience solve`
with --memory M over many deals.

    python python/bench/soak.py                          # 10 minutes + the solver run
    python python/bench/soak.py --seconds 30 --warmup 5 --solve-deals 20    # the short form

1. The VectorEnv soak steps a PatienceVectorEnv (--game, --envs) with random
   legal actions drawn by the Go workers (sample_legal), and every so often
   also reads episode_info, the deals, the packed masks, asks a Go agent
   for moves (agent_actions) and resets the vector, so that every path of
   the C boundary runs many times. It samples the process's resident set
   (VmRSS of /proc/self/status) every --every seconds and reports the RSS
   after --warmup seconds, at the end, and the growth between the two.
   Target: growth under 10 MB (--max-growth-mb); exit 1 if not.

2. The solver run: `patience solve GAME --deals D --workers W --memory M`
   (the command built from this checkout), its peak RSS read from the
   kernel's accounting of the finished child (os.wait4's rusage,
   ru_maxrss), against the bound W × (M + 8) MiB (the tables, and up to
   8 MiB per worker for an opening pass's table and score caches: 7 in
   Cromwell, as `patience solve --help` states) plus a stated overhead for
   the Go runtime, the program, the game states and the results
   (--overhead-mb, 64 by default: the soft memory limit `patience solve`
   sets itself, see cmd/patience/solve.go).
   Exit 1 if the peak exceeds the bound.

Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rss_mb() -> float:
    """This process's resident set in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def vector_soak(game: str, envs: int, seconds: float, warmup: float, every: float) -> dict[str, float]:
    import numpy as np

    from patience_gym import PatienceVectorEnv

    vec = PatienceVectorEnv(game, envs, illegal_action="raise")
    vec.reset(seed=1_000_000)
    start = time.monotonic()
    end = start + seconds
    next_sample = start
    steps = calls = 0
    samples: list[tuple[float, float]] = []
    baseline = None
    while True:
        now = time.monotonic()
        if now >= next_sample:
            samples.append((now - start, rss_mb()))
            next_sample += every
            if baseline is None and now - start >= warmup:
                baseline = samples[-1][1]
        if now >= end:
            break
        for _ in range(50):
            vec.step(vec.sample_legal())
            steps += envs
        calls += 1
        # The other paths of the boundary, now and then.
        if calls % 20 == 0:
            vec.episode_info(calls % envs)
            vec.deals()
            np.unpackbits(vec.action_mask_bits(), axis=1)
            vec.step(vec.agent_actions("random", seed=calls))
            steps += envs
        if calls % 200 == 0:
            vec.reset(seed=1_000_000 + calls)
    vec.close()
    final = rss_mb()
    assert baseline is not None, "the run was shorter than the warm-up"
    return {
        "seconds": seconds,
        "warmup_s": warmup,
        "steps": steps,
        "steps_per_s": steps / seconds,
        "rss_after_warmup_mb": baseline,
        "rss_final_mb": final,
        "rss_max_mb": max(r for _, r in samples),
        "growth_mb": final - baseline,
        # The RSS at each quarter of the run after the warm-up, to tell a
        # trend from a step.
        "rss_quarters_mb": [quarter(samples, warmup + k * (seconds - warmup) / 4) for k in range(5)],
        "samples": [[round(t, 1), round(r, 2)] for t, r in samples],
    }


def quarter(samples: list[tuple[float, float]], at: float) -> float:
    """The RSS of the last sample taken at or before time at."""
    return [r for t, r in samples if t <= at + 1e-9][-1]


def solve_peak(game: str, deals: int, workers: int, memory: int, budget: str, overhead: int) -> dict[str, float | str]:
    exe = ROOT / "python" / "build" / "patience-soak"
    subprocess.run(["go", "build", "-o", str(exe), "./cmd/patience"], cwd=ROOT, check=True)
    cmd = [str(exe), "solve", game, "--deals", str(deals), "--workers", str(workers), "--memory", str(memory),
           "--budget", budget, "--seed-start", "1000000"]
    t = time.monotonic()
    child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own accounting
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {child.returncode}")
    took = time.monotonic() - t
    peak = usage.ru_maxrss / 1024  # KiB on Linux
    tables = workers * (memory + 8)
    return {
        "command": " ".join(["patience", *cmd[1:]]),
        "seconds": took,
        "peak_rss_mb": peak,
        "tables_mb": tables,
        "overhead_mb": overhead,
        "bound_mb": tables + overhead,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="cromwell")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--seconds", type=float, default=600, help="length of the VectorEnv soak (0: skip it)")
    p.add_argument("--warmup", type=float, default=60, help="seconds before the baseline RSS is taken")
    p.add_argument("--every", type=float, default=5, help="seconds between RSS samples")
    p.add_argument("--max-growth-mb", type=float, default=10)
    p.add_argument("--solve-game", default="cromwell")
    p.add_argument("--solve-deals", type=int, default=200, help="deals for the solver run (0: skip it)")
    p.add_argument("--solve-workers", type=int, default=2)
    p.add_argument("--solve-memory", type=int, default=64, help="--memory, MiB per worker")
    p.add_argument("--solve-budget", default="300k")
    p.add_argument("--overhead-mb", type=int, default=64, help="allowed beyond workers × memory")
    p.add_argument("--json", help="also write the figures to this file")
    args = p.parse_args()

    out: dict[str, object] = {}
    ok = True
    if args.seconds > 0:
        v = vector_soak(args.game, args.envs, args.seconds, args.warmup, args.every)
        out["vector"] = v
        held = v["growth_mb"] < args.max_growth_mb
        ok &= held
        print(f"VectorEnv {args.game} × {args.envs}, {args.seconds:g} s ({v['steps_per_s'] / 1e3:.0f} k steps/s): "
              f"RSS {v['rss_after_warmup_mb']:.1f} MiB after {args.warmup:g} s of warm-up, {v['rss_final_mb']:.1f} MiB "
              f"at the end (max {v['rss_max_mb']:.1f}; at each quarter after the warm-up "
              f"{', '.join(f'{q:.1f}' for q in v['rss_quarters_mb'])}): growth {v['growth_mb']:+.2f} MiB "
              f"({'ok' if held else 'MISS'}: target under {args.max_growth_mb:g})", flush=True)
    if args.solve_deals > 0:
        s = solve_peak(args.solve_game, args.solve_deals, args.solve_workers, args.solve_memory, args.solve_budget,
                       args.overhead_mb)
        out["solve"] = s
        held = float(s["peak_rss_mb"]) <= float(s["bound_mb"])
        ok &= held
        print(f"{s['command']}: {s['seconds']:.0f} s, peak RSS {float(s['peak_rss_mb']):.1f} MiB; bound "
              f"{s['tables_mb']} MiB of tables + {s['overhead_mb']} MiB overhead = {s['bound_mb']} MiB "
              f"({'ok' if held else 'MISS'})", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
