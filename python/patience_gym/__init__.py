"""patience_gym: six two-deck patience games as Gymnasium environments.

    import gymnasium as gym
    import patience_gym  # optional: installing the package registers the ids

    env = gym.make("patience/Cromwell-v1")
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(
        env.action_space.sample(mask=info["action_mask"]))

The ids are ``patience/<Game>-v<rules version>`` for Cromwell, Fifteen,
FourQuarters, Ladder, Limited and RoyalParade. ``gymnasium.make_vec(id,
num_envs=N)`` gives the zero-copy vector environment (PatienceVectorEnv).
"""

from __future__ import annotations

import gymnasium as gym

from ._lib import SPECS, ClosedEnvironmentError, GameSpec, IllegalActionError, PatienceError, Segment
from .env import TRAINING_DEALS, PatienceEnv
from .vector import PatienceVectorEnv

__all__ = [
    "SPECS",
    "TRAINING_DEALS",
    "ClosedEnvironmentError",
    "GameSpec",
    "IllegalActionError",
    "PatienceEnv",
    "PatienceError",
    "PatienceVectorEnv",
    "Segment",
    "env_ids",
    "register_envs",
]

__version__ = "0.1.0"


def env_ids() -> list[str]:
    """The Gymnasium ids of the six games, sorted."""
    return sorted(s.env_id for s in SPECS.values())


def register_envs() -> None:
    """Registers every game with Gymnasium (done on import; calling it again
    does nothing)."""
    for spec in SPECS.values():
        if spec.env_id in gym.registry:
            continue
        gym.register(
            id=spec.env_id,
            entry_point="patience_gym.env:PatienceEnv",
            vector_entry_point="patience_gym.vector:PatienceVectorEnv",
            kwargs={"game": spec.name},
        )


register_envs()
