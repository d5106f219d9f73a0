"""The settings the methods' configs share, and what a run does with them
first. RunConfig has those of every method (the run directory, the seed,
the file a run starts from, the evaluation deals, the reference agents and
the command line); NetConfig adds those of the methods that train a
network by gradient (its widths and dtype, the learning rate, the torch
threads); RowsConfig adds those of the methods that learn from a table of
labelled rows (bc, value, winnable: the weight decay, the share held out
and the evaluations an epoch). A method's config subclasses one of them
and may give a field another default; the command line gives every flag
its default itself (cli.py)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from .evaluation import EVAL_DEALS, eval_deals, reference_levels

__all__ = ["NetConfig", "RowsConfig", "RunConfig"]


@dataclass
class RunConfig:
    """The settings of every method's run."""

    out: str = ""
    """The run directory ("": runs/METHOD-GAME-sSEED)."""
    seed: int = 1
    init: str = ""
    """A file to start from ("": none)."""
    eval_deals: int = 200
    eval_start: int = EVAL_DEALS
    references: str = "random,heuristic"
    """The Go agents drawn as reference lines on the curve ("": none)."""
    command: str = ""
    """The command line, recorded in the files written."""

    def write(self, out: Path) -> None:
        """Makes the run directory out and writes the settings into its
        config.json."""
        out.mkdir(parents=True, exist_ok=True)
        (out / "config.json").write_text(json.dumps(asdict(self), indent=1))

    def evaluation_deals(self) -> NDArray[np.int64]:
        """The evaluation deals."""
        return eval_deals(self.eval_deals, self.eval_start)

    def reference_lines(self, game: str, out: Path) -> dict[str, dict[str, float]]:
        """The reference agents' levels on the evaluation deals (cached in
        out/refs.json), {} without reference agents."""
        if not self.references:
            return {}
        return reference_levels(game, self.eval_start, self.eval_deals, self.references, out / "refs.json")


@dataclass
class NetConfig(RunConfig):
    """The settings of a run that trains a network (defaults.start_net
    fills in hidden, card_dim and dtype from the game's)."""

    hidden: tuple[int, ...] = ()
    card_dim: int = -1
    dtype: str = ""
    lr: float = 1e-3
    threads: int = 1


@dataclass
class RowsConfig(NetConfig):
    """The settings of a run that learns from a table of labelled rows, in
    epochs of minibatches (loop.train_epochs)."""

    weight_decay: float = 0.0
    val_frac: float = 0.05
    """The share held out for validation."""
    evals_per_epoch: int = 1
