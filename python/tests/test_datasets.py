"""patience_gym.datasets on a dataset written by `patience generate`."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyarrow")

import pyarrow as pa
import pyarrow.parquet as pq

from patience_gym import PatienceEnv, datasets


@pytest.fixture(scope="module")
def dataset(patience_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "limited-random"
    subprocess.run(
        [str(patience_cli), "generate", "--game", "limited", "--episodes", "60", "--part-size", "25", "--out", str(out)],
        check=True,
        capture_output=True,
    )
    return out


def inspect_totals(patience_cli: Path, path: Path) -> dict[str, float]:
    """The totals `patience inspect` prints."""
    out = subprocess.run([str(patience_cli), "inspect", str(path)], check=True, capture_output=True, text=True).stdout
    m = re.search(r"read ([\d,]+) episodes, ([\d,]+) steps", out)
    o = re.search(r"outcomes: won (\d+), lost (\d+), truncated (\d+)", out)
    r = re.search(r"\n\s+return\s+(-?[\d.]+)", out)
    assert m and o and r, out
    num = lambda s: int(s.replace(",", ""))
    return {
        "episodes": num(m[1]),
        "steps": num(m[2]),
        "won": int(o[1]),
        "lost": int(o[2]),
        "truncated": int(o[3]),
        "mean_return": float(r[1]),
    }


def test_totals_equal_inspect(dataset: Path, patience_cli: Path) -> None:
    ds = datasets.load(dataset)
    want = inspect_totals(patience_cli, dataset)
    ep = ds.episode_table
    assert ds.num_episodes == want["episodes"] and len(ds) == want["steps"]
    assert (ep["outcome"] == "won").sum() == want["won"]
    assert (ep["outcome"] == "lost").sum() == want["lost"]
    assert (ep["outcome"] == "truncated").sum() == want["truncated"]
    assert round(ds.rewards.sum() / ds.num_episodes, 4) == pytest.approx(want["mean_return"], abs=1e-4)
    assert ds.terminated.sum() == want["won"] + want["lost"] and ds.truncated.sum() == want["truncated"]


def test_arrays(dataset: Path) -> None:
    ds = datasets.load(dataset)
    spec = PatienceEnv("limited").game_spec
    assert ds.obs.shape == (len(ds), spec.obs_len) and ds.obs.dtype == np.uint8
    assert ds.masks.shape == (len(ds), spec.actions) and ds.masks.dtype == np.bool_
    assert ds.masks[np.arange(len(ds)), ds.actions].all()  # every action taken was legal
    assert (np.diff(ds.episode_index) >= 0).all()
    # Each episode replays in the environment: same observations, masks, rewards.
    env = PatienceEnv("limited", illegal_action="raise")
    episodes = list(ds.episodes())
    assert len(episodes) == ds.num_episodes
    for ep in episodes[:10]:
        obs, info = env.reset(seed=ep.deal)
        for t in range(len(ep.actions)):
            np.testing.assert_array_equal(obs, ep.obs[t])
            np.testing.assert_array_equal(info["action_mask"].astype(bool), ep.masks[t])
            obs, r, te, tr, info = env.step(int(ep.actions[t]))
            assert (r, te, tr) == (ep.rewards[t], ep.terminated[t], ep.truncated[t])
        np.testing.assert_array_equal(obs, ep.final_obs)
        assert info["outcome"] == ep.outcome and info["progress"] == ep.progress


def test_refuses_other_schema(dataset: Path, tmp_path: Path) -> None:
    src = dataset / "steps" / "part-00000.parquet"
    table = pq.read_table(src)
    meta = json.loads(table.schema.metadata[b"patience"])
    meta["schema_version"] = 99
    bad = tmp_path / "bad.parquet"
    pq.write_table(table.replace_schema_metadata({b"patience": json.dumps(meta).encode()}), bad)
    with pytest.raises(datasets.DatasetError, match="schema version 99"):
        datasets.file_metadata(bad)
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1]}), plain)
    with pytest.raises(datasets.DatasetError, match="no 'patience' metadata"):
        datasets.file_metadata(plain)
    with pytest.raises(datasets.DatasetError, match="not a dataset directory"):
        datasets.load(tmp_path)


def test_spec_is_the_one_form(dataset: Path) -> None:
    """A dataset's metadata holds the game's spec in the form pg_specs
    lists; a dataset of schema version 1 (datasets/testdata/v1-limited, its
    old field names) reads into the same spec but the two facts version 1
    did not record."""
    from patience_gym import SPECS

    ds = datasets.load(dataset)
    assert ds.meta["schema_version"] == 2 and ds.spec == SPECS["limited"]
    old = datasets.load(Path(__file__).resolve().parents[2] / "datasets" / "testdata" / "v1-limited")
    assert old.meta["schema_version"] == 1 and len(old) == 75 and old.obs.shape == (75, SPECS["limited"].obs_len)
    assert old.spec == dataclasses.replace(SPECS["limited"], summary="", max_steps=0)


@pytest.mark.filterwarnings("ignore::UserWarning")  # minari's advice to name an author, a description...
def test_to_minari(dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("minari")
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    ds = datasets.load(dataset)
    m = ds.to_minari("patience/limited-random-v0")
    assert m.total_episodes == ds.num_episodes and m.total_steps == len(ds)


def test_move_scores(patience_cli: Path, tmp_path: Path, dataset: Path) -> None:
    """generate --scores: every row holds the moves mc weighed, legal before
    the move played and including it, with a score each; none where only one
    move was legal. A dataset made without --scores has none."""
    out = tmp_path / "limited-mc"
    subprocess.run([str(patience_cli), "generate", "--game", "limited", "--agent", "mc:rollouts=2,rollout-steps=10,width=3",
                    "--episodes", "8", "--part-size", "3", "--scores", "--out", str(out)], check=True, capture_output=True)
    ds = datasets.load(out)
    sc = ds.scores
    assert sc is not None and sc.kind == ds.meta["move_scores"] == "mean rollout value in cards (mc)"
    assert len(sc) == len(ds) and sc.offsets[0] == 0 and sc.offsets[-1] == len(sc.actions) == len(sc.scores)
    single = ds.masks.sum(axis=1) == 1
    for i in range(len(ds)):
        moves, scores = sc.row(i)
        assert (len(moves) == 0) == single[i]
        assert ds.masks[i, moves].all() and len(np.unique(moves)) == len(moves) and len(scores) == len(moves)
        if len(moves):
            assert ds.actions[i] in moves and 2 <= len(moves) <= 3 and np.isfinite(scores).all()
    # take() keeps each row with its scores, in the order asked.
    rows = np.array([len(ds) - 1, 0, 3, 3])
    part = sc.take(rows)
    for k, i in enumerate(rows):
        np.testing.assert_array_equal(part.row(k)[0], sc.row(int(i))[0])
        np.testing.assert_array_equal(part.row(k)[1], sc.row(int(i))[1])
    assert datasets.load(dataset).scores is None


# The Hugging Face datasets reader, as the docs show it (with this test's
# dataset directory in place of data/cromwell-random).
HF_SNIPPET = """
import numpy as np
from datasets import load_dataset

steps = load_dataset("parquet", data_files="DIR/steps/*.parquet", split="train")
episodes = load_dataset("parquet", data_files="DIR/episodes/*.parquet", split="train")
obs = np.frombuffer(b"".join(steps["obs"]), np.uint8).reshape(len(steps), -1)
packed = np.frombuffer(b"".join(steps["legal_mask"]), np.uint8).reshape(len(steps), -1)
masks = np.unpackbits(packed, axis=1, bitorder="little").astype(bool)  # one bit per action, padded to bytes
print(episodes.to_pandas().groupby("outcome")["return"].agg(["count", "mean"]))
"""


def test_hugging_face_datasets_reads_the_parquet_files(dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasets")
    # Offline, with its cache in tmp_path: the parquet builder needs no hub.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf" / "datasets"))
    scope: dict[str, object] = {}
    exec(HF_SNIPPET.replace("DIR", str(dataset)), scope)
    ds = datasets.load(dataset)
    obs, masks = scope["obs"], scope["masks"]
    assert isinstance(obs, np.ndarray) and isinstance(masks, np.ndarray)
    # The same rows in the same order as patience_gym.datasets reads them.
    np.testing.assert_array_equal(obs, ds.obs)
    np.testing.assert_array_equal(masks[:, : ds.masks.shape[1]], ds.masks)
    assert not masks[:, ds.masks.shape[1] :].any()  # the padding bits are 0
    steps, episodes = scope["steps"], scope["episodes"]
    np.testing.assert_array_equal(np.asarray(steps["action"]), ds.actions)  # type: ignore[index]
    assert len(episodes) == ds.num_episodes  # type: ignore[arg-type]
