"""patience_gym.evaluate as a run a user leaves going: it fails before the
first deal on what can be checked then, resumes from its journal (its own
or the Go command's, and the Go command resumes its), and plays batched
policies with the figures of one deal at a time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import patience_gym
from patience_gym.protocol import JOURNAL_SUFFIX, evaluate

from conftest import ROOT

# The fields that depend on the clock, not on the games played.
_TIMES = {"ms_per_game"}


def same_games(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Two results' rows agree on every figure but the times."""
    (ra,), (rb,) = a["results"], b["results"]
    assert set(ra) == set(rb)
    for k in ra:
        if k not in _TIMES:
            assert ra[k] == rb[k], k


def lines(journal: Path) -> int:
    try:
        return journal.read_bytes().count(b"\n") - 1
    except FileNotFoundError:
        return -1


# --- failing fast -----------------------------------------------------------


@pytest.mark.parametrize("agent", ["mc", "heuristic"])
def test_an_out_that_cannot_be_written_fails_before_the_first_deal(agent: str, tmp_path: Path) -> None:
    cases: list[tuple[str, type[Exception], str | None]] = [
        ("/proc/nope/x.json", FileNotFoundError, "out /proc/nope/x.json: the directory /proc/nope does not exist"),
        (str(tmp_path / "no" / "x.json"), FileNotFoundError, "does not exist"),
        (str(tmp_path), IsADirectoryError, "is a directory"),
        ("/proc/x.json", OSError, None),  # exists, but no file can be made there (not even by root)
    ]
    for out, err, msg in cases:
        t0 = time.perf_counter()
        with pytest.raises(err, match=msg):
            evaluate(agent, "limited", out=out)
        assert time.perf_counter() - t0 < 1.0, out


def test_the_policys_first_wrong_answer_stops_the_run_at_once() -> None:
    t0 = time.perf_counter()
    with pytest.raises(TypeError, match="want an action id"):
        evaluate(lambda obs, info: 3.5, "limited")
    with pytest.raises(TypeError, match="want an action id"):
        evaluate(lambda obs, info: None, "limited")
    with pytest.raises(TypeError, match=r"want \d+ integer action ids"):
        evaluate(lambda obs, info: np.zeros(3), "limited", batch=16)
    with pytest.raises(TypeError, match=r"want \d+ integer action ids"):
        evaluate(lambda obs, info: 0, "limited", batch=16)
    with pytest.raises(patience_gym.IllegalActionError, match="on deal 1000000"):
        evaluate(lambda obs, info: (info["action_mask"] == 0).argmax(axis=1), "limited", batch=16)
    with pytest.raises(ValueError, match="batch"):
        evaluate("random", "limited", batch=0)
    assert time.perf_counter() - t0 < 5.0


# --- resuming ------------------------------------------------------------------

_KILLED = textwrap.dedent(
    """
    import os, sys, time
    from patience_gym.protocol import evaluate

    def progress(done, total):
        if done >= int(sys.argv[4]):
            print("stop", flush=True)
            time.sleep(600)  # killed here

    kw = {"batch": int(sys.argv[5])} if len(sys.argv) > 5 else {}
    evaluate(sys.argv[1], sys.argv[2], out=sys.argv[3], progress=progress, **kw)
    """
)


def run_and_kill(agent: str, out: Path, after: int, batch: int | None = None) -> int:
    """Runs evaluate(agent, "limited", out=out) in a process and kills it
    (SIGKILL) once it has played `after` deals; returns the journal's lines."""
    args = [sys.executable, "-c", _KILLED, agent, "limited", str(out), str(after)] + ([str(batch)] if batch else [])
    p = subprocess.Popen(args, stdout=subprocess.PIPE, cwd=ROOT)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == b"stop"
        p.send_signal(signal.SIGKILL)
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == -signal.SIGKILL
    return lines(out.with_name(out.name + JOURNAL_SUFFIX))


def first_progress(agent: str, out: Path, **kw: Any) -> tuple[dict[str, Any], int]:
    """Runs evaluate and returns the result and the count its first progress call said."""
    seen: list[int] = []
    res = evaluate(agent, "limited", out=out, progress=lambda done, _total: seen.append(done), **kw)
    return res, seen[0] if seen else 1000


def test_a_killed_run_goes_on_from_its_journal(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    held = run_and_kill("heuristic", out, 300, batch=8)
    assert held >= 290, held  # the dead deals are not journalled
    res, first = first_progress("heuristic", out, batch=8)
    assert first > held  # it went on from the journal
    assert not out.with_name(out.name + JOURNAL_SUFFIX).exists()  # removed once the result is written
    assert json.loads(out.read_text()) == res
    same_games(res, evaluate("heuristic", "limited", batch=8))


def test_a_journal_cut_short_by_a_crash_loses_only_its_last_line(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    run_and_kill("random", out, 100, batch=4)
    j = out.with_name(out.name + JOURNAL_SUFFIX)
    data = j.read_bytes()
    j.write_bytes(data[: data.rindex(b"\n", 0, len(data) - 1) + 20])  # the last line cut short
    res, first = first_progress("random", out, batch=4)
    assert first >= 90
    same_games(res, evaluate("random", "limited"))


def test_a_journal_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    run_and_kill("random", out, 50, batch=4)
    j = out.with_name(out.name + JOURNAL_SUFFIX)
    before = j.read_bytes()
    with pytest.raises(patience_gym.PatienceError, match=r"'random' .* this run is 'heuristic'"):
        evaluate("heuristic", "limited", out=out)
    with pytest.raises(patience_gym.PatienceError, match=r"this run is 'random' .* on cromwell"):
        evaluate("random", "cromwell", out=out)
    with pytest.raises(patience_gym.PatienceError, match="settings"):
        evaluate("random", "limited", out=out, settings="other")
    assert j.read_bytes() == before  # nothing was mixed in
    j.write_bytes(before.replace(b'"protocol":"v1"', b'"protocol":"v0"', 1))
    with pytest.raises(patience_gym.PatienceError, match="other settings"):
        evaluate("random", "limited", out=out)
    j.write_bytes(before + b"not json\n")
    with pytest.raises(patience_gym.PatienceError, match="not JSON"):
        evaluate("random", "limited", out=out)


def test_a_go_journal_goes_on_in_python_and_a_python_journal_in_go(patience_cli: Path, tmp_path: Path) -> None:
    agent = "mc:rollouts=1,rollout-steps=5"  # slow enough to be killed mid-run (5 s for the 1,000 deals)

    def go(out: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen([str(patience_cli), "bench", "--protocol", "v1", "--games", "limited", "--agents", agent,
                                 "--workers", "1", "--json", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    whole = tmp_path / "whole.json"
    assert go(whole).wait() == 0
    want = json.loads(whole.read_text())

    # Go killed, Python goes on.
    out = tmp_path / "go-first.json"
    j = out.with_name(out.name + JOURNAL_SUFFIX)
    p = go(out)
    try:
        while lines(j) < 100 and p.poll() is None:
            time.sleep(0.005)
        os.kill(p.pid, signal.SIGKILL)
    finally:
        p.wait()
    assert p.returncode == -signal.SIGKILL, "the Go run ended before it was killed"
    held = lines(j)
    res, first = first_progress(agent, out)
    assert first > held >= 100
    same_games(res, want)

    # Python killed, Go goes on.
    out = tmp_path / "py-first.json"
    held = run_and_kill(agent, out, 200)
    assert go(out).wait() == 0
    same_games(json.loads(out.read_text()), want)


# --- batches ---------------------------------------------------------------------


def one(obs: np.ndarray, info: dict[str, Any]) -> int:
    """A deterministic policy of the observation: the legal action whose
    rank among the legal ones is the observation's sum modulo their number."""
    legal = np.flatnonzero(info["action_mask"])
    return int(legal[int(obs.astype(np.int64).sum()) % len(legal)])


def batched(obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
    """The same policy, n observations at once."""
    mask = info["action_mask"].astype(bool)
    assert obs.ndim == 2 and mask.shape[0] == len(obs) and info["deal"].shape == (len(obs),)
    k = obs.astype(np.int64).sum(axis=1) % mask.sum(axis=1)
    return (np.cumsum(mask, axis=1) <= k[:, None]).sum(axis=1)


def test_a_batched_policy_plays_the_games_of_one_deal_at_a_time() -> None:
    single = evaluate(one, "limited", name="sum-policy")
    for b in (2, 7, 256):
        same_games(evaluate(batched, "limited", name="sum-policy", batch=b), single)
    row = single["results"][0]
    assert row["outcomes"].count("L") + row["outcomes"].count("T") + row["wins"] == 1000
    assert len(set(row["progress"])) > 10  # the policy played, not a row of dead deals


def test_a_go_agent_plays_the_same_games_in_any_batch() -> None:
    a = evaluate("heuristic", "limited", batch=3)
    same_games(evaluate("heuristic", "limited"), a)
    same_games(evaluate("heuristic", "limited", batch=1000, workers=2), a)


def test_a_batched_policy_gets_one_hot_observations() -> None:
    spec = patience_gym.SPECS["limited"]

    def pol(obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
        assert obs.dtype == np.float32 and obs.shape[1] == spec.one_hot_len
        return np.asarray(info["action_mask"]).argmax(axis=1)

    def pol1(obs: np.ndarray, info: dict[str, Any]) -> int:
        return int(np.asarray(info["action_mask"]).argmax())

    same_games(evaluate(pol, "limited", one_hot=True, batch=32, name="first"), evaluate(pol1, "limited", name="first"))


# --- memory ----------------------------------------------------------------------

_HUGE = textwrap.dedent(
    """
    import resource, sys, time
    import gymnasium as gym
    import patience_gym
    out = []
    for make in (lambda: gym.make_vec("patience/Cromwell-v1", num_envs=10**8),
                 lambda: patience_gym.PatienceVectorEnv("limited", 10**8, one_hot=True),
                 lambda: gym.make_vec("patience/Fifteen-v1", num_envs=10_000_000)):
        t0 = time.perf_counter()
        try:
            make()
            out.append("made")
        except patience_gym.PatienceError as e:
            out.append(f"{time.perf_counter() - t0:.3f} {e}")
    # The peak resident set of this program (VmHWM: getrusage's ru_maxrss
    # would count the forking parent's before exec too).
    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")]
    print(int(hwm[0].split()[1]) // 1024 if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)  # MiB
    print("\\n".join(out))
    """
)


def test_a_vector_too_large_is_refused_before_it_allocates() -> None:
    # Under an address-space limit of 4 GiB, so that a regression fails
    # this test instead of taking the machine's memory.
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    r = subprocess.run([sys.executable, "-c", _HUGE], capture_output=True, text=True, preexec_fn=limit, timeout=120)
    assert r.returncode == 0, r.stderr
    rss, *msgs = r.stdout.strip().split("\n")
    assert int(rss) < 200, f"resident {rss} MiB"
    assert len(msgs) == 3
    for m in msgs:
        secs, _, text = m.partition(" ")
        assert secs != "made" and float(secs) < 1.0, m
        assert "bytes" in text and "available" in text, m
