"""The model file: a patience-policy safetensors file (docs/models.md) that
the Go ``policy`` agent plays, written by ``export_model`` and read back by
``load_model``. A policy file has one output per action; a value file
(metadata ``head: value``) one, the expected final progress of the position.
The metadata is read by model_meta.py, as the Go reader reads it; the test
vectors under ``policy/testdata/vectors`` check that both readers agree.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from safetensors import safe_open
from safetensors.torch import save_file

from .._lib import GameSpec, game_spec
from .model_meta import (
    ENCODING_CARDS,
    ENCODING_ONEHOT,
    HEAD_VALUE,
    MAX_LOOKAHEAD_SAMPLES,  # noqa: F401 (kept importable from here, where it was)
    MODEL_FORMAT,
    MODEL_FORMAT_VERSION,
    check_for_game,
    parse_metadata,
)
from .net import CARD_CODES, DTYPES, PolicyNet, card_input_len, format_stacks

__all__ = [
    "ENCODING_CARDS",
    "ENCODING_ONEHOT",
    "HEAD_VALUE",
    "MAX_MODEL_FILE",
    "MODEL_FORMAT",
    "MODEL_FORMAT_VERSION",
    "ModelError",
    "check_safetensors",
    "export_model",
    "load_model",
    "model_file_bytes",
]

# MODEL_FORMAT, MODEL_FORMAT_VERSION: the format and version keys' values.
# ENCODING_ONEHOT: obs_encoding of a network whose first layer has a row per
# one-hot input; ENCODING_CARDS: of one whose first layer sees each card cell
# through a shared card embedding (metadata card_dim, input_len; tensor
# cards.weight). HEAD_VALUE: head of a value network, one output, the
# expected final progress fraction of the position observed (a policy file
# has no head key). All from model_meta.

_ST_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
_ST_SIZES = {"F32": 4, "F16": 2, "BF16": 2}

MAX_MODEL_FILE = 256 << 20
"""The largest model file load_model reads (the Go agent's MaxModelFile):
the committed models are a few MB; a larger file is refused unread."""

# The most dimensions a tensor of a model file has (a weight is 2-D).
_MAX_DIMS = 8


class ModelError(ValueError):
    """A policy file that is not one this game can use, with a message that
    names the file and what is wrong."""


def model_file_bytes(spec: GameSpec, hidden: Sequence[int], dtype: str, card_dim: int = 0) -> int:
    """The size of the tensors of a policy file (the header adds ~1 KB)."""
    first = card_input_len(spec, card_dim) if card_dim else spec.one_hot_len
    widths = [first, *hidden, spec.actions]
    per = 4 if dtype == "f32" else 2
    return (sum((a + 1) * b * per for a, b in itertools.pairwise(widths))
            + CARD_CODES * card_dim * per)


def export_model(
    net: PolicyNet,
    path: str | Path,
    command: str,
    *,
    dtype: str = "f32",
    trained_steps: int | None = None,
    extra: dict[str, str] | None = None,
) -> Path:
    """Writes net as a patience-policy safetensors file (docs/models.md):
    tensors ``layers.0..K.weight/bias`` in nn.Linear layout, metadata with
    the game, rules version, encoding, widths and the command that trained it."""
    spec = net.spec
    stored = net.file_tensors()
    outputs = stored[f"layers.{len(net.hidden)}.bias"].shape[0]
    if outputs not in (spec.actions, 1):
        raise ValueError(f"the network has {outputs} outputs; a policy has {spec.actions} (one per action), a value network 1")
    tensors: dict[str, torch.Tensor] = {}
    for name, t in stored.items():
        t = t.to(DTYPES[dtype]).contiguous().cpu()
        if not bool(torch.isfinite(t).all()):
            raise ValueError(f"{name} holds a NaN or an infinity (in {dtype}): not exported")
        tensors[name] = t
    meta = {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "game": spec.name,
        "rules_version": str(spec.rules_version),
        "obs_len": str(spec.obs_len),
        "obs_encoding": ENCODING_CARDS if net.card_dim else ENCODING_ONEHOT,
        "onehot_len": str(spec.one_hot_len),
        "actions": str(spec.actions),
        "hidden": ",".join(map(str, net.hidden)),
        "activation": "relu",
        "command": command,
    }
    if outputs == 1 and spec.actions != 1:
        meta["head"] = HEAD_VALUE
    if net.card_dim:
        meta["card_dim"] = str(net.card_dim)
        meta["input_len"] = str(net.layout.input_len)
    if net.stacks:
        meta["stacks"] = format_stacks(net.stacks)
        if net.sort_stacks:
            meta["stacks_sorted"] = "1"
    if trained_steps is not None:
        meta["trained_steps"] = str(int(trained_steps))
    for k, v in (extra or {}).items():
        meta.setdefault(k, str(v))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    save_file(tensors, str(tmp), metadata=meta)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def check_safetensors(path: str | Path) -> dict[str, str]:
    """Checks a safetensors file's framing before anything reads its tensors,
    and returns its metadata: a regular file of at most MAX_MODEL_FILE
    bytes, a header length that fits in the file, a JSON header whose
    tensors have a dtype this package reads (F32, F16, BF16), a shape of at
    most 8 non-negative dimensions whose bytes equal the span of its
    data_offsets, and offsets inside the file, in order and not
    overlapping; metadata of strings. Raises ModelError naming the file and
    what is wrong. Nothing it allocates is larger than the file's header,
    whatever the header declares."""
    path = Path(path)
    bad = f"model {path}: not a readable safetensors file: "
    try:
        st = path.stat()
    except OSError as e:
        raise ModelError(f"{bad}{e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ModelError(f"{bad}not a regular file")
    size = st.st_size
    if size > MAX_MODEL_FILE:
        raise ModelError(f"{bad}{size} bytes, larger than a model file can be ({MAX_MODEL_FILE} bytes)")
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise ModelError(f"{bad}truncated: {size} bytes, too short for a safetensors header")
        n = int.from_bytes(head, "little")
        if n > size - 8:
            raise ModelError(f"{bad}truncated: the header declares {n} bytes, the file holds {size - 8} after its length")
        raw = f.read(n)
    if raw[:1] != b"{":
        raise ModelError(f"{bad}the header is not JSON: it is not a JSON object (it does not start with {{)")
    if not raw.rstrip(b" ").endswith(b"}"):
        raise ModelError(f"{bad}the header is not JSON: data after the header object (only space padding is allowed)")
    try:
        header = json.loads(raw, object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError) as e:
        raise ModelError(f"{bad}the header is not JSON: {e}") from None
    if not isinstance(header, dict):
        raise ModelError(f"{bad}the header is not a JSON object")
    meta = header.pop("__metadata__", {})
    if not isinstance(meta, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        raise ModelError(f"{bad}__metadata__ is not an object of strings")
    data = size - 8 - n
    spans = []
    for name, t in header.items():
        where = f"{bad}tensor {name!r}"
        if not isinstance(t, dict) or set(t) != {"dtype", "shape", "data_offsets"}:
            raise ModelError(f"{where}: want exactly dtype, shape and data_offsets")
        dt, shape, offs = t["dtype"], t["shape"], t["data_offsets"]
        if dt not in _ST_SIZES:
            raise ModelError(f"{where}: dtype {dt!r}; F32, F16 and BF16 are read")
        if (not isinstance(shape, list) or len(shape) > _MAX_DIMS
                or not all(type(d) is int and d >= 0 for d in shape)):
            raise ModelError(f"{where}: shape {str(shape)[:80]} is not a list of at most {_MAX_DIMS} sizes")
        if (not isinstance(offs, list) or len(offs) != 2 or not all(type(o) is int for o in offs)
                or not 0 <= offs[0] <= offs[1]):
            raise ModelError(f"{where}: invalid data_offsets {str(offs)[:80]}")
        if offs[1] > data:
            raise ModelError(f"{where}: truncated: its data ends at byte {offs[1]}, the file holds {data} after the header")
        need = math.prod(shape) * _ST_SIZES[dt]  # Python ints: no overflow
        if need != offs[1] - offs[0]:
            raise ModelError(f"{where}: shape {shape} of {dt} needs {need} bytes, its data_offsets give {offs[1] - offs[0]}")
        spans.append((offs[0], offs[1], name))
    spans.sort()
    at = 0
    for begin, end, name in spans:
        if begin < at:
            raise ModelError(f"{bad}tensor {name!r} overlaps the tensor before it (bytes {begin}-{end})")
        if begin > at:
            raise ModelError(f"{bad}{begin - at} bytes of data before tensor {name!r} belong to no tensor")
        at = end
    if at != data:
        raise ModelError(f"{bad}{data - at} bytes after the last tensor belong to no tensor")
    return meta


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys, refusing one that appears twice (the Go reader
    and the reference implementation refuse it too)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {k!r} appears twice")
        out[k] = v
    return out


def load_model(
    path: str | Path, game: str | None = None, *, dtype: torch.dtype = torch.float32
) -> tuple[PolicyNet, dict[str, str]]:
    """Reads a policy file into a PolicyNet (of dtype, float32 by default)
    and returns it with the file's metadata. With ``game``, the file must
    have been made for that game (its rules version and sizes are checked
    against this build); otherwise for the game it names. Raises ModelError
    saying what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"model {path}: no such file")
    check_safetensors(path)
    try:
        with safe_open(str(path), framework="pt") as f:
            meta = dict(f.metadata() or {})
            tensors = {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118 (safe_open is not a dict)
    except Exception as e:  # safetensors raises its own error types
        raise ModelError(f"model {path}: not a readable safetensors file: {e}") from e
    try:
        parsed = parse_metadata(meta)
    except ValueError as e:
        raise ModelError(f"model {path}: {e}") from None
    try:
        spec = game_spec(parsed["game"])
    except ValueError as e:
        raise ModelError(f"model {path}: {e}") from e
    if game is not None and game_spec(game).name != spec.name:
        raise ModelError(f"model {path} was trained for {spec.name}, not {game_spec(game).name}")
    try:
        check_for_game(parsed, spec)
    except ValueError as e:
        msg = str(e)
        raise ModelError(f"model {path}{' ' if msg.startswith(('was ', 'looks ', 'weighs ')) else ': '}{msg}") from None
    head, card_dim, hidden = parsed["head"], parsed["card_dim"], tuple(parsed["hidden"])
    stacks = tuple((o, c, h) for o, c, h in parsed["stacks"])
    first = card_input_len(spec, card_dim) if card_dim else spec.one_hot_len
    outputs = 1 if head == HEAD_VALUE else spec.actions
    widths = [first, *hidden, outputs]
    want_names = {f"layers.{i}.{n}" for i in range(len(widths) - 1) for n in ("weight", "bias")}
    if card_dim:
        want_names.add("cards.weight")
    if set(tensors) != want_names:
        raise ModelError(
            f"model {path}: tensors {sorted(tensors)}, want exactly {sorted(want_names)} (hidden {meta['hidden']!r})"
        )
    # Every shape is checked before the network is made: its widths come
    # from the metadata, and only tensors the file holds may size it.
    layers: list[tuple[torch.Tensor, torch.Tensor]] = []
    for i in range(len(widths) - 1):
        w, b = tensors[f"layers.{i}.weight"], tensors[f"layers.{i}.bias"]
        if tuple(w.shape) != (widths[i + 1], widths[i]) or tuple(b.shape) != (widths[i + 1],):
            raise ModelError(
                f"model {path}: layers.{i} has shapes {list(w.shape)} and {list(b.shape)}, "
                f"want {[widths[i + 1], widths[i]]} and {[widths[i + 1]]}"
            )
        for name, t in (("weight", w), ("bias", b)):
            if t.dtype not in _ST_DTYPES.values():
                raise ModelError(f"model {path}: layers.{i}.{name} has dtype {t.dtype}; F32, F16 and BF16 are read")
            if not bool(torch.isfinite(t).all()):
                raise ModelError(f"model {path}: layers.{i}.{name} holds a NaN or an infinity")
        layers.append((w.to(dtype), b.to(dtype)))
    if card_dim and tuple(tensors["cards.weight"].shape) != (CARD_CODES, card_dim):
        raise ModelError(f"model {path}: cards.weight has shape {list(tensors['cards.weight'].shape)}, want {[CARD_CODES, card_dim]}")
    net = PolicyNet(spec, hidden, outputs, card_dim=card_dim, stacks=stacks,
                    sort_stacks=parsed["stacks_sorted"]).to(dtype)
    with torch.no_grad():
        if card_dim:
            emb = tensors["cards.weight"]
            if tuple(emb.shape) != (CARD_CODES, card_dim):
                raise ModelError(f"model {path}: cards.weight has shape {list(emb.shape)}, want {[CARD_CODES, card_dim]}")
            if emb.dtype not in _ST_DTYPES.values() or not bool(torch.isfinite(emb).all()):
                raise ModelError(f"model {path}: cards.weight has dtype {emb.dtype} or a NaN or an infinity")
            net.cards.weight.copy_(emb.to(dtype))
            net.first_compact.copy_(layers[0][0])
        else:
            net.first.weight.copy_(layers[0][0].t())
        net.first_bias.copy_(layers[0][1])
        for lin, (w, b) in zip(net.linear_layers(), layers[1:]):
            lin.weight.copy_(w)
            lin.bias.copy_(b)
    net.fold_zero_rows()
    return net, meta
