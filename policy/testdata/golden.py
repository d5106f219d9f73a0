#!/usr/bin/env python3
"""Golden logits for the Go policy network (policy/net_test.go, TestGoldenLogits).

Reads  golden_inputs.json        observations of one game and the layout to one-hot them
       (written by: go test ./policy -run TestGoldenLogits -golden-inputs)
Writes golden_policy.safetensors  a small random policy (hidden 16,8), written by the
                                  trainer's own exporter (patience_gym.train.export_model)
       golden_logits.json         its logits on every observation, computed by the
                                  trainer's own reader and forward pass (load_model, PolicyNet)
                                  in float64, and the trainer's masked argmax
       golden_cards_policy.safetensors, golden_cards_logits.json
                                  the same for a card-embedding policy (card_dim 3)
       golden_stacks_policy.safetensors, golden_stacks_logits.json
                                  the same for a card-embedding policy that reads the
                                  cells as 12 stacks of 4, turned over and sorted
                                  (metadata stacks, stacks_sorted)

So the Go test covers the trainer's exporter, reader and forward pass, not only a copy
of the format. The logits are also checked here against a dense forward pass over the
one-hot vector written with the standard library only (float64), which shares no code
with the trainer.

Needs patience_gym with its train extra (PyTorch, safetensors):
    make python && .venv/bin/python policy/testdata/golden.py
"""

import json
import math
import os
import random
import sys

import torch

from patience_gym import SPECS
from patience_gym.train import PolicyNet, export_model, load_model, masked_argmax
from safetensors import safe_open

HERE = os.path.dirname(os.path.abspath(__file__))
HIDDEN = (16, 8)
CARD_DIM = 3
STACKS = ((0, 12, 4),)  # Four Quarters' 48 cells as 12 stacks of 4, for the stacks golden
SEED = 20240610
COMMAND = "python policy/testdata/golden.py"


def one_hot(obs, segments, onehot_len):
    """The env.Spec.OneHot expansion, independently of the trainer: each cell
    becomes max+1 inputs, a 1 at its value (values above max clip to max)."""
    x = [0.0] * onehot_len
    o = 0
    for seg in segments:
        width = seg["max"] + 1
        for v in obs[seg["offset"]:seg["offset"] + seg["len"]]:
            x[o + min(v, seg["max"])] = 1.0
            o += width
    assert o == onehot_len, (o, onehot_len)
    return x


def arranged(obs, stacks, sort):
    """An observation as a network with stack groups reads it
    (docs/models.md), with plain Python: each stack's cells up to its first
    empty one, last first, then empty cells; each group's stacks sorted."""
    out = list(obs)
    for off, cnt, h in stacks:
        rows = []
        for s in range(cnt):
            cells = obs[off + s * h : off + (s + 1) * h]
            n = next((i for i, v in enumerate(cells) if v == 0), h)
            rows.append(list(reversed(cells[:n])) + [0] * (h - n))
        if sort:
            rows.sort()
        for s, row in enumerate(rows):
            out[off + s * h : off + (s + 1) * h] = row
    return out


def dense_forward(layers, x):
    """layers: [(weight rows [out][in], bias [out])] as Python floats."""
    h = x
    for i, (w, b) in enumerate(layers):
        if i > 0:
            h = [max(v, 0.0) for v in h]
        h = [bias + sum(wj * hj for wj, hj in zip(row, h) if hj != 0.0) for row, bias in zip(w, b)]
    return h


def expanded_first_layer(path, segments):
    """The first layer over the one-hot input of a card-embedding file,
    [out][onehot_len], computed from its tensors with plain Python: a card
    cell's row at value v is its card_dim compact columns times the
    embedding of v; another cell's row at v is its compact column v."""
    with safe_open(path, framework="pt") as f:
        emb = f.get_tensor("cards.weight").double().tolist()
        w = f.get_tensor("layers.0.weight").double().tolist()
        d = int(f.metadata()["card_dim"])
    out = []
    for row in w:
        dense, col = [], 0
        for seg in segments:
            for _ in range(seg["len"]):
                for v in range(seg["max"] + 1):
                    if seg["card"]:
                        dense.append(sum(row[col + j] * emb[v][j] for j in range(d)))
                    else:
                        dense.append(row[col + v])
                col += d if seg["card"] else seg["max"] + 1
        out.append(dense)
    return out


def write_golden(inp, spec, net, name):
    """Exports net as golden_{name}.safetensors, checks the trainer's reader
    and forward pass against the dense reference, writes the logits."""
    path = os.path.join(HERE, f"golden_{name}.safetensors")
    export_model(net, path, COMMAND, dtype="f32",
                 extra={"notes": f"random weights (torch seed {SEED}) for the golden-logits test; not a trained policy"})

    # The trainer's reader and forward pass, in float64 over the file's float32 weights.
    loaded, _ = load_model(path, inp["game"], dtype=torch.float64)
    obs = torch.tensor(inp["obs"], dtype=torch.int64).clamp(0, 255).to(torch.uint8)
    with torch.no_grad():
        logits = loaded(obs)
    mask = torch.zeros((len(inp["obs"]), spec.actions), dtype=torch.bool)
    for i, legal in enumerate(inp["legal"]):
        mask[i, legal] = True
    argmax = masked_argmax(logits, mask).tolist()

    # The independent check: a dense float64 pass over the file's weights.
    layers = [(w.double().tolist(), b.double().tolist()) for w, b in net.linears()]
    if net.card_dim:
        layers[0] = (expanded_first_layer(path, inp["segments"]), layers[0][1])
    for i, o in enumerate(inp["obs"]):
        if net.stacks:
            o = arranged(o, net.stacks, net.sort_stacks)
        want = dense_forward(layers, one_hot(o, inp["segments"], inp["onehot_len"]))
        got = logits[i].tolist()
        worst = max(abs(a - b) for a, b in zip(got, want))
        if worst > 1e-9:
            sys.exit(f"{name}, observation {i}: the trainer's forward pass is {worst:g} off the dense reference")
        legal = inp["legal"][i]
        if argmax[i] != min(legal, key=lambda a: (-want[a], a)):
            sys.exit(f"{name}, observation {i}: the trainer's masked argmax {argmax[i]} is not the dense one")

    logits_name = "golden_logits.json" if name == "policy" else f"golden_{name.removesuffix('_policy')}_logits.json"
    with open(os.path.join(HERE, logits_name), "w") as f:
        json.dump({"logits": logits.tolist(), "argmax": argmax}, f)
        f.write("\n")
    print(f"wrote {path} and {logits_name} ({len(inp['obs'])} observations)")


def main():
    with open(os.path.join(HERE, "golden_inputs.json")) as f:
        inp = json.load(f)
    spec = SPECS[inp["game"]]
    for key, have in (("rules_version", spec.rules_version), ("obs_len", spec.obs_len),
                      ("onehot_len", spec.one_hot_len), ("actions", spec.actions)):
        if inp[key] != have:
            sys.exit(f"golden_inputs.json has {key} {inp[key]}, this build {have}: "
                     "go test ./policy -run TestGoldenLogits -golden-inputs first")

    # A random network. Every weight is random, the rows of value 0 of the
    # first layer too (the trainer keeps those at zero, and its reader folds
    # them into the bias), so that Go's sum over every cell is tested.
    torch.manual_seed(SEED)
    net = PolicyNet(spec, HIDDEN, spec.actions)
    with torch.no_grad():
        net.first.weight.uniform_(-2 / math.sqrt(spec.obs_len), 2 / math.sqrt(spec.obs_len))
        randomize_rest(net)
    write_golden(inp, spec, net, "policy")

    # A card-embedding network, every weight random too.
    torch.manual_seed(SEED + 1)
    cards = PolicyNet(spec, HIDDEN, spec.actions, card_dim=CARD_DIM)
    with torch.no_grad():
        cards.cards.weight.uniform_(-1, 1)
        cards.first_compact.uniform_(-2 / math.sqrt(spec.obs_len), 2 / math.sqrt(spec.obs_len))
        randomize_rest(cards)
    write_golden(inp, spec, cards, "cards_policy")

    # A card-embedding network that reads the cells as stacks, sorted.
    torch.manual_seed(SEED + 2)
    stacked = PolicyNet(spec, HIDDEN, spec.actions, card_dim=CARD_DIM, stacks=STACKS, sort_stacks=True)
    with torch.no_grad():
        stacked.cards.weight.uniform_(-1, 1)
        stacked.first_compact.uniform_(-2 / math.sqrt(spec.obs_len), 2 / math.sqrt(spec.obs_len))
        randomize_rest(stacked)
    write_golden(inp, spec, stacked, "stacks_policy")


def randomize_rest(net):
    """Draws the first bias and every later layer's weights and biases."""
    net.first_bias.uniform_(-0.1, 0.1)
    for lin in net.rest:
        bound = 2 / math.sqrt(lin.in_features)
        lin.weight.uniform_(-bound, bound)
        lin.bias.uniform_(-0.1, 0.1)

if __name__ == "__main__":
    main()
