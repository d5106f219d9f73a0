"""sb3-contrib's MaskablePPO on The Fifteen, out of the box.

    pip install patience-gym sb3-contrib    # or, in a clone: pip install . sb3-contrib
    python python/examples/sb3_maskable_ppo.py --steps 50000

``gymnasium.make("patience/Fifteen-v1")`` is all MaskablePPO needs: the
environment's ``action_masks()`` method gives the legal actions, which
MaskablePPO finds by itself (through the wrappers ``gymnasium.make`` adds).
The observation is the environment's own (474 bytes), fed to the default MLP
policy. After training, the model plays fixed deals from 900,000 (training
deals stay below 1,000,000; ``patience bench`` measures from 1,000,000) with
``deterministic=True`` and the mask, beside uniformly random legal play on
the same deals.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import patience_gym  # noqa: F401  (importing the package registers the ids)

ENV_ID = "patience/Fifteen-v1"


@dataclass
class Result:
    """Mean return (final progress fraction) on the deals, and whether every
    action the model played was legal."""

    model_return: float
    random_return: float
    all_legal: bool


def play(env: gym.Env, deals: list[int], choose) -> tuple[float, bool]:  # type: ignore[type-arg]
    """One episode per deal; choose(obs, mask) gives the action."""
    total, legal = 0.0, True
    for deal in deals:
        obs, info = env.reset(seed=deal)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            a = int(choose(obs, mask))
            legal &= bool(mask[a])
            obs, r, terminated, truncated, info = env.step(a)
            total += float(r)
            done = terminated or truncated
    return total / len(deals), legal


def train_and_evaluate(steps: int = 50_000, seed: int = 0, deals: int = 100) -> Result:
    torch.set_num_threads(1)  # small networks: more threads only wait for each other
    env = gym.make(ENV_ID)
    model = MaskablePPO("MlpPolicy", env, learning_rate=1e-3, n_steps=512, batch_size=256, n_epochs=4,
                        gamma=0.99, seed=seed, verbose=0, device="cpu")
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps)
    print(f"trained in {time.perf_counter() - t0:.1f}s")
    t0 = time.perf_counter()
    eval_env = gym.make(ENV_ID, illegal_action="raise")  # an illegal action would raise
    ids = list(range(900_000, 900_000 + deals))
    learned, legal = play(eval_env, ids,
                          lambda obs, mask: model.predict(obs, action_masks=mask, deterministic=True)[0])
    rng = np.random.default_rng(seed)
    rand, _ = play(eval_env, ids, lambda obs, mask: rng.choice(np.flatnonzero(mask)))
    print(f"evaluated in {time.perf_counter() - t0:.1f}s")
    return Result(learned, rand, legal)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=50_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deals", type=int, default=100)
    a = p.parse_args()
    r = train_and_evaluate(a.steps, a.seed, a.deals)
    print(f"MaskablePPO after {a.steps} steps: mean return {r.model_return:.4f} on {a.deals} deals "
          f"(random {r.random_return:.4f}); every action legal: {r.all_legal}")
