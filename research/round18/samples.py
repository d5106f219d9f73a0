"""Writes a copy of a value file that looks ahead on K determinized copies.

    python research/round18/samples.py models/limited.safetensors runs/limited-k16.safetensors 16

The copy has the metadata key lookahead_samples = K (docs/models.md) and a
note that says how it was made; its weights and its other keys are the
file's own. The Go policy agent then scores each move by the mean over K
copies of the position with the hidden cards reshuffled.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from patience_research.valuefile import read, write


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", type=Path, help="the value file (head=value)")
    p.add_argument("dst", type=Path, help="the copy to write")
    p.add_argument("k", type=int, help="lookahead_samples, 1 to 256")
    a = p.parse_args()
    if not 1 <= a.k <= 256:
        p.error(f"k={a.k}: want 1 to 256")
    header, rest = read(a.src)
    meta = header.get("__metadata__", {})
    if meta.get("head") != "value":
        p.error(f"{a.src} is not a value file (head={meta.get('head')!r}): only a value file is played by looking ahead")
    meta["lookahead_samples"] = str(a.k)
    note = f"lookahead_samples {a.k} set by: python research/round18/samples.py {a.src} {a.dst} {a.k}"
    meta["notes"] = f"{meta['notes']}; {note}" if meta.get("notes") else note
    header["__metadata__"] = meta
    write(a.dst, header, rest)
    print(f"wrote {a.dst}")


if __name__ == "__main__":
    main()
