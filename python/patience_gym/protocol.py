"""Evaluation protocol v1 from Python: ``patience_gym.evaluate``.

    import patience_gym
    res = patience_gym.evaluate("heuristic", "limited", protocol="v1", out="limited-heuristic.json")
    res = patience_gym.evaluate(lambda obs, info: my_policy(obs, info["action_mask"]), "limited")
    row = res["results"][0]          # wins, win_lo, win_hi, winnable_rate, progress_mean, ...

The protocol (docs/protocol.md) fixes the deals (the 1,000 deals of the
evaluation block of the game's verdict table, 1,000,000 to 1,000,999), the
step limit (the game's own), how the agent is seeded (with the deal
number) and the intervals (95 %); the figures are computed by the same Go
code as ``patience bench --protocol v1``, and the result is the same JSON
file, its ``runner`` "patience_gym.evaluate" and its machine adding the
Python version.
"""

from __future__ import annotations

import json
import operator
import platform
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from numpy.typing import NDArray

from . import _lib
from .env import PatienceEnv
from .vector import PatienceVectorEnv

__all__ = ["Agent", "PolicyFn", "describe", "evaluate", "write_result"]

PolicyFn = Callable[[NDArray[Any], dict[str, Any]], Any]
"""A policy: called with the observation and the info (``info
["action_mask"]``: the legal actions, ``info["deal"]``), returns an action id."""


@runtime_checkable
class Agent(Protocol):
    """An agent with a state: ``reset(deal)`` at the start of each episode
    (the protocol seeds agents with the deal number), then ``act(obs, info)``
    at each step."""

    def reset(self, deal: int) -> None:
        """Starts an episode of deal ``deal``."""

    def act(self, obs: NDArray[Any], info: dict[str, Any]) -> Any:
        """The action id to play."""


def describe(game: str, version: str = "v1") -> dict[str, Any]:
    """What the protocol fixes for a game: ``deals`` (block, first, count),
    ``max_steps``, ``agent_seed`` ("deal"), ``confidence``, ``dead`` (the
    deals with no legal move at the start, which the environment skips and
    the protocol counts as lost at step 0), and the core's ``build`` and
    ``machine``. Raises PatienceError for a game without a verdict table
    or a rule variant."""
    spec = _lib.game_spec(game)
    if spec.variant:
        raise _lib.PatienceError(f"protocol {version} measures the games' default rules, not the {spec.variant} variant")
    return dict(json.loads(_lib.read_string_err(_lib.lib.pg_protocol, version.encode(), spec.name.encode())))


def _describe(agent: str, game: str) -> dict[str, Any]:
    return dict(json.loads(_lib.read_string_err(_lib.lib.pg_agent_describe, agent.encode(), game.encode())))


def _episode(info: dict[str, Any], deal: int, wall: int) -> dict[str, Any]:
    if int(info["deal"]) != deal:  # pragma: no cover - the protocol's dead list says which deals are skipped
        raise _lib.PatienceError(f"deal {deal} was dealt as {info['deal']}")
    return {"deal": deal, "outcome": info["outcome"], "progress": int(info["progress"]), "steps": int(info["steps"]), "wall_ns": wall}


def _play_go(agent: str, game: str, deals: list[int], on_episode: Callable[[dict[str, Any]], None]) -> None:
    """Plays a Go agent through PatienceVectorEnv.agent_actions."""
    envs = PatienceVectorEnv(game, 1, illegal_action="raise", workers=1)
    try:
        for deal in deals:
            t0 = time.perf_counter_ns()
            envs.reset(seed=[deal])
            while True:
                _, _, term, trunc, _ = envs.step(envs.agent_actions(agent))
                if term[0] or trunc[0]:
                    break
            on_episode(_episode(envs.episode_info(0), deal, time.perf_counter_ns() - t0))
    finally:
        envs.close()


def _play_py(agent: Agent | PolicyFn, game: str, deals: list[int], one_hot: bool,
             on_episode: Callable[[dict[str, Any]], None]) -> None:
    """Plays a Python policy or agent in a PatienceEnv."""
    env = PatienceEnv(game, illegal_action="raise", one_hot=one_hot)
    act: PolicyFn = agent.act if isinstance(agent, Agent) else agent
    try:
        for deal in deals:
            t0 = time.perf_counter_ns()
            if isinstance(agent, Agent):
                agent.reset(deal)
            obs, info = env.reset(seed=deal)
            while True:
                obs, _, term, trunc, info = env.step(operator.index(act(obs, info)))
                if term or trunc:
                    break
            on_episode(_episode(info, deal, time.perf_counter_ns() - t0))
    finally:
        env.close()


def evaluate(
    agent: str | Agent | PolicyFn,
    game: str,
    protocol: str = "v1",
    *,
    out: str | Path | None = None,
    name: str | None = None,
    settings: str = "",
    one_hot: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Measures an agent under an evaluation protocol and returns the result
    (the JSON of ``patience bench --protocol v1 --json``, one row).

    Args:
        agent: a Go agent string as the command line takes it
            (``"heuristic"``, ``"mc:rollouts=8"``, ``"policy:model=FILE"``;
            played through ``PatienceVectorEnv.agent_actions``, seeded with the
            deal number: the same games as ``patience bench``; agents that
            see hidden cards are left to ``patience bench``), a policy
            ``fn(obs, info) -> action`` (``info["action_mask"]`` holds the
            legal actions), or an object with ``reset(deal)`` and
            ``act(obs, info)``. It must choose legal actions: an illegal one
            raises IllegalActionError.
        game: a game whose verdict table ships (``patience_gym.deals.games()``),
            default rules.
        protocol: the protocol version ("v1").
        out: a file to write the result to (the same layout as the Go
            command's).
        name: the agent's label in the result (a Go agent's own label by
            default, else the function's or class's name).
        settings: the agent's settings as recorded (a Go agent's own by default).
        one_hot: give a Python policy one-hot observations (the protocol is
            the same).
        progress: called after each deal with the number done and the total.
    """
    spec = _lib.game_spec(game)
    p = describe(game, protocol)
    clairvoyant = False
    if isinstance(agent, str):
        d = _describe(agent, spec.name)
        if d["clairvoyant"]:
            raise _lib.PatienceError(
                f"agent {d['label']} sees the hidden cards: measure it with `patience bench --protocol {p['protocol']}`"
            )
        label, agent_settings = name or d["label"], settings or d["settings"]
    else:
        label = name or getattr(agent, "__name__", type(agent).__name__)
        agent_settings = settings
    if not label:
        raise ValueError("the agent needs a name (name=...)")
    first, count = int(p["deals"]["first"]), int(p["deals"]["count"])
    dead = {int(x["deal"]): int(x["progress"]) for x in p["dead"] or []}
    played: dict[int, dict[str, Any]] = {
        s: {"deal": s, "outcome": "lost", "progress": pr, "steps": 0, "wall_ns": 0} for s, pr in dead.items()
    }
    todo = [s for s in range(first, first + count) if s not in dead]

    def done(ep: dict[str, Any]) -> None:
        played[ep["deal"]] = ep
        if progress is not None:
            progress(len(played), count)

    start = time.perf_counter()
    if isinstance(agent, str):
        _play_go(agent, spec.name, todo, done)
    else:
        _play_py(agent, spec.name, todo, one_hot, done)
    elapsed = time.perf_counter() - start
    row_in = {
        "agent": label,
        "settings": agent_settings,
        "clairvoyant": clairvoyant,
        "episodes": [played[s] for s in range(first, first + count)],
    }
    row = json.loads(
        _lib.read_string_err(_lib.lib.pg_protocol_row, p["protocol"].encode(), spec.name.encode(), json.dumps(row_in).encode())
    )
    call = f"patience_gym.evaluate({agent!r}, {spec.name!r}, protocol={p['protocol']!r})" if isinstance(agent, str) else (
        f"patience_gym.evaluate({label}, {spec.name!r}, protocol={p['protocol']!r})"
    )
    machine = dict(p["machine"])
    machine["python"] = platform.python_version()
    result = {
        "protocol": p["protocol"],
        "runner": "patience_gym.evaluate",
        "command": call,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "patience": p["build"],
        "machine": machine,
        "workers": 1,
        "confidence": p["confidence"],
        "elapsed_s": round(elapsed, 1),
        "results": [row],
    }
    if out is not None:
        write_result(result, out)
    return result


def write_result(result: dict[str, Any], path: str | Path) -> None:
    """Writes a result in the Go command's layout: the fields one a line,
    each row of ``results`` on a line of its own."""
    head = {k: v for k, v in result.items() if k != "results"}
    text = json.dumps(head, indent=2, ensure_ascii=False)
    rows = ",\n".join("    " + json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in result["results"])
    text = text[: text.rindex("}")].rstrip() + ',\n  "results": [\n' + rows + "\n  ]\n}\n"
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
