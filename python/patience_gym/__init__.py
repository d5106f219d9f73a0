"""patience_gym: six two-deck patience games as Gymnasium environments.

    import gymnasium as gym
    import patience_gym

    gym.register_envs(patience_gym)  # importing the package registers the ids
    env = gym.make("patience/Cromwell-v1")
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(
        env.action_space.sample(mask=info["action_mask"]))

Importing the package registers the ids, ``patience/<Game>-v<rules version>``
for Cromwell, Fifteen, FourQuarters, Ladder, Limited and RoyalParade, and
nothing else happens at import (no start-up hook). Without an import,
``gym.make("patience_gym:patience/Cromwell-v1")`` imports it first. The rule
variants are reached by the ``variant`` keyword
(``gym.make("patience/Cromwell-v1", variant="noswap")``) or by their own ids,
``patience/Cromwell-noswap-v1`` and ``patience/FourQuarters-hub-v1``.
``gymnasium.make_vec(id, num_envs=N)`` gives the zero-copy vector environment
(PatienceVectorEnv).
"""

from __future__ import annotations

import gymnasium as gym

from . import deals
from ._lib import (
    SPECS,
    VARIANT_SPECS,
    BrokenEnvironmentError,
    ClosedEnvironmentError,
    ConcurrentUseError,
    GameSpec,
    IllegalActionError,
    InternalError,
    PatienceError,
    Segment,
)
from .env import TRAINING_DEALS, PatienceEnv
from .protocol import evaluate
from .vector import PatienceVectorEnv

__all__ = [
    "SPECS",
    "TRAINING_DEALS",
    "VARIANT_SPECS",
    "BrokenEnvironmentError",
    "ClosedEnvironmentError",
    "ConcurrentUseError",
    "GameSpec",
    "IllegalActionError",
    "InternalError",
    "PatienceEnv",
    "PatienceError",
    "PatienceVectorEnv",
    "Segment",
    "deals",
    "env_ids",
    "evaluate",
    "register_envs",
]

__version__ = "1.0.0"


def env_ids(variants: bool = False) -> list[str]:
    """The Gymnasium ids of the six games, sorted; with ``variants``, the
    ids of the rule variants too."""
    specs = [*SPECS.values(), *(VARIANT_SPECS.values() if variants else ())]
    return sorted(s.env_id for s in specs)


def register_envs() -> None:
    """Registers every game and variant with Gymnasium (done on import;
    calling it again does nothing)."""
    for spec in [*SPECS.values(), *VARIANT_SPECS.values()]:
        if spec.env_id in gym.registry:
            continue
        gym.register(
            id=spec.env_id,
            entry_point="patience_gym.env:PatienceEnv",
            vector_entry_point="patience_gym.vector:PatienceVectorEnv",
            kwargs={"game": spec.game_id},
        )


register_envs()
