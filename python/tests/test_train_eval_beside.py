"""PPO's evaluations run beside training, in a process of their own, on the
exported file: the curve gets the points of the networks inline evaluation
plays, with the same figures, and the run says how long training waited."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

from patience_gym import train


def run(out: Path, *extra: str) -> list[dict[str, str]]:
    argv = ["ppo", "--game", "limited", "--steps", "4k", "--num-envs", "8", "--num-steps", "64", "--hidden", "8",
            "--card-dim", "0", "--eval-deals", "16", "--eval-every", "1k", "--references", "", "--seed", "3",
            "--out", str(out), *extra]
    assert train.main(argv) == 0
    with open(out / "curve.csv") as f:
        return list(csv.DictReader(f))


def test_evaluation_beside_training_gives_the_inline_figures(tmp_path: Path) -> None:
    beside = run(tmp_path / "beside")
    inline = run(tmp_path / "inline", "--eval-inline")
    assert len(inline) == 5  # steps 0, 1024, 2048, 3072 and the end, 3584
    by_step = {r["step"]: r for r in inline}
    assert beside[0]["step"] == "0.0" and beside[-1]["step"] == inline[-1]["step"] == "3584.0"
    for r in beside:  # every point beside is one inline has, with the same figures (training is the same)
        want = by_step[r["step"]]
        for k in ("mean_return", "win_rate", "sampled_return", "sampled_win_rate", "train_return"):
            assert r[k] == want[k], (r["step"], k)
    for d in ("beside", "inline"):
        t = json.loads((tmp_path / d / "timing.json").read_text())
        assert t["steps"] == 3584 and 0 <= t["eval_held_seconds"] <= t["wall_seconds"]
        assert t["eval_inline"] == (d == "inline")
        assert (tmp_path / d / "best.safetensors").is_file()
        assert not (tmp_path / d / "eval-snapshot.safetensors").exists()  # the file evaluated is removed at the end


def test_a_rollout_too_large_is_refused_before_training(tmp_path: Path) -> None:
    import patience_gym

    with pytest.raises(patience_gym.PatienceError, match=r"rollout of 128 steps of 100000000 environments: .* bytes"):
        train.main(["ppo", "--game", "limited", "--num-envs", "100000000", "--num-steps", "128", "--references", "",
                    "--out", str(tmp_path / "r")])
