"""The verdict tables from Python: reading them, winnable resets, the curriculum."""

from __future__ import annotations

import ctypes
import json

import gymnasium as gym
import numpy as np
import pytest

import patience_gym
from patience_gym import _lib, deals
from patience_gym.deals import Curriculum, NoTableError

pa = pytest.importorskip("pyarrow")


def test_games_lists_the_shipped_tables() -> None:
    assert "limited" in deals.games()
    assert deals.games() == sorted(deals.games())


def test_table_reads_as_pyarrow_and_pandas() -> None:
    t = deals.table("Limited")
    assert isinstance(t, pa.Table)
    meta = deals.metadata("limited")
    assert meta["game"] == "limited"
    assert t.num_rows == sum(b["count"] for b in meta["blocks"])
    df = t.to_pandas()
    won_train = np.sort(df.loc[(df.block == "train") & (df.verdict == "won"), "seed"].to_numpy(np.uint64))
    np.testing.assert_array_equal(won_train, deals.select("limited", block="train", verdicts=("won",)))
    assert len(won_train) > 1000
    assert set(df.verdict) <= {"won", "lost", "unknown"}
    # The eval block is the protocol's deals.
    ev = df.loc[df.block == "eval", "seed"].to_numpy()
    assert ev.min() == 1_000_000 and len(ev) == 1000
    for d in deals.DIFFICULTIES:
        sel = deals.select("limited", block="train", verdicts="won", difficulty=d)
        assert set(sel.tolist()) == set(df.loc[(df.block == "train") & (df.difficulty_class == d), "seed"].tolist())


def test_every_game_ships_a_table() -> None:
    assert deals.games() == sorted({s.name for s in patience_gym.SPECS.values()})
    # An empty choice is refused rather than dealing nothing.
    with pytest.raises(NoTableError, match="no deal to pick from"):
        deals.pick(np.array([], np.uint64), 0)


def test_variants_have_no_table() -> None:
    """The tables hold the default rules: a variant is refused, as in Go,
    rather than answered with the default rules' verdicts."""
    for call in (deals.table_bytes, deals.select):
        with pytest.raises(NoTableError, match="not the noswap variant"):
            call("cromwell:noswap")
    with pytest.raises(NoTableError, match="not the noswap variant"):
        Curriculum(gym.make("patience/Cromwell-v1", variant="noswap"))
    # Levels given as deal lists need no table.
    Curriculum(gym.make("patience/Cromwell-v1", variant="noswap"), levels=[[1, 2, 3]]).close()


def test_bad_filters_are_refused() -> None:
    with pytest.raises(patience_gym.PatienceError, match="block"):
        deals.select("limited", block="nosuch")
    with pytest.raises(patience_gym.PatienceError):
        deals.select("limited", verdicts=("maybe",))
    with pytest.raises(patience_gym.PatienceError):
        deals.select("limited", difficulty="brutal")


def test_pick_is_go_pick_from() -> None:
    won = deals.select("limited", block="train", verdicts=("won",))
    f = json.dumps({"block": "train", "verdicts": ["won"]}).encode()
    err = ctypes.create_string_buffer(1024)
    for seed in [0, 1, 2, 7, 12345, 2**63 + 5, 2**64 - 1]:
        want = _lib.lib.pg_deals_pick(b"limited", f, seed, err, len(err))
        assert want >= 0, err.value
        assert deals.pick(won, seed) == want


def test_winnable_resets_deal_only_won_training_deals_from_the_seed() -> None:
    won = set(deals.select("limited", block="train", verdicts=("won",)).tolist())
    env = gym.make("patience/Limited-v1", deals="winnable")

    def run(seed: int) -> list[int]:
        out = [env.reset(seed=seed)[1]["deal"]]
        out += [env.reset()[1]["deal"] for _ in range(299)]
        return out

    a = run(11)
    assert all(d in won for d in a), [d for d in a if d not in won]
    assert all(d < 10_000 for d in a)
    assert len(set(a)) > 250  # drawn across the list, not one deal
    assert run(11) == a
    assert run(12) != a
    # reset(seed=N) deals what `patience play limited --winnable --seed N` deals.
    assert env.reset(seed=7)[1]["deal"] == deals.pick(sorted(won), 7)
    # The episode plays as usual.
    obs, info = env.reset(seed=3)
    obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()


def test_winnable_refuses_a_table_without_won_training_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every shipped table has won training deals: the table is made to
    # answer with none.
    def no_wins(game: str, **kw: object) -> np.ndarray:
        return np.empty(0, dtype=np.uint64)

    monkeypatch.setattr(deals, "select", no_wins)
    with pytest.raises(NoTableError, match="holds no deal the solver won"):
        gym.make("patience/FourQuarters-v1", deals="winnable")
    with pytest.raises(ValueError, match="deals="):
        gym.make("patience/Limited-v1", deals="easy")


def _curriculum(**kw: object) -> Curriculum:
    return Curriculum(gym.make("patience/Limited-v1"), window=10, threshold=0.5, **kw)  # type: ignore[arg-type]


def test_curriculum_advances_when_the_agent_wins() -> None:
    levels = [set(deals.select("limited", block="train", verdicts="won", difficulty=d).tolist()) for d in deals.DIFFICULTIES]
    c = _curriculum()
    _, info = c.reset(seed=1)
    assert info["curriculum_level"] == 0 and info["deal"] in levels[0]
    for lv in (1, 2):
        for _ in range(9):
            c.record(True)
        assert not c.ready()  # fewer than a window of episodes
        c.record(False)  # 9 of 10 won
        assert c.ready()
        seen = {c.reset()[1]["deal"] for _ in range(20)}
        assert c.level == lv and seen <= levels[lv]
    for _ in range(10):
        c.record(True)
    c.reset()
    assert c.level == 2  # the last level is kept


def test_curriculum_stays_while_the_agent_loses() -> None:
    c = _curriculum()
    c.reset(seed=2)
    for i in range(30):
        c.record(i % 3 == 0)  # a third won, under the threshold
        c.reset()
    assert c.level == 0 and c.win_rate() < 0.5


def test_curriculum_records_episodes_played_through_step() -> None:
    c = _curriculum()
    rng = np.random.default_rng(0)
    outcomes = []
    for ep in range(3):
        _, info = c.reset(seed=ep)
        while True:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, term, trunc, info = c.step(a)
            if term or trunc:
                outcomes.append(info["outcome"])
                break
    assert list(c._results) == [o == "won" for o in outcomes]
    assert c.win_rate() == outcomes.count("won") / 3
    assert c.level == 0


def test_curriculum_with_deal_lists_and_reproducible_draws() -> None:
    a = _curriculum(levels=[[5, 6, 7], [100]])
    b = _curriculum(levels=[[5, 6, 7], [100]])
    da = [a.reset(seed=4)[1]["deal"]] + [a.reset()[1]["deal"] for _ in range(10)]
    db = [b.reset(seed=4)[1]["deal"]] + [b.reset()[1]["deal"] for _ in range(10)]
    assert da == db and set(da) <= {5, 6, 7}
    for _ in range(10):
        a.record(True)
    assert a.reset()[1]["deal"] == 100
    with pytest.raises(ValueError):
        Curriculum(gym.make("patience/Limited-v1", deals="winnable"))
