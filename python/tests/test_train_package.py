"""patience_gym.train as a package: one module per method, none too long,
no import circles, and the command line of the single-file trainer it
replaced (its sub-commands, flags and defaults, and ``python -m``)."""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import train_extra

train_extra()

import patience_gym.train
from patience_gym.train.cli import build_parser

from conftest import ROOT

PACKAGE = Path(patience_gym.train.__file__).parent

# The sub-commands of the single-file trainer (train.py before the split) with
# every flag and its default, as its argparse parser declared them.
OLD_FLAGS: dict[str, dict[str, Any]] = {
    "ppo": {
        "--game": "fifteen", "--steps": 5000000, "--seed": 1, "--out": "", "--hidden": (), "--card-dim": -1,
        "--dtype": "", "--num-envs": 0, "--num-steps": 0, "--lr": 0.0, "--no-anneal": True, "--gamma": 0.0,
        "--gae-lambda": 0.95, "--epochs": 4, "--minibatches": 8, "--clip": 0.2, "--ent-coef": -1.0, "--vf-coef": 0.5,
        "--max-grad-norm": 0.5, "--target-kl": 0.0, "--init": "", "--warmup-updates": 0, "--eval-every": 0,
        "--eval-deals": 200, "--eval-start": 900000, "--max-steps": 0, "--threads": 1, "--workers": 1,
        "--resume": False, "--references": "random,heuristic", "--eval-inline": False,
    },
    "bc": {
        "--data": None, "--out": "", "--hidden": (), "--card-dim": -1, "--dtype": "", "--epochs": 10,
        "--batch-size": 512, "--lr": 0.001, "--weight-decay": 0.0, "--seed": 1, "--val-frac": 0.05, "--init": "",
        "--eval-deals": 200, "--eval-start": 900000, "--evals-per-epoch": 1, "--threads": 1,
        "--references": "random,heuristic", "--scores-temperature": 0.0, "--scores-weight": 1.0,
    },
    "dagger": {
        "--game": "limited", "--teacher": "mc", "--out": "", "--rounds": 10, "--steps-per-round": 20000,
        "--num-envs": 64, "--beta": 0.5, "--beta-decay": 0.5, "--data": [], "--init": "", "--hidden": (),
        "--card-dim": -1, "--dtype": "", "--epochs": 2, "--batch-size": 512, "--lr": 0.001, "--seed": 1,
        "--eval-deals": 200, "--eval-start": 900000, "--max-steps": 0, "--threads": 1,
        "--references": "random,heuristic",
    },
    "value": {
        "--moves": None, "--out": "", "--hidden": (), "--card-dim": -1, "--dtype": "", "--epochs": 4,
        "--batch-positions": 64, "--lr": 0.001, "--weight-decay": 0.0, "--rank-weight": 4.0, "--seed": 1,
        "--val-frac": 0.05, "--init": "", "--eval-deals": 100, "--eval-start": 900000, "--evals-per-epoch": 1,
        "--threads": 1, "--references": "random,heuristic", "--choice": False, "--eval-weight": 0.0,
        "--ties-only": False, "--fixed-eval-weight": False,
    },
    "cem": {
        "--game": "royalparade", "--out": "", "--features": "segments", "--deals": 500, "--seed-start": 100000, "--population": 16,
        "--elite": 4, "--generations": 10, "--sigma": 0.1, "--noise": 0.01, "--seed": 1, "--eval-deals": 1000,
        "--eval-start": 900000, "--max-steps": 0, "--resume": False, "--init": "", "--references": "random,heuristic",
        "--lookahead-samples": 1,
    },
    "winnable": {
        "--labels": None, "--out": "", "--hidden": (), "--card-dim": -1, "--dtype": "", "--stacks": "auto",
        "--no-sort-stacks": True, "--kinds": "path,child,line", "--child-weight": 2.0, "--rank-weight": 0.0,
        "--rank-groups": 16, "--value-floor": 0.0, "--rank-eval": False, "--epochs": 6, "--batch": 256, "--lr": 0.001,
        "--weight-decay": 0.0001, "--seed": 1, "--val-frac": 0.05, "--init": "", "--eval-deals": 200,
        "--eval-start": 900000, "--evals-per-epoch": 1, "--eval-weight": 10.0, "--tune-weights": "", "--threads": 1,
        "--references": "random,heuristic", "--resume": False,
    },
    "eval": {
        "--model": None, "--deals": 200, "--start": 900000, "--temperature": 0.0, "--seed": 0, "--threads": 1,
    },
}


def test_one_module_per_method() -> None:
    names = {p.stem for p in PACKAGE.glob("*.py")}
    for method in ("ppo", "bc", "dagger", "value", "cem"):
        assert method in names
    for shared in ("net", "model_file", "evaluation", "cli"):
        assert shared in names
    for p in PACKAGE.glob("*.py"):
        lines = len(p.read_text().splitlines())
        assert lines <= 500, f"{p.name} has {lines} lines"


def sibling_imports(path: Path) -> set[str]:
    """The modules of the package that a module imports (relative imports of
    one dot: ``from .net import X`` or ``from . import net``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("patience_gym.train"):
            out.add((node.module or "").split(".")[2] if (node.module or "").count(".") >= 2 else "__init__")
    return out


def test_no_import_circles() -> None:
    graph = {p.stem: sibling_imports(p) for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert all("__init__" not in deps for deps in graph.values()), "a module imports the package itself"
    # Depth-first search for a back edge.
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                raise AssertionError("import circle: " + " -> ".join([*trail, m, d]))
            if d not in state:
                visit(d, [*trail, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    # The layers: the methods use the shared modules, never one another
    # (cli alone imports them all).
    methods = {"ppo", "bc", "dagger", "value", "cem", "winnable"}
    for m in methods:
        assert not graph[m] & methods, f"{m} imports {graph[m] & methods}"


def flags(parser: argparse.ArgumentParser) -> dict[str, dict[str, Any]]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name: {(a.option_strings[-1] if a.option_strings else a.dest): a.default for a in sp._actions if a.dest != "help"}
        for name, sp in sub.choices.items()
    }


def test_commands_and_flags_are_the_old_ones() -> None:
    assert flags(build_parser()) == OLD_FLAGS


def test_python_m_runs_a_tiny_ppo_job_and_eval(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "patience_gym.train", "ppo", "--game", "limited", "--steps", "512", "--num-envs", "8",
           "--num-steps", "32", "--hidden", "8", "--card-dim", "0", "--eval-deals", "4", "--references", "", "--out", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (out / "best.safetensors").is_file() and (out / "curve.csv").is_file()
    ev = [sys.executable, "-m", "patience_gym.train", "eval", "--model", str(out / "best.safetensors"), "--deals", "4"]
    res = subprocess.run(ev, capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    r = json.loads(res.stdout)
    assert r["game"] == "limited" and r["deals"] == "900000..900003" and 0 <= r["mean_return"] <= 1
    # A committed value file (cem) is played by the Go policy agent.
    ev = [sys.executable, "-m", "patience_gym.train", "eval", "--model", str(ROOT / "models" / "limited.safetensors"), "--deals", "4"]
    res = subprocess.run(ev, capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["game"] == "limited"
