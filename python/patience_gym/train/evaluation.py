"""Evaluation on fixed deals: a network's greedy (or sampled) play, a Go
agent's play, and the reference levels of the Go agents on the same deals.

Training uses deals below 1,000,000 only: runs train on deals from
0..899,999 and evaluate on deals from 900,000 (``EVAL_DEALS``), so that
``patience bench`` (deals from 1,000,000) measures on deals never seen.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from .._lib import game_spec
from ..env import TRAINING_DEALS
from ..vector import PatienceVectorEnv
from .net import PolicyNet, masked_argmax

__all__ = [
    "EVAL_DEALS",
    "Evaluator",
    "EvalResult",
    "eval_deals",
    "evaluate",
    "evaluate_agent",
    "play_deals",
    "reference_levels",
    "repo_root",
]

EVAL_DEALS = 900_000
"""The first evaluation deal: PPO trains on deals 0..EVAL_DEALS-1 and
evaluates on EVAL_DEALS, EVAL_DEALS+1, ... (all below 1,000,000)."""


@dataclass
class EvalResult:
    """Greedy play (masked argmax) on fixed deals."""

    deals: NDArray[np.int64]
    returns: NDArray[np.float64]
    won: NDArray[np.bool_]
    steps: NDArray[np.int64]
    seconds: float

    @property
    def mean_return(self) -> float:
        return float(self.returns.mean())

    @property
    def win_rate(self) -> float:
        return float(self.won.mean())


def evaluate(
    net: PolicyNet,
    deals: Sequence[int] | NDArray[np.integer[Any]],
    *,
    max_steps: int | None = None,
    workers: int = 1,
    temperature: float = 0.0,
    seed: int = 0,
) -> EvalResult:
    """Plays one episode per deal with the masked argmax of net (or, with a
    temperature above 0, actions sampled from the masked softmax of the
    logits divided by it), all deals at once in one vector environment;
    returns each deal's return (its final progress fraction) and whether it
    was won. A value network (one output) is refused: the Go policy agent
    plays it (evaluate_agent with ``"policy:model=FILE"``)."""
    last = net.linear_layers()[-1].out_features if net.linear_layers() else net.first_bias.shape[0]
    if last != net.spec.actions:
        raise ValueError(f"evaluate plays policies (one logit per action); this network has {last} output(s): "
                         "play a value file with evaluate_agent(game, 'policy:model=FILE', deals)")
    gen = torch.Generator().manual_seed(seed)
    net.eval()

    def choose(envs: PatienceVectorEnv, obs: NDArray[np.uint8], live: NDArray[np.bool_]) -> NDArray[np.int64]:
        # Only the episodes still going are asked: once most have ended (a
        # greedy policy can loop until the step limit in a few), a step
        # costs a forward pass of the few, not of every deal.
        rows = np.flatnonzero(live)
        act = np.zeros(len(live), np.int64)
        with torch.no_grad():
            logits = net(torch.from_numpy(obs[rows]))
            if temperature > 0:
                u = torch.rand(logits.shape, generator=gen).clamp_min(1e-20)
                logits = logits / temperature - torch.log(-torch.log(u))
            act[rows] = masked_argmax(logits, torch.from_numpy(envs.action_masks()[rows])).numpy()
        return act

    return play_deals(net.spec.name, deals, choose, max_steps=max_steps, workers=workers)


def play_deals(
    game: str,
    deals: Sequence[int] | NDArray[np.integer[Any]],
    choose: Callable[[PatienceVectorEnv, NDArray[np.uint8], NDArray[np.bool_]], NDArray[np.int64]],
    *,
    max_steps: int | None = None,
    workers: int = 1,
) -> EvalResult:
    """Plays one episode per deal, all deals at once in one vector
    environment, each step's actions given by choose(envs, observations,
    live), live marking the environments whose first episode goes on;
    returns each deal's return (its final progress fraction) and whether it
    was won. An environment whose episode has ended ignores its action."""
    deal_ids: NDArray[np.int64] = np.asarray(deals, dtype=np.int64)
    n = len(deal_ids)
    t0 = time.perf_counter()
    envs = PatienceVectorEnv(game, n, max_steps=max_steps, workers=workers)
    try:
        obs, _ = envs.reset(seed=deal_ids)
        ret = np.zeros(n)
        steps = np.zeros(n, np.int64)
        done = np.zeros(n, np.bool_)
        won = np.zeros(n, np.bool_)
        while not done.all():
            live = ~done
            act = choose(envs, obs, live)
            # Ended environments ignore their action until their reset, and
            # their next episodes are not counted: any legal-looking id will do.
            act[done] = 0
            obs, r, term, trunc, _ = envs.step(act)
            ret += np.where(live, r, 0.0)
            steps += live
            won |= live & term & (ret > 1 - 1e-6)
            done |= term | trunc
    finally:
        envs.close()
    return EvalResult(deal_ids, ret, won, steps, time.perf_counter() - t0)


def evaluate_agent(
    game: str, agent: str, deals: Sequence[int] | NDArray[np.integer[Any]], *, max_steps: int | None = None
) -> EvalResult:
    """Plays one episode per deal with a Go agent (an agent string, as
    ``"policy:model=runs/x/model.safetensors"``), all deals at once in one
    vector environment, through PatienceVectorEnv.agent_actions: the
    returns ``patience bench`` reports for that agent on those deals. For a
    model this is the Go policy agent, which also sets aside moves back to
    a position of the episode (``repeats=avoid``), unlike ``evaluate``."""
    # Only the environments still in their first episode ask their agent:
    # the others have autoreset into episodes that are not counted.
    return play_deals(game, deals, lambda envs, _obs, live: envs.agent_actions(agent, where=live), max_steps=max_steps)


def eval_deals(n: int, start: int = EVAL_DEALS) -> NDArray[np.int64]:
    """The n fixed evaluation deals from start (below 1,000,000)."""
    if start + n > TRAINING_DEALS:
        raise ValueError(f"evaluation deals {start}..{start + n - 1} reach the measuring range (from {TRAINING_DEALS})")
    return np.arange(start, start + n, dtype=np.int64)


# ---------------------------------------------------------------------------
# Evaluating model files beside training


def _evaluate_file(req: dict[str, Any], net: PolicyNet | None = None) -> dict[str, Any]:
    """One request of the evaluation process: a model file's (or net's,
    the same network in memory) greedy and sampled (temperature 1) play on
    the deals."""
    from .model_file import load_model

    if net is None:
        net, _ = load_model(req["model"], req["game"])
    deals = np.asarray(req["deals"], np.int64)
    kw: dict[str, Any] = {"max_steps": req["max_steps"], "workers": req["workers"]}
    r = evaluate(net, deals, **kw)
    rs = evaluate(net, deals, temperature=1.0, seed=req["seed"], **kw)
    return {"mean_return": r.mean_return, "win_rate": r.win_rate, "sampled_return": rs.mean_return,
            "sampled_win_rate": rs.win_rate, "seconds": r.seconds + rs.seconds}


def serve() -> None:
    """The evaluation process: reads one JSON request a line on its
    standard input (``_evaluate_file``'s), writes one JSON result a line
    (or ``{"error": ...}``), until its input ends."""
    import torch

    torch.set_num_threads(1)
    for line in sys.stdin:
        try:
            res = _evaluate_file(json.loads(line))
        except Exception as e:  # reported to the trainer, which raises it
            res = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


class Evaluator:
    """Evaluates exported model files (greedy and sampled play on fixed
    deals) one at a time, in a process of its own (``background``) so that
    training goes on meanwhile, or in the caller's (``background=False``:
    ``submit`` returns once the result is there). ``result()`` returns the
    finished evaluation, or None while it runs (``wait`` blocks)."""

    def __init__(self, background: bool = True) -> None:
        self.background = background
        self._proc: subprocess.Popen[str] | None = None
        self._results: queue.Queue[dict[str, Any]] = queue.Queue()
        self._busy = False

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", "from patience_gym.train.evaluation import serve; serve()"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            )
            out = self._proc.stdout
            assert out is not None

            def read() -> None:
                for line in out:
                    self._results.put(json.loads(line))
                self._results.put({"error": "the evaluation process ended"})

            threading.Thread(target=read, daemon=True).start()
        return self._proc

    @property
    def busy(self) -> bool:
        """An evaluation was submitted and its result not yet taken."""
        return self._busy

    def submit(self, model: Path, game: str, deals: NDArray[np.int64], *, max_steps: int | None, workers: int,
               seed: int, net: PolicyNet | None = None) -> None:
        """Starts evaluating a model file (which must stay as it is until
        its result is taken); in the caller's process, net, the file's
        network in memory, is played if given (reading the file would draw
        from torch's generator to make a network, and change the training)."""
        if self._busy:
            raise RuntimeError("an evaluation is already running")
        req = {"model": str(model), "game": game, "deals": [int(d) for d in deals], "max_steps": max_steps,
               "workers": workers, "seed": seed}
        self._busy = True
        if not self.background:
            self._results.put(_evaluate_file(req, net))
            return
        p = self._start()
        assert p.stdin is not None
        p.stdin.write(json.dumps(req) + "\n")
        p.stdin.flush()

    def result(self, block: bool = False) -> dict[str, Any] | None:
        """The submitted evaluation's result, once it is there (None before;
        ``block`` waits for it). Raises RuntimeError if it failed."""
        if not self._busy:
            return None
        try:
            res = self._results.get(block=block)
        except queue.Empty:
            return None
        self._busy = False
        if "error" in res:
            raise RuntimeError(f"evaluation: {res['error']}")
        return res

    def close(self) -> None:
        """Ends the evaluation process (a running evaluation is abandoned)."""
        if self._proc is not None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5 if not self._busy else 0.1)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None


# ---------------------------------------------------------------------------
# Reference levels (the Go agents on the same evaluation deals)


def repo_root() -> Path | None:
    """The patience checkout that holds the current directory (or
    $PATIENCE_GO_ROOT), found by its go.mod; None outside one."""
    env = os.environ.get("PATIENCE_GO_ROOT")
    here = Path(env) if env else Path.cwd()
    for d in [here, *here.parents]:
        gomod = d / "go.mod"
        if gomod.is_file() and "module github.com/patience-gym/patience" in gomod.read_text():
            return d
    return None


def reference_levels(
    game: str, start: int, n: int, agents: str = "random,heuristic", cache: Path | None = None
) -> dict[str, dict[str, float]]:
    """Mean return and win rate of Go agents on deals start..start+n-1, by
    ``go run ./cmd/patience bench --json`` in the checkout (cached in
    ``cache``); {} when there is no checkout or no Go."""
    if cache is not None and cache.is_file():
        data = json.loads(cache.read_text())
    else:
        root, go = repo_root(), shutil.which("go")
        if root is None or go is None:
            print("train: no patience checkout or no Go: the learning curve has no reference lines", file=sys.stderr)
            return {}
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "ref.json"
            cmd = [go, "run", "./cmd/patience", "bench", "--games", game, "--agents", agents,
                   "--seed-start", str(start), "--deals", str(n), "--json", str(out)]
            res = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
            if res.returncode != 0:
                print(f"train: {' '.join(cmd[1:])} failed: {res.stderr.strip()}", file=sys.stderr)
                return {}
            data = json.loads(out.read_text())
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({k: data[k] for k in ("games", "agents", "deals", "seed_start", "summaries")}))
    return {
        s["agent"] + (":" + s["settings"] if s.get("settings") else ""): {
            "mean_return": float(s["progress_mean"]),
            "win_rate": float(s["win_rate"]),
        }
        for s in data["summaries"]
        if s["game"] == game_spec(game).name
    }
