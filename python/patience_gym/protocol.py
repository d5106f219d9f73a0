"""Evaluation protocol v1 from Python: ``patience_gym.evaluate``.

    import patience_gym
    res = patience_gym.evaluate("heuristic", "limited", protocol="v1", out="limited-heuristic.json")
    # A batched policy: obs (n, obs_len), info["action_mask"] (n, actions); n actions back.
    res = patience_gym.evaluate(lambda obs, info: my_policy(obs, info["action_mask"]), "limited", batch=256)
    row = res["results"][0]          # wins, win_lo, win_hi, winnable_rate, progress_mean, ...

The protocol (docs/protocol.md) fixes the deals (the 1,000 deals of the
evaluation block of the game's verdict table, 1,000,000 to 1,000,999), the
step limit (the game's own), how the agent is seeded (with the deal
number) and the intervals (95 %); the figures are computed by the same Go
code as ``patience bench --protocol v1``, and the result is the same JSON
file, its ``runner`` "patience_gym.evaluate" and its machine adding the
Python version.

With ``out=FILE`` each episode is journalled to ``FILE.journal.jsonl`` as it
ends, in the Go command's journal format: the same call run again (after a
Ctrl-C, a crash or a killed job) plays only the deals the journal lacks, and
either side resumes the other's run of the same agent.
"""

from __future__ import annotations

import json
import operator
import os
import platform
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from . import _lib
from .env import PatienceEnv
from .vector import PatienceVectorEnv

__all__ = ["GO_BATCH", "JOURNAL_SUFFIX", "Agent", "PolicyFn", "describe", "evaluate", "write_result"]

JOURNAL_SUFFIX = ".journal.jsonl"
"""The journal of ``evaluate(..., out=FILE)`` is ``FILE`` + this (as
``patience bench --protocol v1 --json FILE``'s)."""

PolicyFn = Callable[[NDArray[Any], dict[str, Any]], Any]
"""A policy: called with the observation and the info (``info
["action_mask"]``: the legal actions, ``info["deal"]``), returns an action
id; with ``batch=N``, called with n ≤ N observations at once (see
``evaluate``) and returns n action ids."""

GO_BATCH = 64
"""The batch a Go agent is played in when ``evaluate`` is given none: the
figures do not depend on it (the agent of each deal is seeded with the deal
number), and one call asks the Go core about 64 positions."""

_SYNC_EVERY = 1.0  # seconds between flushes of the journal to the disk (as Go's)


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


# ---------------------------------------------------------------------------
# Checks made before the first deal


def _check_out(out: str | Path) -> Path:
    """The result file's path, after checking that its directory exists and
    can be written (the Go command's message for a missing directory), so
    that a run never plays its deals to fail when it writes the result."""
    path = Path(out)
    d = path.parent
    if not d.is_dir():
        raise FileNotFoundError(f"out {out}: the directory {d} does not exist")
    if path.is_dir():
        raise IsADirectoryError(f"out {out}: is a directory (want a file name)")
    if not os.access(d, os.W_OK | os.X_OK):
        raise PermissionError(f"out {out}: the directory {d} is not writable")
    return path


def _action(a: Any, deal: int) -> int:
    """A policy's answer as an action id, or a TypeError saying what it was."""
    try:
        return operator.index(a)
    except TypeError:
        raise TypeError(
            f"the policy returned {a!r} ({type(a).__name__}) on deal {deal}: want an action id (an int)"
        ) from None


def _actions(a: Any, n: int, deals: NDArray[np.uint64]) -> NDArray[np.int64]:
    """A batched policy's answer as n action ids, or an error saying what it was."""
    if hasattr(a, "detach"):  # a torch tensor
        a = a.detach().cpu().numpy()
    arr = np.asarray(a)
    if arr.shape != (n,) or arr.dtype.kind not in "iu":
        raise TypeError(
            f"the batched policy returned {arr.dtype} of shape {arr.shape} for {n} observations (deals {int(deals[0])}...): "
            f"want {n} integer action ids, shape ({n},)"
        )
    return arr.astype(np.int64, copy=False)


# ---------------------------------------------------------------------------
# The journal (internal/journal's format: a head line, then one JSON line per
# episode, each written in one call; a last line cut short is dropped)


class _Journal:
    """A protocol journal, ``strength.journalHead`` then ``strength.journalLine``s."""

    def __init__(self, path: Path, version: str) -> None:
        self.path = path
        self.head = json.dumps({"patience_protocol_journal": 1, "protocol": version}, separators=(",", ":"))
        self.lines: list[dict[str, Any]] = []
        good = 0
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = b""
        first, nl, rest = data.partition(b"\n")
        if nl:
            if first.decode(errors="replace") != self.head:
                raise _lib.PatienceError(
                    f"{path}: the journal was left by a run with other settings: it holds {first.decode(errors='replace')}, "
                    f"this run {self.head}; delete it to start again, or pick another out="
                )
            good = len(first) + 1
            k = 2
            while rest:
                line, complete, tail = rest.partition(b"\n")
                if not complete:
                    break  # the last line, cut short by a crash
                try:
                    self.lines.append(json.loads(line))
                except ValueError:
                    raise _lib.PatienceError(f"journal {path}: line {k} is not JSON") from None
                good += len(line) + 1
                rest, k = tail, k + 1
        if good == 0:
            path.write_text(self.head + "\n")
        elif len(data) > good:
            os.truncate(path, good)
        self.f = open(path, "ab", buffering=0)  # noqa: SIM115 - closed by close()
        self.synced = 0.0

    def add(self, line: dict[str, Any]) -> None:
        self.f.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
        now = time.monotonic()
        if now - self.synced >= _SYNC_EVERY:
            os.fsync(self.f.fileno())
            self.synced = now

    def close(self) -> None:
        try:
            os.fsync(self.f.fileno())
        finally:
            self.f.close()


def _resume(j: _Journal, game: _lib.GameSpec, label: str, settings: str, first: int, count: int) -> dict[int, dict[str, Any]]:
    """The episodes of a journal, by deal, after checking that every line is
    of this game, rules version, agent and settings (a journal of another
    run is refused, never mixed in)."""
    out: dict[int, dict[str, Any]] = {}
    for k, ln in enumerate(j.lines, start=2):
        try:
            who = (ln["game"], int(ln["rules_version"]), ln["agent"], ln["settings"])
            seed, outcome, progress, steps, wall = int(ln["seed"]), ln["outcome"], int(ln["progress"]), int(ln["steps"]), int(ln["wall_ns"])
            cards = int(ln["cards"])
        except (KeyError, TypeError, ValueError):
            raise _lib.PatienceError(f"journal {j.path}: line {k} is not an episode of a protocol journal: {ln}") from None
        if who != (game.name, game.rules_version, label, settings):
            raise _lib.PatienceError(
                f"journal {j.path}: line {k} is an episode of {who[2]!r} (settings {who[3]!r}) on {who[0]} (rules version {who[1]}); "
                f"this run is {label!r} (settings {settings!r}) on {game.name} (rules version {game.rules_version}): "
                "delete it to start again, or pick another out="
            )
        if not first <= seed < first + count or cards != game.cards or outcome not in ("won", "lost", "truncated") \
                or not 0 <= progress <= cards or steps < 0:
            raise _lib.PatienceError(f"journal {j.path}: line {k} is not an episode of this protocol's deals: {ln}")
        out[seed] = {"deal": seed, "outcome": outcome, "progress": progress, "steps": steps, "wall_ns": wall}
    return out


def _journal_line(game: _lib.GameSpec, label: str, settings: str, ep: dict[str, Any]) -> dict[str, Any]:
    """An episode as strength.journalLine encodes it (the Go command reads it)."""
    return {
        "game": game.name, "agent": label, "seed": ep["deal"], "won": ep["outcome"] == "won", "outcome": ep["outcome"],
        "progress": ep["progress"], "cards": game.cards, "steps": ep["steps"], "truncated": ep["outcome"] == "truncated",
        "wall_ns": ep["wall_ns"], "rules_version": game.rules_version, "settings": settings,
    }


# ---------------------------------------------------------------------------
# Playing the deals


def _play_py(agent: Agent | PolicyFn, game: str, deals: list[int], one_hot: bool,
             on_episode: Callable[[dict[str, Any]], None]) -> None:
    """Plays a Python policy or agent in a PatienceEnv, one deal at a time."""
    env = PatienceEnv(game, illegal_action="raise", one_hot=one_hot)
    act: PolicyFn = agent.act if isinstance(agent, Agent) else agent
    try:
        for deal in deals:
            t0 = time.perf_counter_ns()
            if isinstance(agent, Agent):
                agent.reset(deal)
            obs, info = env.reset(seed=deal)
            while True:
                obs, _, term, trunc, info = env.step(_action(act(obs, info), deal))
                if term or trunc:
                    break
            on_episode(_episode(info, deal, time.perf_counter_ns() - t0))
    finally:
        env.close()


def _play_batched(choose: Callable[[PatienceVectorEnv, NDArray[np.bool_]], NDArray[np.int64]], game: str,
                  deals: list[int], batch: int, one_hot: bool, workers: int,
                  on_episode: Callable[[dict[str, Any]], None]) -> None:
    """Plays each of deals once in a vector of N ≤ batch environments.

    Environment i is dealt d0 + i (d0 the first deal of the list), and each
    of its later episodes its previous deal + N (the vector's autoreset;
    deals with no legal move are skipped the same way), so that the N
    environments go through every deal from d0 on. An environment plays a
    deal of the list (asking ``choose``) the first time one reaches it; any
    other deal (one a journal already holds, or past the list) it plays with
    the first legal move, uncounted, at the Go core's speed, until its
    autoreset brings it to the next. ``choose(envs, live)`` returns the
    actions of the environments where live is True. Each episode's wall
    time is its share of the steps it was in (a step's time split among the
    episodes it stepped), so the times add up to the wall time of the whole.
    """
    todo = sorted(deals)
    pending = set(todo)
    last = todo[-1]
    n = max(1, min(batch, len(todo)))
    envs = PatienceVectorEnv(game, n, illegal_action="raise", one_hot=one_hot, workers=workers)
    deal_of = np.zeros(n, np.int64)
    live = np.zeros(n, np.bool_)
    wall = np.zeros(n, np.float64)
    acts = np.zeros(n, np.int64)

    def take(i: int, d: int) -> None:
        if d in pending:
            pending.discard(d)
            live[i] = True
            deal_of[i] = d

    try:
        envs.reset(seed=todo[0])
        dealt = envs.deals()
        for i in range(n):
            take(i, int(dealt[i]))
        waiting = np.zeros(n, np.bool_)  # ended at the last step: the next step deals its next deal
        while pending or live.any():
            t0 = time.perf_counter_ns()
            if live.any():
                acts = choose(envs, live)
            idle = ~live & ~waiting
            if idle.any():
                acts[idle] = envs.action_masks()[idle].argmax(axis=1)
            acts[waiting] = -1
            _, _, term, trunc, _ = envs.step(acts)
            nlive = int(live.sum())
            if nlive:
                wall[live] += (time.perf_counter_ns() - t0) / nlive
            for e in np.flatnonzero(live & (term | trunc)).tolist():
                on_episode(_episode(envs.episode_info(e), int(deal_of[e]), int(wall[e])))
                live[e] = False
                wall[e] = 0
            if waiting.any():
                dealt = envs.deals()
                for w in np.flatnonzero(waiting).tolist():
                    take(w, int(dealt[w]))
                if pending and not live.any() and int(dealt.min()) > last:  # pragma: no cover - a bug
                    raise _lib.InternalError(f"evaluate: deals {sorted(pending)[:5]}... were never dealt")
            waiting = term | trunc
    finally:
        envs.close()


def _batched_policy(policy: PolicyFn) -> Callable[[PatienceVectorEnv, NDArray[np.bool_]], NDArray[np.int64]]:
    """choose() for _play_batched: asks policy about the live environments'
    observations and masks, and checks that its actions are legal."""

    def choose(envs: PatienceVectorEnv, live: NDArray[np.bool_]) -> NDArray[np.int64]:
        obs, mask = envs.observations, envs.action_masks()
        deals = envs.deals()
        rows = np.flatnonzero(live)
        if len(rows) == envs.num_envs:
            o, m, d = obs, mask, deals
        else:
            o, m, d = obs[rows], mask[rows], deals[rows]
        got = _actions(policy(o, {"action_mask": m.view(np.int8), "deal": d}), len(rows), d)
        bad = (got < 0) | (got >= envs.game_spec.actions)
        if not bad.any():
            bad = ~m[np.arange(len(rows)), got]
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise _lib.IllegalActionError(
                f"the policy chose action {int(got[k])} on deal {int(d[k])}, which is not a legal action there"
            )
        acts = np.zeros(envs.num_envs, np.int64)
        acts[rows] = got
        return acts

    return choose


def _go_agent(agent: str) -> Callable[[PatienceVectorEnv, NDArray[np.bool_]], NDArray[np.int64]]:
    """choose() for _play_batched: a Go agent, seeded with each deal number."""
    return lambda envs, live: envs.agent_actions(agent, where=live)


def evaluate(
    agent: str | Agent | PolicyFn,
    game: str,
    protocol: str = "v1",
    *,
    out: str | Path | None = None,
    name: str | None = None,
    settings: str = "",
    one_hot: bool = False,
    batch: int | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Measures an agent under an evaluation protocol and returns the result
    (the JSON of ``patience bench --protocol v1 --json``, one row).

    Everything that can be checked before the first deal is: the protocol
    and the game, the agent, that ``out``'s directory exists and can be
    written (the journal is opened before the first deal), and the
    policy's answers (at the first step).

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
            command's). Each episode is journalled to ``out`` +
            ``".journal.jsonl"`` as it ends; the same call run again goes on
            from there (and gives the result of an uninterrupted run); the
            journal is removed once the result is written. A journal of
            another protocol, game, agent or settings is refused. A policy
            function is known by its ``name``: give the same name (and the
            same policy) to resume.
        name: the agent's label in the result (a Go agent's own label by
            default, else the function's or class's name).
        settings: the agent's settings as recorded (a Go agent's own by default).
        one_hot: give a Python policy one-hot observations (the protocol is
            the same).
        batch: play up to this many deals at once in a vector environment.
            A policy function is then called with a batch: ``obs`` of shape
            ``(n, obs_len)`` uint8 (``(n, one_hot_len)`` float32 with
            ``one_hot``), ``info["action_mask"]`` of shape ``(n, actions)``
            (int8, 1 for a legal action) and ``info["deal"]`` of shape
            ``(n,)``, n ≤ batch (the deals still being played; the arrays
            are valid during the call only), and returns n action ids (a
            sequence, a NumPy array or a tensor of integers). A Go agent is
            asked about n positions in one call. The figures are the same
            as one deal at a time; only the times change. An object with
            ``reset``/``act`` plays one deal at a time; a Go agent plays in
            batches of ``GO_BATCH`` (64) unless told otherwise.
        workers: goroutines stepping the vector environment (with batch).
        progress: called after each deal with the number done and the total.
    """
    path = _check_out(out) if out is not None else None
    if batch is not None and (isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or batch < 1):
        raise ValueError(f"batch={batch!r}: want a positive integer (or None: one deal at a time)")
    if batch is not None and not isinstance(agent, str) and isinstance(agent, Agent):
        raise TypeError("batch= plays policy functions and Go agents; an object with reset(deal) and act(obs, info) "
                        "plays one deal at a time (batch=None)")
    if not isinstance(agent, str) and not callable(agent) and not isinstance(agent, Agent):
        raise TypeError(f"agent: want a Go agent string, a policy function or an object with reset and act, got {type(agent).__name__}")
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
    played: dict[int, dict[str, Any]] = {}
    journal = None
    if path is not None:
        journal = _Journal(path.with_name(path.name + JOURNAL_SUFFIX), p["protocol"])
        try:
            played = {s: e for s, e in _resume(journal, spec, label, agent_settings, first, count).items() if s not in dead}
        except BaseException:
            journal.close()
            raise
    played.update({s: {"deal": s, "outcome": "lost", "progress": pr, "steps": 0, "wall_ns": 0} for s, pr in dead.items()})
    todo = [s for s in range(first, first + count) if s not in played]

    def done(ep: dict[str, Any]) -> None:
        played[ep["deal"]] = ep
        if journal is not None:
            journal.add(_journal_line(spec, label, agent_settings, ep))
        if progress is not None:
            progress(len(played), count)

    start = time.perf_counter()
    try:
        if not todo:
            pass
        elif isinstance(agent, str):
            _play_batched(_go_agent(agent), spec.name, todo, batch or GO_BATCH, False, workers, done)
        elif batch is not None:
            assert not isinstance(agent, Agent)  # refused above
            _play_batched(_batched_policy(agent), spec.name, todo, batch, one_hot, workers, done)
        else:
            _play_py(agent, spec.name, todo, one_hot, done)
    except BaseException as e:
        if journal is not None and hasattr(e, "add_note"):
            e.add_note(f"patience_gym.evaluate: the {len(played)} episodes played are in {journal.path}: "
                       "the same call goes on from there")
        raise
    finally:
        if journal is not None:
            journal.close()
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
    extra = f", batch={batch}" if batch is not None else ""
    call = f"patience_gym.evaluate({agent!r}, {spec.name!r}, protocol={p['protocol']!r}{extra})" if isinstance(agent, str) else (
        f"patience_gym.evaluate({label}, {spec.name!r}, protocol={p['protocol']!r}{extra})"
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
        "workers": workers if batch is not None or isinstance(agent, str) else 1,
        "confidence": p["confidence"],
        "elapsed_s": round(elapsed, 1),
        "results": [row],
    }
    if path is not None:
        write_result(result, path)
        assert journal is not None
        journal.path.unlink(missing_ok=True)
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
