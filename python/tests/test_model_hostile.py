"""Python's model-file loader against malformed and hostile safetensors files.

The cases mirror the Go reader's (agents/hostile_test.go, FuzzDecodeModel):
a header that declares tensors far beyond the file, shapes whose bytes do
not match their offsets or overflow 64 bits, negative and overlapping
offsets, a header length beyond the file, dtypes the loader does not read,
and metadata that sizes a network far beyond the tensors the file holds.
Each is refused with a ModelError that says what is wrong, before anything
the header declares is allocated.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any

import pytest

from conftest import train_extra

torch = train_extra()

from patience_gym import SPECS
from patience_gym.train import ModelError, PolicyNet, export_model, load_model
from patience_gym.train.model_file import MAX_MODEL_FILE, check_safetensors


def raw(path: Path, header: dict[str, Any] | bytes, body: bytes = b"", length: int | None = None) -> Path:
    """Writes a safetensors file by hand: the 8-byte header length (or
    ``length``, true or not), the header, the body."""
    h = header if isinstance(header, bytes) else json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h) if length is None else length) + h + body)
    return path


HOSTILE = [
    ("a billion floats", {"w0": {"dtype": "F32", "shape": [1_000_000_000], "data_offsets": [0, 4_000_000_000]}}, 4,
     "truncated"),
    ("offsets that fit, a shape that does not", {"w0": {"dtype": "F32", "shape": [1_000_000_000], "data_offsets": [0, 4]}}, 4,
     "needs 4000000000 bytes"),
    ("a shape whose product overflows 64 bits", {"w0": {"dtype": "F32", "shape": [2**32, 2**32, 2**32], "data_offsets": [0, 8]}}, 8,
     "needs"),
    ("negative offsets", {"w0": {"dtype": "F32", "shape": [1], "data_offsets": [-4, 0]}}, 4, "invalid data_offsets"),
    ("offsets the wrong way round", {"w0": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}}, 4, "invalid data_offsets"),
    ("many dimensions", {"w0": {"dtype": "F32", "shape": [1] * 5000, "data_offsets": [0, 4]}}, 4, "shape"),
    ("a negative dimension", {"w0": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, 4, "shape"),
    ("a dtype not read (F64)", {"w0": {"dtype": "F64", "shape": [1], "data_offsets": [0, 8]}}, 8, "dtype 'F64'"),
    ("a dtype not read (I64)", {"w0": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}}, 8, "dtype 'I64'"),
    ("overlapping tensors", {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                             "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, 12, "overlap"),
    ("a tensor with extra keys", {"w0": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4], "x": 1}}, 4, "exactly"),
    ("metadata that is not strings", {"__metadata__": {"hidden": [1, 2]}}, 0, "__metadata__"),
    ("a header that is a list", [1, 2, 3], 0, "not a JSON object"),
]


@pytest.mark.parametrize(("name", "header", "body", "want"), HOSTILE, ids=[c[0] for c in HOSTILE])
def test_hostile_headers_are_refused(tmp_path: Path, name: str, header: Any, body: int, want: str) -> None:
    path = raw(tmp_path / "hostile.safetensors", json.dumps(header).encode(), bytes(body))
    with pytest.raises(ModelError, match=r"hostile\.safetensors") as e:
        load_model(path)
    assert want in str(e.value), str(e.value)


def test_header_length_beyond_the_file(tmp_path: Path) -> None:
    path = raw(tmp_path / "h.safetensors", b"{}", length=80 << 20)  # 80 MiB declared in a 10-byte file
    with pytest.raises(ModelError, match="truncated: the header declares 83886080 bytes"):
        load_model(path)
    path.write_bytes(b"\x02\x00")
    with pytest.raises(ModelError, match="too short"):
        load_model(path)
    raw(path, b"{not json")
    with pytest.raises(ModelError, match="not JSON"):
        load_model(path)
    raw(path, b"\xff\xfe{}")
    with pytest.raises(ModelError, match="not JSON"):
        load_model(path)


def test_what_is_no_model_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not a regular file"):
        check_safetensors(tmp_path)
    big = tmp_path / "big.safetensors"
    with open(big, "wb") as f:
        f.truncate(MAX_MODEL_FILE + 1)  # sparse: no disk used
    with pytest.raises(ModelError, match="larger than a model file can be"):
        load_model(big)
    if os.path.exists("/dev/zero"):
        with pytest.raises(ModelError):
            load_model("/dev/zero")


def good_model(tmp_path: Path) -> tuple[Path, PolicyNet]:
    spec = SPECS["limited"]
    net = PolicyNet(spec, (4,), spec.actions)
    return export_model(net, tmp_path / "good.safetensors", "test"), net


def rewrite(path: Path, out: Path, edit: Any) -> Path:
    """Copies a model file with its header edited by edit(header)."""
    data = path.read_bytes()
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + n])
    edit(header)
    return raw(out, header, data[8 + n :])


def test_a_good_model_passes_the_checks(tmp_path: Path) -> None:
    path, _ = good_model(tmp_path)
    meta = check_safetensors(path)
    assert meta["game"] == "limited"
    load_model(path)


def test_metadata_that_sizes_a_huge_network_is_refused(tmp_path: Path) -> None:
    """hidden says a billion units: the tensors the file holds do not match,
    and the loader says so without making the network the metadata asks
    for (it would be hundreds of gigabytes)."""
    path, _ = good_model(tmp_path)

    def huge(h: dict[str, Any]) -> None:
        h["__metadata__"]["hidden"] = "1000000000"

    with pytest.raises(ModelError, match=r"layers\.0 has shapes"):
        load_model(rewrite(path, tmp_path / "huge.safetensors", huge))


def test_wrong_shapes_and_dtypes_are_refused(tmp_path: Path) -> None:
    path, _ = good_model(tmp_path)

    def transpose(h: dict[str, Any]) -> None:
        h["layers.0.weight"]["shape"] = h["layers.0.weight"]["shape"][::-1]

    with pytest.raises(ModelError, match=r"layers\.0 has shapes"):
        load_model(rewrite(path, tmp_path / "t.safetensors", transpose))

    def as_i32(h: dict[str, Any]) -> None:
        h["layers.1.bias"]["dtype"] = "I32"

    with pytest.raises(ModelError, match="dtype 'I32'"):
        load_model(rewrite(path, tmp_path / "d.safetensors", as_i32))

    def shorter(h: dict[str, Any]) -> None:
        h["layers.1.bias"]["shape"] = [h["layers.1.bias"]["shape"][0] - 1]

    with pytest.raises(ModelError, match="needs"):
        load_model(rewrite(path, tmp_path / "s.safetensors", shorter))


def test_truncated_good_model(tmp_path: Path) -> None:
    path, _ = good_model(tmp_path)
    data = path.read_bytes()
    for cut in (len(data) // 2, len(data) - 1, 12):
        p = tmp_path / f"cut{cut}.safetensors"
        p.write_bytes(data[:cut])
        with pytest.raises(ModelError, match="truncated"):
            load_model(p)
