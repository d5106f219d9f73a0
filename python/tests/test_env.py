"""PatienceEnv: Gymnasium conformance, the Go golden data, illegal actions,
bad input."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import patience_gym
from patience_gym import ClosedEnvironmentError, IllegalActionError, PatienceEnv, PatienceError

DATA = Path(__file__).resolve().parent / "data"

GOLDEN = json.loads((DATA / "golden.json").read_text())["games"]
IDS = patience_gym.env_ids()
GAMES = sorted(patience_gym.SPECS)


def test_ids() -> None:
    assert IDS == [
        "patience/Cromwell-v1",
        "patience/Fifteen-v1",
        "patience/FourQuarters-v1",
        "patience/Ladder-v1",
        "patience/Limited-v1",
        "patience/RoyalParade-v1",
    ]
    for spec in patience_gym.SPECS.values():
        assert spec.env_id.endswith(f"-v{spec.rules_version}")


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str) -> None:
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


@pytest.mark.filterwarnings("ignore:.*alternative render modes")
@pytest.mark.parametrize("game", ["limited", "fourquarters"])
def test_check_env_options(game: str) -> None:
    check_env(PatienceEnv(game, one_hot=True, render_mode="ansi"))
    check_env(PatienceEnv(game, reward="sparse", max_steps=30, illegal_reward=-0.1))


@pytest.mark.parametrize("game", GAMES)
def test_spaces(game: str) -> None:
    env = PatienceEnv(game)
    spec = env.game_spec
    assert env.action_space == gym.spaces.Discrete(spec.actions)
    box = env.observation_space
    assert isinstance(box, gym.spaces.Box) and box.dtype == np.uint8 and box.shape == (spec.obs_len,)
    for seg in spec.segments:
        assert (box.high[seg.offset : seg.offset + seg.len] == seg.max).all()
    oh = PatienceEnv(game, one_hot=True)
    assert oh.observation_space.shape == (spec.one_hot_len,) and oh.observation_space.dtype == np.float32


@pytest.mark.parametrize("game", GAMES)
def test_golden_first_observation(game: str) -> None:
    env = PatienceEnv(game)
    for d in GOLDEN[game]["deals"]:
        obs, info = env.reset(seed=d["deal"])
        assert info["deal"] == d["deal"]
        np.testing.assert_array_equal(obs, np.array(d["obs"], np.uint8))
        np.testing.assert_array_equal(np.flatnonzero(info["action_mask"]), d["legal"])
        assert info["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(np.flatnonzero(env.action_masks()), d["legal"])
        assert env.action_masks().dtype == np.bool_
    # The one-hot form is the expansion of the same observation.
    oh = PatienceEnv(game, one_hot=True)
    d = GOLDEN[game]["deals"][0]
    x, _ = oh.reset(seed=d["deal"])
    cells = np.array(d["obs"])
    pos = 0
    for seg in oh.game_spec.segments:
        w = seg.max + 1
        for v in cells[seg.offset : seg.offset + seg.len]:
            block = x[pos : pos + w]
            assert block.sum() == 1 and block[min(v, seg.max)] == 1
            pos += w
    assert pos == len(x)


@pytest.mark.parametrize("game", GAMES)
def test_whole_game_by_move_names(game: str) -> None:
    g = GOLDEN[game]["game"]
    env = PatienceEnv(game, max_steps=300, illegal_action="raise")
    obs, info = env.reset(seed=g["deal"])
    total = 0.0
    terminated = truncated = False
    for name, want in zip(g["moves"], g["actions"]):
        ids = env.parse_move(name)
        assert want in ids
        assert env.action_name(want) == name
        assert info["action_mask"][want] == 1
        obs, reward, terminated, truncated, info = env.step(want)
        total += reward
    assert (terminated, truncated) == (g["terminated"], g["truncated"])
    np.testing.assert_array_equal(obs, np.array(g["final_obs"], np.uint8))
    assert total == pytest.approx(g["return"], abs=1e-12)
    assert info["outcome"] == g["outcome"] and info["progress"] == g["progress"]
    assert info["episode_return"] == g["return"]
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)


def test_observations_are_not_overwritten() -> None:
    env = PatienceEnv("limited")
    obs0, info0 = env.reset(seed=5)
    keep = obs0.copy(), info0["action_mask"].copy()
    seen = []
    for _ in range(300):
        a = int(np.flatnonzero(info0["action_mask"])[0]) if info0["action_mask"].any() else 0
        o, _, te, tr, info0 = env.step(a)
        seen.append(o)
        if te or tr:
            env.reset(seed=6)
    np.testing.assert_array_equal(obs0, keep[0])
    np.testing.assert_array_equal(np.asarray(info0["action_mask"]).shape, (env.game_spec.actions,))


def test_seed_none_draws_training_deals() -> None:
    env = PatienceEnv("cromwell")
    _, info = env.reset(seed=11)
    deals = {env.reset()[1]["deal"] for _ in range(20)}
    assert all(0 <= d < patience_gym.TRAINING_DEALS for d in deals) and len(deals) > 1
    # Reproducible from the seed, as Gymnasium's np_random.
    a = PatienceEnv("cromwell")
    b = PatienceEnv("cromwell")
    a.reset(seed=3)
    b.reset(seed=3)
    assert [a.reset()[1]["deal"] for _ in range(5)] == [b.reset()[1]["deal"] for _ in range(5)]


def test_sample_with_mask_is_legal() -> None:
    env = gym.make("patience/RoyalParade-v1")
    _, info = env.reset(seed=1)
    env.action_space.seed(0)
    for _ in range(200):
        a = env.action_space.sample(mask=info["action_mask"])
        _, _, te, tr, info = env.step(a)
        assert not info["illegal_action"]
        if te or tr:
            _, info = env.reset()


def test_illegal_raise() -> None:
    env = PatienceEnv("cromwell", illegal_action="raise")
    obs, info = env.reset(seed=7)
    before = obs.copy()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"illegal move .*\(action {bad}\)"):
        env.step(bad)
    # Nothing changed: the same legal move still plays from the same position.
    good = int(np.flatnonzero(info["action_mask"])[0])
    obs2, *_ = env.step(good)
    env2 = PatienceEnv("cromwell")
    env2.reset(seed=7)
    obs3, *_ = env2.step(good)
    np.testing.assert_array_equal(obs2, obs3)
    np.testing.assert_array_equal(before, obs)


def test_illegal_noop() -> None:
    env = PatienceEnv("cromwell", illegal_action="noop", illegal_reward=-0.25, max_steps=5)
    obs, info = env.reset(seed=7)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for k in range(1, 6):
        o, r, te, tr, inf = env.step(bad)
        assert inf["illegal_action"] and r == -0.25 and not te
        np.testing.assert_array_equal(o, obs)
        np.testing.assert_array_equal(inf["action_mask"], info["action_mask"])
        assert tr == (k == 5)
    # The refusals ran the episode into its step limit: it ended truncated,
    # though the game itself never moved.
    assert inf["outcome"] == "truncated" and inf["steps"] == 0


def test_bad_input() -> None:
    with pytest.raises(gym.error.Error):
        gym.make("patience/NoSuchGame-v1")
    with pytest.raises(PatienceError, match="unknown game 'nosuch'; the known games are: cromwell"):
        PatienceEnv("nosuch")
    for kw in ({"illegal_action": "ignore"}, {"reward": "dense"}, {"max_steps": 0}, {"render_mode": "human"}):
        with pytest.raises(ValueError):
            PatienceEnv("cromwell", **kw)
    env = PatienceEnv("limited")
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)
    env.reset(seed=1)
    n = env.game_spec.actions
    for a, err in ((n, ValueError), (-1, ValueError), (1 << 40, ValueError), (1.5, TypeError), ("3", TypeError),
                   (np.float32(2), TypeError), (np.array([1, 2]), TypeError), (True, TypeError)):
        with pytest.raises(err):
            env.step(a)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        env.reset(seed=-1)
    with pytest.raises(PatienceError):
        env.parse_move("no such move")
    env.step(np.int64(int(np.flatnonzero(env.action_masks())[0])))  # NumPy integers are fine
    env.close()
    env.close()  # twice is fine
    for call in (lambda: env.step(0), lambda: env.reset(seed=1), lambda: env.action_name(0)):
        with pytest.raises(ClosedEnvironmentError, match="closed"):
            call()
    assert issubclass(ClosedEnvironmentError, gym.error.ClosedEnvironmentError)


def test_render_ansi() -> None:
    env = gym.make("patience/Limited-v1", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and len(text.splitlines()) > 3


# The image shapes (height, width) of the tables; fixed per game.
RGB_SHAPES = {
    "cromwell": (576, 672), "fifteen": (448, 768), "fourquarters": (1008, 720),
    "ladder": (432, 688), "limited": (368, 624), "royalparade": (528, 560),
}


@pytest.mark.parametrize("game", sorted(RGB_SHAPES))
def test_render_rgb_array_fixed_shape_and_deterministic(game: str) -> None:
    env = PatienceEnv(game, render_mode="rgb_array")
    _, info = env.reset(seed=11)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.shape == (*RGB_SHAPES[game], 3)
    assert first.std() > 10  # a picture, not a blank frame
    again = env.render()
    assert isinstance(again, np.ndarray) and np.array_equal(first, again) and again is not first
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    later = env.render()
    assert isinstance(later, np.ndarray) and later.shape == first.shape
    other = PatienceEnv(game, render_mode="rgb_array")
    other.reset(seed=11)
    assert np.array_equal(other.render(), first)  # the same state, the same picture
    env.close()
    other.close()


@pytest.mark.filterwarnings("ignore:.*Overwriting existing videos")
def test_record_video(tmp_path: Path) -> None:
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gym.make("patience/Limited-v1", render_mode="rgb_array"), str(tmp_path), episode_trigger=lambda _: True)
    _, info = env.reset(seed=3)
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000


def test_gil_released_and_threads() -> None:
    # The library is loaded with ctypes.CDLL, whose calls release the GIL
    # (PyDLL's would hold it).
    import ctypes

    from patience_gym import _lib

    assert isinstance(_lib.lib, ctypes.CDLL) and not isinstance(_lib.lib, ctypes.PyDLL)
    # Two environments stepped from two threads at once each keep their own
    # game: the same results as one after the other.
    results: dict[int, float] = {}

    def play(i: int) -> None:
        env = PatienceEnv("fifteen", illegal_action="raise")
        _, info = env.reset(seed=i)
        total = 0.0
        for _ in range(2000):
            a = int(np.flatnonzero(info["action_mask"])[0])
            _, r, te, tr, info = env.step(a)
            total += float(r)
            if te or tr:
                _, info = env.reset(seed=i)
        results[i] = total

    threads = [threading.Thread(target=play, args=(i,)) for i in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    single = {}
    for i in (1, 2):
        t = threading.Thread(target=play, args=(i,))
        t.start()
        t.join()
        single[i] = results[i]
    assert single == results


def test_make_without_import() -> None:
    # Gymnasium's module:id form imports the package, which registers the
    # ids; nothing registers them at interpreter start-up any more.
    import subprocess
    import sys

    code = (
        "import gymnasium as gym; "
        "assert 'patience/Limited-v1' not in gym.registry, 'registered without an import'; "
        "e = gym.make('patience_gym:patience/Limited-v1'); print(e.reset(seed=4)[1]['deal'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "4"


def test_no_start_up_hook_is_installed() -> None:
    # The wheel installs no .pth file: starting Python does not import or
    # patch anything of ours. (An editable install has setuptools' own
    # __editable__ .pth, which maps the sources; CI tests the wheel.)
    import importlib.metadata
    import site

    dist = importlib.metadata.distribution("patience-gym")
    assert not [f for f in dist.files or [] if f.name.endswith(".pth") and not f.name.startswith("__editable__")]
    for d in [*site.getsitepackages(), site.getusersitepackages()]:
        assert not [p for p in Path(d).glob("*.pth") if "patience" in p.name and not p.name.startswith("__editable__")], d
        assert not (Path(d) / "_patience_gym_hook.py").exists(), d


def test_register_envs() -> None:
    assert gym.register_envs(patience_gym) is None
    for env_id in patience_gym.env_ids(variants=True):
        spec = gym.spec(env_id)
        assert spec.entry_point == "patience_gym.env:PatienceEnv"
        assert spec.vector_entry_point == "patience_gym.vector:PatienceVectorEnv"
    patience_gym.register_envs()  # again: nothing changes, no warning about re-registering
    assert len([i for i in gym.registry if i.startswith("patience/")]) == len(patience_gym.env_ids(variants=True))


VARIANT_IDS = [i for i in patience_gym.env_ids(variants=True) if i not in IDS]


def test_variant_ids() -> None:
    assert VARIANT_IDS == ["patience/Cromwell-noswap-v1", "patience/FourQuarters-hub-v1"]
    assert sorted(patience_gym.VARIANT_SPECS) == ["cromwell:noswap", "fourquarters:hub"]


@pytest.mark.parametrize("env_id", VARIANT_IDS)
def test_check_env_variants(env_id: str) -> None:
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


@pytest.mark.parametrize(("env_id", "variant"), [("patience/Cromwell-v1", "noswap"), ("patience/FourQuarters-v1", "hub")])
def test_variant_keyword(env_id: str, variant: str) -> None:
    by_kw = gym.make(env_id, variant=variant)
    by_id = gym.make(env_id.replace("-v", f"-{variant}-v"))
    default = gym.make(env_id)
    spec = by_kw.unwrapped.game_spec  # type: ignore[attr-defined]
    assert spec.variant == variant and spec == by_id.unwrapped.game_spec  # type: ignore[attr-defined]
    assert by_kw.action_space == by_id.action_space
    check_env(by_kw.unwrapped)
    if variant == "hub":
        # The hub pairs are actions of their own.
        assert by_kw.action_space.n > default.action_space.n  # type: ignore[attr-defined]
    else:
        # Without the swap, no swap action is ever legal.
        swap = [r for r in spec.action_ranges if "swap" in r[2]]
        assert swap
        for seed in range(20):
            _, info = by_kw.reset(seed=seed)
            for first, last, _ in swap:
                assert not info["action_mask"][first : last + 1].any()
    # The same deal under both rules starts from the same cards.
    a, _ = by_kw.reset(seed=11)
    b, _ = default.reset(seed=11)
    assert a.shape == b.shape
    vec = gym.make_vec(env_id, num_envs=3, variant=variant)
    assert vec.single_action_space == by_kw.action_space
    vec.close()


def test_variant_errors() -> None:
    with pytest.raises(PatienceError, match="no variant 'nosuch'"):
        PatienceEnv("cromwell", variant="nosuch")
    with pytest.raises(PatienceError, match="has no variants"):
        PatienceEnv("limited:hub")
    with pytest.raises(PatienceError, match="names variant"):
        gym.make("patience/Cromwell-noswap-v1", variant="hub")
    assert PatienceEnv("Cromwell:NoSwap").game_spec.game_id == "cromwell:noswap"
