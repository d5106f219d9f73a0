"""Reading the Parquet datasets written by ``patience generate`` into NumPy.

    from patience_gym import datasets
    ds = datasets.load("data/cromwell-random")
    ds.obs            # (steps, obs_len) uint8: the observation before each action
    ds.masks          # (steps, actions) bool: the legal actions before it
    ds.actions        # (steps,) int32
    ds.rewards, ds.terminated, ds.truncated, ds.episode_index, ds.step
    ds.scores         # MoveScores (datasets made with --scores), else None
    for ep in ds.episodes():   # one Episode per episode, in order
        ...

Needs pyarrow (``pip install "patience-gym[datasets]"``). Every file's
``patience`` key-value metadata is checked: the schema version must be one
this module reads, and all files must belong to the same dataset.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "patience_gym.datasets needs pyarrow: pip install 'patience-gym[datasets]' (or pip install pyarrow)"
    ) from e

if TYPE_CHECKING:
    import minari

    from ._lib import GameSpec

__all__ = ["SCHEMA_VERSIONS", "DatasetError", "Dataset", "Episode", "MoveScores", "load", "file_metadata", "spec_json"]

SCHEMA_VERSIONS = (1, 2)
"""The dataset schema versions this module reads: 2 keeps the game's
description under "spec", 1 partly in fields of its own (see spec_json)."""

_STEP_COLUMNS = ["episode_index", "step", "obs", "legal_mask", "action", "reward", "terminated", "truncated"]
_SCORE_COLUMNS = ["score_actions", "scores"]


class DatasetError(ValueError):
    """A directory or file that is not a dataset this module can read."""


def file_metadata(path: str | Path) -> dict[str, Any]:
    """The ``patience`` metadata of one Parquet file, checked."""
    path = Path(path)
    try:
        kv = pq.read_metadata(path).metadata or {}
    except (OSError, pa.ArrowInvalid) as e:
        raise DatasetError(f"{path}: not a readable Parquet file: {e}") from e
    raw = kv.get(b"patience")
    if raw is None:
        raise DatasetError(f"{path}: no 'patience' metadata: not a file written by patience generate")
    meta: dict[str, Any] = json.loads(raw)
    v = meta.get("schema_version")
    if v not in SCHEMA_VERSIONS:
        raise DatasetError(
            f"{path}: schema version {v}; this version of patience_gym reads {', '.join(map(str, SCHEMA_VERSIONS))}"
        )
    return meta


def _fixed(col: pa.ChunkedArray, width: int, name: str) -> NDArray[np.uint8]:
    """A binary column of equal-length values as an (n, width) uint8 array."""
    arr = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if len(arr) == 0:
        return np.zeros((0, width), np.uint8)
    try:
        fixed = arr.cast(pa.binary(width))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise DatasetError(f"column {name}: values are not all {width} bytes long") from e
    data = np.frombuffer(fixed.buffers()[1], np.uint8)
    start = fixed.offset * width
    return data[start : start + len(fixed) * width].reshape(len(fixed), width)


@dataclass
class MoveScores:
    """The moves the agent weighed at every step and its score of each, as
    compressed rows: row ``i``'s moves are ``actions[offsets[i]:offsets[i+1]]``
    with scores ``scores[offsets[i]:offsets[i+1]]`` (higher is better; ``kind``,
    the dataset's ``move_scores`` metadata, says what they are). A row with no
    moves is a step where the agent weighed nothing (a single legal move)."""

    kind: str
    offsets: NDArray[np.int64]
    actions: NDArray[np.int32]
    scores: NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def row(self, i: int) -> tuple[NDArray[np.int32], NDArray[np.float32]]:
        """Row i's moves and their scores."""
        s = slice(int(self.offsets[i]), int(self.offsets[i + 1]))
        return self.actions[s], self.scores[s]

    def take(self, rows: NDArray[np.int64]) -> MoveScores:
        """The rows ``rows``, in that order, as a new MoveScores."""
        lens = (self.offsets[1:] - self.offsets[:-1])[rows]
        offsets = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(lens, out=offsets[1:])
        # index of every value kept: its row's old start plus its place in the row
        src = np.repeat(self.offsets[:-1][rows] - offsets[:-1], lens) + np.arange(int(offsets[-1]))
        return MoveScores(self.kind, offsets, self.actions[src], self.scores[src])

    @staticmethod
    def concat(parts: list[MoveScores]) -> MoveScores:
        """The rows of parts one after the other (all of one kind)."""
        lens = np.concatenate([p.offsets[1:] - p.offsets[:-1] for p in parts]) if parts else np.zeros(0, np.int64)
        offsets = np.zeros(len(lens) + 1, np.int64)
        np.cumsum(lens, out=offsets[1:])
        kind = parts[0].kind if parts else ""
        return MoveScores(kind, offsets,
                          np.concatenate([p.actions for p in parts]) if parts else np.zeros(0, np.int32),
                          np.concatenate([p.scores for p in parts]) if parts else np.zeros(0, np.float32))


def _lists(col: pa.ChunkedArray, kind: str, scores: pa.ChunkedArray) -> MoveScores:
    """The list columns score_actions and scores of one file as MoveScores."""
    a = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    s = scores.combine_chunks() if scores.num_chunks != 1 else scores.chunk(0)
    if len(a) == 0:
        return MoveScores(kind, np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32))
    offsets = a.offsets.to_numpy().astype(np.int64)
    if not np.array_equal(offsets, s.offsets.to_numpy()):
        raise DatasetError("columns score_actions and scores do not have one score per move")
    acts = a.values.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    vals = s.values.to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
    start = int(offsets[0])
    return MoveScores(kind, offsets - start, acts[start : int(offsets[-1])], vals[start : int(offsets[-1])])


@dataclass
class Episode:
    """One episode: its rows of the steps table and its row of the episodes table."""

    index: int
    deal: int
    obs: NDArray[np.uint8]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int32]
    rewards: NDArray[np.float64]
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]
    final_obs: NDArray[np.uint8]
    outcome: str
    progress: int
    episode_return: float


def spec_json(meta: dict[str, Any]) -> dict[str, Any]:
    """The game's description in a dataset's metadata, in the one JSON form
    of a Spec (GameSpec.from_json reads it; the metadata's game,
    rules_version, actions and obs_len are its name, rules_version, actions
    and obs_len): its "spec" from schema version 2 on; in files of version
    1, the same facts under names of their own (game_title, hidden_cards,
    action_table, obs_segments, progress_total), without the summary and
    the default step limit, which version 1 did not record."""
    if "spec" in meta:
        return dict(meta["spec"])
    segments = meta["obs_segments"]
    return {
        "name": meta["game"],
        "title": meta["game_title"],
        "summary": "",
        "rules_version": meta["rules_version"],
        "actions": meta["actions"],
        "action_ranges": meta["action_table"],
        "obs_len": meta["obs_len"],
        "segments": segments,
        "max_steps": 0,
        "hidden": meta["hidden_cards"],
        "cards": meta["progress_total"],
        "one_hot_len": sum(g["len"] * (g["max"] + 1) for g in segments),
    }


@dataclass
class Dataset:
    """A whole dataset in memory (see load)."""

    path: Path
    meta: dict[str, Any]
    obs: NDArray[np.uint8]
    masks: NDArray[np.bool_]
    actions: NDArray[np.int32]
    rewards: NDArray[np.float64]
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]
    episode_index: NDArray[np.int64]
    step: NDArray[np.int32]
    episode_table: dict[str, NDArray[Any]] = field(repr=False)
    scores: MoveScores | None = field(default=None, repr=False)
    """The moves the agent weighed and their scores, one row per step, when
    the dataset was made with ``patience generate --scores``; else None."""

    def __len__(self) -> int:
        return len(self.actions)

    @property
    def spec(self) -> GameSpec:
        """The game's description as the dataset records it."""
        from ._lib import GameSpec

        return GameSpec.from_json(spec_json(self.meta))

    @property
    def num_episodes(self) -> int:
        return len(self.episode_table["episode_index"])

    def episodes(self) -> Iterator[Episode]:
        """The episodes in order, each a view of the dataset's arrays."""
        ep = self.episode_table
        idx = self.episode_index
        bounds = np.searchsorted(idx, ep["episode_index"], side="left")
        ends = np.searchsorted(idx, ep["episode_index"], side="right")
        for k in range(len(ep["episode_index"])):
            s = slice(int(bounds[k]), int(ends[k]))
            yield Episode(
                index=int(ep["episode_index"][k]),
                deal=int(ep["deal_seed"][k]),
                obs=self.obs[s],
                masks=self.masks[s],
                actions=self.actions[s],
                rewards=self.rewards[s],
                terminated=self.terminated[s],
                truncated=self.truncated[s],
                final_obs=ep["final_obs"][k],
                outcome=str(ep["outcome"][k]),
                progress=int(ep["progress"][k]),
                episode_return=float(ep["return"][k]),
            )

    def to_minari(self, dataset_id: str, **kwargs: Any) -> minari.MinariDataset:
        """Writes the dataset as a Minari dataset (needs ``pip install
        "patience-gym[minari]"``). Each episode's observations are its
        observations before every action plus its final observation; its
        infos hold ``action_mask`` (the final row, after the last action, is
        all False). Extra keyword arguments go to
        ``minari.create_dataset_from_buffers``."""
        try:
            import minari
        except ImportError as e:
            raise ImportError("to_minari needs minari: pip install 'patience-gym[minari]'") from e
        from gymnasium import spaces

        spec = self.spec
        from minari.data_collector import EpisodeBuffer

        buffers = []
        for ep in self.episodes():
            obs = np.concatenate([ep.obs, ep.final_obs[None, :]])
            masks = np.concatenate([ep.masks, np.zeros((1, ep.masks.shape[1]), np.bool_)])
            buffers.append(
                EpisodeBuffer(
                    id=ep.index,
                    seed=ep.deal,
                    observations=obs,
                    actions=ep.actions.astype(np.int64),
                    rewards=ep.rewards,
                    terminations=ep.terminated,
                    truncations=ep.truncated,
                    infos={"action_mask": masks},
                )
            )
        kwargs.setdefault("env", spec.env_id)
        kwargs.setdefault("data_format", "arrow")  # minari[arrow]: pyarrow, already needed here
        kwargs.setdefault("algorithm_name", str(self.meta.get("agent", "")))
        kwargs.setdefault(
            "observation_space", spaces.Box(np.zeros(spec.obs_len, np.uint8), spec.obs_high(), dtype=np.uint8)
        )
        kwargs.setdefault("action_space", spaces.Discrete(spec.actions))
        return minari.create_dataset_from_buffers(dataset_id, buffers, **kwargs)


def _parts(path: Path, table: str) -> list[Path]:
    files = sorted((path / table).glob("part-*.parquet"))
    if not files:
        raise DatasetError(f"{path}: no {table}/part-*.parquet files: not a dataset directory")
    return files


def load(path: str | Path) -> Dataset:
    """Reads a dataset directory (written by ``patience generate``) into NumPy
    arrays, rows ordered by episode and step."""
    path = Path(path)
    info_file = path / "meta" / "info.json"
    steps_files, episode_files = _parts(path, "steps"), _parts(path, "episodes")
    metas = [file_metadata(f) for f in steps_files + episode_files]
    meta = json.loads(info_file.read_text()) if info_file.is_file() else dict(metas[0])
    if meta.get("schema_version") not in SCHEMA_VERSIONS:
        raise DatasetError(f"{info_file}: schema version {meta.get('schema_version')}")
    for f, m in zip(steps_files + episode_files, metas):
        for key in ("game", "rules_version", "obs_len", "actions", "seed_start"):
            if m.get(key) != meta.get(key):
                raise DatasetError(f"{f}: {key} = {m.get(key)!r}, but the dataset's is {meta.get(key)!r}")
    L, A, mb = int(meta["obs_len"]), int(meta["actions"]), int(meta["mask_bytes"])

    # Each part file is decoded on its own and the rows are ordered in
    # NumPy: Arrow's binary columns have 32-bit offsets, so concatenating
    # and sorting them as one table fails past 2 GB of observations.
    names = ("obs", "mask", "action", "reward", "terminated", "truncated", "episode_index", "step")
    parts: dict[str, list[NDArray[Any]]] = {k: [] for k in names}
    kind = str(meta.get("move_scores") or "")
    score_parts: list[MoveScores] = []
    for f in steps_files:
        t = pq.read_table(f, columns=_STEP_COLUMNS + (_SCORE_COLUMNS if kind else []))
        if kind:
            try:
                score_parts.append(_lists(t.column("score_actions"), kind, t.column("scores")))
            except DatasetError as e:
                raise DatasetError(f"{f}: {e}") from None
        parts["obs"].append(_fixed(t.column("obs"), L, "obs"))
        parts["mask"].append(_fixed(t.column("legal_mask"), mb, "legal_mask"))
        for name in ("action", "reward", "terminated", "truncated", "episode_index", "step"):
            parts[name].append(t.column(name).to_numpy())
    cols = {k: np.concatenate(v) for k, v in parts.items()}
    order = np.lexsort((cols["step"], cols["episode_index"]))
    scores = MoveScores.concat(score_parts) if kind else None
    if np.any(order != np.arange(len(order))):
        cols = {k: v[order] for k, v in cols.items()}
        if scores is not None:
            scores = scores.take(order)
    episodes = pa.concat_tables([pq.read_table(f) for f in episode_files]).sort_by("episode_index")

    masks = np.unpackbits(cols["mask"], axis=1, bitorder="little")[:, :A].view(np.bool_)
    ep_table: dict[str, NDArray[Any]] = {}
    for name in episodes.column_names:
        if name == "final_obs":
            ep_table[name] = _fixed(episodes.column(name), L, name)
        else:
            ep_table[name] = episodes.column(name).to_numpy()
    return Dataset(
        path=path,
        meta=meta,
        obs=cols["obs"],
        masks=masks,
        actions=cols["action"],
        rewards=cols["reward"],
        terminated=cols["terminated"],
        truncated=cols["truncated"],
        episode_index=cols["episode_index"],
        step=cols["step"],
        episode_table=ep_table,
        scores=scores,
    )
