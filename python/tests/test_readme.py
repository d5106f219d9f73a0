"""The README's code blocks run: every ```python block (the quick start, the
dataset snippets for pandas/pyarrow and Polars, the deal in Python) and every
```sql block (DuckDB), so that the README stays true. They run in a directory
holding data/cromwell-random, written by `patience generate`, as after the
README's first command."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def blocks(lang: str) -> list[tuple[int, str]]:
    """The fenced blocks of a language, with their line numbers."""
    out = []
    for m in re.finditer(r"^```" + lang + r"\n(.*?)^```", README.read_text(), re.S | re.M):
        out.append((README.read_text()[: m.start()].count("\n") + 1, m[1]))
    return out


@pytest.fixture(scope="module")
def workdir(patience_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("readme")
    # The README's first command, with fewer episodes to keep the test short.
    subprocess.run([str(patience_cli), "generate", "--episodes", "30"], cwd=d, check=True, capture_output=True)
    assert (d / "data" / "cromwell-random" / "steps").is_dir()
    return d


PYTHON = blocks("python")
SQL = blocks("sql")


def test_found_blocks() -> None:
    text = "\n".join(code for _, code in PYTHON)
    for lib in ("pandas", "polars", "pyarrow", "gymnasium", "patience_gym"):
        assert f"import {lib}" in text or f"from {lib}" in text, lib
    assert SQL, "no DuckDB block"


@pytest.mark.parametrize("line,code", PYTHON, ids=[f"README.md:{n}" for n, _ in PYTHON])
def test_python_block(line: int, code: str, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lib in re.findall(r"^(?:import|from) (\w+)", code, re.M):
        pytest.importorskip(lib)
    monkeypatch.chdir(workdir)
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "__readme__"})


@pytest.mark.parametrize("line,code", SQL, ids=[f"README.md:{n}" for n, _ in SQL])
def test_sql_block(line: int, code: str, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    duckdb = pytest.importorskip("duckdb")
    monkeypatch.chdir(workdir)
    con = duckdb.connect()
    statements = [s for s in re.sub(r"--[^\n]*", "", code).split(";") if s.strip()]
    assert statements
    for s in statements:
        rows = con.sql(s).fetchall()
        assert rows, f"README.md:{line}: no rows from {s.strip()[:60]!r}"
