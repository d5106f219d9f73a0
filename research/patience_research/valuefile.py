"""Value files (safetensors with a JSON header) read and written as header
and bytes, the evaluation's own term weights, and a file judged by play."""

from __future__ import annotations

import csv
import json
import struct
import subprocess
from pathlib import Path
from typing import Any


def read(path: Path) -> tuple[dict[str, Any], bytes]:
    """A safetensors file's header and the bytes after it."""
    data = path.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8 : 8 + n]), data[8 + n :]


def write(path: Path, header: dict[str, Any], rest: bytes) -> None:
    """Writes a safetensors file, its header padded to 8 bytes, whole or
    not at all (through a temporary file)."""
    b = json.dumps(header).encode()
    b += b" " * (-len(b) % 8)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(struct.pack("<Q", len(b)) + b + rest)
    tmp.replace(path)


def spec_weights(game: str) -> dict[str, float]:
    """The evaluation's own weights of the game's terms."""
    from patience_gym._lib import game_spec

    return {t.name: t.weight for t in game_spec(game).terms}


def bench(exe: str, game: str, model: Path, seed_start: int, deals: int, workers: int) -> tuple[int, float]:
    """The wins and mean progress of the policy agent playing value file
    model on deals seed_start.. with `patience bench` (the command exe); its
    table is written beside the file."""
    table = model.with_suffix(".csv")
    subprocess.run([exe, "bench", "--games", game, "--deals", str(deals), "--seed-start", str(seed_start),
                    "--workers", str(workers), "--agents", f"policy:model={model}", "--csv", str(table)],
                   check=True, capture_output=True)
    with table.open() as f:
        row = next(csv.DictReader(f))
    return int(row["wins"]), float(row["progress_mean"])
