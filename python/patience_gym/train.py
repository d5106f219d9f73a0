"""Reference trainer: masked PPO on the vector environment, behaviour cloning
from ``patience generate`` datasets, and the policy file the Go agent reads.

    python -m patience_gym.train ppo --game fifteen --steps 5M
    python -m patience_gym.train bc --data data/fifteen-mc --epochs 8
    python -m patience_gym.train ppo --game fifteen --init runs/bc/model.safetensors
    python -m patience_gym.train dagger --game limited --teacher mc
    python -m patience_gym.train cem --game limited
    python -m patience_gym.train eval --model models/limited.safetensors

One file, read from top to bottom: the network (an MLP over the one-hot
observation whose first layer is a sum of embedding rows, which is the same
thing as a Linear layer over the one-hot vector, or a card-embedding first
layer that stores the same kind of layer in far fewer weights), the exporter
and loader of the safetensors policy format (docs/models.md), the evaluation
on fixed deals, PPO, behaviour cloning, DAgger (a Go agent labels the
positions the student reaches), the learning curve and the command line.
The cross-entropy method (``cem``) is in cem.py.

Needs ``pip install "patience-gym[train]"`` (PyTorch, safetensors, matplotlib,
pyarrow). Training uses deals below 1,000,000 only: PPO deals from
0..899,999 and evaluates on deals from 900,000 (``EVAL_DEALS``), so that
``patience bench`` (deals from 1,000,000) measures on deals never seen.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np
from numpy.typing import NDArray

try:
    import torch
    import torch.nn.functional as F
    from safetensors import safe_open
    from safetensors.torch import save_file
    from torch import nn
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "patience_gym.train needs PyTorch and safetensors: pip install 'patience-gym[train]'"
    ) from e

from gymnasium.vector import AutoresetMode

from ._lib import GameSpec, game_spec

if TYPE_CHECKING:
    from .datasets import MoveScores
from .env import TRAINING_DEALS
from .vector import PatienceVectorEnv

__all__ = [
    "DEFAULTS",
    "EVAL_DEALS",
    "MODEL_FORMAT",
    "MODEL_FORMAT_VERSION",
    "EvalResult",
    "GameDefaults",
    "ModelError",
    "CardLayout",
    "DAggerConfig",
    "PolicyNet",
    "card_input_len",
    "dagger",
    "evaluate",
    "evaluate_agent",
    "export_model",
    "load_model",
    "main",
    "masked_argmax",
    "model_file_bytes",
]

MODEL_FORMAT = "patience-policy"
MODEL_FORMAT_VERSION = "1"
ENCODING_ONEHOT = "onehot"
"""obs_encoding of a network whose first layer has a row per one-hot input."""
HEAD_VALUE = "value"
"""head of a value network: one output, the expected final progress fraction
of the position observed (a policy file has no head key)."""
ENCODING_CARDS = "card-embedding"
"""obs_encoding of a network whose first layer sees each card cell through a
shared card embedding (metadata card_dim, input_len; tensor cards.weight)."""
EVAL_DEALS = 900_000
"""The first evaluation deal: PPO trains on deals 0..EVAL_DEALS-1 and
evaluates on EVAL_DEALS, EVAL_DEALS+1, ... (all below 1,000,000)."""

_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
_ST_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}


# ---------------------------------------------------------------------------
# Defaults per game


@dataclass(frozen=True)
class GameDefaults:
    """A game's default network and PPO settings.

    The hidden widths, card_dim and dtype keep the file at most 2 MB. With
    card_dim 0 the first layer has one row per one-hot input (39,825 in
    Cromwell) and dominates; a card-embedding first layer (card_dim above
    0) has card_dim columns per card cell instead of 54, so it can be wider.
    """

    hidden: tuple[int, ...]
    card_dim: int = 0
    dtype: str = "f16"
    gamma: float = 0.99
    num_envs: int = 64
    num_steps: int = 128
    lr: float = 3e-4
    ent_coef: float = 0.01


DEFAULTS: dict[str, GameDefaults] = {
    "cromwell": GameDefaults(hidden=(128, 256), card_dim=6, gamma=0.995),
    "fifteen": GameDefaults(hidden=(192, 256), card_dim=8, gamma=0.995),
    "fourquarters": GameDefaults(hidden=(256, 256), card_dim=16, gamma=0.99),
    "ladder": GameDefaults(hidden=(256, 256), card_dim=8, gamma=0.995),
    "limited": GameDefaults(hidden=(256, 256), card_dim=16, gamma=0.99),
    "royalparade": GameDefaults(hidden=(256, 256), card_dim=16, gamma=0.99),
}


# ---------------------------------------------------------------------------
# The network


class OneHotIndex:
    """Maps byte observations (B, obs_len) to the index of each cell's hot
    input in the one-hot vector (B, obs_len): env.Spec.OneHot's layout, a
    value above its segment's max counting as the max."""

    def __init__(self, spec: GameSpec) -> None:
        offsets = np.zeros(spec.obs_len, np.int64)
        maxes = np.zeros(spec.obs_len, np.int64)
        o = 0
        for seg in sorted(spec.segments, key=lambda s: s.offset):
            for c in range(seg.offset, seg.offset + seg.len):
                offsets[c] = o
                maxes[c] = seg.max
                o += seg.max + 1
        if o != spec.one_hot_len:
            raise AssertionError(f"{spec.name}: one-hot length {o}, spec says {spec.one_hot_len}")
        self.offsets = torch.from_numpy(offsets)
        self.maxes = torch.from_numpy(maxes)

    def __call__(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.minimum(obs.long(), self.maxes) + self.offsets


CARD_CODES = 54
"""Card cells hold 0 (empty), 1..52 (a card) or 53 (face down)."""


class CardLayout:
    """Where each observation cell's inputs sit in a card-embedding
    network's first layer (docs/models.md): cells in order, a card cell
    taking card_dim columns (its code's embedding), any other cell Max + 1
    columns (one-hot)."""

    def __init__(self, spec: GameSpec, card_dim: int) -> None:
        is_card = np.zeros(spec.obs_len, np.bool_)
        cell_max = np.zeros(spec.obs_len, np.int64)
        for seg in spec.segments:
            is_card[seg.offset : seg.offset + seg.len] = seg.card
            cell_max[seg.offset : seg.offset + seg.len] = seg.max
        width = np.where(is_card, card_dim, cell_max + 1)
        col = np.concatenate([[0], np.cumsum(width)[:-1]])
        self.input_len = int(width.sum())
        self.is_card, self.cell_max, self.cell_col = is_card, cell_max, col
        cards = np.flatnonzero(is_card)
        counts = np.flatnonzero(~is_card)
        self.card_cells = torch.from_numpy(cards)
        self.card_cols = torch.from_numpy((col[cards, None] + np.arange(card_dim)[None, :]).reshape(-1))
        self.count_cells = torch.from_numpy(counts)
        self.count_cols = torch.from_numpy(col[counts])
        self.count_max = torch.from_numpy(cell_max[counts])


def card_input_len(spec: GameSpec, card_dim: int) -> int:
    """The width of a card-embedding network's compact first-layer input."""
    return CardLayout(spec, card_dim).input_len


class PolicyNet(nn.Module):
    """The MLP of docs/models.md over the one-hot observation, taking byte
    observations: logits = W_K relu(... relu(W_0 one_hot(obs) + b_0) ...) + b_K.

    The first layer is stored as an embedding table (one row per one-hot
    input, ``first.weight`` = W_0 transposed) and computed as the sum of the
    rows of the hot inputs, which equals W_0 times the one-hot vector.
    ``out`` is the number of actions for a policy, 1 for a value function.
    """

    def __init__(
        self, spec: GameSpec, hidden: Sequence[int], out: int, *, out_std: float = 0.01, card_dim: int = 0
    ) -> None:
        super().__init__()
        self.spec = spec
        self.hidden = tuple(int(h) for h in hidden)
        self.card_dim = int(card_dim)
        self.index = OneHotIndex(spec)
        widths = [*self.hidden, out]
        self.rest = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths[:-1], widths[1:]))
        for i, lin in enumerate(self.linear_layers()):
            last = i == len(self.rest) - 1
            nn.init.orthogonal_(lin.weight, out_std if last else math.sqrt(2))
            nn.init.zeros_(lin.bias)
        self.first_bias = nn.Parameter(torch.zeros(widths[0]))
        if self.card_dim:
            if not self.hidden:
                raise ValueError("a card-embedding network needs at least one hidden layer")
            self.layout = CardLayout(spec, self.card_dim)
            self.cards = nn.Embedding(CARD_CODES, self.card_dim)
            self.first_compact = nn.Parameter(torch.empty(widths[0], self.layout.input_len))
            nn.init.normal_(self.cards.weight)
            # Each first-layer unit sums card_dim inputs of unit variance per cell.
            bound = math.sqrt(3.0 / (spec.obs_len * self.card_dim))
            nn.init.uniform_(self.first_compact, -bound, bound)
            return
        self.first = nn.Embedding(spec.one_hot_len, widths[0])
        # Each first-layer unit sums obs_len rows (one hot input per cell).
        bound = 1.0 / math.sqrt(spec.obs_len)
        nn.init.uniform_(self.first.weight, -bound, bound)
        if not self.rest:
            self.first.weight.data.mul_(out_std)
        with torch.no_grad():
            self.first.weight[self.index.offsets] = 0.0

    def fold_zero_rows(self) -> None:
        """Moves the rows of value 0 into the first bias: every cell has
        exactly one hot input, so subtracting a cell's value-0 row from all of
        its rows and adding it to the bias computes the same function, with
        the value-0 rows at zero as forward() requires. A card-embedding
        network has no such rows: nothing to do."""
        if self.card_dim:
            return
        with torch.no_grad():
            W = self.first.weight
            z = W[self.index.offsets].clone()  # (obs_len, width): each cell's value-0 row
            self.first_bias.add_(z.sum(0))
            cell = torch.repeat_interleave(torch.arange(len(z)), self.index.maxes + 1)
            W -= z[cell]

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """obs: (B, obs_len) uint8 observations; returns (B, out) floats."""
        if self.card_dim:
            h = self.first_layer_cards(obs)
            for lin in self.linear_layers():
                h = lin(torch.relu(h))
            return h
        # Only cells that are not 0 are summed: the rows of value 0 are kept
        # at zero (see zero_rows), so they would add nothing. Most cells are
        # empty (0), so this is 2-8 times less work, above all backwards.
        nz = obs != 0
        counts = nz.sum(1)
        offsets = torch.cumsum(counts, 0) - counts
        h = F.embedding_bag(self.index(obs)[nz], self.first.weight, offsets, mode="sum") + self.first_bias
        for lin in self.linear_layers():
            h = lin(torch.relu(h))
        return h

    def linear_layers(self) -> list[nn.Linear]:
        """The layers after the first, input side first."""
        return [m for m in self.rest if isinstance(m, nn.Linear)]

    def first_layer_cards(self, obs: torch.Tensor) -> torch.Tensor:
        """The first layer of a card-embedding network (before its ReLU):
        each card cell's code embedded in card_dim floats, the counter cells
        one-hot, all times first_compact, plus the bias."""
        lay = self.layout
        o = obs.long()
        e = self.cards(torch.clamp(o[:, lay.card_cells], max=CARD_CODES - 1)).flatten(1)  # (B, C*card_dim)
        h = e @ self.first_compact[:, lay.card_cols].t()
        if len(lay.count_cells):
            idx = torch.minimum(o[:, lay.count_cells], lay.count_max) + lay.count_cols
            h = h + self.first_compact.t()[idx].sum(1)
        return h + self.first_bias

    def one_hot_first(self) -> torch.Tensor:
        """The first layer's weight over the one-hot input, [hidden[0],
        one_hot_len]: for a card-embedding network, the product of the card
        embedding and first_compact that it stands for."""
        if not self.card_dim:
            return self.first.weight.t()
        lay = self.layout
        W = self.first_compact
        cols = []
        for c in range(self.spec.obs_len):
            k = int(lay.cell_col[c])
            if lay.is_card[c]:
                cols.append(W[:, k : k + self.card_dim] @ self.cards.weight.t())  # (h0, 54)
            else:
                cols.append(W[:, k : k + int(lay.cell_max[c]) + 1])
        return torch.cat(cols, 1)

    def file_tensors(self) -> dict[str, torch.Tensor]:
        """The tensors of the model file (docs/models.md), detached: the
        first layer as stored (a card-embedding network's compact weight and
        its cards.weight, not their one-hot expansion), then the others."""
        out: dict[str, torch.Tensor] = {}
        first: torch.Tensor
        if self.card_dim:
            out["cards.weight"] = self.cards.weight.detach()
            first = self.first_compact
        else:
            first = self.first.weight.t()
        layers = [(first, self.first_bias)] + [(lin.weight, lin.bias) for lin in self.linear_layers()]
        for i, (w, b) in enumerate(layers):
            out[f"layers.{i}.weight"], out[f"layers.{i}.bias"] = w.detach(), b.detach()
        return out

    def linears(self) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """The layers in nn.Linear layout, input side first: (weight [out, in], bias).
        The first is over the one-hot input (see one_hot_first)."""
        layers: list[tuple[torch.Tensor, torch.Tensor]] = [(self.one_hot_first(), self.first_bias)]
        for lin in self.linear_layers():
            layers.append((lin.weight, lin.bias))
        return [(w.detach(), b.detach()) for w, b in layers]

    def rounded(self, dtype: str) -> "PolicyNet":
        """A copy whose weights are rounded to dtype (f32, f16, bf16) and
        back, so that it computes what the exported file computes."""
        net = copy.deepcopy(self)
        with torch.no_grad():
            for p in net.parameters():
                p.copy_(p.to(_DTYPES[dtype]).to(p.dtype))
        return net


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions' logits replaced by -1e9 (finite, so that 0·log p stays 0)."""
    return torch.where(mask, logits, torch.full_like(logits, -1e9))


def masked_argmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The legal action with the largest logit per row, the lowest id among
    equals (torch.argmax returns the first maximum); 0 for a row with no
    legal action."""
    return torch.where(mask, logits, torch.full_like(logits, -math.inf)).argmax(dim=1)


# ---------------------------------------------------------------------------
# The file: export and load (docs/models.md)


class ModelError(ValueError):
    """A policy file that is not one this game can use, with a message that
    names the file and what is wrong."""


def model_file_bytes(spec: GameSpec, hidden: Sequence[int], dtype: str, card_dim: int = 0) -> int:
    """The size of the tensors of a policy file (the header adds ~1 KB)."""
    first = card_input_len(spec, card_dim) if card_dim else spec.one_hot_len
    widths = [first, *hidden, spec.actions]
    per = 4 if dtype == "f32" else 2
    return (sum((a + 1) * b * per for a, b in zip(widths[:-1], widths[1:]))
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
        t = t.to(_DTYPES[dtype]).contiguous().cpu()
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


_REQUIRED = ("format", "format_version", "game", "rules_version", "obs_len", "obs_encoding",
             "onehot_len", "actions", "hidden", "activation", "command")


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
    try:
        with safe_open(str(path), framework="pt") as f:
            meta = dict(f.metadata() or {})
            tensors = {k: f.get_tensor(k) for k in f.keys()}
    except Exception as e:  # safetensors raises its own error types
        raise ModelError(f"model {path}: not a readable safetensors file: {e}") from e
    missing = [k for k in _REQUIRED if k not in meta]
    if missing:
        raise ModelError(f"model {path}: metadata lacks the required keys {', '.join(missing)}")
    if meta["format"] != MODEL_FORMAT or meta["format_version"] != MODEL_FORMAT_VERSION:
        raise ModelError(
            f"model {path}: format {meta['format']!r} version {meta['format_version']!r}, "
            f"want {MODEL_FORMAT!r} version {MODEL_FORMAT_VERSION}"
        )
    if meta["obs_encoding"] not in (ENCODING_ONEHOT, ENCODING_CARDS) or meta["activation"] != "relu":
        raise ModelError(f"model {path}: encoding {meta['obs_encoding']!r} and activation {meta['activation']!r}, "
                         f"want {ENCODING_ONEHOT} or {ENCODING_CARDS}, and relu")
    head = meta.get("head", "")
    if head not in ("", HEAD_VALUE):
        raise ModelError(f"model {path}: head {head!r}; this build reads {HEAD_VALUE!r} (or no head: a policy)")
    card_dim = 0
    if meta["obs_encoding"] == ENCODING_CARDS:
        try:
            card_dim = int(meta.get("card_dim", ""))
        except ValueError:
            card_dim = 0
        if card_dim <= 0:
            raise ModelError(f"model {path}: a {ENCODING_CARDS} model needs metadata card_dim, a whole number above 0 (got {meta.get('card_dim')!r})")
    try:
        spec = game_spec(meta["game"])
    except ValueError as e:
        raise ModelError(f"model {path}: {e}") from e
    if game is not None and game_spec(game).name != spec.name:
        raise ModelError(f"model {path} was trained for {spec.name}, not {game_spec(game).name}")
    if meta["rules_version"] != str(spec.rules_version):
        raise ModelError(
            f"model {path} was trained under {spec.name} rules version {meta['rules_version']}; "
            f"this build plays rules version {spec.rules_version}"
        )
    for key, want in (("obs_len", spec.obs_len), ("onehot_len", spec.one_hot_len), ("actions", spec.actions)):
        if meta[key] != str(want):
            raise ModelError(f"model {path}: {key} is {meta[key]}, but {spec.name} has {want}")
    try:
        hidden = tuple(int(h) for h in meta["hidden"].split(",")) if meta["hidden"] else ()
    except ValueError:
        raise ModelError(f"model {path}: hidden {meta['hidden']!r} is not a list of widths") from None
    if any(h <= 0 for h in hidden):
        raise ModelError(f"model {path}: hidden {meta['hidden']!r} holds a width below 1")
    if card_dim and not hidden:
        raise ModelError(f"model {path}: a {ENCODING_CARDS} model needs a hidden layer")
    first = card_input_len(spec, card_dim) if card_dim else spec.one_hot_len
    if card_dim and meta.get("input_len") != str(first):
        raise ModelError(f"model {path}: input_len is {meta.get('input_len')!r}, but {spec.name} with card_dim {card_dim} has {first}")
    outputs = 1 if head == HEAD_VALUE else spec.actions
    widths = [first, *hidden, outputs]
    want_names = {f"layers.{i}.{n}" for i in range(len(widths) - 1) for n in ("weight", "bias")}
    if card_dim:
        want_names.add("cards.weight")
    if set(tensors) != want_names:
        raise ModelError(
            f"model {path}: tensors {sorted(tensors)}, want exactly {sorted(want_names)} (hidden {meta['hidden']!r})"
        )
    net = PolicyNet(spec, hidden, outputs, card_dim=card_dim)
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
    net = net.to(dtype)
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


# ---------------------------------------------------------------------------
# Evaluation on fixed deals


@dataclass
class EvalResult:
    """Greedy play (masked argmax) on fixed deals."""

    deals: NDArray[np.int64]
    returns: NDArray[np.float64]
    won: NDArray[np.bool_]
    steps: NDArray[np.int64]
    seconds: float

    @property
    def mean_return(self) -> float:
        return float(self.returns.mean())

    @property
    def win_rate(self) -> float:
        return float(self.won.mean())


def evaluate(
    net: PolicyNet,
    deals: Sequence[int] | NDArray[np.integer[Any]],
    *,
    max_steps: int | None = None,
    workers: int = 1,
    temperature: float = 0.0,
    seed: int = 0,
) -> EvalResult:
    """Plays one episode per deal with the masked argmax of net (or, with a
    temperature above 0, actions sampled from the masked softmax of the
    logits divided by it), all deals at once in one vector environment;
    returns each deal's return (its final progress fraction) and whether it
    was won. A value network (one output) is refused: the Go policy agent
    plays it (evaluate_agent with ``"policy:model=FILE"``)."""
    last = net.linear_layers()[-1].out_features if net.linear_layers() else net.first_bias.shape[0]
    if last != net.spec.actions:
        raise ValueError(f"evaluate plays policies (one logit per action); this network has {last} output(s): "
                         "play a value file with evaluate_agent(game, 'policy:model=FILE', deals)")
    gen = torch.Generator().manual_seed(seed)
    net.eval()

    def choose(envs: PatienceVectorEnv, obs: NDArray[np.uint8], _live: NDArray[np.bool_]) -> NDArray[np.int64]:
        with torch.no_grad():
            logits = net(torch.from_numpy(obs))
            if temperature > 0:
                u = torch.rand(logits.shape, generator=gen).clamp_min(1e-20)
                logits = logits / temperature - torch.log(-torch.log(u))
            return masked_argmax(logits, torch.from_numpy(envs.action_masks())).numpy()

    return play_deals(net.spec.name, deals, choose, max_steps=max_steps, workers=workers)


def play_deals(
    game: str,
    deals: Sequence[int] | NDArray[np.integer[Any]],
    choose: Callable[[PatienceVectorEnv, NDArray[np.uint8], NDArray[np.bool_]], NDArray[np.int64]],
    *,
    max_steps: int | None = None,
    workers: int = 1,
) -> EvalResult:
    """Plays one episode per deal, all deals at once in one vector
    environment, each step's actions given by choose(envs, observations,
    live), live marking the environments whose first episode goes on;
    returns each deal's return (its final progress fraction) and whether it
    was won. An environment whose episode has ended ignores its action."""
    deal_ids: NDArray[np.int64] = np.asarray(deals, dtype=np.int64)
    n = len(deal_ids)
    t0 = time.perf_counter()
    envs = PatienceVectorEnv(game, n, max_steps=max_steps, workers=workers)
    try:
        obs, _ = envs.reset(seed=deal_ids)
        ret = np.zeros(n)
        steps = np.zeros(n, np.int64)
        done = np.zeros(n, np.bool_)
        won = np.zeros(n, np.bool_)
        while not done.all():
            live = ~done
            act = choose(envs, obs, live)
            # Ended environments ignore their action until their reset, and
            # their next episodes are not counted: any legal-looking id will do.
            act[done] = 0
            obs, r, term, trunc, _ = envs.step(act)
            ret += np.where(live, r, 0.0)
            steps += live
            won |= live & term & (ret > 1 - 1e-6)
            done |= term | trunc
    finally:
        envs.close()
    return EvalResult(deal_ids, ret, won, steps, time.perf_counter() - t0)


def evaluate_agent(
    game: str, agent: str, deals: Sequence[int] | NDArray[np.integer[Any]], *, max_steps: int | None = None
) -> EvalResult:
    """Plays one episode per deal with a Go agent (an agent string, as
    ``"policy:model=runs/x/model.safetensors"``), all deals at once in one
    vector environment, through PatienceVectorEnv.agent_actions: the
    returns ``patience bench`` reports for that agent on those deals. For a
    model this is the Go policy agent, which also sets aside moves back to
    a position of the episode (``repeats=avoid``), unlike ``evaluate``."""
    # Only the environments still in their first episode ask their agent:
    # the others have autoreset into episodes that are not counted.
    return play_deals(game, deals, lambda envs, _obs, live: envs.agent_actions(agent, where=live), max_steps=max_steps)


def eval_deals(n: int, start: int = EVAL_DEALS) -> NDArray[np.int64]:
    """The n fixed evaluation deals from start (below 1,000,000)."""
    if start + n > TRAINING_DEALS:
        raise ValueError(f"evaluation deals {start}..{start + n - 1} reach the measuring range (from {TRAINING_DEALS})")
    return np.arange(start, start + n, dtype=np.int64)


# ---------------------------------------------------------------------------
# Reference levels (the Go agents on the same evaluation deals)


def repo_root() -> Path | None:
    """The patience checkout that holds the current directory (or
    $PATIENCE_GO_ROOT), found by its go.mod; None outside one."""
    env = os.environ.get("PATIENCE_GO_ROOT")
    here = Path(env) if env else Path.cwd()
    for d in [here, *here.parents]:
        gomod = d / "go.mod"
        if gomod.is_file() and "module github.com/patience-gym/patience" in gomod.read_text():
            return d
    return None


def reference_levels(
    game: str, start: int, n: int, agents: str = "random,heuristic", cache: Path | None = None
) -> dict[str, dict[str, float]]:
    """Mean return and win rate of Go agents on deals start..start+n-1, by
    ``go run ./cmd/patience bench --json`` in the checkout (cached in
    ``cache``); {} when there is no checkout or no Go."""
    if cache is not None and cache.is_file():
        data = json.loads(cache.read_text())
    else:
        root, go = repo_root(), shutil.which("go")
        if root is None or go is None:
            print("train: no patience checkout or no Go: the learning curve has no reference lines", file=sys.stderr)
            return {}
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "ref.json"
            cmd = [go, "run", "./cmd/patience", "bench", "--games", game, "--agents", agents,
                   "--seed-start", str(start), "--deals", str(n), "--json", str(out)]
            res = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
            if res.returncode != 0:
                print(f"train: {' '.join(cmd[1:])} failed: {res.stderr.strip()}", file=sys.stderr)
                return {}
            data = json.loads(out.read_text())
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({k: data[k] for k in ("games", "agents", "deals", "seed_start", "summaries")}))
    return {
        s["agent"] + (":" + s["settings"] if s.get("settings") else ""): {
            "mean_return": float(s["progress_mean"]),
            "win_rate": float(s["win_rate"]),
        }
        for s in data["summaries"]
        if s["game"] == game_spec(game).name
    }


# ---------------------------------------------------------------------------
# The learning curve


CURVE_FIELDS = ["step", "seconds", "mean_return", "win_rate", "sampled_return", "sampled_win_rate", "train_return",
                "eval_seconds", "val_loss"]


class Curve:
    """Evaluation points, written to CSV at each point and drawn as PNG."""

    def __init__(self, out: Path, game: str, xlabel: str, refs: dict[str, dict[str, float]], title: str,
                 line: str = "policy (masked argmax)") -> None:
        self.path = out / "curve.csv"
        self.png = out / "curve.png"
        self.game, self.xlabel, self.refs, self.title, self.line = game, xlabel, refs, title, line
        self.rows: list[dict[str, float]] = []

    def add(self, row: dict[str, float]) -> None:
        self.rows.append(row)
        with open(self.path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
            w.writeheader()
            for r in self.rows:
                w.writerow({k: r.get(k, "") for k in CURVE_FIELDS})
        self.plot()

    def plot(self) -> None:
        plot_curve(self.path, self.png, self.refs, title=self.title, xlabel=self.xlabel, line=self.line)


def plot_curve(csv_path: Path, png: Path, refs: dict[str, dict[str, float]], *, title: str, xlabel: str,
               line: str = "policy (masked argmax)") -> None:
    """Draws mean return and win rate against the x column of a curve CSV,
    with the reference agents as horizontal lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    x = [float(r["step"]) for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    colours = {"random": "#999999", "heuristic": "#E69F00", "mc": "#009E73"}
    for ax, key, label in ((axes[0], "mean_return", "mean return (final progress)"), (axes[1], "win_rate", "win rate")):
        ax.plot(x, [float(r[key]) for r in rows], color="#0072B2", marker="o", ms=3, label=line)
        skey = key.replace("mean_", "sampled_") if key == "mean_return" else "sampled_win_rate"
        if rows and rows[0].get(skey, "") not in ("", None):
            ax.plot(x, [float(r[skey]) for r in rows], color="#56B4E9", marker="s", ms=3, ls=":",
                    label="policy (sampled, temperature 1)")
        for name, lv in refs.items():
            ax.axhline(lv[key], ls="--", lw=1.2, color=colours.get(name.split(":")[0], "#CC79A7"), label=name)
        ax.set_xlabel(xlabel)
        ax.xaxis.set_major_formatter(lambda v, _pos: _tick(v))
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------------------
# PPO


@dataclass
class PPOConfig:
    """PPO's settings (the command line's flags)."""

    game: str = "fifteen"
    steps: int = 5_000_000
    seed: int = 1
    out: str = "runs/ppo-fifteen"
    hidden: tuple[int, ...] = ()
    card_dim: int = -1
    dtype: str = ""
    num_envs: int = 0
    num_steps: int = 0
    lr: float = 0.0
    anneal_lr: bool = True
    gamma: float = 0.0
    gae_lambda: float = 0.95
    epochs: int = 4
    minibatches: int = 8
    clip: float = 0.2
    ent_coef: float = -1.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.0
    init: str = ""
    warmup_updates: int = 0
    eval_every: int = 0
    eval_deals: int = 200
    eval_start: int = EVAL_DEALS
    max_steps: int = 0
    threads: int = 1
    workers: int = 1
    resume: bool = False
    references: str = "random,heuristic"
    command: str = ""

    def fill_defaults(self) -> None:
        d = DEFAULTS[game_spec(self.game).name]
        self.game = game_spec(self.game).name
        self.hidden = self.hidden or d.hidden
        self.card_dim = d.card_dim if self.card_dim < 0 else self.card_dim
        self.dtype = self.dtype or d.dtype
        self.num_envs = self.num_envs or d.num_envs
        self.num_steps = self.num_steps or d.num_steps
        self.lr = self.lr or d.lr
        self.gamma = self.gamma or d.gamma
        self.ent_coef = d.ent_coef if self.ent_coef < 0 else self.ent_coef
        self.eval_every = self.eval_every or max(self.num_envs * self.num_steps, self.steps // 20)


def _progress(msg: str, end: bool = False) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K" + msg + ("\n" if end else ""))
    else:
        sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def _tick(v: float) -> str:
    """An axis label: 0, 500k, 1.5M."""
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= div:
            return f"{v / div:g}{unit}"
    return f"{v:g}"


def _human(n: float) -> str:
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= div:
            return f"{n / div:.2f}{unit}"
    return f"{n:.0f}"


def ppo(cfg: PPOConfig) -> Path:
    """Trains a policy with masked PPO; returns the path of the best model
    (by mean return on the evaluation deals)."""
    cfg.fill_defaults()
    spec = game_spec(cfg.game)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    N, T = cfg.num_envs, cfg.num_steps
    batch = N * T
    mb_size = batch // cfg.minibatches
    updates = max(1, cfg.steps // batch)

    if cfg.init:
        actor, init_meta = load_model(cfg.init, cfg.game)
        cfg.hidden, cfg.card_dim = actor.hidden, actor.card_dim
    else:
        actor = PolicyNet(spec, cfg.hidden, spec.actions, card_dim=cfg.card_dim)
    critic = PolicyNet(spec, cfg.hidden, 1, out_std=1.0, card_dim=cfg.card_dim)
    params = list(actor.parameters()) + list(critic.parameters())
    opt = torch.optim.Adam(params, lr=cfg.lr, eps=1e-5)
    size = model_file_bytes(spec, cfg.hidden, cfg.dtype, cfg.card_dim)
    if size > 2_000_000:
        print(f"train: warning: a {cfg.dtype} model of hidden {cfg.hidden} takes {size / 1e6:.1f} MB", file=sys.stderr)

    deals = eval_deals(cfg.eval_deals, cfg.eval_start)
    refs = reference_levels(cfg.game, cfg.eval_start, cfg.eval_deals, cfg.references, out / "refs.json") if cfg.references else {}
    title = f"{spec.title}: masked PPO, hidden {','.join(map(str, cfg.hidden))}" + (" from " + Path(cfg.init).name if cfg.init else "")
    curve = Curve(out, cfg.game, "environment steps", refs, title)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1))

    start_update, global_step, best, trained_before = 1, 0, -1.0, 0
    ckpt = out / "checkpoint.pt"
    elapsed_before = 0.0
    if cfg.resume and ckpt.is_file():
        state = torch.load(ckpt, weights_only=False)
        actor.load_state_dict(state["actor"])
        critic.load_state_dict(state["critic"])
        opt.load_state_dict(state["opt"])
        start_update, global_step, best = state["update"] + 1, state["global_step"], state["best"]
        elapsed_before = state["seconds"]
        curve.rows = state["curve"]
        rng = np.random.default_rng([cfg.seed, global_step])
        print(f"train: resumed {ckpt} at step {global_step}", file=sys.stderr)
    elif cfg.init:
        trained_before = int(init_meta.get("trained_steps", "0") or 0)

    envs = PatienceVectorEnv(
        cfg.game, N, autoreset_mode=AutoresetMode.SAME_STEP, max_steps=cfg.max_steps or None, workers=cfg.workers
    )

    def fresh_deals() -> int:
        # Each environment's next episodes are dealt +N: leave room below EVAL_DEALS.
        return int(rng.integers(0, EVAL_DEALS - N * (T + 1) * 64))

    obs_np, _ = envs.reset(seed=fresh_deals())
    mask_np = envs.action_masks()
    final_np = envs.final_observations
    assert final_np is not None

    L, A = spec.obs_len, spec.actions
    b_obs = torch.zeros((T, N, L), dtype=torch.uint8)
    b_mask = torch.zeros((T, N, A), dtype=torch.bool)
    b_act = torch.zeros((T, N), dtype=torch.long)
    b_logp = torch.zeros((T, N))
    b_rew = torch.zeros((T, N))
    b_done = torch.zeros((T, N))
    b_val = torch.zeros((T, N))
    next_done = torch.zeros(N)
    ep_ret = np.zeros(N)
    recent: list[float] = []
    t_start = time.perf_counter() - elapsed_before
    last_eval = global_step if cfg.resume else -cfg.eval_every
    stats: dict[str, float] = {}

    def do_eval() -> None:
        nonlocal best, last_eval
        last_eval = global_step
        rounded = actor.rounded(cfg.dtype)
        r = evaluate(rounded, deals, max_steps=cfg.max_steps or None, workers=cfg.workers)
        rs = evaluate(rounded, deals, max_steps=cfg.max_steps or None, workers=cfg.workers, temperature=1.0, seed=cfg.seed)
        actor.train()
        row = {
            "step": float(global_step),
            "seconds": round(time.perf_counter() - t_start, 1),
            "mean_return": r.mean_return,
            "win_rate": r.win_rate,
            "sampled_return": rs.mean_return,
            "sampled_win_rate": rs.win_rate,
            "train_return": float(np.mean(recent[-200:])) if recent else math.nan,
            "eval_seconds": round(r.seconds, 1),
        }
        curve.add(row)
        meta = {"seed": str(cfg.seed), "eval_deals": f"{deals[0]}..{deals[-1]}",
                "eval_mean_return": f"{r.mean_return:.4f}", "eval_win_rate": f"{r.win_rate:.4f}",
                "eval_sampled_mean_return": f"{rs.mean_return:.4f}", "eval_sampled_win_rate": f"{rs.win_rate:.4f}"}
        if cfg.init:
            meta["init"] = cfg.init
        steps_total = trained_before + global_step
        export_model(actor, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=steps_total, extra=meta)
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        if rs.mean_return >= max((row_.get("sampled_return", 0.0) for row_ in curve.rows), default=0.0):
            shutil.copyfile(out / "model.safetensors", out / "best-sampled.safetensors")
        torch.save({"actor": actor.state_dict(), "critic": critic.state_dict(), "opt": opt.state_dict(),
                    "update": update, "global_step": global_step, "best": best, "curve": curve.rows,
                    "seconds": time.perf_counter() - t_start, "config": asdict(cfg)}, ckpt)
        _progress(f"eval @ {_human(global_step)}: mean return {r.mean_return:.4f}, win rate {r.win_rate:.3f} "
                  f"(sampled {rs.mean_return:.4f}, {rs.win_rate:.3f}) on {len(deals)} deals "
                  f"({r.seconds + rs.seconds:.1f}s)" + "".join(
                      f"; {k} {v['mean_return']:.4f}/{v['win_rate']:.3f}" for k, v in refs.items()), end=True)

    update = start_update - 1
    step0, wall0 = global_step, time.perf_counter()
    if not cfg.resume and not curve.rows:
        do_eval()
    for update in range(start_update, updates + 1):
        if cfg.anneal_lr:
            for g in opt.param_groups:
                g["lr"] = cfg.lr * (1.0 - (update - 1) / updates)
        # Keep training deals below EVAL_DEALS: redeal when the next ones would reach it.
        if int(envs.deals().max()) + N * (T + 2) >= EVAL_DEALS:
            obs_np, _ = envs.reset(seed=fresh_deals())
            next_done.zero_()
            ep_ret[:] = 0
        actor.eval()
        critic.eval()
        for t in range(T):
            global_step += N
            b_obs[t].copy_(torch.from_numpy(obs_np))
            b_mask[t].copy_(torch.from_numpy(mask_np))
            b_done[t] = next_done
            with torch.no_grad():
                logp_all = torch.log_softmax(masked_logits(actor(b_obs[t]), b_mask[t]), dim=1)
                # Gumbel-max: a sample of the masked softmax.
                gumbel = -torch.log(-torch.log(torch.rand_like(logp_all).clamp_min(1e-20)))
                a = (logp_all + gumbel).argmax(dim=1)
                b_act[t] = a
                b_logp[t] = logp_all.gather(1, a.unsqueeze(1)).squeeze(1)
                b_val[t] = critic(b_obs[t]).squeeze(1)
            obs_np, rew, term, trunc, _ = envs.step(a.numpy())
            r = torch.from_numpy(rew).float()
            ended = term | trunc
            if trunc.any():
                # A truncated episode is bootstrapped from its last observation's value.
                idx = np.flatnonzero(trunc & envs.has_final)
                if len(idx):
                    with torch.no_grad():
                        v = critic(torch.from_numpy(final_np[idx])).squeeze(1)
                    r[torch.from_numpy(idx)] += cfg.gamma * v
            b_rew[t] = r
            next_done = torch.from_numpy(ended).float()
            ep_ret += rew
            if ended.any():
                recent.extend(ep_ret[ended].tolist())
                ep_ret[ended] = 0.0
        del recent[:-1000]

        # GAE
        with torch.no_grad():
            next_value = critic(torch.from_numpy(obs_np)).squeeze(1)
            adv = torch.zeros((T, N))
            last = torch.zeros(N)
            for t in reversed(range(T)):
                if t == T - 1:
                    nonterm, nv = 1.0 - next_done, next_value
                else:
                    nonterm, nv = 1.0 - b_done[t + 1], b_val[t + 1]
                delta = b_rew[t] + cfg.gamma * nv * nonterm - b_val[t]
                last = delta + cfg.gamma * cfg.gae_lambda * nonterm * last
                adv[t] = last
            ret = adv + b_val

        f_obs, f_mask = b_obs.reshape(batch, L), b_mask.reshape(batch, A)
        f_act, f_logp, f_adv, f_ret, f_val = (x.reshape(batch) for x in (b_act, b_logp, adv, ret, b_val))
        actor.train()
        critic.train()
        clipfracs, kls = [], []
        policy_frozen = update - start_update < cfg.warmup_updates and not cfg.resume
        for _ in range(cfg.epochs):
            perm = torch.randperm(batch)
            for s in range(0, batch - mb_size + 1, mb_size):
                mb = perm[s : s + mb_size]
                logits = masked_logits(actor(f_obs[mb]), f_mask[mb])
                logp_all = torch.log_softmax(logits, dim=1)
                new_logp = logp_all.gather(1, f_act[mb].unsqueeze(1)).squeeze(1)
                entropy = -(logp_all.exp() * logp_all).sum(1).mean()
                log_ratio = new_logp - f_logp[mb]
                ratio = log_ratio.exp()
                with torch.no_grad():
                    kls.append(float(((ratio - 1) - log_ratio).mean()))
                    clipfracs.append(float(((ratio - 1.0).abs() > cfg.clip).float().mean()))
                a_mb = f_adv[mb]
                a_mb = (a_mb - a_mb.mean()) / (a_mb.std() + 1e-8)
                pg_loss = torch.max(-a_mb * ratio, -a_mb * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                v = critic(f_obs[mb]).squeeze(1)
                v_loss = 0.5 * ((v - f_ret[mb]) ** 2).mean()
                if policy_frozen:
                    loss = cfg.vf_coef * v_loss
                else:
                    loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
                opt.zero_grad(set_to_none=True)
                loss.backward()
                nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                opt.step()
            if cfg.target_kl and np.mean(kls[-cfg.minibatches:]) > cfg.target_kl:
                break
        var_y = float(f_ret.var())
        stats = {
            "pg": pg_loss.item(), "v": v_loss.item(), "ent": entropy.item(), "kl": float(np.mean(kls)),
            "clip": float(np.mean(clipfracs)),
            "ev": math.nan if var_y == 0 else 1 - float((f_ret - f_val).var()) / var_y,
        }
        sps = (global_step - step0) / max(time.perf_counter() - wall0, 1e-9)
        mean_recent = float(np.mean(recent[-200:])) if recent else math.nan
        _progress(
            f"{cfg.game} update {update}/{updates} step {_human(global_step)} {sps:,.0f} steps/s "
            f"return {mean_recent:.4f} ({len(recent)} eps) ent {stats['ent']:.3f} kl {stats['kl']:.4f} "
            f"clip {stats['clip']:.3f} ev {stats['ev']:.2f}" + (" [value warm-up]" if policy_frozen else "")
        )
        if global_step - last_eval >= cfg.eval_every or update == updates:
            do_eval()
    envs.close()
    return out / "best.safetensors"


# ---------------------------------------------------------------------------
# Behaviour cloning


@dataclass
class BCConfig:
    """Behaviour cloning's settings."""

    data: list[str] = field(default_factory=list)
    out: str = "runs/bc"
    hidden: tuple[int, ...] = ()
    card_dim: int = -1
    dtype: str = ""
    epochs: int = 10
    batch_size: int = 512
    lr: float = 1e-3
    weight_decay: float = 0.0
    seed: int = 1
    val_frac: float = 0.05
    init: str = ""
    eval_deals: int = 200
    eval_start: int = EVAL_DEALS
    evals_per_epoch: int = 1
    threads: int = 1
    references: str = "random,heuristic"
    scores_temperature: float = 0.0
    """Above 0: train on the datasets' move scores (patience generate
    --scores) at this temperature instead of the move played alone."""
    scores_weight: float = 1.0
    """With scores: the share of the target given by the scores; the rest
    goes to the move played."""
    command: str = ""


def start_net(cfg: BCConfig | DAggerConfig | ValueConfig, spec: GameSpec, head: str = "") -> PolicyNet:
    """The network a run starts from: cfg.init's model, which must have the
    same head ("" a policy, HEAD_VALUE a value network), or a new network of
    cfg's widths (the game's defaults where not given); fills in
    cfg.hidden, cfg.card_dim and cfg.dtype."""
    d = DEFAULTS[spec.name]
    cfg.dtype = cfg.dtype or d.dtype
    if cfg.init:
        net, meta = load_model(cfg.init, spec.name)
        if meta.get("head", "") != head:
            want, got = ("a value network", "a policy") if head else ("a policy", "a value network")
            raise ValueError(f"{cfg.init} is {got}; this run starts from {want}")
        cfg.hidden, cfg.card_dim = net.hidden, net.card_dim
        return net
    cfg.hidden = cfg.hidden or d.hidden
    cfg.card_dim = d.card_dim if cfg.card_dim < 0 else cfg.card_dim
    return PolicyNet(spec, cfg.hidden, 1 if head == HEAD_VALUE else spec.actions, card_dim=cfg.card_dim)


def check_same_game(game: str, meta: dict[str, Any], where: str | Path) -> str:
    """The name of the game whose metadata (a dataset's or a label file's:
    game, rules_version) is meta, after checking that it is the game read
    so far (game, "" at first) and that this build plays its rules version."""
    spec = game_spec(str(meta["game"]))
    if game and spec.name != game:
        raise ValueError(f"{where} holds {spec.name}; the others hold {game}")
    if int(meta["rules_version"]) != spec.rules_version:
        raise ValueError(f"{where} was played under {spec.name} rules version {meta['rules_version']}; this build plays {spec.rules_version}")
    return spec.name


@dataclass
class Rows:
    """The rows of one or more datasets of one game (see load_rows)."""

    game: str
    obs: NDArray[np.uint8]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int64]
    episodes: NDArray[np.int64]
    """Each row's episode, numbered across the datasets."""
    scores: MoveScores | None = None
    """The moves weighed at each row and their scores, when every dataset
    was made with ``patience generate --scores`` (of one kind); else None."""


def read_rows(dirs: Sequence[str]) -> Rows:
    """The (obs, mask, action) rows of one or more datasets of one game, with
    each row's episode and, where all the datasets have them, the agent's
    move scores."""
    from . import datasets

    game = ""
    obs, masks, acts, eps = [], [], [], []
    scores: list[datasets.MoveScores] = []
    kinds: set[str] = set()
    offset = 0
    for d in dirs:
        ds = datasets.load(d)
        game = check_same_game(game, ds.meta, d)
        obs.append(ds.obs)
        masks.append(ds.masks)
        acts.append(ds.actions.astype(np.int64))
        eps.append(ds.episode_index.astype(np.int64) + offset)
        offset = int(eps[-1].max()) + 1 if len(eps[-1]) else offset
        if ds.scores is not None:
            scores.append(ds.scores)
            kinds.add(ds.scores.kind)
        else:
            kinds.add("")
    if not game:
        raise ValueError("bc: no --data given")
    rows = Rows(game, np.concatenate(obs), np.concatenate(masks), np.concatenate(acts), np.concatenate(eps))
    if len(kinds) == 1 and "" not in kinds:
        rows.scores = datasets.MoveScores.concat(scores)
    return rows


def load_rows(dirs: Sequence[str]) -> tuple[str, NDArray[np.uint8], NDArray[np.bool_], NDArray[np.int64], NDArray[np.int64]]:
    """The (obs, mask, action) rows of one or more datasets of one game, with
    each row's episode (numbered across the datasets)."""
    r = read_rows(dirs)
    return r.game, r.obs, r.masks, r.actions, r.episodes


@dataclass
class SoftTargets:
    """A target distribution over the actions for every row: ``table``'s row
    i puts its scores, probabilities, on its actions (an action may repeat;
    its probabilities add up)."""

    table: MoveScores

    def dense(self, rows: NDArray[np.int64], num_actions: int) -> torch.Tensor:
        """The targets of rows, in that order, as a (len(rows), num_actions) tensor."""
        t = self.table.take(rows)
        pos = np.repeat(np.arange(len(rows)), np.diff(t.offsets))
        out = torch.zeros(len(rows), num_actions)
        out.index_put_((torch.from_numpy(pos), torch.from_numpy(t.actions.astype(np.int64))),
                       torch.from_numpy(t.scores), accumulate=True)
        return out


def soft_targets(scores: MoveScores, actions: NDArray[np.int64], temperature: float, weight: float) -> SoftTargets:
    """Each row's target for behaviour cloning on move scores: weight times
    the distribution the scores give the weighed moves, plus (1 - weight) on
    the move played. mc's rollout values (in cards) give softmax(score / T);
    uct's root visits give visits^(1/T), normalised (T = 1: in proportion to
    the visits). A row where the agent weighed nothing puts everything on
    the move played."""
    if not temperature > 0:
        raise ValueError(f"the scores' temperature must be above 0 (got {temperature})")
    if not 0 <= weight <= 1:
        raise ValueError(f"the scores' weight must be in 0..1 (got {weight})")
    n = len(scores)
    lens = scores.offsets[1:] - scores.offsets[:-1]
    seg = np.repeat(np.arange(n), lens)
    x = scores.scores.astype(np.float64)
    if "visits" in scores.kind:
        x = np.log(np.maximum(x, 1e-12)) / temperature
    else:
        x = x / temperature
    top = np.full(n, -np.inf)
    np.maximum.at(top, seg, x)
    e = np.exp(x - top[seg])
    p = e / np.bincount(seg, e, minlength=n)[seg] * weight
    # the move played: everything where nothing was weighed, else 1 - weight
    extra = np.where(lens == 0, 1.0, 1.0 - weight)
    keep = extra > 0
    rows = np.concatenate([seg, np.flatnonzero(keep)])
    acts = np.concatenate([scores.actions.astype(np.int64), actions[keep]])
    probs = np.concatenate([p, extra[keep]]).astype(np.float32)
    order = np.argsort(rows, kind="stable")
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
    from .datasets import MoveScores

    return SoftTargets(MoveScores("target probabilities", offsets, acts[order].astype(np.int32), probs[order]))


def held_out(ids: NDArray[np.int64], frac: float, rng: np.random.Generator) -> NDArray[np.int64]:
    """The ids held out for validation: a share frac of them (at least one
    when frac is above 0), drawn with rng."""
    if frac <= 0:
        return np.array([], np.int64)
    return rng.choice(ids, size=max(1, int(len(ids) * frac)), replace=False)


def eval_marks(steps_per_epoch: int, evals_per_epoch: int) -> set[int]:
    """The batches inside an epoch after which to evaluate, evals_per_epoch
    evaluations an epoch in all (the end of each epoch has its own)."""
    return {round(steps_per_epoch * j / evals_per_epoch) for j in range(1, max(1, evals_per_epoch))} - {0, steps_per_epoch}


def bc(cfg: BCConfig) -> Path:
    """Trains a policy on datasets' (obs, mask, action) rows with masked
    cross-entropy; returns the path of the best model (by mean return on the
    evaluation deals)."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    rows = read_rows(cfg.data)
    game, obs, masks, acts, eps = rows.game, rows.obs, rows.masks, rows.actions, rows.episodes
    spec = game_spec(game)
    if not masks[np.arange(len(acts)), acts].all():
        raise ValueError("bc: a dataset row's action is not legal under its own mask")
    soft: SoftTargets | None = None
    if cfg.scores_temperature > 0:
        if rows.scores is None:
            raise ValueError("bc: --scores-temperature needs move scores in every --data dataset, of one kind "
                             "(make them with patience generate --agent mc --scores)")
        soft = soft_targets(rows.scores, acts, cfg.scores_temperature, cfg.scores_weight)
    net = start_net(cfg, spec)
    # Hold out whole episodes for validation.
    ep_ids = np.unique(eps)
    val_eps = held_out(ep_ids, cfg.val_frac, rng)
    is_val = np.isin(eps, val_eps)
    tr, va = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    t_obs, t_mask, t_act = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(acts)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
    deals = eval_deals(cfg.eval_deals, cfg.eval_start)
    refs = reference_levels(game, cfg.eval_start, cfg.eval_deals, cfg.references, out / "refs.json") if cfg.references else {}
    names = ", ".join(Path(p).name for p in cfg.data)
    curve = Curve(out, game, "training rows seen (behaviour cloning)", refs,
                  f"{spec.title}: behaviour cloning on {names} ({len(tr):,} rows), hidden {','.join(map(str, cfg.hidden))}")
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    steps_per_epoch = max(1, len(tr) // cfg.batch_size)
    total = steps_per_epoch * cfg.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0 - s / total)
    t_start = time.perf_counter()
    seen, best = 0, -1.0
    print(f"bc: {game}, {len(tr):,} training rows and {len(va):,} validation rows from {len(ep_ids):,} episodes", file=sys.stderr)

    def val_stats() -> tuple[float, float]:
        net.eval()
        loss, hit = 0.0, 0
        with torch.no_grad():
            for s in range(0, len(va), 4096):
                i = torch.from_numpy(va[s : s + 4096])
                logits = masked_logits(net(t_obs[i]), t_mask[i])
                loss += float(F.cross_entropy(logits, t_act[i], reduction="sum"))
                hit += int((masked_argmax(logits, t_mask[i]) == t_act[i]).sum())
        net.train()
        return (loss / max(1, len(va)), hit / max(1, len(va)))

    def do_eval(epoch: float) -> None:
        nonlocal best
        rounded = net.rounded(cfg.dtype)
        r = evaluate(rounded, deals)
        rs = evaluate(rounded, deals, temperature=1.0, seed=cfg.seed)
        vl, vacc = val_stats() if len(va) else (math.nan, math.nan)
        curve.add({"step": float(seen), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "sampled_return": rs.mean_return, "sampled_win_rate": rs.win_rate,
                   "train_return": math.nan, "eval_seconds": round(r.seconds + rs.seconds, 1), "val_loss": vl})
        meta = {"seed": str(cfg.seed), "data": ",".join(cfg.data), "rows": str(len(tr)), "epochs": f"{epoch:g}",
                "val_loss": f"{vl:.4f}", "val_accuracy": f"{vacc:.4f}", "eval_deals": f"{deals[0]}..{deals[-1]}",
                "eval_mean_return": f"{r.mean_return:.4f}", "eval_win_rate": f"{r.win_rate:.4f}",
                "eval_sampled_mean_return": f"{rs.mean_return:.4f}", "eval_sampled_win_rate": f"{rs.win_rate:.4f}"}
        if soft is not None and rows.scores is not None:
            meta["scores"] = f"{rows.scores.kind}, temperature {cfg.scores_temperature:g}, weight {cfg.scores_weight:g}"
        export_model(net, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=0, extra=meta)
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        if rs.mean_return >= max(row_.get("sampled_return", 0.0) for row_ in curve.rows):
            shutil.copyfile(out / "model.safetensors", out / "best-sampled.safetensors")
        _progress(f"epoch {epoch:g}: val loss {vl:.4f}, val accuracy {vacc:.3f}; mean return {r.mean_return:.4f}, "
                  f"win rate {r.win_rate:.3f} (sampled {rs.mean_return:.4f}, {rs.win_rate:.3f}) on {len(deals)} deals" + "".join(
                      f"; {k} {v['mean_return']:.4f}/{v['win_rate']:.3f}" for k, v in refs.items()), end=True)

    do_eval(0)
    step = 0
    marks = eval_marks(steps_per_epoch, cfg.evals_per_epoch)
    for epoch in range(1, cfg.epochs + 1):
        perm = torch.from_numpy(rng.permutation(tr))
        run_loss = 0.0
        for k in range(steps_per_epoch):
            i = perm[k * cfg.batch_size : (k + 1) * cfg.batch_size]
            logits = masked_logits(net(t_obs[i]), t_mask[i])
            if soft is not None:
                target = soft.dense(i.numpy(), spec.actions)
                loss = -(target * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
            else:
                loss = F.cross_entropy(logits, t_act[i])
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            sched.step()
            step += 1
            seen += len(i)
            run_loss = 0.98 * run_loss + 0.02 * loss.item() if k else loss.item()
            if k % 20 == 0:
                el = time.perf_counter() - t_start
                _progress(f"bc epoch {epoch}/{cfg.epochs} batch {k}/{steps_per_epoch} loss {run_loss:.4f} "
                          f"{seen / el:,.0f} rows/s")
            if k + 1 in marks:
                do_eval(epoch - 1 + (k + 1) / steps_per_epoch)
        do_eval(epoch)
    return out / "best.safetensors"


# ---------------------------------------------------------------------------
# DAgger: behaviour cloning on the positions the student reaches


@dataclass
class DAggerConfig:
    """DAgger's settings: a Go agent (the teacher) labels the positions the
    student's own play reaches, and the student is trained on all labels so
    far (Ross, Gordon and Bagnell, 2011)."""

    game: str = "limited"
    teacher: str = "mc"
    out: str = ""
    rounds: int = 10
    steps_per_round: int = 20_000
    num_envs: int = 64
    beta: float = 0.5
    beta_decay: float = 0.5
    data: list[str] = field(default_factory=list)
    init: str = ""
    hidden: tuple[int, ...] = ()
    card_dim: int = -1
    dtype: str = ""
    epochs: int = 2
    batch_size: int = 512
    lr: float = 1e-3
    seed: int = 1
    eval_deals: int = 200
    eval_start: int = EVAL_DEALS
    max_steps: int = 0
    threads: int = 1
    references: str = "random,heuristic"
    command: str = ""


def dagger(cfg: DAggerConfig) -> Path:
    """Trains a policy by DAgger with a Go agent as the teacher; returns the
    path of the best model (by greedy mean return on the evaluation deals).

    Each round plays steps_per_round steps on fresh training deals, in each
    position taking the teacher's move with probability beta (decayed by
    beta_decay each round) and the student's masked argmax otherwise, and
    records the teacher's move there as the label. The student is then
    trained for ``epochs`` passes over every label so far (and the rows of
    ``data``, datasets of the teacher's own games, if given)."""
    spec = game_spec(cfg.game)
    cfg.game = spec.name
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    net = start_net(cfg, spec)
    out = Path(cfg.out or f"runs/dagger-{spec.name}-s{cfg.seed}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
    deals = eval_deals(cfg.eval_deals, cfg.eval_start)
    refs = reference_levels(spec.name, cfg.eval_start, cfg.eval_deals, cfg.references, out / "refs.json") if cfg.references else {}
    curve = Curve(out, spec.name, "labelled positions (DAgger)", refs,
                  f"{spec.title}: DAgger with teacher {cfg.teacher}, hidden {','.join(map(str, cfg.hidden))}, card_dim {cfg.card_dim}")
    obs_parts: list[NDArray[np.uint8]] = []
    mask_parts: list[NDArray[np.bool_]] = []
    label_parts: list[NDArray[np.int64]] = []
    if cfg.data:
        g, o, m, a, _ = load_rows(cfg.data)
        if g != spec.name:
            raise ValueError(f"dagger: {cfg.data[0]} is a {g} dataset, not {spec.name}")
        obs_parts.append(o)
        mask_parts.append(m)
        label_parts.append(a)
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr)
    N = cfg.num_envs
    envs = PatienceVectorEnv(spec.name, N, autoreset_mode=AutoresetMode.SAME_STEP, max_steps=cfg.max_steps or None)
    t_start = time.perf_counter()
    labelled, best = 0, -1.0
    state = {"teacher_seconds": 0.0}

    def do_eval(rnd: int) -> None:
        # The Go policy agent plays the exported file: what patience bench
        # measures (with its repeats=avoid).
        nonlocal best
        meta = {"seed": str(cfg.seed), "teacher": cfg.teacher, "rounds": str(rnd), "labelled": str(labelled)}
        tmp = export_model(net, out / "eval.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=labelled, extra=meta)
        r = evaluate_agent(spec.name, f"policy:model={tmp.resolve()}", deals, max_steps=cfg.max_steps or None)
        curve.add({"step": float(labelled), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "train_return": math.nan, "eval_seconds": round(r.seconds, 1)})
        meta |= {"eval_deals": f"{deals[0]}..{deals[-1]}", "eval_agent": "policy (Go, repeats=avoid)",
                 "eval_mean_return": f"{r.mean_return:.4f}", "eval_win_rate": f"{r.win_rate:.4f}"}
        export_model(net, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=labelled, extra=meta)
        tmp.unlink()
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        _progress(f"round {rnd}: {labelled:,} labels ({state['teacher_seconds']:.0f}s in the teacher); mean return "
                  f"{r.mean_return:.4f}, win rate {r.win_rate:.3f} on {len(deals)} deals" + "".join(
                      f"; {k} {v['mean_return']:.4f}/{v['win_rate']:.3f}" for k, v in refs.items()), end=True)

    def train_epochs() -> None:
        net.train()
        obs = torch.from_numpy(np.concatenate(obs_parts))
        masks = torch.from_numpy(np.concatenate(mask_parts))
        labels = torch.from_numpy(np.concatenate(label_parts))
        for _ in range(cfg.epochs):
            perm = torch.from_numpy(rng.permutation(len(labels)))
            for k in range(0, len(perm), cfg.batch_size):
                i = perm[k : k + cfg.batch_size]
                loss = F.cross_entropy(masked_logits(net(obs[i]), masks[i]), labels[i])
                opt.zero_grad(set_to_none=True)
                loss.backward()  # type: ignore[no-untyped-call]
                opt.step()
        net.eval()

    try:
        if obs_parts:
            train_epochs()
        do_eval(0)
        for rnd in range(1, cfg.rounds + 1):
            beta = cfg.beta * cfg.beta_decay ** (rnd - 1)
            T = max(1, cfg.steps_per_round // N)
            # Each environment's next episodes are dealt +N: room below EVAL_DEALS.
            o_np, _ = envs.reset(seed=int(rng.integers(0, EVAL_DEALS - N * (T + 1))))
            r_obs = np.zeros((T, N, spec.obs_len), np.uint8)
            r_mask = np.zeros((T, N, spec.actions), np.bool_)
            r_lab = np.zeros((T, N), np.int64)
            for t in range(T):
                m_np = envs.action_masks()
                t0 = time.perf_counter()
                teach = envs.agent_actions(cfg.teacher, seed=cfg.seed)
                state["teacher_seconds"] += time.perf_counter() - t0
                with torch.no_grad():
                    student = masked_argmax(net(torch.from_numpy(o_np)), torch.from_numpy(m_np)).numpy()
                r_obs[t], r_mask[t], r_lab[t] = o_np, m_np, teach
                act = np.where(rng.random(N) < beta, teach, student)
                o_np, *_ = envs.step(act)
                if t % 10 == 0:
                    _progress(f"round {rnd}/{cfg.rounds}: step {t}/{T} (beta {beta:.2f})")
            obs_parts.append(r_obs.reshape(-1, spec.obs_len))
            mask_parts.append(r_mask.reshape(-1, spec.actions))
            label_parts.append(r_lab.reshape(-1))
            labelled += T * N
            train_epochs()
            do_eval(rnd)
    finally:
        envs.close()
    return out / "best.safetensors"


# ---------------------------------------------------------------------------
# Value learning: a network that scores the position after each move,
# trained on the moves `patience label` labelled, played by a one-step
# look-ahead (the Go policy agent with a value file)


@dataclass
class ValueConfig:
    """Value learning's settings. The rows are every legal move of sampled
    positions, each labelled with the final progress an agent reached when
    it played on after the move (``patience label``); the network learns
    to score the position after a move, by the mean squared error on the
    labels plus rank_weight times the same error on the labels' differences
    from their position's mean (what ranks the moves of one position).

    With ``choice`` it learns the agent's own choices instead (column
    ``chosen``; ``patience label --rollouts 0`` writes such rows cheaply): a
    move's logit is the network's output on the position after it plus a
    learnt weight times the game's evaluation there over its cards
    (``eval_weight`` is its start, 0: the game's card count, so one card of
    evaluation is one logit), and the loss is the cross-entropy of the
    softmax over each position's moves against the move chosen. The
    network starts with an output of exactly 0, so the untrained file plays
    as the heuristic ranks. The file records the weight (metadata
    eval_weight) and the Go agent adds the weighted evaluation, with the
    heuristic's win bonus, dead-end penalty and repeat cost. With
    ``ties_only`` only the positions where the agent chose one of several
    moves the evaluation ranks first are learnt, and the weight is fixed at
    TIE_EVAL_WEIGHT: the network breaks the evaluation's ties."""

    moves: list[str] = field(default_factory=list)
    out: str = ""
    hidden: tuple[int, ...] = ()
    card_dim: int = -1
    dtype: str = ""
    epochs: int = 4
    batch_positions: int = 64
    lr: float = 1e-3
    weight_decay: float = 0.0
    rank_weight: float = 4.0
    seed: int = 1
    val_frac: float = 0.05
    init: str = ""
    eval_deals: int = 100
    eval_start: int = EVAL_DEALS
    evals_per_epoch: int = 1
    threads: int = 1
    references: str = "random,heuristic"
    choice: bool = False
    eval_weight: float = 0.0
    fixed_eval_weight: bool = False
    ties_only: bool = False
    command: str = ""


@dataclass
class MoveRows:
    """The rows of ``patience label`` outputs, ordered by position: the
    observation after each move, its label, its position (numbered 0..
    across the outputs), and for learning choices: the game's evaluation
    after the move over its cards, whether the agent chose it, and how the
    move ends the game (+1 won, -1 no move left, 0 not ended)."""

    game: str
    obs: NDArray[np.uint8]
    value: NDArray[np.float32]
    group: NDArray[np.int64]
    eval: NDArray[np.float32]
    chosen: NDArray[np.bool_]
    end: NDArray[np.int8]


def read_move_rows(dirs: Sequence[str]) -> MoveRows:
    """Reads the rows of one or more ``patience label`` outputs of one game."""
    import pyarrow.parquet as pq

    from .datasets import DatasetError, _fixed

    game = ""
    obs, ys, groups, evals, chosen, ends = [], [], [], [], [], []
    offset = 0
    for d in dirs:
        files = sorted(Path(d).glob("part-*.parquet"))
        if not files:
            raise DatasetError(f"{d}: no part-*.parquet files: not the output of patience label")
        for f in files:
            raw = (pq.read_metadata(f).metadata or {}).get(b"patience")
            if raw is None:
                raise DatasetError(f"{f}: no patience metadata: not the output of patience label")
            meta = json.loads(raw)
            game = check_same_game(game, meta, f)
            spec = game_spec(game)
            t = pq.read_table(f, columns=["position", "obs", "value", "eval", "chosen", "terminal"])
            pos = t.column("position").to_numpy()
            _, g = np.unique(pos, return_inverse=True)
            obs.append(_fixed(t.column("obs"), spec.obs_len, "obs"))
            y = t.column("value").to_numpy().astype(np.float32)
            ys.append(y)
            evals.append(t.column("eval").to_numpy().astype(np.float32))
            chosen.append(t.column("chosen").to_numpy(zero_copy_only=False).astype(np.bool_))
            term = t.column("terminal").to_numpy(zero_copy_only=False).astype(np.bool_)
            # A move that ends the game is labelled with its exact final progress.
            ends.append(np.where(term, np.where(y >= 1.0, 1, -1), 0).astype(np.int8))
            groups.append(g.astype(np.int64) + offset)
            offset += int(g.max()) + 1 if len(g) else 0
    if not game:
        raise ValueError("value: no --moves given")
    group = np.concatenate(groups)
    order = np.argsort(group, kind="stable")
    return MoveRows(game, np.concatenate(obs)[order], np.concatenate(ys)[order], group[order],
                    np.concatenate(evals)[order], np.concatenate(chosen)[order], np.concatenate(ends)[order])


# The eval weight of a file that only breaks the evaluation's ties: far
# above any output of the network times the smallest difference of two
# evaluations, so that the network decides only between equals.
TIE_EVAL_WEIGHT = 1e9


def top_ties(r: MoveRows) -> MoveRows:
    """The rows of r that the evaluation ranks first in their position (with
    a win above all and a dead end below all, as the heuristic ranks), in
    the positions where two or more moves share that rank and the agent
    chose one of them; the positions are numbered again from 0. Their
    evaluations (equal within a position) are set to 0."""
    n = int(r.group[-1]) + 1 if len(r.group) else 0
    sc = r.eval.astype(np.float64) + 1e6 * r.end
    best = np.full(n, -np.inf)
    np.maximum.at(best, r.group, sc)
    top = sc == best[r.group]
    ntop = np.bincount(r.group, weights=top, minlength=n)
    chosen_top = np.zeros(n, np.bool_)
    chosen_top[r.group[r.chosen & top]] = True
    keep = top & (ntop[r.group] >= 2) & chosen_top[r.group]
    _, g = np.unique(r.group[keep], return_inverse=True)
    return MoveRows(r.game, r.obs[keep], r.value[keep], g.astype(np.int64), np.zeros(int(keep.sum()), np.float32),
                    r.chosen[keep], np.zeros(int(keep.sum()), np.int8))


# The logit a learnt-choice network adds for a move that wins (and takes
# away for one that leaves no move): far above any difference of
# evaluations, as the Go agent's win bonus and dead-end penalty are, yet
# small enough to keep the loss finite when the agent chose such a move.
END_LOGIT = 50.0


class ChoiceScorer(nn.Module):
    """The logits of moves for learning choices: a value network's output
    on the position after each move, plus a learnt weight times the game's
    evaluation there over its cards, plus END_LOGIT for a win and minus it
    for a dead end."""

    def __init__(self, net: PolicyNet, eval_weight: float) -> None:
        super().__init__()
        self.net = net
        self.eval_weight = nn.Parameter(torch.tensor(float(eval_weight)))

    def forward(self, obs: torch.Tensor, ev: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
        return self.net(obs)[:, 0] + self.eval_weight * ev + END_LOGIT * end.to(ev.dtype)


def group_max(v: torch.Tensor, local: torch.Tensor, groups: int) -> torch.Tensor:
    """The largest of v within each group that local numbers (0..groups-1)."""
    return torch.zeros(groups, dtype=v.dtype).scatter_reduce(0, local, v, reduce="amax", include_self=False)


def group_log_softmax(v: torch.Tensor, local: torch.Tensor, groups: int) -> torch.Tensor:
    """The log-softmax of v within the groups that local numbers (0..groups-1)."""
    mx = group_max(v.detach(), local, groups)
    z = torch.zeros(groups, dtype=v.dtype).index_add_(0, local, torch.exp(v - mx[local]))
    return v - mx[local] - torch.log(z)[local]


def value(cfg: ValueConfig) -> Path:
    """Trains a value network on labelled moves and returns the path of the
    best file, judged by the Go policy agent's mean return on the evaluation
    deals (each move it tries every legal move and plays the one whose
    position the network values most)."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    mr = read_move_rows(cfg.moves)
    if cfg.ties_only:
        if not cfg.choice:
            raise ValueError("value: --ties-only learns choices; add --choice")
        positions = int(mr.group[-1]) + 1 if len(mr.group) else 0
        mr = top_ties(mr)
        kept = int(mr.group[-1]) + 1 if len(mr.group) else 0
        if kept == 0:
            raise ValueError("value: no position has a tie at the top of the evaluation with the agent's move among it")
        print(f"value: {kept:,} of {positions:,} positions have two or more moves the evaluation ranks first, "
              "the agent's move among them", file=sys.stderr)
        cfg.eval_weight, cfg.fixed_eval_weight = TIE_EVAL_WEIGHT, True
    game, obs, target, group = mr.game, mr.obs, mr.value, mr.group
    spec = game_spec(game)
    net = start_net(cfg, spec, HEAD_VALUE)
    scorer: ChoiceScorer | None = None
    if cfg.choice:
        w0 = cfg.eval_weight or float(spec.cards)
        if cfg.init and not cfg.eval_weight:
            _, init_meta = load_model(cfg.init, spec.name)
            w0 = float(init_meta.get("eval_weight", w0))
        cfg.eval_weight = w0
        scorer = ChoiceScorer(net, w0)
        scorer.eval_weight.requires_grad_(not cfg.fixed_eval_weight)
        if not cfg.init:
            with torch.no_grad():  # an output of exactly 0: the untrained file ranks as the heuristic, ties and all
                last = net.linear_layers()[-1] if net.linear_layers() else None
                if last is not None:
                    last.weight.zero_()
                    last.bias.zero_()
                else:  # a linear network: its one layer is the output
                    net.first.weight.zero_()
                    net.first_bias.zero_()
        t_ev, t_end = torch.from_numpy(mr.eval), torch.from_numpy(mr.end)
        t_chosen = torch.from_numpy(mr.chosen)
    elif not cfg.init:
        # Start at the labels' mean: the output bias is the last layer's.
        with torch.no_grad():
            (net.linear_layers()[-1].bias if net.linear_layers() else net.first_bias).fill_(float(target.mean()))
    # Each position's rows: start[g] .. start[g] + count[g] (rows are sorted by position).
    n_groups = int(group[-1]) + 1
    count = np.bincount(group, minlength=n_groups)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    val_g = held_out(np.arange(n_groups), cfg.val_frac, rng)
    is_val = np.zeros(n_groups, np.bool_)
    is_val[val_g] = True
    tr_g, va_g = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    t_obs, t_y = torch.from_numpy(obs), torch.from_numpy(target)

    def rows_of(gs: NDArray[np.int64]) -> tuple[torch.Tensor, torch.Tensor]:
        """The rows of positions gs and each row's index into gs."""
        c = count[gs]
        local = np.repeat(np.arange(len(gs)), c)
        rows = np.repeat(start[gs] - np.cumsum(c) + c, c) + np.arange(int(c.sum()))
        return torch.from_numpy(rows), torch.from_numpy(local)

    def losses(gs: NDArray[np.int64]) -> tuple[torch.Tensor, torch.Tensor]:
        """The labels' and the within-position squared errors; with
        choice, the cross-entropy and the share of positions whose best
        move is the one chosen."""
        rows, local = rows_of(gs)
        if scorer is not None:
            logits = scorer(t_obs[rows], t_ev[rows], t_end[rows])
            lp = group_log_softmax(logits, local, len(gs))
            ch = t_chosen[rows]
            ce = -lp[ch].sum() / len(gs)
            with torch.no_grad():
                best = group_max(logits, local, len(gs))
                hit = (logits[ch] >= best[local[ch]]).to(logits.dtype).mean()
            return ce, hit
        v, y = net(t_obs[rows])[:, 0], t_y[rows]
        k = torch.from_numpy(count[gs]).to(v.dtype)
        mv = torch.zeros(len(gs), dtype=v.dtype).index_add_(0, local, v) / k
        my = torch.zeros(len(gs), dtype=v.dtype).index_add_(0, local, y) / k
        return F.mse_loss(v, y), F.mse_loss(v - mv[local], y - my[local])

    out = Path(cfg.out or f"runs/{'choice' if cfg.choice else 'value'}-{spec.name}-s{cfg.seed}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
    deals = eval_deals(cfg.eval_deals, cfg.eval_start)
    refs = reference_levels(game, cfg.eval_start, cfg.eval_deals, cfg.references, out / "refs.json") if cfg.references else {}
    names = ", ".join(Path(p).name for p in cfg.moves)
    what = "choices" if cfg.choice else "value"
    curve = Curve(out, game, f"labelled moves seen ({what} learning)", refs,
                  f"{spec.title}: {what} of {names} ({len(target):,} moves of {n_groups:,} positions), hidden {','.join(map(str, cfg.hidden))}",
                  line=f"{what} network (one-step look-ahead, Go agent)")
    opt = torch.optim.AdamW([p for p in (scorer or net).parameters() if p.requires_grad], lr=cfg.lr, weight_decay=cfg.weight_decay)
    steps_per_epoch = max(1, len(tr_g) // cfg.batch_positions)
    total = steps_per_epoch * cfg.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0 - s / total)
    t_start = time.perf_counter()
    seen, best = 0, -1.0
    print(f"value: {game}, {len(target):,} labelled moves of {n_groups:,} positions ({len(va_g):,} held out); "
          + (f"learning the choices of {mr.chosen.sum():,} positions, eval weight from {cfg.eval_weight:g}" if cfg.choice
             else f"label mean {target.mean():.4f}, sd {target.std():.4f}"), file=sys.stderr)

    def val_stats() -> tuple[float, float]:
        net.eval()
        se, sr, n = 0.0, 0.0, 0
        with torch.no_grad():
            for s in range(0, len(va_g), 256):
                gs = va_g[s : s + 256]
                a, b = losses(gs)
                m = len(gs) if scorer is not None else int(count[gs].sum())
                se, sr, n = se + float(a) * m, sr + float(b) * m, n + m
        net.train()
        return se / max(1, n), sr / max(1, n)

    def do_eval(epoch: float) -> None:
        nonlocal best
        vm, vr = val_stats() if len(va_g) else (math.nan, math.nan)
        meta = {"seed": str(cfg.seed), "moves": ",".join(cfg.moves), "labelled_moves": str(len(target)), "epochs": f"{epoch:g}",
                "eval_deals": f"{deals[0]}..{deals[-1]}"}
        if scorer is not None:
            meta |= {"objective": "choice", "val_choice_loss": f"{vm:.6f}", "val_choice_accuracy": f"{vr:.4f}",
                     "eval_weight": repr(float(scorer.eval_weight.detach()))}
        else:
            meta |= {"val_mse": f"{vm:.6f}", "val_rank_mse": f"{vr:.6f}"}
        path = export_model(net, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=0, extra=meta)
        r = evaluate_agent(spec.name, f"policy:model={path}", deals)
        curve.add({"step": float(seen), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "eval_seconds": round(r.seconds, 1), "val_loss": vm})
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(path, out / "best.safetensors")
        stats = (f"val choice loss {vm:.4f}, accuracy {vr:.3f}, eval weight {float(scorer.eval_weight.detach()):.1f}" if scorer is not None
                 else f"val mse {vm:.5f}, within positions {vr:.5f}")
        _progress(f"epoch {epoch:g}: {stats}; the Go agent's mean return {r.mean_return:.4f}, "
                  f"win rate {r.win_rate:.3f} on {len(deals)} deals ({r.seconds:.0f}s)" + "".join(
                      f"; {k} {v['mean_return']:.4f}/{v['win_rate']:.3f}" for k, v in refs.items()), end=True)

    do_eval(0)
    marks = eval_marks(steps_per_epoch, cfg.evals_per_epoch)
    for epoch in range(1, cfg.epochs + 1):
        perm = rng.permutation(tr_g)
        run_loss = 0.0
        for k in range(steps_per_epoch):
            gs = perm[k * cfg.batch_positions : (k + 1) * cfg.batch_positions]
            mse, rank = losses(gs)
            loss = mse if scorer is not None else mse + cfg.rank_weight * rank
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            sched.step()
            seen += int(count[gs].sum())
            run_loss = 0.98 * run_loss + 0.02 * loss.item() if k else loss.item()
            if k % 20 == 0:
                el = time.perf_counter() - t_start
                _progress(f"value epoch {epoch}/{cfg.epochs} batch {k}/{steps_per_epoch} loss {run_loss:.5f} {seen / el:,.0f} moves/s")
            if k + 1 in marks:
                do_eval(epoch - 1 + (k + 1) / steps_per_epoch)
        do_eval(epoch)
    return out / "best.safetensors"


# ---------------------------------------------------------------------------
# The command line


def parse_count(s: str) -> int:
    """'5M', '500k', '2.5e6', '1000' as an integer."""
    s = s.strip().replace("_", "").replace(",", "")
    mult = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}.get(s[-1:].lower(), 1)
    if mult != 1:
        s = s[:-1]
    return int(float(s) * mult)


def parse_hidden(s: str) -> tuple[int, ...]:
    return tuple(int(x) for x in s.split(",") if x.strip())


def command_line(argv: Sequence[str]) -> str:
    """The command as a person would type it again."""
    return "python -m patience_gym.train " + shlex.join(argv)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m patience_gym.train", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("ppo", help="masked PPO on the vector environment",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    q.add_argument("--game", default="fifteen")
    q.add_argument("--steps", type=parse_count, default=5_000_000, help="environment steps (5M, 500k, ...)")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--out", default="", help="run directory (default runs/ppo-GAME-sSEED)")
    q.add_argument("--hidden", type=parse_hidden, default=(), help="hidden widths, e.g. 32,256 (default: the game's)")
    q.add_argument("--card-dim", type=int, default=-1,
                   help="card embedding width of the first layer; 0: a row per one-hot input (default: the game's)")
    q.add_argument("--dtype", choices=sorted(_DTYPES), default="", help="dtype of the exported file (default: the game's)")
    q.add_argument("--num-envs", type=int, default=0, help="parallel environments (default: the game's)")
    q.add_argument("--num-steps", type=int, default=0, help="steps per environment per rollout (default: the game's)")
    q.add_argument("--lr", type=float, default=0.0, help="learning rate (default: the game's)")
    q.add_argument("--no-anneal", dest="anneal_lr", action="store_false", help="keep the learning rate constant")
    q.add_argument("--gamma", type=float, default=0.0, help="discount (default: the game's)")
    q.add_argument("--gae-lambda", type=float, default=0.95)
    q.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    q.add_argument("--minibatches", type=int, default=8)
    q.add_argument("--clip", type=float, default=0.2)
    q.add_argument("--ent-coef", type=float, default=-1.0, help="entropy bonus (default: the game's)")
    q.add_argument("--vf-coef", type=float, default=0.5)
    q.add_argument("--max-grad-norm", type=float, default=0.5)
    q.add_argument("--target-kl", type=float, default=0.0, help="stop an update's epochs past this KL (0: never)")
    q.add_argument("--init", default="", help="start the policy from a model file (a bc run's best.safetensors)")
    q.add_argument("--warmup-updates", type=int, default=0, help="first updates that train the value function only (useful with --init)")
    q.add_argument("--eval-every", type=parse_count, default=0, help="environment steps between evaluations (default: steps/20)")
    q.add_argument("--eval-deals", type=int, default=200)
    q.add_argument("--eval-start", type=int, default=EVAL_DEALS)
    q.add_argument("--max-steps", type=int, default=0, help="episode step limit (0: the game's)")
    q.add_argument("--threads", type=int, default=1, help="torch threads (more than 1 is slower on a busy machine)")
    q.add_argument("--workers", type=int, default=1, help="Go goroutines stepping the environments")
    q.add_argument("--resume", action="store_true", help="continue from the run directory's checkpoint.pt")
    q.add_argument("--references", default="random,heuristic", help="Go agents drawn as reference lines ('' for none)")

    b = sub.add_parser("bc", help="behaviour cloning from datasets", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    b.add_argument("--data", action="append", required=True, help="a dataset directory (repeat for several)")
    b.add_argument("--out", default="", help="run directory (default runs/bc-GAME-sSEED)")
    b.add_argument("--hidden", type=parse_hidden, default=(), help="hidden widths (default: the game's)")
    b.add_argument("--card-dim", type=int, default=-1,
                   help="card embedding width of the first layer; 0: a row per one-hot input (default: the game's)")
    b.add_argument("--dtype", choices=sorted(_DTYPES), default="")
    b.add_argument("--epochs", type=int, default=10)
    b.add_argument("--batch-size", type=int, default=512)
    b.add_argument("--lr", type=float, default=1e-3)
    b.add_argument("--weight-decay", type=float, default=0.0)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--val-frac", type=float, default=0.05, help="fraction of episodes held out")
    b.add_argument("--init", default="", help="start from a model file")
    b.add_argument("--eval-deals", type=int, default=200)
    b.add_argument("--eval-start", type=int, default=EVAL_DEALS)
    b.add_argument("--evals-per-epoch", type=int, default=1)
    b.add_argument("--threads", type=int, default=1)
    b.add_argument("--references", default="random,heuristic")
    b.add_argument("--scores-temperature", type=float, default=0.0,
                   help="above 0: imitate the datasets' move scores (generate --scores): softmax(score/T) over mc's "
                        "candidates, visits^(1/T) over uct's; 0: the move played only")
    b.add_argument("--scores-weight", type=float, default=1.0,
                   help="with --scores-temperature: the scores' share of the target, the rest on the move played")

    g = sub.add_parser("dagger", help="DAgger: a Go agent labels the positions the student reaches",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g.add_argument("--game", default="limited")
    g.add_argument("--teacher", default="mc", help="the Go agent whose moves are the labels (heuristic, mc:rollouts=8, ...)")
    g.add_argument("--out", default="", help="run directory (default runs/dagger-GAME-sSEED)")
    g.add_argument("--rounds", type=int, default=10)
    g.add_argument("--steps-per-round", type=parse_count, default=20_000, help="labelled positions per round")
    g.add_argument("--num-envs", type=int, default=64)
    g.add_argument("--beta", type=float, default=0.5, help="chance of playing the teacher's move in round 1")
    g.add_argument("--beta-decay", type=float, default=0.5, help="beta's factor per round")
    g.add_argument("--data", action="append", default=[], help="a dataset of the teacher's games to start from (repeatable)")
    g.add_argument("--init", default="", help="start from a model file (a bc run's best.safetensors)")
    g.add_argument("--hidden", type=parse_hidden, default=(), help="hidden widths (default: the game's)")
    g.add_argument("--card-dim", type=int, default=-1, help="card embedding width (default: the game's)")
    g.add_argument("--dtype", choices=sorted(_DTYPES), default="")
    g.add_argument("--epochs", type=int, default=2, help="passes over all labels after each round")
    g.add_argument("--batch-size", type=int, default=512)
    g.add_argument("--lr", type=float, default=1e-3)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--eval-deals", type=int, default=200)
    g.add_argument("--eval-start", type=int, default=EVAL_DEALS)
    g.add_argument("--max-steps", type=int, default=0, help="episode step limit (0: the game's)")
    g.add_argument("--threads", type=int, default=1)
    g.add_argument("--references", default="random,heuristic")

    v = sub.add_parser("value", help="a value network from labelled moves (patience label), played by one-step look-ahead",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    v.add_argument("--moves", action="append", required=True, help="a patience label output directory (repeat for several)")
    v.add_argument("--out", default="", help="run directory (default runs/value-GAME-sSEED)")
    v.add_argument("--hidden", type=parse_hidden, default=(), help="hidden widths (default: the game's)")
    v.add_argument("--card-dim", type=int, default=-1,
                   help="card embedding width of the first layer; 0: a row per one-hot input (default: the game's)")
    v.add_argument("--dtype", choices=sorted(_DTYPES), default="")
    v.add_argument("--epochs", type=int, default=4)
    v.add_argument("--batch-positions", type=int, default=64, help="positions per batch (with all their moves)")
    v.add_argument("--lr", type=float, default=1e-3)
    v.add_argument("--weight-decay", type=float, default=0.0)
    v.add_argument("--rank-weight", type=float, default=4.0, help="weight of the error on the moves' differences within a position")
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--val-frac", type=float, default=0.05, help="fraction of positions held out")
    v.add_argument("--init", default="", help="start from a value file")
    v.add_argument("--eval-deals", type=int, default=100)
    v.add_argument("--eval-start", type=int, default=EVAL_DEALS)
    v.add_argument("--evals-per-epoch", type=int, default=1)
    v.add_argument("--threads", type=int, default=1)
    v.add_argument("--references", default="random,heuristic")
    v.add_argument("--choice", action="store_true",
                   help="learn the agent's choices (column chosen; patience label --rollouts 0) as a correction to the game's evaluation, "
                        "by the cross-entropy over each position's moves, instead of regressing on the labels")
    v.add_argument("--eval-weight", type=float, default=0.0,
                   help="with --choice, the starting weight of the evaluation over the cards, in logits (0: the game's card count)")
    v.add_argument("--ties-only", action="store_true",
                   help="with --choice, learn only which of the moves the evaluation ranks first the agent chose: the file "
                        f"(eval weight {TIE_EVAL_WEIGHT:g}) plays as the heuristic ranks and breaks its ties by the network")
    v.add_argument("--fixed-eval-weight", action="store_true",
                   help="with --choice, keep the evaluation's weight at --eval-weight: a large one makes the network learn where the agent "
                        "departs from the evaluation's ranking rather than how sure it is")

    c = sub.add_parser("cem", help="the cross-entropy method over a linear correction to the evaluation, from whole games' outcomes",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    c.add_argument("--game", default="royalparade")
    c.add_argument("--out", default="", help="run directory (default runs/cem-GAME-sSEED)")
    c.add_argument("--deals", type=int, default=500, help="training deals: every candidate plays all of them")
    c.add_argument("--seed-start", type=int, default=100_000, help="first training deal (below 1,000,000)")
    c.add_argument("--population", type=int, default=16, help="candidates per generation")
    c.add_argument("--elite", type=int, default=4, help="best candidates the distribution is refitted to")
    c.add_argument("--generations", type=int, default=10)
    c.add_argument("--sigma", type=float, default=0.1, help="the parameters' starting spread (cards per cell or per unit of value)")
    c.add_argument("--noise", type=float, default=0.01, help="added to the refitted spread, so that it does not collapse at once")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--eval-deals", type=int, default=1000)
    c.add_argument("--eval-start", type=int, default=EVAL_DEALS)
    c.add_argument("--max-steps", type=int, default=0, help="episode step limit (0: the game's)")
    c.add_argument("--resume", action="store_true", help="continue from the run directory's state.json")
    c.add_argument("--references", default="random,heuristic", help="Go agents drawn as reference lines ('' for none)")

    e = sub.add_parser("eval", help="greedy play of a model file on fixed deals")
    e.add_argument("--model", required=True)
    e.add_argument("--deals", type=int, default=200)
    e.add_argument("--start", type=int, default=EVAL_DEALS, help="first deal (below 1,000,000)")
    e.add_argument("--temperature", type=float, default=0.0, help="0: masked argmax; above 0: sample from the masked softmax")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--threads", type=int, default=1)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.cmd == "value" and not args.choice and (args.ties_only or args.fixed_eval_weight or args.eval_weight):
        parser.error("value: --ties-only, --eval-weight and --fixed-eval-weight learn choices: add --choice")
    cmd = command_line(argv)
    t0 = time.perf_counter()
    if args.cmd == "ppo":
        kw = {k: v for k, v in vars(args).items() if k != "cmd"}
        cfg = PPOConfig(**kw, command=cmd)
        cfg.out = cfg.out or f"runs/ppo-{game_spec(cfg.game).name}-s{cfg.seed}"
        path = ppo(cfg)
    elif args.cmd == "bc":
        kw = {k: v for k, v in vars(args).items() if k != "cmd"}
        cfg_b = BCConfig(**kw, command=cmd)
        if not cfg_b.out:
            from . import datasets

            cfg_b.out = f"runs/bc-{game_spec(str(datasets.load(cfg_b.data[0]).meta['game'])).name}-s{cfg_b.seed}"
        path = bc(cfg_b)
    elif args.cmd == "value":
        kw = {k: v for k, v in vars(args).items() if k != "cmd"}
        path = value(ValueConfig(**kw, command=cmd))
    elif args.cmd == "cem":
        from .cem import CEMConfig, cem

        kw = {k: v for k, v in vars(args).items() if k != "cmd"}
        try:
            path = cem(CEMConfig(**kw, command=cmd))
        except ValueError as err:
            print(f"train {err}", file=sys.stderr)
            return 2
    elif args.cmd == "dagger":
        kw = {k: v for k, v in vars(args).items() if k != "cmd"}
        path = dagger(DAggerConfig(**kw, command=cmd))
    else:
        torch.set_num_threads(args.threads)
        net, meta = load_model(args.model)
        if args.start + args.deals > TRAINING_DEALS:
            print("train eval: deals from 1,000,000 are the measuring range: use patience bench there", file=sys.stderr)
            return 2
        if meta.get("head") == HEAD_VALUE:
            # Python has no copies of positions to look ahead on: the Go
            # policy agent plays a value file.
            agent = f"policy:model={args.model}"
            if args.temperature > 0:
                agent += f",sample=1,temperature={args.temperature}"
            r = evaluate_agent(meta["game"], agent, eval_deals(args.deals, args.start))
        else:
            r = evaluate(net, eval_deals(args.deals, args.start), temperature=args.temperature, seed=args.seed)
        print(json.dumps({"model": args.model, "game": meta["game"], "deals": f"{args.start}..{args.start + args.deals - 1}",
                          "mean_return": round(r.mean_return, 4), "win_rate": round(r.win_rate, 4),
                          "mean_steps": float(r.steps.mean()), "seconds": round(r.seconds, 2)}))
        return 0
    print(f"train: done in {time.perf_counter() - t0:.0f}s; best model {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
