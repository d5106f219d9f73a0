"""The metadata of a model file (docs/models.md), read as the Go reader
(package policy) reads it: ``parse_metadata`` reads every key the format
knows, each optional key by its own small reader, and returns the parse;
``check_for_game`` checks that parse against a game. Both raise ValueError
with a message that names the key. The shared test vectors under
``policy/testdata/vectors`` (checked by the Go tests and by
``python/tests/test_model_vectors.py``) keep the two readers in step.

Plain Python: no PyTorch, so that the format can be checked anywhere.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from .._lib import GameSpec

MODEL_FORMAT = "patience-policy"
MODEL_FORMAT_VERSION = "1"
ENCODING_ONEHOT = "onehot"
ENCODING_CARDS = "card-embedding"
HEAD_VALUE = "value"
LINK_LOGSIGMOID = "logsigmoid"
MAX_LOOKAHEAD_SAMPLES = 256

REQUIRED_KEYS = ("format", "format_version", "game", "rules_version", "obs_len", "obs_encoding",
                 "onehot_len", "actions", "hidden", "activation", "command")
"""The keys every model file has (policy.RequiredKeys in Go)."""

RETIRED_KEYS = ("veto_terms", "veto_floor", "veto_bias", "veto_weight")
"""Keys of a stage removed from the product (round 20's veto of the terms,
which never won a deal more on unseen deals): a file with one is refused."""

_MAX_STACK_CELLS = 1 << 20
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(inf|infinity|nan)", re.IGNORECASE)


def _q(v: str) -> str:
    """A value quoted as Go's %q quotes it (for the common cases)."""
    return json.dumps(v, ensure_ascii=False)


def _whole(v: str) -> int | None:
    """An integer as Go's strconv.Atoi reads it, or None."""
    return int(v) if _WHOLE.fullmatch(v) else None


def _number(v: str) -> float | None:
    """A number as Go's strconv.ParseFloat reads it (decimal forms), or None."""
    return float(v) if _DECIMAL.fullmatch(v) else None


def _terms(v: str, empty: bool) -> dict[str, float]:
    """A JSON object of numbers by term name (eval_terms, eval_terms_opening)."""
    try:
        obj = json.loads(v)
    except ValueError:
        obj = ()
    if obj is None:  # Go reads null as no terms
        obj = {}
    if (not isinstance(obj, dict) or not all(x is None or (type(x) in (int, float) and math.isfinite(x)) for x in obj.values())
            or (not obj and not empty)):
        raise ValueError('want a JSON object of numbers by term name, as {"next_buried": -0.3}')
    return {k: float(x or 0) for k, x in obj.items()}


def parse_stacks_value(v: str) -> list[list[int]]:
    """The value of metadata stacks: OFFSET:COUNT:HEIGHT items separated by
    semicolons, the counts positive, as [[offset, count, height], ...]."""
    groups = []
    for item in v.split(";"):
        parts = item.strip().split(":")
        nums = [_whole(p) for p in parts]
        if (len(parts) != 3 or any(n is None or not 0 <= n <= _MAX_STACK_CELLS for n in nums)
                or nums[1] == 0 or nums[2] == 0):
            raise ValueError('want OFFSET:COUNT:HEIGHT items (counts positive) separated by semicolons, as "0:15:31"')
        groups.append([int(n or 0) for n in nums])
    return groups


def _read_head(p: dict[str, Any], v: str) -> None:
    if v != HEAD_VALUE:
        raise ValueError(f"this build reads {_q(HEAD_VALUE)} (or no head: a policy)")
    p["head"] = v


def _read_eval_weight(p: dict[str, Any], v: str) -> None:
    w = _number(v)
    if w is None or not math.isfinite(w):
        raise ValueError("want a finite number")
    p["eval_weight"] = w


def _read_eval_terms(p: dict[str, Any], v: str) -> None:
    p["eval_terms"] = _terms(v, True)


def _read_opening_terms(p: dict[str, Any], v: str) -> None:
    p["eval_terms_opening"] = _terms(v, False)


def _read_fraction(key: str, want: str) -> Callable[[dict[str, Any], str], None]:
    def read(p: dict[str, Any], v: str) -> None:
        f = _number(v)
        if f is None or not 0 < f < 1:
            raise ValueError(want)
        p[key] = f
    return read


def _read_value_link(p: dict[str, Any], v: str) -> None:
    if v != LINK_LOGSIGMOID:
        raise ValueError(f"this build reads {_q(LINK_LOGSIGMOID)}")
    p["value_link"] = v


def _read_stacks(p: dict[str, Any], v: str) -> None:
    p["stacks"] = parse_stacks_value(v)


def _read_stacks_sorted(p: dict[str, Any], v: str) -> None:
    if v not in ("", "0", "1"):
        raise ValueError("want 0 or 1")
    p["stacks_sorted"] = v == "1"


def _read_lookahead(p: dict[str, Any], v: str) -> None:
    k = _whole(v)
    if k is None or not 1 <= k <= MAX_LOOKAHEAD_SAMPLES:
        raise ValueError(f"want a whole number from 1 to {MAX_LOOKAHEAD_SAMPLES}")
    p["lookahead_samples"] = k


def _read_trained_steps(p: dict[str, Any], v: str) -> None:
    if v == "":
        return
    n = _whole(v)
    if n is None or n < 0 or n >= 1 << 63:
        raise ValueError("want a whole number")
    p["trained_steps"] = n


def _read_notes(p: dict[str, Any], v: str) -> None:
    p["notes"] = v


# The optional keys in the order they are read (the Go reader's order):
# (key, reader, [(needed key, needed value or "", why)]).
_OPTIONAL: tuple[tuple[str, Callable[[dict[str, Any], str], None], tuple[tuple[str, str, str], ...]], ...] = (
    ("head", _read_head, ()),
    ("eval_weight", _read_eval_weight, (("head", HEAD_VALUE, "only a value network weighs the evaluation"),)),
    ("eval_terms", _read_eval_terms, (("eval_weight", "", "the terms correct the weighted evaluation"),)),
    ("eval_terms_opening", _read_opening_terms, (("opening_progress", "", "it says where the opening ends"),
                                                 ("eval_terms", "", "the opening's weights replace some of them"))),
    ("opening_progress", _read_fraction("opening_progress", "want a fraction of the cards above 0 and below 1"),
     (("eval_terms_opening", "", "it says where the opening's weights end"),)),
    ("value_link", _read_value_link, (("head", HEAD_VALUE, "only a value network has a link"),)),
    ("value_floor", _read_fraction("value_floor", "want a probability above 0 and below 1"),
     (("value_link", LINK_LOGSIGMOID, "a floor is a probability"),)),
    ("stacks", _read_stacks, ()),
    ("stacks_sorted", _read_stacks_sorted, (("stacks", "", "it sorts the stacks that key names"),)),
    ("lookahead_samples", _read_lookahead, (("head", HEAD_VALUE, "only a value network is played by looking ahead"),)),
    ("trained_steps", _read_trained_steps, ()),
    ("notes", _read_notes, ()),
)


def parse_metadata(meta: Mapping[str, str]) -> dict[str, Any]:
    """Reads and checks a model file's metadata as the Go reader does: the
    required keys, then each optional key by its own reader (refusing the
    retired keys), keeping the keys it does not know in ``extra``. Returns
    every key the format knows, typed, with its default where the file has
    none (``lookahead_samples`` is the number of copies played, 1 without
    the key). Raises ValueError naming the key."""
    if "format" not in meta:
        raise ValueError(f"metadata has no format key: not a patience policy file (want format={_q(MODEL_FORMAT)})")
    if meta["format"] != MODEL_FORMAT:
        raise ValueError(f"metadata format is {_q(meta['format'])}, not {_q(MODEL_FORMAT)}: not a patience policy file")
    missing = [k for k in REQUIRED_KEYS if k not in meta]
    if missing:
        raise ValueError(f"metadata lacks the required keys {', '.join(missing)}")
    for k in RETIRED_KEYS:
        if k in meta:
            raise ValueError(f"metadata has {k}, a key of the veto of the terms, which this build no longer plays "
                             "(it won no deal more on unseen deals; docs/models.md, retired keys): "
                             "the file is refused rather than played without it")
    if meta["format_version"] != MODEL_FORMAT_VERSION:
        raise ValueError(f"metadata format_version is {_q(meta['format_version'])}; this build reads version {MODEL_FORMAT_VERSION}")
    if meta["obs_encoding"] not in (ENCODING_ONEHOT, ENCODING_CARDS):
        raise ValueError(f"metadata obs_encoding is {_q(meta['obs_encoding'])}; this build reads "
                         f"{_q(ENCODING_ONEHOT)} and {_q(ENCODING_CARDS)}")
    if meta["activation"] != "relu":
        raise ValueError(f"metadata activation is {_q(meta['activation'])}; this build supports only \"relu\"")
    if meta["game"] == "":
        raise ValueError("metadata game is empty")
    p: dict[str, Any] = {"game": meta["game"], "obs_encoding": meta["obs_encoding"], "command": meta["command"]}
    for key, least in (("rules_version", 0), ("obs_len", 1), ("onehot_len", 1), ("actions", 1)):
        n = _whole(meta[key])
        if n is None or n < least:
            raise ValueError(f"metadata {key} is {_q(meta[key])}; want a whole number of at least {least}")
        p[key] = n
    hidden = []
    if meta["hidden"].strip():
        for item in meta["hidden"].strip().split(","):
            n = _whole(item.strip())
            if n is None or n <= 0:
                raise ValueError(f"metadata hidden is {_q(meta['hidden'])}; want positive widths separated by commas, as \"256,256\"")
            hidden.append(n)
    p["hidden"] = hidden
    p["card_dim"] = p["input_len"] = 0
    known = set(REQUIRED_KEYS)
    if meta["obs_encoding"] == ENCODING_CARDS:
        for key in ("card_dim", "input_len"):
            n = _whole(meta.get(key, ""))
            if n is None or n < 1:
                raise ValueError(f"metadata {key} is {_q(meta.get(key, ''))}; a {ENCODING_CARDS} model needs a whole number of at least 1")
            p[key] = n
        if not hidden:
            raise ValueError(f"metadata hidden is empty; a {ENCODING_CARDS} model has at least one hidden layer")
        known |= {"card_dim", "input_len"}
    p |= {"head": "", "eval_weight": 0.0, "eval_terms": {}, "eval_terms_opening": {}, "opening_progress": 0.0,
          "value_link": "", "value_floor": 0.0, "stacks": [], "stacks_sorted": False, "lookahead_samples": 1,
          "trained_steps": 0, "notes": ""}
    for key, read, needs in _OPTIONAL:
        known.add(key)
        if key not in meta:
            continue
        try:
            read(p, meta[key])
        except ValueError as e:
            raise ValueError(f"metadata {key} is {_q(meta[key])}; {e}") from None
        for need, value, why in needs:
            if need not in meta or (value and meta[need] != value):
                raise ValueError(f"metadata has {key} but no {need}{'=' + value if value else ''}: {why}")
    p["extra"] = {k: v for k, v in meta.items() if k not in known}
    return p


def _card_input_len(spec: GameSpec, card_dim: int) -> int:
    """The first-layer input width of a card-embedding network of spec's
    game: card_dim per card cell, max + 1 per other cell."""
    return sum(seg.len * (card_dim if seg.card else seg.max + 1) for seg in spec.segments)


def check_for_game(p: Mapping[str, Any], spec: GameSpec) -> None:
    """Checks a parse against the game spec describes, as the Go reader's
    Check does: the game, its rules version and sizes, a card-embedding
    network's input width, a look-ahead over reshuffles only where cards
    are hidden, terms the game has, stacks within its card cells. Raises
    ValueError naming the key."""
    if p["game"] != spec.name:
        raise ValueError(f"was trained for {p['game']}, not {spec.name}")
    if p["rules_version"] != spec.rules_version:
        raise ValueError(f"was trained under {spec.name} rules version {p['rules_version']}; "
                         f"this build plays rules version {spec.rules_version}")
    for key, want, what in (("obs_len", spec.obs_len, f"{spec.name}'s observations have {spec.obs_len} cells"),
                            ("onehot_len", spec.one_hot_len, f"{spec.name}'s one-hot observation has {spec.one_hot_len} inputs"),
                            ("actions", spec.actions, f"{spec.name} has {spec.actions} actions")):
        if p[key] != want:
            raise ValueError(f"{key} is {p[key]}, but {what}")
    if p["obs_encoding"] == ENCODING_CARDS and p["input_len"] != _card_input_len(spec, p["card_dim"]):
        raise ValueError(f"input_len is {p['input_len']}, but {spec.name}'s cells with card_dim {p['card_dim']} "
                         f"make a first-layer input of {_card_input_len(spec, p['card_dim'])}")
    if p["lookahead_samples"] > 1 and not spec.hidden:
        raise ValueError(f"looks ahead on lookahead_samples={p['lookahead_samples']} copies, but {spec.name} has no hidden "
                         "cards: its one copy is exact (want lookahead_samples 1 or none)")
    names = [t.name for t in spec.terms]
    for terms in (p["eval_terms"], p["eval_terms_opening"]):
        for name in terms:
            if name not in names:
                have = f"{spec.name}'s are {', '.join(names)}" if names else f"{spec.name}'s evaluation has no named terms"
                raise ValueError(f"weighs the evaluation term {_q(name)}; {have}")
    for off, cnt, h in p["stacks"]:
        if not any(seg.card and seg.offset <= off and off + cnt * h <= seg.offset + seg.len for seg in spec.segments):
            raise ValueError(f"stacks {off}:{cnt}:{h} (cells {off} to {off + cnt * h - 1}) do not lie within one of "
                             f"{spec.name}'s card segments")
