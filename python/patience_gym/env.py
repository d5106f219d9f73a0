"""PatienceEnv: one game as a Gymnasium environment."""

from __future__ import annotations

import ctypes
import operator
import threading
from typing import Any, Literal, SupportsFloat, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from . import _lib
from . import deals as _deals
from ._lib import GameSpec

__all__ = ["PatienceEnv", "DealsMode", "IllegalActionMode", "RewardMode", "TRAINING_DEALS"]

IllegalActionMode = Literal["noop", "raise"]
RewardMode = Literal["progress", "sparse"]
DealsMode = Literal["winnable"]

TRAINING_DEALS = 1_000_000
"""reset(seed=None) draws the deal from 0..TRAINING_DEALS-1: deals from
1,000,000 up are the project's measuring range, kept out of training."""

# Bytes of observation and mask rows allocated at once (see PatienceEnv._pool).
_POOL_BYTES = 1 << 18


def _options(
    max_steps: int | None,
    reward: str,
    illegal_action: str,
    illegal_reward: float,
) -> dict[str, Any]:
    if illegal_action not in ("noop", "raise"):
        raise ValueError(f"illegal_action={illegal_action!r}: want 'noop' or 'raise'")
    if reward not in ("progress", "sparse"):
        raise ValueError(f"reward={reward!r}: want 'progress' or 'sparse'")
    if max_steps is not None and (isinstance(max_steps, bool) or operator.index(max_steps) <= 0):
        raise ValueError(f"max_steps={max_steps!r}: want a positive integer or None (the game's limit)")
    return {
        "max_steps": 0 if max_steps is None else operator.index(max_steps),
        "reward": reward,
        "illegal": "noop" if illegal_action == "noop" else "refuse",
        "illegal_reward": float(illegal_reward),
    }


def observation_space(spec: GameSpec, one_hot: bool) -> spaces.Box:
    """The observation space of one environment."""
    if one_hot:
        return spaces.Box(0.0, 1.0, (spec.one_hot_len,), np.float32)
    return spaces.Box(np.zeros(spec.obs_len, np.uint8), spec.obs_high(), (spec.obs_len,), np.uint8)


class PatienceEnv(_lib.Handle, gym.Env[NDArray[Any], np.int64]):
    """One patience game with Gymnasium's API.

    Args:
        game: the game ("cromwell", "fifteen", "fourquarters", "ladder",
            "limited", "royalparade"; case, spaces and dashes are ignored),
            optionally with a variant of its rules after a colon
            ("cromwell:noswap", "fourquarters:hub").
        variant: a variant of the game's rules ("noswap": Cromwell without
            its swap; "hub": Four Quarters with pairs next to the hub, which
            adds actions), or "" for the default rules. ``gymnasium.make``
            takes it as a keyword (``gym.make("patience/Cromwell-v1",
            variant="noswap")``); the variants also have ids of their own,
            ``patience/Cromwell-noswap-v1`` and ``patience/FourQuarters-hub-v1``.
        render_mode: None, "ansi" (render() returns the text board) or
            "rgb_array" (render() returns the table as an H×W×3 uint8 image,
            the same size for every state of a game, showing only what the
            observation shows; gymnasium's RecordVideo records it).
        max_steps: the step limit (None: the game's own, ``spec.max_steps``);
            reaching it truncates the episode.
        reward: "progress" (the change of cards in their final place over
            104 at each step; an episode's return is its final progress
            fraction, 1 for a win) or "sparse" (1 on a win, else 0).
        one_hot: observations are the float32 one-hot expansion of the byte
            observation (each cell becomes max+1 floats) instead of bytes.
        illegal_action: what an action the mask forbids does.
            "noop" (the default): nothing changes, the step returns the same
            observation and mask, reward ``illegal_reward``, ``info
            ["illegal_action"] = True``, and the step counts towards the
            step limit (so that an agent that keeps choosing illegal actions
            is truncated). "raise": IllegalActionError, naming the move and
            the reason, and nothing changes (the Go core's behaviour).
            The default is "noop" because Gymnasium's tools
            (``check_env``, ``action_space.sample()``) step with unmasked
            random actions, which are almost never legal here; agents that
            use the mask never see the difference.
        illegal_reward: the reward of an illegal action under "noop" (0 by
            default, so that an episode's return stays its progress).
        deals: None (the default: ``reset(seed=N)`` deals deal N) or
            "winnable": every reset deals one of the deals the solver won
            in the training block (deals 0..9,999) of the game's verdict
            table (``patience_gym.deals``), chosen by the reset seed:
            ``reset(seed=N)`` deals the deal ``patience play GAME --winnable
            --seed N`` deals, and ``reset()`` one chosen by a number drawn
            from ``np_random``, so the same seed gives the same deals. A game
            whose table does not ship, or holds no won training deal, is
            refused (``patience_gym.deals.NoTableError``). In a game with
            hidden cards "won" is the clairvoyant solver's verdict.

    Observations: ``spec.obs_len`` bytes (see ``spec.segments``: card codes
    0 empty, 1..52 suit*13+rank, 53 face down, and small counters), or their
    one-hot form. Each returned array is a fresh row that later steps do not
    overwrite. The mask of legal actions comes as ``info["action_mask"]``
    (int8, 1 = legal, so ``action_space.sample(mask=info["action_mask"])``
    draws a legal action) and from ``action_masks()`` (bool, as
    sb3-contrib's MaskablePPO calls it).

    ``reset(seed=N)`` deals deal number N (the same deal as ``patience play
    GAME --seed N``); with seed None the deal is drawn from ``np_random``
    among 0..999,999. A deal with no legal move at all (rare) is skipped to
    the next number; ``info["deal"]`` is the deal dealt. The step that ends
    an episode adds ``outcome`` ("won", "lost", "truncated"), ``progress``,
    ``class``, ``steps``, ``episode_return`` and ``deal`` to the info;
    stepping after the end raises ``gymnasium.error.ResetNeeded``.

    One environment must not be used by two threads at once: ``reset``,
    ``step`` or ``close`` while another thread is inside a call on the same
    environment raises ConcurrentUseError and changes nothing (use one
    environment per thread). A bug in the Go core raises InternalError and
    leaves the environment broken (BrokenEnvironmentError) until ``reset``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str = "cromwell",
        *,
        variant: str = "",
        render_mode: str | None = None,
        max_steps: int | None = None,
        reward: RewardMode = "progress",
        one_hot: bool = False,
        illegal_action: IllegalActionMode = "noop",
        illegal_reward: float = 0.0,
        deals: DealsMode | None = None,
    ) -> None:
        self._h = -1  # no handle: every call reports a closed environment
        self._busy = threading.Lock()  # held by reset, step and close
        spec = _lib.game_spec(game, variant)
        self.deals_mode: DealsMode | None = deals
        self._winnable: NDArray[np.uint64] | None = None
        if deals is not None:
            if deals != "winnable":
                raise ValueError(f"deals={deals!r}: want None or 'winnable'")
            if spec.variant:
                raise ValueError(f"deals='winnable': the verdict tables hold the default rules, not the {spec.variant} variant")
            self._winnable = _deals.select(spec.name, block="train", verdicts=("won",))
            if len(self._winnable) == 0:
                raise _deals.NoTableError(f"deals='winnable': the {spec.name} table holds no deal the solver won in the training block")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: want None or one of {self.metadata['render_modes']}")
        self.game_spec: GameSpec = spec
        self.render_mode = render_mode
        self.one_hot = bool(one_hot)
        self.illegal_action: IllegalActionMode = illegal_action
        opts = _options(max_steps, reward, illegal_action, illegal_reward)
        self.max_steps: int = opts["max_steps"] or spec.max_steps
        self.observation_space = observation_space(spec, self.one_hot)
        self.action_space = spaces.Discrete(spec.actions)
        self._h = _lib.create(spec.game_id, 1, opts)
        self._n_actions = spec.actions
        self._step1 = _lib.lib.pg_step1
        self._reward = ctypes.c_double()
        self._reward_addr = ctypes.addressof(self._reward)
        self._seed_buf = (ctypes.c_uint64 * 1)()
        self._episode = _lib.EpisodeReader()
        self._bufs = _lib.Buffers()  # reset's buffers: rows of the pools
        self._bufs_ref = ctypes.byref(self._bufs)
        self._done = True
        self._started = False
        self._deal = -1
        self._mask: NDArray[np.int8] = np.zeros(spec.actions, np.int8)
        # Pools of rows Go writes into: each step's observation and mask are
        # a new row, so earlier ones stay valid; a full pool is replaced by a
        # new one (the old one lives as long as its rows are referenced).
        row = spec.one_hot_len * 4 if self.one_hot else spec.obs_len
        self._obs_row = row  # bytes per observation row
        self._rows = max(4, min(4096, _POOL_BYTES // max(row, spec.actions)))
        self._k = self._rows

    # The pools.
    def _new_pool(self) -> None:
        spec = self.game_spec
        if self.one_hot:
            self._obs_pool: NDArray[Any] = np.empty((self._rows, spec.one_hot_len), np.float32)
        else:
            self._obs_pool = np.empty((self._rows, spec.obs_len), np.uint8)
        self._mask_pool = np.empty((self._rows, spec.actions), np.int8)
        obs_base = self._obs_base = self._obs_pool.ctypes.data
        self._mask_base = self._mask_pool.ctypes.data
        _lib.check(
            _lib.lib.pg_bind1(
                self._h,
                0 if self.one_hot else obs_base,
                self._mask_pool.ctypes.data,
                obs_base if self.one_hot else 0,
                self._reward_addr,
                self._rows,
            ),
            self._h,
        )
        self._k = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[NDArray[Any], dict[str, Any]]:
        """Deals deal ``seed`` (or one drawn from np_random) and returns the
        first observation and ``{"action_mask", "deal"}``."""
        if options:
            raise ValueError(f"reset options {sorted(options)} are not supported (there are none)")
        if seed is not None and (isinstance(seed, bool) or not 0 <= operator.index(seed) < 1 << 64):
            raise ValueError(f"seed {seed!r} is not a deal number (an integer from 0 to 2**64-1)")
        return self._reset(seed)

    @_lib.exclusive
    def _reset(self, seed: int | None) -> tuple[NDArray[Any], dict[str, Any]]:
        super().reset(seed=None if seed is None else operator.index(seed))
        if self._winnable is not None:
            choice = int(self.np_random.integers(0, 1 << 63)) if seed is None else operator.index(seed)
            deal = _deals.pick(self._winnable, choice)
        elif seed is None:
            deal = int(self.np_random.integers(0, TRAINING_DEALS))
        else:
            deal = operator.index(seed)
        if self._k == self._rows:
            self._new_pool()
        k = self._k
        self._k = k + 1
        obs, mask = self._obs_pool[k], self._mask_pool[k]
        bufs = self._bufs
        if self.one_hot:
            bufs.one_hot = self._obs_base + k * self._obs_row
        else:
            bufs.obs = self._obs_base + k * self._obs_row
        bufs.mask = self._mask_base + k * self._n_actions
        self._seed_buf[0] = deal
        _lib.check(_lib.lib.pg_reset(self._h, self._seed_buf, 1, self._bufs_ref), self._h)
        _lib.check(_lib.lib.pg_deals(self._h, self._seed_buf, 1), self._h)
        self._deal = int(self._seed_buf[0])
        self._mask = mask
        self._done, self._started = False, True
        return obs, {"action_mask": mask, "deal": self._deal}

    def step(self, action: SupportsInt) -> tuple[NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays an action id; returns observation, reward, terminated,
        truncated and ``{"action_mask", "illegal_action"}`` (plus the
        episode's summary on its last step)."""
        if type(action) is not int:
            action = self._action(action)
        if not 0 <= action < self._n_actions:
            # Checked here: ctypes passes a C int and would wrap larger ones.
            raise ValueError(f"action {action} is outside the action space: the ids are 0..{self._n_actions - 1}")
        busy = self._busy
        if not busy.acquire(blocking=False):
            raise _lib.ConcurrentUseError(_lib.CONCURRENT_USE)
        try:
            if self._done:
                self._not_running()
            k = self._k
            if k == self._rows:
                self._new_pool()
                k = 0
            code = self._step1(self._h, action, k)
            if code < 0:
                if code == _lib.INTERNAL:
                    self._k = k + 1  # the row may be half written: never hand it out again
                _lib.check(code, self._h)
            self._k = k + 1
        finally:
            busy.release()
        self._mask = mask = self._mask_pool[k]
        if code & 3:  # the episode ended
            self._done = True
            info = {"action_mask": mask, "illegal_action": code >= 4, **self.episode_info()}
            return self._obs_pool[k], self._reward.value, code & 1 == 1, code & 2 == 2, info
        return self._obs_pool[k], self._reward.value, False, False, {"action_mask": mask, "illegal_action": code >= 4}

    def _action(self, action: Any) -> int:
        """Converts an action (an integer, a NumPy integer or a 0-d integer
        array) to an int in range, or raises TypeError or ValueError."""
        if isinstance(action, (bool, np.bool_)) or (isinstance(action, np.ndarray) and action.dtype.kind not in "iu"):
            raise TypeError(f"action {action!r}: want an integer action id, not {type(action).__name__}")
        try:
            a = operator.index(action)
        except TypeError:
            raise TypeError(
                f"action {action!r} of type {type(action).__name__}: want an integer action id in 0..{self._n_actions - 1}"
            ) from None
        return a

    def _not_running(self) -> None:
        if self._h < 0:
            raise _lib.ClosedEnvironmentError("the environment is closed")
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        raise gym.error.ResetNeeded("the episode is over: call reset()")

    def episode_info(self) -> dict[str, Any]:
        """The episode so far: deal, steps, progress, cards, legal, outcome,
        class and episode_return."""
        return self._episode.read(self._h, 0)

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as bools (for sb3-contrib's MaskablePPO)."""
        return self._mask.view(np.bool_)

    def legal_actions(self) -> NDArray[np.int64]:
        """The legal action ids now, in increasing order."""
        return np.flatnonzero(self._mask)

    def action_name(self, action: int) -> str:
        """The name of an action as a person types it ("7>12")."""
        return _lib.read_string(_lib.lib.pg_action_name, self._h, operator.index(action))

    def parse_move(self, move: str) -> list[int]:
        """The action ids of a move typed as a person types it ("7>12"; a
        Cromwell swap is three actions)."""
        ids = (ctypes.c_int64 * 8)()
        n = _lib.check(_lib.lib.pg_parse_move(self._h, move.encode(), ids, 8), self._h)
        return [int(ids[i]) for i in range(min(n, 8))]

    @property
    def deal(self) -> int:
        """The deal number of the current episode (-1 before the first reset)."""
        return self._deal

    def render(self) -> str | NDArray[np.uint8] | None:  # type: ignore[override, unused-ignore]  # gymnasium before 1.4: a free TypeVar
        """The text board (render_mode "ansi"), the table as a new H×W×3
        uint8 image (render_mode "rgb_array"), or None without a render
        mode."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode: pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self._h, 0)
        return _lib.read_string(_lib.lib.pg_render, self._h, 0)

    def close(self) -> None:
        """Frees the Go environment; the Env cannot be used afterwards."""
        self._free()

    def _freed(self) -> None:
        self._done = True


def render_rgb(handle: int, i: int) -> NDArray[np.uint8]:
    """Draws environment i of a Go handle as a new H×W×3 uint8 image."""
    size = np.zeros(2, dtype=np.int64)
    _lib.check(_lib.lib.pg_render_rgb(handle, i, None, 0, size.ctypes.data), handle)
    frame = np.empty((int(size[0]), int(size[1]), 3), dtype=np.uint8)
    _lib.check(_lib.lib.pg_render_rgb(handle, i, frame.ctypes.data, frame.size, None), handle)
    return frame
