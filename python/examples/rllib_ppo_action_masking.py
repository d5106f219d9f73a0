"""Ray RLlib's PPO with action masking on Limited, on one machine or a cluster.

    pip install "patience-gym[rllib]"
    python python/examples/rllib_ppo_action_masking.py --iterations 20
    python python/examples/rllib_ppo_action_masking.py --address auto   # a running Ray cluster

The environments come from ``patience_gym.rllib.env_creator``, registered in
Ray Tune's registry: every env runner process builds its own from
``env_config`` (loading the Go core there) and plays deals no other runner
plays. The observation is ``{"observations", "action_mask"}`` and the model
RLlib's ``ActionMaskingTorchRLModule``, which adds log(mask) to the logits,
so that illegal moves are never sampled. Each iteration prints the mean
return (the final progress fraction: the share of the 104 cards home) of
the episodes that ended, and where they ran.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import ray
from ray.rllib.algorithms.ppo import PPOConfig

from patience_gym.rllib import EPISODES_BY_PROCESS, action_masking_module_spec, count_episode, register


@dataclass
class Result:
    """What the run did: each iteration's mean return, and the episodes that
    ended in each process, by ``node-id/pid``."""

    returns: list[float] = field(default_factory=list)
    episodes_by_process: dict[str, int] = field(default_factory=dict)
    env_steps: int = 0


def ppo_config(*, game: str = "limited", seed: int = 1, env_runners: int = 2, envs_per_runner: int = 1,
               batch: int = 2000, minibatch: int = 250, epochs: int = 4, hiddens: tuple[int, ...] = (256, 256),
               on_episode_end: Callable[..., None] | None = count_episode) -> PPOConfig:
    """PPO with RLlib's action-masking RL module on a patience game."""
    name = register()
    config = (
        PPOConfig()
        .environment(name, env_config={"game": game, "seed": seed})
        .env_runners(
            num_env_runners=env_runners,
            num_envs_per_env_runner=envs_per_runner,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch, num_epochs=epochs, lr=3e-4,
                  entropy_coeff=0.01, gamma=0.99)
        .rl_module(rl_module_spec=action_masking_module_spec(hiddens))
        .debugging(seed=seed)
    )
    if on_episode_end is not None:
        config = config.callbacks(on_episode_end=on_episode_end)
    return config


def train(config: PPOConfig, iterations: int, log: Callable[[str], None] = print) -> Result:
    """Builds the algorithm, trains it for some iterations and returns what ran."""
    algo = config.build_algo()
    out = Result()
    try:
        for i in range(1, iterations + 1):
            r = algo.train()
            runners = r.get("env_runners", {})
            ret = float(runners.get("episode_return_mean", float("nan")))
            out.returns.append(ret)
            out.env_steps = int(r.get("num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0)))
            out.episodes_by_process = {str(k): int(v) for k, v in runners.get(EPISODES_BY_PROCESS, {}).items()}
            log(f"iteration {i}: mean return {ret:.4f}, {out.env_steps:,} env steps, "
                f"episodes by node/pid {out.episodes_by_process}")
    finally:
        algo.stop()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="limited")
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--env-runners", type=int, default=2)
    p.add_argument("--envs-per-runner", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--address", default=None, help="a Ray cluster's address ('auto': the one running here); default: a local Ray")
    args = p.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address=args.address, include_dashboard=False if args.address is None else None)
    config = ppo_config(game=args.game, seed=args.seed, env_runners=args.env_runners, envs_per_runner=args.envs_per_runner)
    train(config, args.iterations)
    ray.shutdown()


if __name__ == "__main__":
    main()
