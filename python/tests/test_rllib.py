"""patience_gym.rllib: the env creator and its dict observation (without
Ray), and PPO with RLlib's action masking on a real two-node Ray cluster
started on this machine (with ray[rllib], the rllib extra)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from patience_gym import SPECS, TRAINING_DEALS
from patience_gym.rllib import SlotDeals, env_creator

from conftest import ROOT

pytestmark = pytest.mark.rllib


class Context(dict[str, Any]):
    """What RLlib's EnvContext is to env_creator: env_config with the
    runner's numbers as attributes."""

    def __init__(self, config: dict[str, Any], worker_index: int = 0, num_workers: int = 0, vector_index: int = 0) -> None:
        super().__init__(config)
        self.worker_index, self.num_workers, self.vector_index = worker_index, num_workers, vector_index


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped")  # the wrappers are what is checked
def test_dict_observation_passes_check_env() -> None:
    env = env_creator({"game": "limited", "seed": 1})
    space = env.observation_space
    spec = SPECS["limited"]
    assert space["observations"].shape == (spec.one_hot_len,) and space["observations"].dtype == np.float32
    assert space["action_mask"].shape == (spec.actions,) and space["action_mask"].dtype == np.float32
    check_env(env, skip_render_check=True)
    obs, info = env.reset()
    assert space.contains(obs)
    # The mask is the environment's, as 0.0 and 1.0; an action it allows is legal.
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"].astype(np.float32))
    legal = np.flatnonzero(obs["action_mask"])
    obs, _, _, _, info = env.step(int(legal[0]))
    assert not info["illegal_action"]
    env.close()
    raw = env_creator({"game": "fourquarters", "variant": "hub", "one_hot": False})
    assert raw.observation_space["observations"].shape == (SPECS["fourquarters"].obs_len,)
    assert raw.observation_space["action_mask"].shape[0] > SPECS["fourquarters"].actions  # the hub pairs
    raw.close()


def test_runners_and_their_environments_never_share_deals() -> None:
    # Two env runners (workers 1 and 2 of 2) with two environments each, made
    # as RLlib's new API stack makes them (vector_index 0 every time), and
    # the local worker 0 as the old stack names its sub-environments.
    envs = [env_creator(Context({"game": "limited", "seed": 5}, worker_index=w, num_workers=2)) for w in (1, 1, 2, 2)]
    envs += [env_creator(Context({"game": "limited", "seed": 5}, worker_index=0, num_workers=2, vector_index=v)) for v in (0, 1)]
    seen: list[set[int]] = []
    slots = set()
    for env in envs:
        deals = set()
        for _ in range(40):
            _, info = env.reset()
            deals.add(info["deal"])
            assert info["deal"] < TRAINING_DEALS
        slots.add(info["slot"])
        seen.append(deals)
        assert len(deals) == 40  # no repeats within a slot either
    assert len(slots) == len(envs)
    for i in range(len(seen)):
        for j in range(i):
            assert not seen[i] & seen[j], (i, j)
    # The same seed replays the same deals; a closed environment's slot is free again.
    envs[0].close()
    again = env_creator(Context({"game": "limited", "seed": 5}, worker_index=1, num_workers=2))
    assert {again.reset()[1]["deal"] for _ in range(40)} == seen[0]
    for env in [again, *envs[1:]]:
        env.close()


def test_slot_deals_cover_the_slot_before_repeating() -> None:
    from patience_gym import PatienceEnv

    env = SlotDeals(PatienceEnv("fourquarters"), slot=3, slots=7, seed=2, deals=70)
    got = [env.next_deal() for _ in range(20)]
    assert sorted(got[:10]) == list(range(3, 70, 7)) and got[10:] == got[:10]
    env.close()


def test_env_config_errors() -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        env_creator({"gmae": "limited"})
    made = [env_creator(Context({"envs_per_env_runner": 2}, worker_index=9)) for _ in range(2)]
    with pytest.raises(ValueError, match="more than 2 environments"):
        env_creator(Context({"envs_per_env_runner": 2}, worker_index=9))
    with pytest.raises(ValueError, match="gym_env_vectorize_mode"):
        env_creator({"num_envs": 4})
    for env in made:
        env.close()
    env_creator(Context({"envs_per_env_runner": 2}, worker_index=9)).close()  # a slot was freed


def load_example() -> Any:
    path = ROOT / "python" / "examples" / "rllib_ppo_action_masking.py"
    spec = importlib.util.spec_from_file_location("rllib_ppo_action_masking", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example
    spec.loader.exec_module(example)
    return example


def test_ppo_with_action_masking_on_a_two_node_cluster(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A head node and a second node, each of one CPU, on 127.0.0.1 with no
    dashboard; two env runners of one CPU each, so Ray puts one on each
    node; each loads the Go core in its own process. A few iterations of
    PPO with RLlib's action-masking module; episodes end on both nodes."""
    # Before Ray is imported: no usage report, and every node's address
    # 127.0.0.1 (Ray takes the machine's outward address otherwise).
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    monkeypatch.setenv("RAY_DEDUP_LOGS", "0")
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (pip install 'patience-gym[rllib]')")
    pytest.importorskip("torch", reason="PyTorch is not installed (the rllib extra brings it)")
    import ray
    from ray._private import ray_constants
    from ray.cluster_utils import Cluster

    monkeypatch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)  # in case Ray was imported before
    node = {"num_cpus": 1, "object_store_memory": 80 * 1024**2, "node_ip_address": "127.0.0.1"}
    cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    try:
        cluster.add_node(**node)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address)
        nodes = [n for n in ray.nodes() if n["Alive"]]
        assert len(nodes) == 2
        assert {n["NodeManagerAddress"] for n in nodes} == {"127.0.0.1"}
        example = load_example()
        config = example.ppo_config(game="limited", seed=3, env_runners=2, batch=400, minibatch=100, epochs=2, hiddens=(64,))
        result = example.train(config, iterations=3, log=lambda s: print(s, file=sys.stderr))
        assert len(result.returns) == 3 and all(np.isfinite(result.returns))
        assert 0.0 < result.returns[-1] <= 1.0  # a mean final progress fraction
        assert result.env_steps >= 3 * 400
        by_node: dict[str, int] = {}
        for label, n in result.episodes_by_process.items():
            node_id, pid = label.split("/")
            assert int(pid) != os.getpid()  # the runners' own processes played
            by_node[node_id] = by_node.get(node_id, 0) + n
        assert set(by_node) == {n["NodeID"] for n in nodes}, by_node
        assert all(n > 0 for n in by_node.values())
    finally:
        ray.shutdown()
        cluster.shutdown()
