"""The network of a policy or value file (docs/models.md): an MLP over the
one-hot observation, taking byte observations.

Its first layer is either a sum of embedding rows, one row per one-hot
input (the same thing as a Linear layer over the one-hot vector), or a
card-embedding layer that stores the same kind of layer in far fewer
weights: each card cell's code is embedded in ``card_dim`` floats shared by
all cells. The model file format is in model_file.py.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .._lib import GameSpec

__all__ = [
    "CARD_CODES",
    "DTYPES",
    "CardLayout",
    "OneHotIndex",
    "PolicyNet",
    "StackGroup",
    "arrange_stacks",
    "card_input_len",
    "format_stacks",
    "group_log_softmax",
    "group_max",
    "parse_stacks",
    "masked_argmax",
    "masked_logits",
]

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
"""The dtypes a model file may store its weights in, by their short names."""

StackGroup = tuple[int, int, int]
"""A group of stacks in the observation: (offset, count, height), count
stacks of height cells each, filled from their first cell with no gaps."""


def parse_stacks(s: str) -> tuple[StackGroup, ...]:
    """'0:15:31;...' (metadata stacks, docs/models.md) as stack groups."""
    out: list[StackGroup] = []
    for item in s.split(";"):
        parts = item.strip().split(":")
        if len(parts) != 3 or not all(p.isdigit() for p in parts) or int(parts[1]) < 1 or int(parts[2]) < 1:
            raise ValueError(f"stacks {s!r}: want OFFSET:COUNT:HEIGHT items (counts positive) separated by semicolons")
        out.append((int(parts[0]), int(parts[1]), int(parts[2])))
    return tuple(out)


def format_stacks(groups: Sequence[StackGroup]) -> str:
    """Stack groups as metadata stacks: '0:15:31;...'."""
    return ";".join(f"{o}:{c}:{h}" for o, c, h in groups)


def arrange_stacks(obs: np.ndarray, groups: Sequence[StackGroup], sort: bool) -> np.ndarray:
    """Byte observations (N, obs_len) as a network with stack groups reads
    them (docs/models.md; policy.ArrangeStacks in Go): every stack turned
    over, its last non-empty cell first and empty cells after, and with
    sort the stacks of each group in ascending lexicographic order of
    their turned cells. Other cells are copied."""
    out = np.array(obs, dtype=np.uint8, copy=True)
    n = len(out)
    for off, cnt, h in groups:
        x = out[:, off : off + cnt * h].reshape(n, cnt, h)
        filled = np.cumprod(x != 0, axis=2).sum(axis=2)  # the cells before the first empty one
        idx = filled[..., None] - 1 - np.arange(h)
        turned = np.take_along_axis(x, np.clip(idx, 0, h - 1), axis=2) * (idx >= 0)
        if sort:
            keys = [turned[:, :, k].ravel() for k in reversed(range(h))] + [np.repeat(np.arange(n), cnt)]
            order = np.lexsort(keys).reshape(n, cnt) - (np.arange(n) * cnt)[:, None]
            turned = np.take_along_axis(turned, order[..., None], axis=1)
        out[:, off : off + cnt * h] = turned.reshape(n, cnt * h).astype(np.uint8)
    return out


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
        self, spec: GameSpec, hidden: Sequence[int], out: int, *, out_std: float = 0.01, card_dim: int = 0,
        stacks: Sequence[StackGroup] = (), sort_stacks: bool = False,
    ) -> None:
        super().__init__()
        self.spec = spec
        # The stack groups the network reads turned over (and sorted):
        # forward() arranges its input; forward_arranged() takes it so.
        self.stacks = tuple(stacks)
        self.sort_stacks = bool(sort_stacks) and bool(self.stacks)
        self.hidden = tuple(int(h) for h in hidden)
        self.card_dim = int(card_dim)
        self.index = OneHotIndex(spec)
        widths = [*self.hidden, out]
        self.rest = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
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
        if self.stacks:
            obs = torch.from_numpy(arrange_stacks(obs.numpy(), self.stacks, self.sort_stacks))
        return self.forward_arranged(obs)

    def forward_arranged(self, obs: torch.Tensor) -> torch.Tensor:
        """forward() of observations already arranged (arrange_stacks with
        the network's stack groups), as a trainer that arranges its data
        once calls it."""
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
        h = e @ self._card_weight()
        if len(lay.count_cells):
            idx = torch.minimum(o[:, lay.count_cells], lay.count_max) + lay.count_cols
            h = h + self.first_compact.t()[idx].sum(1)
        return h + self.first_bias

    def _card_weight(self) -> torch.Tensor:
        """first_compact's card columns, transposed: gathered at each call
        while training; without gradients (playing), gathered once and kept
        until the weight changes (its version counter moves). The gather
        copies the whole first layer, which costs more than a forward pass
        of a few observations: an evaluation whose last few episodes loop
        to the step limit spent 19 of 20 ms a step on it."""
        w = self.first_compact
        if torch.is_grad_enabled():
            return w[:, self.layout.card_cols].t()
        key = (w.data_ptr(), w._version)
        cached: tuple[tuple[int, int], torch.Tensor] | None = self.__dict__.get("_card_weight_cache")
        if cached is None or cached[0] != key:
            cached = (key, w[:, self.layout.card_cols].t().contiguous())
            self.__dict__["_card_weight_cache"] = cached
        return cached[1]

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

    def rounded(self, dtype: str) -> PolicyNet:
        """A copy whose weights are rounded to dtype (f32, f16, bf16) and
        back, so that it computes what the exported file computes."""
        net = copy.deepcopy(self)
        with torch.no_grad():
            for p in net.parameters():
                p.copy_(p.to(DTYPES[dtype]).to(p.dtype))
        return net


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions' logits replaced by -1e9 (finite, so that 0·log p stays 0)."""
    return torch.where(mask, logits, torch.full_like(logits, -1e9))


def masked_argmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The legal action with the largest logit per row, the lowest id among
    equals (torch.argmax returns the first maximum); 0 for a row with no
    legal action."""
    return torch.where(mask, logits, torch.full_like(logits, -math.inf)).argmax(dim=1)


def group_max(v: torch.Tensor, local: torch.Tensor, groups: int) -> torch.Tensor:
    """The largest of v within each group that local numbers (0..groups-1)."""
    return torch.zeros(groups, dtype=v.dtype).scatter_reduce(0, local, v, reduce="amax", include_self=False)


def group_log_softmax(v: torch.Tensor, local: torch.Tensor, groups: int) -> torch.Tensor:
    """The log-softmax of v within the groups that local numbers (0..groups-1)."""
    mx = group_max(v.detach(), local, groups)
    z = torch.zeros(groups, dtype=v.dtype).index_add_(0, local, torch.exp(v - mx[local]))
    return v - mx[local] - torch.log(z)[local]
