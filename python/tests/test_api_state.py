"""A stateful property test of the Python API (Hypothesis).

Random sequences of make, reset, step, close, vector steps with random
actions (legal and illegal, wrong shapes and dtypes, out-of-range ids,
negative, bool, float) and two threads at once on one environment. Only the
documented exceptions may come out, and the results must be right:

* the mask marks exactly the actions step accepts (a legal action is
  played, an illegal one refused: IllegalActionError under "raise", the
  ``illegal_action`` flag under "noop");
* after a refused action nothing changed (observation, mask, step count);
* observations lie in the observation space, masks have the documented
  shape and a running episode has a legal action;
* two threads on one environment: each call either runs or raises
  ConcurrentUseError, and the environment stays consistent.

CI runs a fixed number of examples (28 s on the shared 2-core machine); set
PATIENCE_API_EXAMPLES (for example 2000) for a longer run.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from patience_gym import (
    SPECS,
    ClosedEnvironmentError,
    ConcurrentUseError,
    IllegalActionError,
    PatienceEnv,
    PatienceVectorEnv,
)

# The exceptions the API documents for bad input or state (PatienceError,
# IllegalActionError and ClosedEnvironmentError are ValueErrors).
DOCUMENTED = (TypeError, ValueError, gym.error.ResetNeeded, ClosedEnvironmentError, ConcurrentUseError)

GAMES = sorted(SPECS)
EXAMPLES = int(os.environ.get("PATIENCE_API_EXAMPLES", "200"))

# Actions as a careless caller passes them: ints in and out of range, NumPy
# integers, bools, floats, 0-d and 1-d arrays, strings, None.
odd_actions = st.one_of(
    st.integers(-3, 1200),
    st.integers(-(2**70), 2**70),
    st.integers(0, 200).map(np.int32),
    st.integers(0, 200).map(np.uint8),
    st.booleans(),
    st.floats(allow_nan=True),
    st.integers(0, 50).map(lambda a: np.array(a)),
    st.integers(0, 50).map(lambda a: np.array(float(a))),
    st.integers(0, 50).map(lambda a: np.array([a])),
    st.just("3"),
    st.none(),
)

# Seeds as a careless caller passes them.
odd_seeds = st.one_of(
    st.none(), st.integers(0, 10**6), st.integers(-5, -1), st.integers(2**64 - 2, 2**65), st.booleans(), st.floats(0, 10)
)


def in_two_threads(play: Callable[[int], None]) -> None:
    """Runs play(0) and play(1) at once, each in a thread of its own, and
    waits for both."""
    threads = [threading.Thread(target=play, args=(t,)) for t in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def in_space(space: gym.spaces.Box, obs: np.ndarray) -> bool:
    return bool(space.contains(obs))


class PatienceAPI(RuleBasedStateMachine):
    """One PatienceEnv and one PatienceVectorEnv, remade, reset, stepped and
    closed at random."""

    env: PatienceEnv | None
    venv: PatienceVectorEnv | None

    @initialize(game=st.sampled_from(GAMES), mode=st.sampled_from(["noop", "raise"]), n=st.integers(1, 6))
    def start(self, game: str, mode: str, n: int) -> None:
        self.env = None
        self.venv = None
        self.make(game, mode, False)
        self.vmake(game, n, 2, mode)

    def teardown(self) -> None:
        for e in (self.env, self.venv):
            if e is not None:
                e.close()

    # --- one environment ---------------------------------------------------

    @rule(game=st.sampled_from(GAMES), mode=st.sampled_from(["noop", "raise"]), one_hot=st.booleans())
    def make(self, game: str, mode: str, one_hot: bool) -> None:
        if self.env is not None:
            self.env.close()
        self.env = PatienceEnv(game, illegal_action=mode, one_hot=one_hot, max_steps=40)  # type: ignore[arg-type]
        self.env.np_random = np.random.default_rng(0)  # reset(seed=None) draws the same deals on a replay
        self.mode = mode
        self.running = False  # an episode is under way
        self.closed = False
        self.obs: np.ndarray | None = None
        self.mask: np.ndarray | None = None

    @rule(seed=odd_seeds)
    def reset(self, seed: Any) -> None:
        assert self.env is not None
        try:
            obs, info = self.env.reset(seed=seed)
        except DOCUMENTED as e:
            valid = seed is None or (type(seed) is int and 0 <= seed < 2**64)
            assert self.closed or not valid, f"reset(seed={seed!r}) raised {e!r}"
            assert not isinstance(e, ConcurrentUseError)
            return
        assert not self.closed
        assert in_space(self.env.observation_space, obs)
        assert info["action_mask"].shape == (self.env.game_spec.actions,) and info["action_mask"].any()
        self.obs, self.mask, self.running = obs.copy(), info["action_mask"].copy(), True

    @rule(data=st.data())
    def step_legal(self, data: st.DataObject) -> None:
        if not self.running or self.mask is None:
            return
        a = int(data.draw(st.sampled_from(list(np.flatnonzero(self.mask)))))
        self._step(a)

    @rule(action=odd_actions)
    def step_odd(self, action: Any) -> None:
        self._step(action)

    def _step(self, action: Any) -> None:
        env = self.env
        assert env is not None
        before = None if not self.running else env.episode_info()["steps"]
        try:
            obs, _r, term, trunc, info = env.step(action)
        except IllegalActionError:
            # Refused under "raise": an action id in range that the mask forbids; nothing changed.
            event("step: refused (raise)")
            assert self.mode == "raise" and self.running and self.mask is not None
            assert not self.mask[int(action)]
            assert env.episode_info()["steps"] == before
            assert (env.action_masks() == self.mask.view(np.bool_)).all()
            return
        except DOCUMENTED as e:
            event(f"step: {type(e).__name__}")
            a = _as_id(action)
            if a is not None and self.running and 0 <= a < env.game_spec.actions:
                raise AssertionError(f"step({action!r}) in range on a running episode raised {e!r}") from e
            return
        a = _as_id(action)
        assert a is not None and self.running and self.mask is not None and self.obs is not None
        assert in_space(env.observation_space, obs)
        if self.mask[a]:
            event("step: played")
            assert not info["illegal_action"]
            assert info["action_mask"].any() or term or trunc
            assert env.episode_info()["steps"] == before + 1
        else:
            # Refused under "noop": the flag, the same observation and mask,
            # no move played (the refusal counts only towards the step limit).
            event("step: refused (noop)")
            assert self.mode == "noop" and info["illegal_action"]
            assert (obs == self.obs).all() and (info["action_mask"] == self.mask).all()
            assert env.episode_info()["steps"] == before
        self.obs, self.mask = obs.copy(), info["action_mask"].copy()
        self.running = not (term or trunc)

    @rule()
    def close(self) -> None:
        assert self.env is not None
        self.env.close()
        self.env.close()  # twice is harmless
        self.closed, self.running = True, False
        with pytest.raises(ClosedEnvironmentError):
            self.env.reset(seed=1)

    @precondition(lambda self: self.running)
    @rule(k=st.integers(1, 30))
    def two_threads_step(self, k: int) -> None:
        """Two threads step one environment at once: each step runs or
        raises ConcurrentUseError; the steps that ran are all counted."""
        env = self.env
        assert env is not None
        before = env.episode_info()["steps"]
        ran = [0, 0]
        ended = threading.Event()
        errors: list[BaseException] = []

        def play(t: int) -> None:
            rng = np.random.default_rng(t)
            for _ in range(k):
                if ended.is_set():
                    return
                try:
                    legal = np.flatnonzero(env.action_masks())
                    if len(legal) == 0:
                        return
                    _, _, term, trunc, info = env.step(int(rng.choice(legal)))
                    # Under "noop" an action the other thread made illegal
                    # meanwhile is refused, not played.
                    ran[t] += not info["illegal_action"]
                    if term or trunc:
                        ended.set()
                except ConcurrentUseError:
                    pass
                except (IllegalActionError, gym.error.ResetNeeded):
                    # The other thread stepped between reading the mask and
                    # stepping, or ended the episode: documented, and refused.
                    pass
                except BaseException as e:
                    errors.append(e)
                    return

        in_two_threads(play)
        assert not errors, errors
        event("two threads: " + ("some calls refused" if sum(ran) < 2 * k else "every call ran"))
        info = env.episode_info()
        assert info["steps"] == before + sum(ran)
        if info["outcome"] == "running":
            assert env.action_masks().any()
            obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            assert in_space(env.observation_space, obs)
        # Which thread ran which step is up to the scheduler: start again
        # from a known deal, so that the rules after this one draw the same
        # data when Hypothesis replays the sequence.
        obs, info0 = env.reset(seed=k)
        self.obs, self.mask, self.running = obs.copy(), info0["action_mask"].copy(), True

    # --- the vector ----------------------------------------------------------

    @rule(game=st.sampled_from(GAMES), n=st.integers(1, 6), workers=st.integers(0, 3), mode=st.sampled_from(["noop", "raise"]))
    def vmake(self, game: str, n: int, workers: int, mode: str) -> None:
        if self.venv is not None:
            self.venv.close()
        self.venv = PatienceVectorEnv(game, n, workers=workers, illegal_action=mode, max_steps=25, copy=False)  # type: ignore[arg-type]
        self.vmode = mode
        self.vstarted = False
        self.vwaiting = np.zeros(n, np.bool_)

    @precondition(lambda self: self.venv is not None)
    @rule(seed=st.integers(0, 10**6))
    def vreset(self, seed: int) -> None:
        assert self.venv is not None
        obs, info = self.venv.reset(seed=seed)
        assert in_space(self.venv.observation_space, obs)
        assert info["action_mask"].any(axis=1).all()
        self.vstarted = True
        self.vwaiting[:] = False

    @precondition(lambda self: self.venv is not None)
    @rule(data=st.data(), kind=st.sampled_from(["sample", "random", "negative", "big", "float", "bool", "shape", "list"]))
    def vstep(self, data: st.DataObject, kind: str) -> None:
        v = self.venv
        assert v is not None
        n, A = v.num_envs, v.game_spec.actions
        if not self.vstarted:
            with pytest.raises(gym.error.ResetNeeded):
                v.step(np.zeros(n, np.int64))
            return
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        actions: Any
        if kind == "sample":
            actions = v.sample_legal().copy()
        elif kind == "random":
            actions = rng.integers(0, A, n)
        elif kind == "negative":
            actions = np.full(n, -2, np.int64)
        elif kind == "big":
            actions = np.full(n, A, np.int64)
        elif kind == "float":
            actions = rng.integers(0, A, n).astype(np.float64)
        elif kind == "bool":
            actions = np.ones(n, np.bool_)
        elif kind == "shape":
            actions = rng.integers(0, A, n + 1)
        else:
            actions = [int(x) for x in rng.integers(0, A, n)]
        masks = v.action_masks().copy()
        obs_before = v.observations.copy()
        try:
            obs, _r, term, trunc, info = v.step(actions)
        except IllegalActionError:
            event("vector step: refused (raise)")
            a = np.asarray(actions)
            assert self.vmode == "raise"
            assert any(not self.vwaiting[i] and not masks[i, a[i]] for i in range(n))
            assert (v.observations == obs_before).all() and (v.action_masks() == masks).all()
            return
        except DOCUMENTED as e:
            event(f"vector step {kind}: {type(e).__name__}")
            assert kind in ("negative", "big", "float", "bool", "shape"), f"{kind}: {e!r}"
            assert (v.observations == obs_before).all() and (v.action_masks() == masks).all()
            return
        assert kind in ("sample", "random", "list"), kind
        event(f"vector step {kind}: ran")
        a = np.asarray(actions)
        assert in_space(v.observation_space, obs)
        if self.vmode == "noop":
            for i in range(n):
                refused = not self.vwaiting[i] and not masks[i, a[i]]
                assert bool(info["illegal_action"][i]) == refused, (i, a[i])
                if refused and not (term[i] or trunc[i]):
                    assert (obs[i] == obs_before[i]).all()
        assert info["action_mask"].shape == (n, A)
        for i in range(n):
            assert info["action_mask"][i].any() or term[i] or trunc[i]
        self.vwaiting = (term | trunc).copy()

    @precondition(lambda self: self.venv is not None and self.vstarted)
    @rule(k=st.integers(1, 20))
    def vtwo_threads(self, k: int) -> None:
        v = self.venv
        assert v is not None
        errors: list[BaseException] = []
        ran = [0, 0]

        def play(t: int) -> None:
            for _ in range(k):
                try:
                    v.step(v.sample_legal().copy())
                    ran[t] += 1
                except ConcurrentUseError:
                    pass
                except IllegalActionError:
                    if self.vmode != "raise":
                        errors.append(AssertionError("IllegalActionError under noop"))
                except BaseException as e:
                    errors.append(e)

        in_two_threads(play)
        assert not errors, errors
        # The vector is still whole: a step with its own draw runs.
        _, _, term, trunc, info = v.step(v.sample_legal().copy())
        for i in range(v.num_envs):
            assert info["action_mask"][i].any() or term[i] or trunc[i]
        # Start again from known deals (see two_threads_step).
        v.reset(seed=k)
        self.vwaiting[:] = False

    @invariant()
    def mask_matches_env(self) -> None:
        if self.env is not None and self.running and self.mask is not None:
            assert (self.env.action_masks() == self.mask.view(np.bool_)).all()


def _as_id(action: Any) -> int | None:
    """The action id an acceptable action stands for, or None."""
    if isinstance(action, (bool, np.bool_, float, str)) or action is None:
        return None
    if isinstance(action, np.ndarray) and (action.ndim != 0 or action.dtype.kind not in "iu"):
        return None
    return int(action)


PatienceAPI.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    derandomize="PATIENCE_API_EXAMPLES" not in os.environ,  # the CI run is the same every time
)
TestPatienceAPI = PatienceAPI.TestCase
