"""The rows training reads from ``patience generate`` datasets: observations,
masks and the actions played, with each row's episode and, where the
datasets have them, the agent's move scores; and the held-out split."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .._lib import game_spec

if TYPE_CHECKING:
    from ..datasets import MoveScores

__all__ = ["Rows", "check_same_game", "held_out", "label_parts", "load_rows", "read_rows"]


def check_same_game(game: str, meta: dict[str, Any], where: str | Path) -> str:
    """The name of the game whose metadata (a dataset's or a label file's:
    game, rules_version) is meta, after checking that it is the game read
    so far (game, "" at first) and that this build plays its rules version."""
    spec = game_spec(str(meta["game"]))
    if game and spec.name != game:
        raise ValueError(f"{where} holds {spec.name}; the others hold {game}")
    if int(meta["rules_version"]) != spec.rules_version:
        raise ValueError(
            f"{where} was played under {spec.name} rules version {meta['rules_version']}; this build plays {spec.rules_version}"
        )
    return spec.name


def label_parts(dirs: Sequence[str], command: str) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each part file of the outputs dirs of command (patience label, or
    patience label --solver), in order, with its patience metadata ({} for
    none); a directory without part files is a DatasetError."""
    import pyarrow.parquet as pq

    from ..datasets import DatasetError

    for d in dirs:
        files = sorted(Path(d).glob("part-*.parquet"))
        if not files:
            raise DatasetError(f"{d}: no part-*.parquet files: not the output of {command}")
        for f in files:
            raw = (pq.read_metadata(f).metadata or {}).get(b"patience")
            yield f, json.loads(raw) if raw is not None else {}


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
    from .. import datasets

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


def held_out(ids: NDArray[np.int64], frac: float, rng: np.random.Generator) -> NDArray[np.int64]:
    """The ids held out for validation: a share frac of them (at least one
    when frac is above 0), drawn with rng."""
    if frac <= 0:
        return np.array([], np.int64)
    return rng.choice(ids, size=max(1, int(len(ids) * frac)), replace=False)
