"""The Go core, loaded with ctypes: the shared library, its functions, the
game specs and the errors.

ctypes releases the GIL for the whole of every call into the library (it is
loaded with ``ctypes.CDLL``), so other Python threads run while Go steps.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import gymnasium
import numpy as np

__all__ = [
    "VARIANT_SPECS",
    "PatienceError",
    "IllegalActionError",
    "BrokenEnvironmentError",
    "ClosedEnvironmentError",
    "ConcurrentUseError",
    "InternalError",
    "GameSpec",
    "Segment",
    "Term",
    "SPECS",
    "library_path",
]

if sys.platform == "darwin":
    _LIBNAME = "libpatience.dylib"
elif sys.platform == "win32":
    _LIBNAME = "patience.dll"
else:
    _LIBNAME = "libpatience.so"

# Status codes (capi/capi.go).
OK = 0
ERROR = -1
BAD_HANDLE = -2
ILLEGAL = -3
BUSY = -4
INTERNAL = -5
BROKEN = -6

# Flags returned by pg_step1.
TERMINATED = 1
TRUNCATED = 2
ILLEGAL_FLAG = 4


class PatienceError(ValueError):
    """An error reported by the Go core: a bad option, argument or state."""


class IllegalActionError(PatienceError):
    """An action the rules do not allow now (with ``illegal_action="raise"``).

    The message names the move and the reason; nothing was changed.
    """


class ClosedEnvironmentError(PatienceError, gymnasium.error.ClosedEnvironmentError):
    """A call on an environment after ``close()``."""


class InternalError(RuntimeError):
    """A bug in the Go core: a Go panic, recovered where it happened (in the
    call or in a vector worker) and turned into this exception; the message
    carries the panic and its Go stack (please report it). The process is
    unharmed, but the environment is broken until ``reset()``."""


class BrokenEnvironmentError(RuntimeError):
    """A step (or a draw of actions) on an environment that an earlier
    InternalError broke; ``reset()`` mends it."""


class ConcurrentUseError(RuntimeError):
    """A call on an environment while another thread is inside a call on the
    same environment. An environment is refused, not shared, across threads:
    use one environment per thread (or one PatienceVectorEnv)."""


CONCURRENT_USE = (
    "the environment is in use by another thread: an environment must not be used by two threads at once "
    "(use one environment per thread)"
)


def library_path() -> Path:
    """The shared library: $PATIENCE_GYM_LIBRARY or the one in the package."""
    env = os.environ.get("PATIENCE_GYM_LIBRARY")
    return Path(env) if env else Path(__file__).with_name(_LIBNAME)


class Buffers(ctypes.Structure):
    """pg_buffers: pointers to the caller's result arrays (0 = not written)."""

    _fields_ = [
        ("obs", ctypes.c_void_p),
        ("mask", ctypes.c_void_p),
        ("rewards", ctypes.c_void_p),
        ("terminated", ctypes.c_void_p),
        ("truncated", ctypes.c_void_p),
        ("final_obs", ctypes.c_void_p),
        ("has_final", ctypes.c_void_p),
        ("illegal", ctypes.c_void_p),
        ("one_hot", ctypes.c_void_p),
        ("final_one_hot", ctypes.c_void_p),
        ("mask_bits", ctypes.c_void_p),
        ("mask_words", ctypes.c_void_p),
    ]


def _load() -> ctypes.CDLL:
    path = library_path()
    if not path.is_file():
        raise ImportError(
            f"patience_gym: the Go core {path} is missing. Install a platform wheel "
            "(pip install patience-gym), or build from a clone of the repository with `pip install .` "
            "(it compiles the core; Go 1.26+ is needed)."
        )
    lib = ctypes.CDLL(str(path))
    i64, u64p, i64p = ctypes.c_int64, ctypes.POINTER(ctypes.c_uint64), ctypes.c_void_p
    cp, vp = ctypes.c_char_p, ctypes.c_void_p
    sigs: dict[str, list[Any] | None] = {
        "pg_specs": [vp, i64],
        "pg_create": [cp, i64, cp, vp, i64],
        "pg_vector_bytes": [cp, i64, cp, i64, vp, i64],
        "pg_memory_check": [cp, i64, vp, i64],
        "pg_close": [i64],
        "pg_error": [i64, vp, i64],
        "pg_reset": [i64, u64p, i64, ctypes.POINTER(Buffers)],
        "pg_step": [i64, i64p, i64, ctypes.POINTER(Buffers)],
        "pg_bind1": [i64, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t, i64],
        # pg_step1 takes three C ints: with no argtypes ctypes passes Python
        # ints as C ints, its cheapest conversion (callers pass ints only).
        "pg_step1": None,
        "pg_deals": [i64, u64p, i64],
        "pg_episode": [i64, i64, vp, vp, vp, i64],
        "pg_render": [i64, i64, vp, i64],
        "pg_render_rgb": [i64, i64, vp, i64, vp],
        "pg_action_name": [i64, i64, vp, i64],
        "pg_parse_move": [i64, cp, i64p, i64],
        "pg_agent_act": [i64, cp, ctypes.c_uint64, i64p, i64, ctypes.c_void_p],
        # The verdict tables and the evaluation protocol (capi/protocol.go):
        # each ends with an error buffer and its capacity.
        "pg_deals_table": [cp, vp, i64, vp, i64],
        "pg_deals_select": [cp, cp, u64p, i64, vp, i64],
        "pg_deals_pick": [cp, cp, ctypes.c_uint64, vp, i64],
        "pg_protocol": [cp, cp, vp, i64, vp, i64],
        "pg_protocol_row": [cp, cp, cp, vp, i64, vp, i64],
        "pg_agent_describe": [cp, cp, vp, i64, vp, i64],
        "pg_sample": [i64, i64p, i64],
    }
    for name, args in sigs.items():
        f = getattr(lib, name)
        if args is not None:
            f.argtypes = args
        f.restype = i64
    return lib


lib = _load()


def read_string(call: Any, *args: Any) -> str:
    """Calls a function that writes a string into (out, cap) and returns its
    length, growing the buffer until the string fits."""
    cap = 4096
    while True:
        buf = ctypes.create_string_buffer(cap)
        n = call(*args, buf, cap)
        if n < 0:
            return _raise_code(n, args[0] if args else 0)
        if n < cap:
            return buf.raw[:n].decode()
        cap = n + 1


def read_string_err(call: Any, *args: Any) -> str:
    """Like read_string, for a function that takes no handle and ends with
    an error buffer (capi/protocol.go): raises PatienceError with its
    message when it fails."""
    cap = 4096
    err = ctypes.create_string_buffer(4096)
    while True:
        buf = ctypes.create_string_buffer(cap)
        n = call(*args, buf, cap, err, len(err))
        if n == INTERNAL:
            raise InternalError(err.value.decode())
        if n < 0:
            raise PatienceError(err.value.decode())
        if n < cap:
            return buf.raw[:n].decode()
        cap = n + 1


def last_error(handle: int) -> str:
    """The message of the last failure on a handle."""
    cap = 4096
    while True:
        buf = ctypes.create_string_buffer(cap)
        n = lib.pg_error(handle, buf, cap)
        if n < 0:
            return "unknown error (the handle is no longer valid)"
        if n < cap:
            return buf.raw[:n].decode()
        cap = n + 1


def _raise_code(code: int, handle: int) -> NoReturn:
    if code == BAD_HANDLE:
        raise ClosedEnvironmentError("the environment is closed")
    if code == BUSY:
        raise ConcurrentUseError(CONCURRENT_USE)
    msg = last_error(handle)
    if code == ILLEGAL:
        raise IllegalActionError(msg)
    if code == INTERNAL:
        raise InternalError(msg)
    if code == BROKEN:
        raise BrokenEnvironmentError(msg)
    raise PatienceError(msg)


def check(code: int, handle: int) -> int:
    """Returns a non-negative code; raises the error a negative one stands for."""
    if code < 0:
        _raise_code(code, handle)
    return code


_F = TypeVar("_F", bound=Callable[..., Any])


def exclusive(method: _F) -> _F:
    """Refuses a call of a Handle's method while another thread is inside a
    call on the same environment (ConcurrentUseError), instead of letting
    two threads race on its arrays."""

    @functools.wraps(method)
    def call(self: Handle, *args: Any, **kwargs: Any) -> Any:
        if not self._busy.acquire(blocking=False):
            raise ConcurrentUseError(CONCURRENT_USE)
        try:
            return method(self, *args, **kwargs)
        finally:
            self._busy.release()

    return call  # type: ignore[return-value]


class Handle:
    """What PatienceEnv and PatienceVectorEnv share: the handle ``_h`` of
    their Go environments (-1 for none: every call then reports a closed
    environment), the lock ``_busy`` held during every call into them, and
    freeing them, at the latest when the object is collected."""

    _h: int
    _busy: threading.Lock

    def _free(self) -> None:
        """Frees the Go environments (nothing once they are freed), refused,
        ConcurrentUseError, while another thread is inside a call."""
        if self._h >= 0:
            self._close_handle()

    @exclusive
    def _close_handle(self) -> None:
        lib.pg_close(self._h)
        self._h = -1
        self._freed()

    def _freed(self) -> None:
        """What else freeing does, under the lock: nothing here."""

    def __del__(self) -> None:
        try:
            self._free()
        except Exception:
            pass


def vector_bytes(game: str, n: int, options: dict[str, Any], extra: int = 0) -> int:
    """The bytes the Go core allocates for a vector of n environments,
    after checking that they and ``extra`` bytes more fit in the memory
    available (MemAvailable, the cgroup's and address-space limits,
    GOMEMLIMIT): raises PatienceError naming the bytes and the limit, having
    allocated nothing, for a vector that cannot fit."""
    err = ctypes.create_string_buffer(4096)
    r = lib.pg_vector_bytes(game.encode(), min(n, 2**63 - 1), json.dumps(options).encode(), min(extra, 2**63 - 1), err, len(err))
    if r == INTERNAL:
        raise InternalError(err.value.decode())
    if r < 0:
        raise PatienceError(err.value.decode())
    return int(r)


def check_memory(what: str, nbytes: int) -> None:
    """Raises PatienceError, naming the bytes and the limit, when nbytes
    (about to be allocated for what) do not fit in the memory available."""
    err = ctypes.create_string_buffer(4096)
    r = lib.pg_memory_check(what.encode(), min(max(nbytes, 0), 2**63 - 1), err, len(err))
    if r == INTERNAL:
        raise InternalError(err.value.decode())
    if r < 0:
        raise PatienceError(err.value.decode())


def create(game: str, n: int, options: dict[str, Any]) -> int:
    """Makes a vector of n environments and returns its handle."""
    err = ctypes.create_string_buffer(4096)
    h = lib.pg_create(game.encode(), n, json.dumps(options).encode(), err, len(err))
    if h == INTERNAL:
        raise InternalError(err.value.decode())
    if h < 0:
        raise PatienceError(err.value.decode())
    return int(h)


@dataclass(frozen=True)
class Segment:
    """A named run of observation cells."""

    name: str
    offset: int
    len: int
    card: bool
    max: int
    doc: str


@dataclass(frozen=True)
class Term:
    """A named part of a game's evaluation (env.Term): the game's
    evaluation is the sum of its terms times their weights."""

    name: str
    weight: float
    doc: str


@dataclass(frozen=True)
class GameSpec:
    """A game's description, from the Go core (env.Spec)."""

    name: str
    title: str
    summary: str
    rules_version: int
    variant: str
    """The variant of the rules ("" for the default rules, "noswap", "hub")."""
    actions: int
    action_ranges: tuple[tuple[int, int, str], ...]
    obs_len: int
    segments: tuple[Segment, ...]
    max_steps: int
    hidden: bool
    cards: int
    one_hot_len: int
    terms: tuple[Term, ...] = ()
    """The named parts of the game's evaluation, for a learner to weigh
    (none for a game without them)."""

    @property
    def game_id(self) -> str:
        """The game as the Go core and the command line name it: "cromwell",
        or with its variant, "cromwell:noswap"."""
        return f"{self.name}:{self.variant}" if self.variant else self.name

    @property
    def env_name(self) -> str:
        """The name in the Gymnasium id: the default rules' title without
        "The " and spaces, then "-" and the variant for a variant
        ("FourQuarters", "Cromwell-noswap")."""
        t = SPECS[self.name].title if self.variant else self.title
        if t.startswith("The "):
            t = t[4:]
        t = t.replace(" ", "")
        return f"{t}-{self.variant}" if self.variant else t

    @property
    def env_id(self) -> str:
        """The Gymnasium id, "patience/Cromwell-v1" or, for a variant,
        "patience/Cromwell-noswap-v1": the version is the rules version."""
        return f"patience/{self.env_name}-v{self.rules_version}"

    def obs_high(self) -> np.ndarray:
        """The largest value of every observation cell (from the segments)."""
        high = np.zeros(self.obs_len, np.uint8)
        for s in self.segments:
            high[s.offset : s.offset + s.len] = s.max
        return high

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameSpec:
        """The spec in the one JSON form of a Spec: what pg_specs lists and
        what a dataset's metadata holds under "spec" (Go's package
        specjson). "variant" is absent for a game's default rules; keys this
        version does not know are left out."""
        return cls(
            name=d["name"],
            variant=str(d.get("variant", "")),
            title=d["title"],
            summary=d["summary"],
            rules_version=int(d["rules_version"]),
            actions=int(d["actions"]),
            action_ranges=tuple((r["first"], r["last"], r["meaning"]) for r in d["action_ranges"]),
            obs_len=int(d["obs_len"]),
            segments=tuple(Segment(**s) for s in d["segments"]),
            max_steps=int(d["max_steps"]),
            hidden=bool(d["hidden"]),
            cards=int(d["cards"]),
            one_hot_len=int(d["one_hot_len"]),
            terms=tuple(Term(name=t["name"], weight=float(t["weight"]), doc=t["doc"]) for t in d.get("terms", ())),
        )


def _specs() -> dict[str, GameSpec]:
    """Every spec the core describes, by game_id."""
    out = {}
    for d in json.loads(read_string(lib.pg_specs)):
        spec = GameSpec.from_json(d)
        out[spec.game_id] = spec
    return out


_ALL_SPECS = _specs()

SPECS: dict[str, GameSpec] = {s.name: s for s in _ALL_SPECS.values() if not s.variant}
"""Every game's spec under its default rules, by registry name ("cromwell",
"royalparade", ...)."""

VARIANT_SPECS: dict[str, GameSpec] = {k: s for k, s in _ALL_SPECS.items() if s.variant}
"""The specs of the rule variants, by game_id ("cromwell:noswap",
"fourquarters:hub")."""


def normalize(name: str) -> str:
    """The registry name of a game: lower case, letters and digits only."""
    return "".join(c for c in name.lower() if c.isalnum())


def game_spec(game: str, variant: str = "") -> GameSpec:
    """The spec of a game named as Go accepts it ("Royal Parade",
    "royalparade", ...), under a variant of its rules: ``variant``, or the
    one the name carries after a colon ("cromwell:noswap"); both at once
    must agree."""
    base, colon, named = game.partition(":")
    named, variant = named.strip().lower(), variant.strip().lower()
    if colon and variant and named != variant:
        raise PatienceError(f"game {game!r} names variant {named!r}, but variant {variant!r} was asked for")
    variant = variant or named
    spec = SPECS.get(normalize(base))
    if spec is None:
        raise PatienceError(f"unknown game {base!r}; the known games are: {', '.join(sorted(SPECS))}")
    if not variant:
        return spec
    v = VARIANT_SPECS.get(f"{spec.name}:{variant}")
    if v is None:
        have = sorted(s.variant for s in VARIANT_SPECS.values() if s.name == spec.name)
        raise PatienceError(
            f"{spec.name} has no variant {variant!r}; "
            + (f"its variants are: {', '.join(have)}" if have else "it has no variants")
        )
    return v


OUTCOMES = ("running", "won", "lost", "truncated")


class EpisodeReader:
    """Reads an environment's episode summary with pg_episode, into buffers
    made once."""

    def __init__(self) -> None:
        self.nums = (ctypes.c_int64 * 6)()
        self.ret = ctypes.c_double()
        self.cls = ctypes.create_string_buffer(256)

    def read(self, handle: int, i: int) -> dict[str, Any]:
        """deal, steps, progress, cards, legal, outcome, class, episode_return."""
        n = lib.pg_episode(handle, i, self.nums, ctypes.byref(self.ret), self.cls, len(self.cls))
        if n < 0:
            _raise_code(n, handle)
        if n >= len(self.cls):
            self.cls = ctypes.create_string_buffer(n + 1)
            return self.read(handle, i)
        d, s, p, c, legal, o = self.nums
        return {
            "deal": d,
            "steps": s,
            "progress": p,
            "cards": c,
            "legal": legal,
            "outcome": OUTCOMES[o],
            "class": self.cls.value.decode(),
            "episode_return": self.ret.value,
        }
