"""Ray RLlib: an env creator and the action-mask observation RLlib's
action-masking RL module reads (``pip install "patience-gym[rllib]"``).

    from ray.tune.registry import register_env
    from patience_gym.rllib import ENV_NAME, env_creator

    register_env(ENV_NAME, env_creator)
    config = (PPOConfig()
              .environment(ENV_NAME, env_config={"game": "limited", "seed": 1})
              .rl_module(rl_module_spec=action_masking_module_spec()))

RLlib builds the environments in every env runner process from
``env_config``, so each process loads the Go core itself (nothing Go-side is
pickled). ``env_creator`` takes these keys, all optional:

- ``game`` ("limited"), ``variant`` ("" or a rule variant, "noswap", "hub"),
  ``seed`` (0): which deals the environment plays (see below);
- ``one_hot`` (True): the observation is the float32 one-hot expansion of
  the byte observation; False gives the bytes as float32;
- ``max_steps``, ``reward``, ``illegal_action``, ``illegal_reward``: as for
  PatienceEnv;
- ``deals`` (1,000,000): deals are drawn from 0..deals-1 (the project keeps
  deals from 1,000,000 up for measuring);
- ``envs_per_env_runner`` (16): at most this many environments per env runner
  (the slots of one runner).

Deals: every environment gets a slot, ``worker_index * envs_per_env_runner
+ vector_index`` (RLlib's new API stack builds all of a runner's
environments from one context whose vector_index is 0: the creator then
takes the runner's next free slot in the order they are made). Slot s of S
in all plays only the deals equal to s modulo S, starting at a place drawn
from (seed, s) and going through all of them before any repeats; so no two
environments of a run, on any node, ever play the same deal, and the same
``seed`` replays the same deals. ``reset(seed=N)`` restarts the slot's
sequence from a place drawn from (N, s) instead.

The observation is a dict, ``{"observations": ..., "action_mask": ...}``,
the mask float32 with 1.0 for a legal action, as RLlib's
``ActionMaskingTorchRLModule`` (ray.rllib.examples.rl_modules.classes
.action_masking_rlm) expects: it adds log(mask) to the logits, so that
illegal actions are never sampled.
"""

from __future__ import annotations

import operator
import os
import threading
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .env import TRAINING_DEALS, PatienceEnv

__all__ = [
    "ENV_NAME",
    "EPISODES_BY_PROCESS",
    "ActionMaskObservation",
    "SlotDeals",
    "action_masking_module_spec",
    "count_episode",
    "env_creator",
    "process_label",
    "register",
]

ENV_NAME = "patience"
"""The name ``register`` gives the env creator in Ray Tune's registry."""

_KEYS = {"game", "variant", "seed", "one_hot", "max_steps", "reward", "illegal_action", "illegal_reward", "deals",
         "envs_per_env_runner"}


class ActionMaskObservation(gym.Wrapper[dict[str, NDArray[np.float32]], np.int64, NDArray[Any], np.int64]):
    """A PatienceEnv whose observation is ``{"observations": float32 array,
    "action_mask": float32 array of 0.0 and 1.0}``, the dict RLlib's
    action-masking RL module reads. The info keeps ``action_mask`` and the
    rest of PatienceEnv's info."""

    def __init__(self, env: gym.Env[NDArray[Any], np.int64]) -> None:
        super().__init__(env)  # type: ignore[arg-type, unused-ignore]  # gymnasium 1.4 types the wrapped env with the wrapper's own types
        inner = env.observation_space
        if not isinstance(inner, spaces.Box) or not isinstance(env.unwrapped, PatienceEnv):
            raise TypeError(f"ActionMaskObservation wraps a PatienceEnv, not {env}")
        high = np.asarray(inner.high, np.float32)
        self.observation_space = spaces.Dict(  # type: ignore[assignment, unused-ignore]
            {
                "observations": spaces.Box(0.0, high, inner.shape, np.float32),
                "action_mask": spaces.Box(0.0, 1.0, (env.unwrapped.game_spec.actions,), np.float32),
            }
        )

    def _dict(self, obs: NDArray[Any], info: dict[str, Any]) -> dict[str, NDArray[np.float32]]:
        return {
            "observations": np.asarray(obs, np.float32),
            "action_mask": info["action_mask"].astype(np.float32),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[np.float32]], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._dict(obs, info), info  # type: ignore[arg-type, unused-ignore]

    def step(self, action: np.int64) -> tuple[dict[str, NDArray[np.float32]], SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._dict(obs, info), reward, terminated, truncated, info  # type: ignore[arg-type, unused-ignore]


class SlotDeals(gym.Wrapper[NDArray[Any], np.int64, NDArray[Any], np.int64]):
    """A PatienceEnv that deals only the deals of its slot: slot s of
    ``slots`` plays the deals d < ``deals`` with d % slots == s, each once
    before any repeats, from a starting place drawn from (seed, s). The
    deals of two slots never meet. ``info["slot"]`` is the slot."""

    def __init__(self, env: PatienceEnv, slot: int, slots: int, seed: int = 0, deals: int = TRAINING_DEALS) -> None:
        super().__init__(env)
        if not 0 <= slot < slots:
            raise ValueError(f"slot {slot} of {slots}")
        self.slot, self.slots = slot, slots
        self.per_slot = deals // slots
        if self.per_slot < 1:
            raise ValueError(f"{slots} slots share {deals} deals: fewer than one each")
        self._restart(seed)

    def _restart(self, seed: int) -> None:
        self._start = int(np.random.default_rng([operator.index(seed), self.slot]).integers(self.per_slot))
        self._k = 0

    def next_deal(self) -> int:
        """The slot's next deal (and moves past it)."""
        d = ((self._start + self._k) % self.per_slot) * self.slots + self.slot
        self._k += 1
        return d

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[NDArray[Any], dict[str, Any]]:
        if seed is not None:
            self._restart(seed)
        for _ in range(1000):
            deal = self.next_deal()
            obs, info = self.env.reset(seed=deal, options=options)
            # PatienceEnv skips a deal with no legal move to the next number,
            # another slot's: take this slot's next deal instead.
            if info["deal"] == deal:
                return obs, {**info, "slot": self.slot}
        raise RuntimeError(f"slot {self.slot}: 1000 deals in a row with no legal move")


# The slots taken in this process, by env runner (worker_index): RLlib's new
# API stack makes all of a runner's environments from the same context.
_slots_lock = threading.Lock()
_slots_taken: set[int] = set()


def _take_slot(worker: int, vector: int, per_runner: int) -> int:
    if not 0 <= vector < per_runner:
        raise ValueError(f"vector_index {vector}: want 0..{per_runner - 1} (env_config envs_per_env_runner)")
    with _slots_lock:
        for k in range(per_runner):
            slot = worker * per_runner + (vector + k) % per_runner
            if slot not in _slots_taken:
                _slots_taken.add(slot)
                return slot
    raise ValueError(
        f"env runner {worker} asked for more than {per_runner} environments: raise env_config envs_per_env_runner"
    )


class _SlotEnv(ActionMaskObservation):
    """ActionMaskObservation over SlotDeals that gives its slot back on close."""

    def __init__(self, env: SlotDeals) -> None:
        super().__init__(env)
        self._slot: int | None = env.slot

    def close(self) -> None:
        super().close()  # type: ignore[no-untyped-call, unused-ignore]  # untyped before gymnasium 1.4
        if self._slot is not None:
            with _slots_lock:
                _slots_taken.discard(self._slot)
            self._slot = None


def env_creator(env_config: Mapping[str, Any]) -> gym.Env[dict[str, NDArray[np.float32]], np.int64]:
    """Makes one environment from RLlib's ``env_config`` (an EnvContext,
    whose worker_index, num_workers and vector_index are read where present;
    a plain dict is worker 0 of 0). See the module's doc for the keys."""
    if "num_envs" in env_config:
        raise ValueError("patience_gym.rllib makes one environment per call: keep RLlib's gym_env_vectorize_mode 'sync'")
    unknown = set(env_config) - _KEYS
    if unknown:
        raise ValueError(f"env_config: unknown keys {sorted(unknown)}; the keys are {sorted(_KEYS)}")
    worker = int(getattr(env_config, "worker_index", 0) or 0)
    workers = int(getattr(env_config, "num_workers", 0) or 0)
    vector = int(getattr(env_config, "vector_index", 0) or 0)
    per_runner = int(env_config.get("envs_per_env_runner", 16))
    if per_runner < 1:
        raise ValueError(f"env_config envs_per_env_runner {per_runner}: want 1 or more")
    env = PatienceEnv(
        str(env_config.get("game", "limited")),
        variant=str(env_config.get("variant", "")),
        one_hot=bool(env_config.get("one_hot", True)),
        max_steps=env_config.get("max_steps"),
        reward=env_config.get("reward", "progress"),
        illegal_action=env_config.get("illegal_action", "noop"),
        illegal_reward=float(env_config.get("illegal_reward", 0.0)),
    )
    slot = _take_slot(worker, vector, per_runner)
    try:
        deals = SlotDeals(env, slot, (max(workers, worker) + 1) * per_runner, int(env_config.get("seed", 0)),
                          int(env_config.get("deals", TRAINING_DEALS)))
    except Exception:
        with _slots_lock:
            _slots_taken.discard(slot)
        env.close()
        raise
    return _SlotEnv(deals)


def register(name: str = ENV_NAME) -> str:
    """Registers env_creator in Ray Tune's registry under ``name`` (so that
    ``config.environment(name, env_config=...)`` finds it) and returns the
    name."""
    from ray.tune.registry import register_env

    register_env(name, env_creator)
    return name


def action_masking_module_spec(hiddens: tuple[int, ...] = (256, 256)) -> Any:
    """An RLModuleSpec of RLlib's ActionMaskingTorchRLModule (PPO) with
    ReLU layers of the given widths, for ``config.rl_module(rl_module_spec=...)``."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"head_fcnet_hiddens": list(hiddens), "head_fcnet_activation": "relu"},
    )


EPISODES_BY_PROCESS = "patience_episodes_by_process"
"""The metric count_episode logs: episodes ended, by ``node-id/pid``."""


def count_episode(*, metrics_logger: Any = None, **_: Any) -> None:
    """An ``on_episode_end`` callback (``config.callbacks(on_episode_end=
    count_episode)``) that counts each ended episode under the node and pid
    of the env runner that played it: a training result's
    ``result["env_runners"][EPISODES_BY_PROCESS]`` maps ``node-id/pid`` to
    episodes, which shows where the environments ran. It lives here, in an
    installed module, because RLlib pickles callbacks by reference and every
    env runner must import them."""
    if metrics_logger is not None:
        metrics_logger.log_value((EPISODES_BY_PROCESS, process_label()), 1, reduce="lifetime_sum")


def process_label() -> str:
    """``node-id/pid`` of the calling process (its Ray node when Ray runs
    there), for telling apart where episodes ran."""
    node = "no-ray"
    try:
        import ray

        if ray.is_initialized():
            node = ray.get_runtime_context().get_node_id()
    except ImportError:
        pass
    return f"{node}/{os.getpid()}"
