"""PatienceVectorEnv against single PatienceEnvs, zero copy, bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import patience_gym
from patience_gym import ClosedEnvironmentError, IllegalActionError, PatienceEnv, PatienceVectorEnv


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (0 where none is legal),
    vectorized: the k-th legal action with k drawn below the row's count."""
    counts = masks.sum(axis=1)
    k = (rng.random(len(masks)) * counts).astype(np.int64)
    cum = masks.cumsum(axis=1)
    return np.where(counts > 0, (cum <= k[:, None]).sum(axis=1), 0).astype(np.int64)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("game", ["limited", "fourquarters", "royalparade"])
def test_vector_matches_single_envs(game: str, mode: AutoresetMode) -> None:
    n, max_steps, seed = 5, 25, 100
    vec = gym.make_vec(f"patience/{patience_gym.SPECS[game].env_name}-v1", num_envs=n, autoreset_mode=mode, max_steps=max_steps)
    assert isinstance(vec, PatienceVectorEnv) and vec.metadata["autoreset_mode"] == mode
    singles = [PatienceEnv(game, max_steps=max_steps, illegal_action="raise") for _ in range(n)]
    obs, info = vec.reset(seed=seed)
    deals = [seed + i for i in range(n)]
    pending = [False] * n
    for i, e in enumerate(singles):
        o, inf = e.reset(seed=deals[i])
        assert inf["deal"] == deals[i]
        np.testing.assert_array_equal(obs[i], o)
        np.testing.assert_array_equal(info["action_mask"][i], inf["action_mask"])
    np.testing.assert_array_equal(info["deal"], deals)
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(120):
        actions = random_legal(vec.action_masks(), rng)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, e in enumerate(singles):
            if pending[i]:  # next-step autoreset
                pending[i] = False
                deals[i] += n
                o, inf = e.reset(seed=deals[i])
                r, te, tr = 0.0, False, False
            else:
                o, r, te, tr, inf = e.step(int(actions[i]))
                if te or tr:
                    ends += 1
                    if mode == AutoresetMode.NEXT_STEP:
                        pending[i] = True
                    else:
                        assert info["_final_obs"][i]
                        np.testing.assert_array_equal(info["final_obs"][i], o)
                        deals[i] += n
                        o, inf = e.reset(seed=deals[i])
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr), f"step {step} env {i}"
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(info["action_mask"][i], inf["action_mask"])
            if mode == AutoresetMode.SAME_STEP and not (te or tr):
                assert "final_obs" not in info or info["final_obs"][i] is None
        np.testing.assert_array_equal(vec.deals(), deals)
    assert ends > 0
    vec.close()


def test_zero_copy() -> None:
    vec = PatienceVectorEnv("cromwell", 8)
    obs, info = vec.reset(seed=3)
    mask = info["action_mask"]
    rng = np.random.default_rng(1)
    for _ in range(5):
        o, r, te, tr, inf = vec.step(random_legal(vec.action_masks(), rng))
        assert o is obs and inf["action_mask"] is mask  # the arrays Go writes, every step
    assert np.shares_memory(vec.action_masks(), mask)
    assert o.dtype == np.uint8 and r.dtype == np.float64 and te.dtype == np.bool_ and mask.dtype == np.int8
    copies = PatienceVectorEnv("cromwell", 8, copy=True)
    o1, _ = copies.reset(seed=3)
    o2, *_ = copies.step(random_legal(copies.action_masks(), rng))
    assert not np.shares_memory(o1, o2)


def test_one_hot_vector() -> None:
    vec = PatienceVectorEnv("fourquarters", 4, one_hot=True, autoreset_mode="SameStep", max_steps=5)
    single = PatienceEnv("fourquarters", one_hot=True)
    obs, _ = vec.reset(seed=9)
    assert obs.dtype == np.float32 and obs.shape == (4, single.game_spec.one_hot_len)
    np.testing.assert_array_equal(obs[2], single.reset(seed=11)[0])
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(12):
        obs, _, te, tr, info = vec.step(random_legal(vec.action_masks(), rng))
        np.testing.assert_array_equal(info.get("_final_obs", te | tr), te | tr)
        for i in np.flatnonzero(te | tr):
            ended += 1
            final = info["final_obs"][i]
            assert final.dtype == np.float32 and final.sum() == vec.game_spec.obs_len
    assert ended > 0


def test_vector_illegal() -> None:
    vec = PatienceVectorEnv("cromwell", 3, illegal_action="raise")
    obs, info = vec.reset(seed=[5, 6, 7])
    before = obs.copy()
    legal = vec.action_masks().argmax(axis=1)
    bad = legal.copy()
    bad[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="environment 1"):
        vec.step(bad)
    np.testing.assert_array_equal(obs, before)  # the whole step was refused
    noop = PatienceVectorEnv("cromwell", 3, illegal_reward=-1.0)
    noop.reset(seed=[5, 6, 7])
    _, r, _, _, inf = noop.step(bad)
    assert list(inf["illegal_action"]) == [False, True, False] and r[1] == -1.0


def test_vector_bad_input() -> None:
    vec = PatienceVectorEnv("limited", 4)
    with pytest.raises(gym.error.ResetNeeded):
        vec.step(np.zeros(4, np.int64))
    vec.reset(seed=1)
    a = vec.action_masks().argmax(axis=1)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        vec.step(a[:3])
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        vec.step(a.reshape(2, 2))
    with pytest.raises(TypeError, match="integer"):
        vec.step(a.astype(np.float32))
    big = a.copy()
    big[2] = 10_000
    with pytest.raises(ValueError, match=r"actions\[2\] = 10000 is outside"):
        vec.step(big)
    neg = a.copy()
    neg[0] = -5
    with pytest.raises(ValueError, match=r"actions\[0\] = -5"):
        vec.step(neg)
    vec.step(a.astype(np.int32))  # other integer types are converted
    vec.step(list(vec.action_masks().argmax(axis=1)))
    with pytest.raises(ValueError):
        vec.reset(seed=[1, 2])
    with pytest.raises(ValueError):
        PatienceVectorEnv("limited", 0)
    with pytest.raises(ValueError):
        PatienceVectorEnv("limited", 2, autoreset_mode="Sometimes")
    vec.close()
    with pytest.raises(ClosedEnvironmentError):
        vec.step(a)
    with pytest.raises(ClosedEnvironmentError):
        vec.reset(seed=1)


def test_make_vec_sync_mode_agrees() -> None:
    # Gymnasium's own SyncVectorEnv over PatienceEnvs gives the same results.
    ours = gym.make_vec("patience/Limited-v1", num_envs=3)
    sync = gym.make_vec("patience/Limited-v1", num_envs=3, vectorization_mode="sync")
    o1, _ = ours.reset(seed=[1, 2, 3])
    o2, _ = sync.reset(seed=[1, 2, 3])
    np.testing.assert_array_equal(o1, o2)
    rng = np.random.default_rng(3)
    for _ in range(50):
        a = random_legal(ours.unwrapped.action_masks(), rng)  # type: ignore[attr-defined]
        r1 = ours.step(a)
        r2 = sync.step(a)
        for x, y in zip(r1[:4], r2[:4]):
            np.testing.assert_array_equal(x, y)


def test_render_vector() -> None:
    vec = PatienceVectorEnv("ladder", 2, render_mode="ansi")
    vec.reset(seed=1)
    boards = vec.render()
    assert boards is not None and len(boards) == 2 and boards[0] != boards[1]


@pytest.mark.parametrize("agent,episodes", [
    ("heuristic", 4),
    # The fair searches of the hidden games (issue 59), small: seeded with
    # the deal number in both, they play the same games.
    ("hop:worlds=2,nodes=300,width=2,line=keep", 2),
    ("ismcts:iterations=4,nodes=200", 2),
])
def test_agent_actions_are_the_go_agents_moves(agent: str, episodes: int, patience_cli, tmp_path) -> None:
    """Playing agent_actions(agent) at every step replays the Go agent's own
    games (the dataset `patience generate` writes for the same deals), and
    never proposes an illegal move."""
    import subprocess

    from patience_gym import datasets

    pytest.importorskip("pyarrow")
    data = tmp_path / "h"
    subprocess.run([str(patience_cli), "generate", "--game", "limited", "--agent", agent, "--episodes", str(episodes),
                    "--seed-start", "70", "--out", str(data)], check=True, capture_output=True)
    ds = datasets.load(data)
    for ep in range(episodes):
        want = ds.actions[ds.episode_index == ep].tolist()
        vec = PatienceVectorEnv("limited", 1)
        vec.reset(seed=70 + ep)
        got = []
        while True:
            a = vec.agent_actions(agent)
            assert vec.action_masks()[0, a[0]]
            got.append(int(a[0]))
            _, _, term, trunc, _ = vec.step(a)
            if term[0] or trunc[0]:
                break
        vec.close()
        assert got == want, f"deal {70 + ep}"


def test_agent_actions_errors() -> None:
    vec = PatienceVectorEnv("fifteen", 2)
    with pytest.raises(gym.error.ResetNeeded):
        vec.agent_actions("heuristic")
    vec.reset(seed=3)
    with pytest.raises(patience_gym.PatienceError, match='unknown agent "nope"'):
        vec.agent_actions("nope")
    with pytest.raises(patience_gym.PatienceError, match="rollouts"):
        vec.agent_actions("mc:rollouts=zero")
    a = vec.agent_actions("mc:rollouts=2")
    assert vec.action_masks()[np.arange(2), a].all()
    # Nothing is hidden in The Fifteen: the solver may teach there.
    a = vec.agent_actions("solver:nodes=20000")
    assert vec.action_masks()[np.arange(2), a].all()
    lim = PatienceVectorEnv("limited", 1)
    lim.reset(seed=1)
    with pytest.raises(patience_gym.PatienceError, match="sees the hidden cards"):
        lim.agent_actions("solver")
    lim.close()
    vec.close()


def test_agent_actions_where_asks_only_some() -> None:
    """where=False environments get -1 and are not shown to their agent; the
    ones asked get the same moves as without where."""
    vec = PatienceVectorEnv("limited", 4)
    vec.reset(seed=40)
    full = vec.agent_actions("heuristic", seed=5)
    vec.close()
    vec = PatienceVectorEnv("limited", 4)
    vec.reset(seed=40)
    some = vec.agent_actions("heuristic", seed=5, where=np.array([True, False, True, False]))
    assert some[1] == -1 and some[3] == -1
    assert some[0] == full[0] and some[2] == full[2]
    with pytest.raises(ValueError, match="where"):
        vec.agent_actions("heuristic", where=np.ones(3, bool))
    with pytest.raises(ValueError, match="where"):
        vec.agent_actions("heuristic", where=np.ones(4, np.int64))
    vec.close()


def test_agent_actions_play_through_episode_ends() -> None:
    """In next-step autoreset mode an ended environment gets -1, which step
    takes: envs.step(envs.agent_actions(a)) plays on into the next deals."""
    vec = PatienceVectorEnv("fourquarters", 4, max_steps=3)
    vec.reset(seed=1)
    seen_end = False
    for _ in range(8):
        a = vec.agent_actions("heuristic")
        ended = a == -1
        seen_end |= bool(ended.any())
        assert vec.action_masks()[np.flatnonzero(~ended), a[~ended]].all()
        vec.step(a)
    assert seen_end
    vec.close()


@pytest.mark.parametrize("game", sorted(patience_gym.SPECS))
def test_sample_legal_is_legal_and_reproducible(game: str) -> None:
    """sample_legal draws a legal action in every running environment (-1
    only in one waiting for its next-step autoreset), and the same seeds
    give the same draws on one worker and on three."""
    runs = []
    for workers in (1, 3):
        envs = PatienceVectorEnv(game, 7, workers=workers, max_steps=20, illegal_action="raise")
        envs.reset(seed=50)
        drawn = []
        waiting = np.zeros(7, np.bool_)
        for _ in range(60):
            a = envs.sample_legal()
            masks = envs.action_masks()
            for i, x in enumerate(a):
                if waiting[i]:
                    assert x == -1
                else:
                    assert 0 <= x < envs.game_spec.actions and masks[i, x], (i, x)
            drawn.append(a.copy())
            _, _, term, trunc, _ = envs.step(a)
            waiting = term | trunc
        envs.close()
        runs.append(np.array(drawn))
    assert (runs[0] == runs[1]).all()


def test_sample_legal_needs_reset_and_copies_on_request() -> None:
    envs = PatienceVectorEnv("limited", 3, copy=True)
    with pytest.raises(gym.error.ResetNeeded):
        envs.sample_legal()
    envs.reset(seed=1)
    a, b = envs.sample_legal(), envs.sample_legal()
    assert a is not b
    envs.close()
    with pytest.raises(ClosedEnvironmentError):
        envs.sample_legal()


@pytest.mark.parametrize("game", sorted(patience_gym.SPECS))
def test_mask_bits_equal_the_byte_mask(game: str) -> None:
    """Bit a%8 of byte a//8 of action_mask_bits() is action a of the byte
    mask, at reset and after every step, across episodes (Go writes only
    the mask bytes that change, so a stale byte would show here); the
    padding bits are 0. The masks are read-only."""
    envs = PatienceVectorEnv(game, 5, workers=2, max_steps=30)
    A = envs.game_spec.actions
    _, info = envs.reset(seed=3)
    for _ in range(100):
        bits = envs.action_mask_bits()
        assert bits.shape == (5, (A + 7) // 8) and bits.dtype == np.uint8
        unpacked = np.unpackbits(bits, axis=1, bitorder="little")
        assert (unpacked[:, :A] == envs.action_masks()).all()
        assert not unpacked[:, A:].any()
        _, _, _, _, info = envs.step(envs.sample_legal())
    for m in (info["action_mask"], envs.action_masks(), envs.action_mask_bits()):
        with pytest.raises(ValueError, match="read-only"):
            m[0, 0] = 1
    envs.close()


def test_agent_actions_equal_on_any_number_of_workers() -> None:
    """agent_actions runs the agents in the vector's workers: the moves do
    not depend on how many there are."""
    runs = []
    for workers in (1, 2):
        envs = PatienceVectorEnv("royalparade", 4, workers=workers, illegal_action="raise")
        envs.reset(seed=70)
        moves = []
        for _ in range(15):
            a = envs.agent_actions("heuristic", seed=3)
            moves.append(a.copy())
            envs.step(a)
        envs.close()
        runs.append(np.array(moves))
    assert (runs[0] == runs[1]).all()


@pytest.mark.parametrize("vector", [False, True])
def test_second_thread_is_refused(vector: bool) -> None:
    """While one thread is inside a call on an environment, a call from
    another thread raises ConcurrentUseError and changes nothing; after the
    first call returns the environment works as before."""
    import threading

    from patience_gym import ConcurrentUseError

    env: PatienceEnv | PatienceVectorEnv = PatienceVectorEnv("limited", 3) if vector else PatienceEnv("limited")
    env.reset(seed=11)
    masks = np.array(env.action_masks(), copy=True)
    steps = env.episode_info(0)["steps"] if isinstance(env, PatienceVectorEnv) else env.episode_info()["steps"]
    inside, leave = threading.Event(), threading.Event()

    def hold() -> None:  # stands for a long call: holds the environment's lock
        with env._busy:
            inside.set()
            leave.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert inside.wait(10)
        calls = [lambda: env.reset(seed=12), env.close]
        if isinstance(env, PatienceVectorEnv):
            calls += [lambda: env.step(np.zeros(3, np.int64)), env.sample_legal, lambda: env.agent_actions("random")]
        else:
            calls += [lambda: env.step(int(np.flatnonzero(masks)[0]))]
        for call in calls:
            with pytest.raises(ConcurrentUseError):
                call()
    finally:
        leave.set()
        holder.join()
    after = env.episode_info(0)["steps"] if isinstance(env, PatienceVectorEnv) else env.episode_info()["steps"]
    assert after == steps and (np.asarray(env.action_masks()) == masks).all()
    if isinstance(env, PatienceVectorEnv):
        env.step(env.sample_legal())
    else:
        env.step(int(np.flatnonzero(masks)[0]))
    env.close()
