"""The solver's verdict tables that ship with the Go core, and deals drawn from them.

    from patience_gym import deals
    t = deals.table("limited")              # pyarrow.Table, one row per deal
    df = deals.table("limited").to_pandas()  # or pandas
    won = deals.select("limited", block="train", verdicts=("won",))  # uint64 deal numbers
    deals.pick(won, 7)                       # the deal `patience play limited --winnable --seed 7` deals

A table ships for a game once its build is done (``deals.games()`` lists
them); asking for another game raises NoTableError. The table of a game
with hidden cards holds the clairvoyant solver's verdicts (see the verdict
tables page of the documentation). ``table`` needs pyarrow (``pip install
"patience-gym[datasets]"``); the rest does not.

``gym.make("patience/Limited-v1", deals="winnable")`` resets only to the
won deals of the training block (PatienceEnv's ``deals``), and Curriculum
moves an environment from the easy won deals to the hard ones as the
agent's win rate rises.
"""

from __future__ import annotations

import ctypes
import io
import json
from collections import deque
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray

from . import _lib

__all__ = [
    "DIFFICULTIES",
    "META_KEY",
    "NoTableError",
    "Curriculum",
    "games",
    "metadata",
    "pick",
    "select",
    "table",
    "table_bytes",
]

META_KEY = b"patience.deals"
"""The key of the table's description (JSON) in the Parquet file's metadata."""

DIFFICULTIES = ("easy", "medium", "hard")
"""The difficulty classes of won deals, easiest first: the thirds of the
game's won deals by difficulty score."""

_MASK = (1 << 64) - 1


class NoTableError(_lib.PatienceError):
    """No verdict table ships for the game (or it holds none of the deals asked for)."""


def _call_error(call: Any, *args: Any) -> int:
    """Calls a function whose last two arguments are an error buffer; raises
    NoTableError or PatienceError with the message when it fails."""
    err = ctypes.create_string_buffer(4096)
    n = int(call(*args, err, len(err)))
    if n == _lib.INTERNAL:
        raise _lib.InternalError(err.value.decode())
    if n < 0:
        msg = err.value.decode()
        if "no deals table ships" in msg or "holds no deal" in msg:
            raise NoTableError(msg)
        raise _lib.PatienceError(msg)
    return n


def _game(game: str) -> str:
    """The game's id, with its variant if any: the tables hold the default
    rules only, and Go refuses a variant (NoTableError) rather than answer
    with the default rules' verdicts."""
    return _lib.game_spec(game).game_id


def games() -> list[str]:
    """The games a verdict table ships for in this build, sorted."""
    out = []
    for name in sorted(_lib.SPECS):
        err = ctypes.create_string_buffer(4096)
        if _lib.lib.pg_deals_table(name.encode(), None, 0, err, len(err)) >= 0:
            out.append(name)
    return out


def table_bytes(game: str) -> bytes:
    """The Parquet file of the game's verdict table, as shipped."""
    name = _game(game).encode()
    n = _call_error(_lib.lib.pg_deals_table, name, None, 0)
    buf = (ctypes.c_uint8 * max(n, 1))()
    m = _call_error(_lib.lib.pg_deals_table, name, buf, n)
    if m != n:  # pragma: no cover - the table is embedded in the library
        raise _lib.PatienceError(f"the {game} table changed size while it was read")
    return bytes(buf)[:n]


def table(game: str) -> Any:
    """The game's verdict table as a ``pyarrow.Table`` (``.to_pandas()`` for
    a DataFrame): one row per deal with its ``seed``, ``block`` ("train",
    "eval"), ``verdict`` ("won", "lost", "unknown"), the solver's effort,
    the line length, how the heuristic and mc agents did, the determinized
    worlds won (hidden games), the difficulty ``score`` and class. The
    table's description is in ``metadata(game)``."""
    try:
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("patience_gym.deals.table needs pyarrow: pip install 'patience-gym[datasets]'") from e
    return pq.read_table(io.BytesIO(table_bytes(game)))


def metadata(game: str) -> dict[str, Any]:
    """The table's description: the game, its rules version, the blocks,
    the solver's budgets, the counts by verdict, whether the verdicts are
    clairvoyant, under ``kept`` the deals whose verdict a rebuilt table
    kept from the table before it, and under ``folded`` the solver runs
    folded into it (``patience deals fold``), each with its command, budget,
    the deals it gave and under ``searched`` the open deals whose nodes it
    gave (the JSON the Parquet file keeps under META_KEY)."""
    try:
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("patience_gym.deals.metadata needs pyarrow: pip install 'patience-gym[datasets]'") from e
    kv = pq.read_metadata(io.BytesIO(table_bytes(game))).metadata or {}
    return dict(json.loads(kv[META_KEY]))


def select(
    game: str,
    *,
    block: str = "",
    verdicts: Sequence[str] = (),
    difficulty: str = "",
) -> NDArray[np.uint64]:
    """The deal numbers of the game's table that the filter selects, in
    increasing order: ``block`` "train" or "eval" ("" for both),
    ``verdicts`` some of "won", "lost", "unknown" (empty for all),
    ``difficulty`` "easy", "medium" or "hard" (won deals only; "" for any).
    The same selection as ``patience deals``."""
    if isinstance(verdicts, str):
        verdicts = (verdicts,)
    f: dict[str, Any] = {}
    if block:
        f["block"] = block
    if verdicts:
        f["verdicts"] = list(verdicts)
    if difficulty:
        f["difficulty"] = difficulty
    name, filt = _game(game).encode(), json.dumps(f).encode()
    u64p = ctypes.POINTER(ctypes.c_uint64)
    n = _call_error(_lib.lib.pg_deals_select, name, filt, None, 0)
    out = np.zeros(n, np.uint64)
    if n:
        _call_error(_lib.lib.pg_deals_select, name, filt, out.ctypes.data_as(u64p), n)
    return out


def _mix(z: int) -> int:
    """SplitMix64's finalizer (Go's deals.mix)."""
    z = (z + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def pick(seeds: NDArray[np.uint64] | Sequence[int], seed: int) -> int:
    """The deal of ``seeds`` (a selection in increasing order, as ``select``
    returns it) that Go's ``Table.PickFrom`` chooses for ``seed``: the one
    at index mix(seed) mod len(seeds), mix being SplitMix64's finalizer. So
    ``pick(select(g, block="train", verdicts=("won",)), s)`` is the deal of
    ``patience play g --winnable --seed s``."""
    if len(seeds) == 0:
        raise NoTableError("pick: no deal to pick from")
    return int(seeds[_mix(int(seed) & _MASK) % len(seeds)])


class Curriculum(gym.Wrapper[Any, Any, Any, Any]):
    """Deals won deals of the training block from easy to hard as the agent
    wins.

    The environment (a PatienceEnv, or one wrapping it, of a game whose
    table ships) is reset to a deal drawn from the current level's won
    training deals: ``levels`` are difficulty classes, easiest first (by
    default "easy", "medium", "hard"), or lists of deal numbers. Every
    episode that ends through ``step`` is recorded (a win is ``info
    ["outcome"] == "won"``); ``record(won)`` records one played elsewhere.
    Once ``window`` episodes have been recorded at a level and at least
    ``threshold`` of the last ``window`` were won, the next reset moves to
    the next level and the record starts again; the last level is kept.

    ``reset(seed=N)`` seeds the draw (the same seed and the same reports
    give the same deals); ``info`` adds ``curriculum_level`` (the index of
    the level) and the deal dealt is ``info["deal"]``.
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        levels: Sequence[str] | Sequence[Sequence[int]] = DIFFICULTIES,
        *,
        threshold: float = 0.5,
        window: int = 100,
    ) -> None:
        super().__init__(env)
        if not 0 < threshold <= 1:
            raise ValueError(f"threshold={threshold!r}: want a win rate in (0, 1]")
        if isinstance(window, bool) or int(window) != window or window < 1:
            raise ValueError(f"window={window!r}: want a positive integer")
        if not levels:
            raise ValueError("levels: want at least one level")
        spec = getattr(env.unwrapped, "game_spec", None)
        game = spec.game_id if isinstance(spec, _lib.GameSpec) else ""  # a variant has no table
        if not game:
            raise TypeError("Curriculum wraps a patience_gym environment")
        if getattr(env.unwrapped, "deals_mode", None) is not None:
            raise ValueError("Curriculum chooses the deals itself: wrap an environment made without deals=")
        self.levels: list[NDArray[np.uint64]] = []
        for lv in levels:
            if isinstance(lv, str):
                if lv not in DIFFICULTIES:
                    raise ValueError(f"level {lv!r}: want one of {DIFFICULTIES} or a list of deal numbers")
                ds = select(game, block="train", verdicts=("won",), difficulty=lv)
                if len(ds) == 0:
                    raise NoTableError(f"the {game} table holds no won training deal of difficulty {lv}")
            else:
                ds = np.asarray(lv, dtype=np.uint64)
                if ds.ndim != 1 or len(ds) == 0:
                    raise ValueError("a level given as deals: want a non-empty list of deal numbers")
            self.levels.append(ds)
        self.threshold = float(threshold)
        self.window = int(window)
        self.level = 0
        self._results: deque[bool] = deque(maxlen=self.window)
        self._recorded = 0
        self._rng = np.random.default_rng()

    def record(self, won: bool) -> None:
        """Records the outcome of an episode at the current level."""
        self._results.append(bool(won))
        self._recorded += 1

    def win_rate(self) -> float:
        """The share of the last ``window`` episodes recorded at this level
        that were won (NaN before any)."""
        return sum(self._results) / len(self._results) if self._results else float("nan")

    def ready(self) -> bool:
        """Whether the next reset moves to the next level."""
        return (
            self.level < len(self.levels) - 1
            and self._recorded >= self.window
            and self.win_rate() >= self.threshold
        )

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Moves up a level if the agent is ready, then deals a deal of the level."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if self.ready():
            self.level += 1
            self._results.clear()
            self._recorded = 0
        ds = self.levels[self.level]
        deal = int(ds[int(self._rng.integers(len(ds)))])
        obs, info = self.env.reset(seed=deal, options=options)
        info["curriculum_level"] = self.level
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Steps the environment and records the episode when it ends."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            self.record(info.get("outcome") == "won")
        return obs, reward, terminated, truncated, info
