"""PatienceVectorEnv: N environments of one game stepped by the Go core."""

from __future__ import annotations

import ctypes
import sys
import threading
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from . import _lib
from .env import TRAINING_DEALS, IllegalActionMode, RewardMode, _options, observation_space

__all__ = ["PatienceVectorEnv"]

class PatienceVectorEnv(_lib.Handle, VectorEnv[NDArray[Any], NDArray[np.int64], NDArray[Any]]):
    """N environments of one game, stepped together by the Go core in one
    call (with the GIL released) into NumPy arrays that Go writes directly.

    Made by ``gymnasium.make_vec("patience/Cromwell-v1", num_envs=N)`` or
    directly. The arguments after ``num_envs`` are PatienceEnv's, plus:

    Args:
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` (the default) or
            ``SAME_STEP`` (or their string values), declared in
            ``metadata["autoreset_mode"]``. Next-step: the step that ends an
            episode returns its last observation with terminated or
            truncated set; the next step ignores that environment's action
            and returns the first observation of its next episode, reward 0.
            Same-step: the ending step returns the next episode's first
            observation with the ended episode's reward and flags, and puts
            the last observation in ``info["final_obs"]`` (a NumPy object
            array, None where no episode ended; ``info["_final_obs"]`` marks
            the ended ones), as Gymnasium's own vector environments do.
        workers: goroutines that step the environments (0: one per core).
        copy: return copies of the arrays (Gymnasium's SyncVectorEnv
            default). False by default: the observations, rewards, flags and
            ``info["action_mask"]`` returned are the arrays Go writes, reused
            by the next step; copy what you keep. The mask arrays are
            read-only (Go updates only the bytes that change).

    ``reset(seed=S)`` deals S+i to environment i (a list gives each its
    deal); each environment's next episodes are dealt its previous deal + N.
    With seed None, S is drawn from ``np_random`` among the training deals
    (below 1,000,000). Illegal actions: with ``illegal_action="raise"`` one
    refuses the whole step (IllegalActionError, nothing changes); with
    "noop" (the default) each refused action leaves its environment as it
    was and is flagged in ``info["illegal_action"]``. Actions must be an
    integer array of shape (N,) with ids in the action space.

    ``sample_legal()`` draws a uniformly random legal action for every
    environment in the Go workers (reproducibly: each environment's
    generator is seeded by ``reset`` from the deal it gets), so
    ``envs.step(envs.sample_legal())`` is random play at the Go core's speed.
    ``action_mask_bits()`` gives the masks bit-packed, N × ceil(actions/8)
    bytes. One environment must not be used by two threads at once: a
    call while another thread is inside one raises ConcurrentUseError.
    """

    def __init__(
        self,
        game: str = "cromwell",
        num_envs: int = 1,
        *,
        variant: str = "",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
        max_steps: int | None = None,
        reward: RewardMode = "progress",
        one_hot: bool = False,
        illegal_action: IllegalActionMode = "noop",
        illegal_reward: float = 0.0,
        workers: int = 0,
        copy: bool = False,
    ) -> None:
        self._h = -1
        self._busy = threading.Lock()  # held during every call into the Go core
        spec = _lib.game_spec(game, variant)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r}: want a positive integer")
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode={mode}: want NEXT_STEP or SAME_STEP")
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode={render_mode!r}: want None or 'ansi'")
        n = int(num_envs)
        opts = _options(max_steps, reward, illegal_action, illegal_reward)
        opts["autoreset"] = "same-step" if mode == AutoresetMode.SAME_STEP else "next-step"
        opts["workers"] = int(workers)
        # The memory this vector takes, Go's and the arrays below (and the
        # batched spaces' bounds), checked before anything is allocated.
        _lib.vector_bytes(spec.game_id, n, opts, n * self._row_bytes(spec, mode == AutoresetMode.SAME_STEP, bool(one_hot)))
        self.metadata = {"autoreset_mode": mode, "render_modes": ["ansi"]}
        self.game_spec = spec
        self.num_envs = n
        self.render_mode = render_mode
        self.one_hot = bool(one_hot)
        self.copy = bool(copy)
        self.max_steps: int = opts["max_steps"] or spec.max_steps
        self.single_observation_space = observation_space(spec, self.one_hot)
        self.single_action_space = spaces.Discrete(spec.actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._h = _lib.create(spec.game_id, n, opts)

        # The arrays Go writes into, for the life of the environment.
        L, A, H = spec.obs_len, spec.actions, spec.one_hot_len
        same = mode == AutoresetMode.SAME_STEP
        self._obs = np.zeros((n, L), np.uint8)
        self._mask = np.zeros((n, A), np.uint8)
        # Go writes each mask's 64-bit words, as it keeps them; on a
        # little-endian machine the first ceil(A/8) bytes of a row of words
        # are that row bit-packed, so the packed masks are a view of the
        # words and cost the step nothing more. Elsewhere Go packs them too.
        self._mask_words = np.zeros((n, (A + 63) // 64), np.uint64)
        little = sys.byteorder == "little"
        if little:
            self._mask_bits = self._mask_words.view(np.uint8)[:, : (A + 7) // 8]
        else:
            self._mask_bits = np.zeros((n, (A + 7) // 8), np.uint8)
        self._sampled = np.zeros(n, np.int64)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._final_obs = np.zeros((n, L), np.uint8) if same else None
        self._has_final = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.bool_)
        self._one_hot = np.zeros((n, H), np.float32) if self.one_hot else None
        self._final_one_hot = np.zeros((n, H), np.float32) if self.one_hot and same else None
        self._mask_i8 = self._mask.view(np.int8)
        self._all = np.ones(n, np.bool_)
        self._seeds = np.zeros(n, np.uint64)
        self._actions = np.zeros(n, np.int64)  # where step copies actions it was given
        self._actions_addr = self._actions.ctypes.data
        self._sampled_addr = self._sampled.ctypes.data

        def addr(a: NDArray[Any] | None) -> int | None:
            return None if a is None else a.ctypes.data

        self._bufs = _lib.Buffers(
            obs=addr(self._obs),
            mask=addr(self._mask),
            rewards=addr(self._rewards),
            terminated=addr(self._terminated),
            truncated=addr(self._truncated),
            final_obs=addr(self._final_obs),
            has_final=addr(self._has_final),
            illegal=addr(self._illegal),
            one_hot=addr(self._one_hot),
            final_one_hot=addr(self._final_one_hot),
            mask_bits=None if little else addr(self._mask_bits),
            mask_words=addr(self._mask_words),
        )
        self._bufs_ref = ctypes.byref(self._bufs)
        # Go keeps the byte masks up to date rather than rewriting them (a
        # step writes the bytes whose action changed legality), so nothing
        # else may write into them: the mask arrays are read-only here.
        for a in (self._mask, self._mask_i8, self._mask_words, self._mask_bits):
            a.flags.writeable = False
        self._step = _lib.lib.pg_step
        self._sample = _lib.lib.pg_sample
        self._obs_out = self._one_hot if self._one_hot is not None else self._obs
        self._started = False
        self._same = same
        self._noop = illegal_action == "noop"

    @staticmethod
    def _row_bytes(spec: _lib.GameSpec, same: bool, one_hot: bool) -> int:
        """The bytes per environment of the NumPy arrays __init__ makes: the
        buffers Go writes into and the batched spaces' bounds."""
        L, A, H = spec.obs_len, spec.actions, spec.one_hot_len
        obs = 4 * H if one_hot else L
        buffers = (L + A + 8 * ((A + 63) // 64) + 8 + 8 + 4 + (L if same else 0) + 1 + 8 + 8
                   + (4 * H if one_hot else 0) * (2 if same else 1))
        spaces = 2 * obs + 16  # the Box's low and high, the MultiDiscrete's nvec and start
        return buffers + spaces

    @property
    def observations(self) -> NDArray[Any]:
        """The array Go writes the observations into (N×obs_len bytes, or
        N×one_hot_len floats)."""
        return self._one_hot if self._one_hot is not None else self._obs

    @property
    def final_observations(self) -> NDArray[Any] | None:
        """Same-step mode: the array Go writes final observations into; row
        i is valid where ``has_final[i]``."""
        return self._final_one_hot if self._final_one_hot is not None else self._final_obs

    @property
    def has_final(self) -> NDArray[np.bool_]:
        """Same-step mode: which rows of ``final_observations`` the last step set."""
        return self._has_final

    @_lib.exclusive
    def reset(
        self,
        *,
        seed: int | list[int] | NDArray[np.integer] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        """Deals every environment (see the class doc) and returns the first
        observations and ``{"action_mask", "deal"}``."""
        if options:
            raise ValueError(f"reset options {sorted(options)} are not supported (there are none)")
        n = self.num_envs
        if seed is None:
            base = int(self.np_random.integers(0, max(1, TRAINING_DEALS - n)))
            seeds = base + np.arange(n, dtype=np.uint64)
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            if not 0 <= seed <= (1 << 64) - n:
                raise ValueError(f"seed {seed} is not a deal number (0 to 2**64-1, less the number of environments)")
            super().reset(seed=int(seed))
            seeds = np.uint64(seed) + np.arange(n, dtype=np.uint64)
        else:
            s = np.asarray(seed)
            if s.shape != (n,) or s.dtype.kind not in "iu" or (s < 0).any():
                raise ValueError(f"seed: want one deal number or {n} of them (non-negative integers), got {seed!r}")
            super().reset(seed=int(s[0]))
            seeds = s.astype(np.uint64)
        self._seeds[:] = seeds
        _lib.check(
            _lib.lib.pg_reset(self._h, self._seeds.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64)), n, self._bufs_ref),
            self._h,
        )
        self._started = True
        obs = self.observations
        info = {"action_mask": self._mask_i8, "_action_mask": self._all, "deal": self._deals(), "_deal": self._all}
        if self.copy:
            return obs.copy(), {k: v.copy() for k, v in info.items()}
        return obs, info

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[Any], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Plays actions[i] in environment i (an environment waiting for its
        next-step autoreset ignores its action)."""
        a = actions
        if a is self._sampled:  # sample_legal's array: its address is known
            addr = self._sampled_addr
        else:
            if type(a) is not np.ndarray or a.dtype != np.int64 or a.shape != (self.num_envs,):
                a = self._coerce(actions)
            # Copied into an array whose address is known: cheaper than
            # asking NumPy for the address of every new array.
            np.copyto(self._actions, a)
            addr = self._actions_addr
        busy = self._busy
        if not busy.acquire(blocking=False):
            raise _lib.ConcurrentUseError(_lib.CONCURRENT_USE)
        try:
            code = self._step(self._h, addr, self.num_envs, self._bufs_ref)
            if code < 0:
                self._failed(code, a)
        finally:
            busy.release()
        obs = self._obs_out
        info: dict[str, Any] = {"action_mask": self._mask_i8, "_action_mask": self._all}
        if self._noop:
            info["illegal_action"] = self._illegal
            info["_illegal_action"] = self._all
        if self._same and self._has_final.any():
            final = np.full(self.num_envs, None, dtype=object)
            fo = self.final_observations
            assert fo is not None
            for i in np.flatnonzero(self._has_final):
                final[i] = fo[i].copy()
            info["final_obs"] = final
            info["_final_obs"] = self._has_final.copy()
            info["final_info"] = {}
            info["_final_info"] = self._has_final.copy()
        if self.copy:
            info["action_mask"] = self._mask_i8.copy()
            if self._noop:
                info["illegal_action"] = self._illegal.copy()
            return obs.copy(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info
        return obs, self._rewards, self._terminated, self._truncated, info

    def _coerce(self, actions: Any) -> NDArray[np.int64]:
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions: want an integer array, got dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: want shape ({self.num_envs},), got {a.shape}")
        return np.ascontiguousarray(a, dtype=np.int64)

    def _failed(self, code: int, a: NDArray[np.int64]) -> None:
        if code != _lib.BAD_HANDLE:
            bad = np.flatnonzero((a < 0) | (a >= self.game_spec.actions))
            if len(bad):
                i = int(bad[0])
                raise ValueError(
                    f"actions[{i}] = {int(a[i])} is outside the action space: the ids are 0..{self.game_spec.actions - 1}"
                )
            if not self._started:
                raise gym.error.ResetNeeded("call reset() before step()")
        _lib.check(code, self._h)

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every environment, N×actions bools (a view
        of the array Go writes)."""
        return self._mask.view(np.bool_)

    def action_mask_bits(self) -> NDArray[np.uint8]:
        """The legal actions of every environment bit-packed: an N × P uint8
        array, P = ceil(actions / 8), in which action ``a`` of environment
        ``i`` is bit ``a % 8`` (least significant bit first) of byte
        ``[i, a // 8]``; the padding bits past the last action are 0. It is
        a view of the array Go writes at every step and reset (updated in
        place, like ``action_masks()``): the masks' 64-bit words, whose
        first P bytes per row are the packed row, so its rows are
        8 * ceil(actions / 64) bytes apart (``np.ascontiguousarray`` packs
        it tight); an eighth of the size of the byte mask.
        ``np.unpackbits(bits, axis=1, count=actions, bitorder="little")``
        gives the byte mask back."""
        return self._mask_bits

    def sample_legal(self) -> NDArray[np.int64]:
        """A uniformly random legal action of every environment, drawn by
        the Go workers in parallel (no mask crosses into Python): an int64
        array of shape (N,), -1 for an environment waiting for its next-step
        autoreset (``step`` ignores its action). Each environment draws from
        its own generator, seeded by ``reset`` from the deal it gave that
        environment, so the same seeds give the same draws on any number of
        workers. After the first call, each ``step`` and ``reset`` draws the
        next actions in the workers ahead of time and this call only copies
        them (a second call without a step between draws again); a step
        taken with other actions still uses up that draw. The array is
        reused by the next call (a copy with ``copy=True``)."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before sample_legal()")
        busy = self._busy
        if not busy.acquire(blocking=False):
            raise _lib.ConcurrentUseError(_lib.CONCURRENT_USE)
        try:
            code = self._sample(self._h, self._sampled_addr, self.num_envs)
            if code < 0:
                _lib.check(code, self._h)
        finally:
            busy.release()
        return self._sampled.copy() if self.copy else self._sampled

    @_lib.exclusive
    def deals(self) -> NDArray[np.uint64]:
        """The deal of each environment's current episode."""
        return self._deals()

    def _deals(self) -> NDArray[np.uint64]:
        out = np.zeros(self.num_envs, np.uint64)
        _lib.check(_lib.lib.pg_deals(self._h, out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64)), self.num_envs), self._h)
        return out

    @_lib.exclusive
    def agent_actions(self, agent: str, seed: int = 0, where: NDArray[np.bool_] | None = None) -> NDArray[np.int64]:
        """The move a Go agent chooses in every environment's current
        position, without playing it: ``agent`` is an agent string as the
        command line takes it (``"heuristic"``, ``"mc:rollouts=8"``; see
        ``patience agents``). Each environment has its own agent, seeded
        with its deal number plus ``seed``, reset at each new episode; it
        remembers the positions it was asked about in the episode (so ask
        at every step for the agent's own behaviour). An ended environment
        (next-step autoreset, before its reset) gets -1, which ``step``
        ignores there, so ``envs.step(envs.agent_actions(a))`` plays the
        agent in every environment. ``where``, a bool array of shape (N,),
        asks only the environments where it is True; the others get -1
        (give them a legal action, or one ``illegal_action="noop"``
        ignores, before stepping), which saves the agent's time in
        environments whose moves are not wanted. Agents that see
        hidden cards (``solver`` in a game with a hidden stock) are
        refused; in the open games (Cromwell, The Fifteen) the solver
        plays the first move of the winning line it finds. This is how a trainer gets a
        teacher's labels on the positions its student reaches (DAgger)."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before agent_actions()")
        out = np.zeros(self.num_envs, np.int64)
        only = None
        if where is not None:
            w = np.asarray(where)
            if w.shape != (self.num_envs,) or w.dtype != np.bool_:
                raise ValueError(f"where: want a bool array of shape ({self.num_envs},), got {w.dtype} {w.shape}")
            only = np.ascontiguousarray(w).view(np.uint8)
        code = _lib.lib.pg_agent_act(self._h, agent.encode(), int(seed) & (2**64 - 1),
                                     out.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)), self.num_envs,
                                     None if only is None else only.ctypes.data)
        _lib.check(code, self._h)
        return out

    @_lib.exclusive
    def episode_info(self, i: int) -> dict[str, Any]:
        """Environment i's episode so far (see PatienceEnv.episode_info)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"environment {i} of {self.num_envs}")
        return _lib.EpisodeReader().read(self._h, int(i))

    def action_name(self, action: int) -> str:
        """The name of an action as a person types it."""
        return _lib.read_string(_lib.lib.pg_action_name, self._h, int(action))

    def render(self) -> tuple[str, ...] | None:  # type: ignore[override, unused-ignore]  # gymnasium before 1.4: a free TypeVar
        """Every environment's text board (render_mode "ansi")."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode: pass render_mode='ansi'")
            return None
        return tuple(_lib.read_string(_lib.lib.pg_render, self._h, i) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        """Frees the Go environments (refused, ConcurrentUseError, while
        another thread is inside a call on this environment)."""
        self._free()
