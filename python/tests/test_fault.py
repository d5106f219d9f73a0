"""A Go panic at the C boundary becomes a Python exception and the process
lives on.

The library the package ships cannot panic on demand. These tests build a
second one with the Go build tag ``pgfault`` (capi/fault.go), which adds the
game "faulty" (Limited's rules, whose next step of a chosen deal panics once,
armed by ``pg_test_fault``) and ``pg_test_panic`` (a panic inside a call on a
handle, outside the vector), and run a script against it in a subprocess
(``PATIENCE_GYM_LIBRARY`` points the package at it): the panics must come
back as InternalError, the environment must refuse to step
(BrokenEnvironmentError) until reset, and the process must run to its end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPT = textwrap.dedent(
    """
    import ctypes
    import numpy as np
    import patience_gym as pg
    from patience_gym import _lib

    lib = _lib.lib
    lib.pg_test_fault.argtypes = [ctypes.c_uint64]
    lib.pg_test_fault.restype = None
    lib.pg_test_panic.argtypes = [ctypes.c_int64]
    lib.pg_test_panic.restype = ctypes.c_int64

    def expect(exc, f, *args):
        try:
            f(*args)
        except exc as e:
            return str(e)
        raise AssertionError(f"{f.__name__} did not raise {exc.__name__}")

    # A panic in a vector worker goroutine: environment 3 of 4 on 2 workers
    # is stepped by the worker, not by the calling thread.
    envs = pg.PatienceVectorEnv("faulty", 4, workers=2, illegal_action="raise")
    envs.reset(seed=100)
    lib.pg_test_fault(103)
    msg = expect(pg.InternalError, envs.step, envs.sample_legal())
    assert "environment 3" in msg and "the fault armed for deal 103" in msg, msg
    assert "goroutine" in msg  # the Go stack comes with it
    msg = expect(pg.BrokenEnvironmentError, envs.step, np.zeros(4, np.int64))
    assert "environment 3" in msg and "reset" in msg, msg
    expect(pg.BrokenEnvironmentError, envs.sample_legal)
    expect(pg.BrokenEnvironmentError, envs.agent_actions, "random")
    envs.reset(seed=200)
    for _ in range(30):
        envs.step(envs.sample_legal())
    print("vector worker: ok")

    # A panic in a single environment's step (the calling thread).
    env = pg.PatienceEnv("faulty", illegal_action="raise")
    obs, info = env.reset(seed=5)
    lib.pg_test_fault(5)
    a = int(np.flatnonzero(info["action_mask"])[0])
    expect(pg.InternalError, env.step, a)
    msg = expect(pg.BrokenEnvironmentError, env.step, a)
    assert "reset" in msg, msg
    obs, info = env.reset(seed=5)
    obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    print("single step: ok")

    # A panic in the C boundary itself, outside the vector.
    msg = expect(pg.InternalError, _lib.check, lib.pg_test_panic(env._h), env._h)
    assert "pg_test_panic" in msg, msg
    expect(pg.BrokenEnvironmentError, env.step, int(np.flatnonzero(env.action_masks())[0]))
    env.reset(seed=6)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.close()
    envs.close()
    print("boundary: ok")
    print("the process lives on")
    """
)


@pytest.fixture(scope="module")
def fault_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C library built with the build tag pgfault (needs Go)."""
    go = shutil.which("go")
    if go is None:
        pytest.skip("the Go toolchain is needed to build the library with the pgfault tag")
    out = tmp_path_factory.mktemp("faultlib") / "libpatience.so"
    subprocess.run([go, "build", "-buildmode=c-shared", "-tags", "pgfault", "-o", str(out), "./capi"], cwd=ROOT, check=True)
    return out


def test_panics_become_exceptions_and_the_process_lives_on(fault_library: Path, tmp_path: Path) -> None:
    script = tmp_path / "fault.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PATIENCE_GYM_LIBRARY": str(fault_library)}
    res = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.splitlines() == ["vector worker: ok", "single step: ok", "boundary: ok", "the process lives on"]


def test_the_shipped_library_has_no_fault_hooks() -> None:
    """The package's own library exports neither hook and has no game
    "faulty": the hooks exist only in a pgfault build."""
    from patience_gym import SPECS, _lib

    if os.environ.get("PATIENCE_GYM_LIBRARY"):
        pytest.skip("PATIENCE_GYM_LIBRARY points at another library")
    assert not hasattr(_lib.lib, "pg_test_fault")
    assert not hasattr(_lib.lib, "pg_test_panic")
    assert "faulty" not in SPECS
