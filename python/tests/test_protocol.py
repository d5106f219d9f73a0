"""Evaluation protocol v1 from Python: the same figures as `patience bench --protocol v1`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import patience_gym
from patience_gym import deals
from patience_gym.protocol import describe, evaluate

from conftest import ROOT

# The fields that depend on the clock, not on the games played.
_TIMES = {"ms_per_game"}


def _go(cli: Path, agent: str, out: Path) -> dict[str, Any]:
    subprocess.run(
        [str(cli), "bench", "--protocol", "v1", "--games", "limited", "--agents", agent, "--workers", "1", "--json", str(out)],
        cwd=ROOT, check=True, capture_output=True,
    )
    return dict(json.loads(out.read_text()))


@pytest.mark.parametrize("agent", ["heuristic", "random"])
def test_python_evaluate_gives_the_go_commands_figures(agent: str, patience_cli: Path, tmp_path: Path) -> None:
    go = _go(patience_cli, agent, tmp_path / "go.json")
    py = evaluate(agent, "limited", protocol="v1", out=tmp_path / "py.json")
    assert json.loads((tmp_path / "py.json").read_text()) == py  # the file is the result
    assert py["protocol"] == go["protocol"] == "v1"
    assert py["runner"] == "patience_gym.evaluate" and go["runner"] == "patience bench"
    assert py["machine"]["python"] and py["machine"]["cores"] == go["machine"]["cores"]
    assert py["confidence"] == go["confidence"] == 0.95
    (g,), (p,) = go["results"], py["results"]
    assert set(g) == set(p)
    for k in g:
        if k not in _TIMES:
            assert p[k] == g[k], k
    assert p["games"] == 1000 and p["deals"] == {"block": "eval", "first": 1_000_000, "count": 1000}
    if agent == "heuristic":
        assert p["wins"] > 50  # the agent was played, not a row of losses


class FirstLegal:
    """An agent with state: records the deals it is reset with, plays the lowest legal action."""

    def __init__(self) -> None:
        self.deals: list[int] = []

    def reset(self, deal: int) -> None:
        self.deals.append(deal)

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> int:
        return int(np.flatnonzero(info["action_mask"])[0])


def test_evaluate_plays_a_python_agent_on_the_protocols_deals(tmp_path: Path) -> None:
    p = describe("limited")
    a = FirstLegal()
    res = evaluate(a, "limited", out=tmp_path / "r.json")
    (row,) = res["results"]
    dead = {d["deal"] for d in p["dead"] or []}
    assert a.deals == [d for d in range(1_000_000, 1_001_000) if d not in dead]
    assert row["agent"] == "FirstLegal" and row["max_steps"] == p["max_steps"]
    assert len(row["outcomes"]) == 1000 and row["wins"] == row["outcomes"].count("W")
    assert row["win_lo"] <= row["win_rate"] <= row["win_hi"]
    assert row["progress_lo"] <= row["progress_mean"] <= row["progress_hi"]
    assert row["winnable"] == int((deals.table("limited").to_pandas().query("block == 'eval'").verdict == "won").sum())
    # A policy function and the same agent as an object give the same games.
    fn = lambda obs, info: int(np.flatnonzero(info["action_mask"])[0])
    (row2,) = evaluate(fn, "limited", name="first-legal")["results"]
    assert row2["outcomes"] == row["outcomes"] and row2["progress"] == row["progress"]
    assert row2["agent"] == "first-legal"


def test_evaluate_refuses_what_the_protocol_cannot_measure() -> None:
    with pytest.raises(patience_gym.PatienceError, match="no such evaluation protocol"):
        evaluate("random", "limited", protocol="v0")
    with pytest.raises(patience_gym.PatienceError, match="sees the hidden cards"):
        evaluate("solver", "limited")
    with pytest.raises(patience_gym.PatienceError, match="variant"):
        evaluate("random", "cromwell:noswap")
    missing = [g for g in sorted(patience_gym.SPECS) if g not in deals.games()]
    if missing:
        with pytest.raises(patience_gym.PatienceError, match="no deals table ships"):
            evaluate("random", missing[0])
    with pytest.raises(patience_gym.IllegalActionError):
        evaluate(lambda obs, info: int(np.flatnonzero(info["action_mask"] == 0)[0]), "limited")


def shown_and_printed(page: Path, *args: str) -> tuple[str, str]:
    """The table a page shows between "<!-- the table: python
    results/protocol-v1/table.py ARGS -->" and "<!-- end of the table -->",
    and what that command prints now."""
    text = page.read_text()
    start = text.index(" ".join(["<!-- the table: python results/protocol-v1/table.py", *args, "-->\n"]))
    start = text.index("\n", start) + 1
    shown = text[start : text.index("\n<!-- end of the table -->", start)]
    table = ROOT / "results" / "protocol-v1" / "table.py"
    printed = subprocess.run([sys.executable, str(table), *args], check=True, capture_output=True, text=True).stdout
    return shown, printed.strip()


def test_the_docs_results_table_is_the_result_files() -> None:
    """docs/protocol.md shows what results/protocol-v1/table.py prints from the committed files."""
    shown, printed = shown_and_printed(ROOT / "docs" / "protocol.md")
    assert shown == printed, "paste the output of python results/protocol-v1/table.py into docs/protocol.md"
    for f in (ROOT / "results" / "protocol-v1").glob("*.json"):
        res = json.loads(f.read_text())
        assert res["protocol"] == "v1" and f"--json results/protocol-v1/{f.name}" in res["command"]


def test_the_readme_wins_table_is_the_result_files() -> None:
    """The README's short table shows what table.py --wins prints from the committed files."""
    shown, printed = shown_and_printed(ROOT / "README.md", "--wins")
    assert shown == printed, "paste the output of python results/protocol-v1/table.py --wins into README.md"
    assert "| Cromwell | 25 | 145 | 494 | 612 | 888 | 552 | — | 976 / 15 / 9 |" in shown  # cromwell-*.json, by hand


def test_the_citation_file_names_this_package() -> None:
    """CITATION.cff is valid CFF 1.2.0 and names this package's version and repository."""
    import re

    import yaml  # mkdocs's and the dataset readers' dependency

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "repository-code", "abstract"):
        assert cff.get(key), f"CITATION.cff lacks {key}"
    assert all(a.get("name") or a.get("family-names") for a in cff["authors"])
    version = re.search(r'(?m)^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text()).group(1)  # type: ignore[union-attr]
    assert cff["version"] == version, "CITATION.cff's version is not pyproject.toml's"
    module = (ROOT / "go.mod").read_text().split()[1]
    assert cff["repository-code"] == "https://" + module
