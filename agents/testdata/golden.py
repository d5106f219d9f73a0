#!/usr/bin/env python3
"""Golden logits for the Go policy network (agents/model_test.go, TestGoldenLogits).

Reads  golden_inputs.json       observations of one game and the layout to one-hot them
       (written by: go test ./agents -run TestGoldenLogits -golden-inputs)
Writes golden_policy.safetensors a small random policy in the patience-policy format
       golden_logits.json        its logits on every observation, and the masked argmax

It uses the Python standard library only, and computes the network densely over the
one-hot vector in float64, independently of the Go code (which sums rows of the
transposed first layer in float32). A trainer's exporter can replace this script: it
must read the same inputs and write the same two files, for example from a PyTorch
model via safetensors.torch.save_file and torch.no_grad() logits.

Run from anywhere: python3 agents/testdata/golden.py
"""

import json
import math
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
HIDDEN = [16, 8]
SEED = 20240610


def f32(x):
    """Round x to the nearest float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def one_hot(obs, segments, onehot_len):
    """The env.Spec.OneHot expansion: each cell becomes max+1 inputs, a 1 at its
    value (values above max clip to max)."""
    x = [0.0] * onehot_len
    o = 0
    for seg in segments:
        width = seg["max"] + 1
        for v in obs[seg["offset"]:seg["offset"] + seg["len"]]:
            x[o + min(v, seg["max"])] = 1.0
            o += width
    assert o == onehot_len, (o, onehot_len)
    return x


def random_model(inp, rng):
    """Layers in the nn.Linear layout: (weight as rows [out][in], bias [out])."""
    widths = [inp["onehot_len"]] + HIDDEN + [inp["actions"]]
    layers = []
    for i in range(len(widths) - 1):
        n_in, n_out = widths[i], widths[i + 1]
        # The first layer sees obs_len hot inputs, not onehot_len.
        bound = 2.0 / math.sqrt(min(n_in, inp["obs_len"]))
        w = [[f32(rng.uniform(-bound, bound)) for _ in range(n_in)] for _ in range(n_out)]
        b = [f32(rng.uniform(-0.1, 0.1)) for _ in range(n_out)]
        layers.append((w, b))
    return layers


def forward(layers, x):
    h = x
    for i, (w, b) in enumerate(layers):
        if i > 0:
            h = [max(v, 0.0) for v in h]  # ReLU between layers
        h = [bias + sum(wj * hj for wj, hj in zip(row, h) if hj != 0.0) for row, bias in zip(w, b)]
    return h


def write_safetensors(path, tensors, metadata):
    """tensors: list of (name, shape, flat float list), written as F32."""
    header = {"__metadata__": metadata}
    body = bytearray()
    for name, shape, flat in tensors:
        start = len(body)
        body += struct.pack("<%df" % len(flat), *flat)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [start, len(body)]}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        f.write(body)


def main():
    with open(os.path.join(HERE, "golden_inputs.json")) as f:
        inp = json.load(f)
    rng = random.Random(SEED)
    layers = random_model(inp, rng)
    tensors = []
    for i, (w, b) in enumerate(layers):
        tensors.append(("layers.%d.weight" % i, [len(w), len(w[0])], [v for row in w for v in row]))
        tensors.append(("layers.%d.bias" % i, [len(b)], b))
    metadata = {
        "format": "patience-policy",
        "format_version": "1",
        "game": inp["game"],
        "rules_version": str(inp["rules_version"]),
        "obs_len": str(inp["obs_len"]),
        "obs_encoding": "onehot",
        "onehot_len": str(inp["onehot_len"]),
        "actions": str(inp["actions"]),
        "hidden": ",".join(str(h) for h in HIDDEN),
        "activation": "relu",
        "command": "python3 agents/testdata/golden.py",
        "notes": "random weights (seed %d) for the golden-logits test; not a trained policy" % SEED,
    }
    write_safetensors(os.path.join(HERE, "golden_policy.safetensors"), tensors, metadata)
    out = {"logits": [], "argmax": []}
    for obs, legal in zip(inp["obs"], inp["legal"]):
        logits = forward(layers, one_hot(obs, inp["segments"], inp["onehot_len"]))
        out["logits"].append(logits)
        # Masked argmax: the largest legal logit, the lowest id among equals.
        out["argmax"].append(min(legal, key=lambda a: (-logits[a], a)))
    with open(os.path.join(HERE, "golden_logits.json"), "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
