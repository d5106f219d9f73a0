"""The code blocks of README.md and of every page under docs/ run, so that the
documentation stays true (docs/testing.md states the convention).

Each page runs in a fresh directory holding data/cromwell-random (written by
`patience generate --episodes 20`, as after the README's first command) and a
link to the repository's models/, its blocks in order:

- ```python blocks are executed, each in its own namespace;
- ```sql blocks run in DuckDB, and every statement must return rows;
- ```go blocks that are whole programs (``package main``) are compiled inside
  the module (through ``go run -overlay``) and run; other Go blocks are
  fragments and are not run;
- ```sh, ```bash and ```console blocks (in console, the lines after ``$ ``)
  run command by command: ``patience ...`` and ``go run ./cmd/patience ...``
  with the freshly built binary, made small by ``shrink`` and with no
  standard input; the commands CI itself runs (``make test``, ``make docs``)
  are left to CI; any other command fails the test.

A block that is not meant to run has ``<!-- not run: the reason -->`` on the
line before it, or is fenced as ```text.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUNNABLE = {"python", "sql", "go", "sh", "bash", "console"}
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(.*?)\s*-->$")
FENCE = re.compile(r"^(`{3,})([\w+-]*)\s*$")
# Commands that CI runs itself (.ci/run); a page may show them without a mark.
CI_COMMANDS = {"make test", "make docs"}
EPISODES = "20"  # the dataset every page starts from, and every generate's size
QUICK_GAMES = "fourquarters,limited"  # bench's games where a command names none (mc: 0.05-0.15 s a game)


@dataclass
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int  # the line of its opening fence, from 1
    lang: str
    code: str
    not_run: str | None  # the reason given in a not-run mark, if any

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def parse(page: Path) -> list[Block]:
    """The fenced blocks of a page, with the not-run mark before each."""
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m[1], m[2], i
        i += 1
        body = []
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        prev = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        mark = NOT_RUN.match(prev)
        blocks.append(Block(page, start + 1, lang, "\n".join(body) + "\n", mark[1] if mark else None))
        i += 1
    return blocks


BLOCKS = {page: parse(page) for page in PAGES}
RUN_PAGES = [p for p, bs in BLOCKS.items() if any(b.lang in RUNNABLE and b.not_run is None for b in bs)]


def commands(block: Block) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments and
    blank lines dropped; in a console block only the lines after '$ '."""
    text = block.code.replace("\\\n", " ")
    out = []
    for line in text.split("\n"):
        if block.lang == "console":
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    return out


def _set(argv: list[str], flag: str, value: str, only_if=None) -> None:
    """Sets --flag to value (replacing --flag V or --flag=V, or appending);
    with only_if, replaces an existing value only when only_if(old) holds."""
    for i, a in enumerate(argv):
        if a == flag and i + 1 < len(argv):
            if only_if is None or only_if(argv[i + 1]):
                argv[i + 1] = value
            return
        if a.startswith(flag + "="):
            if only_if is None or only_if(a.split("=", 1)[1]):
                argv[i] = f"{flag}={value}"
            return
    argv += [flag, value]


def _above(n: int):
    return lambda v: not v.isdigit() or int(v) > n


def shrink(argv: list[str]) -> list[str]:
    """A patience command made small enough for a test, keeping what it
    shows: at most 20 episodes, 1 deal for bench (of two quick games where it
    names none; a protocol's bench as it is) and 2 for solve and label, a 20k-node budget, 3 games for
    check, 200 ms for speed."""
    argv = list(argv)
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "generate":
        _set(argv, "--episodes", EPISODES)
    elif cmd == "bench" and "--protocol" in argv:
        pass  # the protocol fixes the deals and refuses --deals: a page runs only the quick agents' protocol
    elif cmd == "bench":
        _set(argv, "--deals", "1")
        _set(argv, "--games", QUICK_GAMES, lambda v: v == "all")
    elif cmd == "solve":
        _set(argv, "--deals", "2", _above(2))
        _set(argv, "--budget", "20k")
    elif cmd == "label":
        _set(argv, "--deals", "2")
        _set(argv, "--per-deal", "2", _above(2))
    elif cmd == "check":
        _set(argv, "--games", "3")
    elif cmd == "speed":
        _set(argv, "--duration", "200ms")
    return argv


OUTPUT_FLAGS = ("--csv", "--json", "--plot", "--html", "--out")


def run_shell(block: Block, workdir: Path, cli: Path) -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    for line in commands(block):
        argv = shlex.split(line, comments=True)
        if not argv:
            continue
        if argv[:3] == ["go", "run", "./cmd/patience"]:
            argv = ["patience", *argv[3:]]
        if argv[0] != "patience":
            cmd = " ".join(argv)
            assert cmd in CI_COMMANDS, (
                f"{block.where}: `{cmd}` is neither a patience command nor one CI runs; "
                "mark the block <!-- not run: reason --> if it is not meant to run"
            )
            assert cmd in ci, f"{block.where}: `{cmd}` is said to run in CI, but .ci/run does not run it"
            continue
        argv = shrink(argv)
        for i, a in enumerate(argv[:-1]):
            if a in OUTPUT_FLAGS:
                (workdir / argv[i + 1]).parent.mkdir(parents=True, exist_ok=True)
        res = subprocess.run(
            [str(cli), *argv[1:]],
            check=False, cwd=workdir, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600,
        )
        assert res.returncode == 0, (
            f"{block.where}: `{' '.join(argv)}` exited {res.returncode}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
        )


def run_python(block: Block) -> None:
    exec(compile(block.code, block.where, "exec"), {"__name__": "__docs__"})


def run_sql(block: Block) -> None:
    import duckdb

    con = duckdb.connect()
    statements = [s for s in re.sub(r"--[^\n]*", "", block.code).split(";") if s.strip()]
    assert statements, f"{block.where}: no SQL statement"
    for s in statements:
        assert con.sql(s).fetchall(), f"{block.where}: no rows from {s.strip()[:60]!r}"


def run_go(block: Block, tmp: Path) -> None:
    """Compiles and runs a whole program inside the module: -overlay puts it
    at internal/docblock/main.go without writing into the repository."""
    src = tmp / "main.go"
    src.write_text(block.code)
    overlay = tmp / "overlay.json"
    overlay.write_text(json.dumps({"Replace": {str(ROOT / "internal" / "docblock" / "main.go"): str(src)}}))
    res = subprocess.run(
        ["go", "run", "-overlay", str(overlay), "./internal/docblock"],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert res.returncode == 0, f"{block.where}: go run failed\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"


@pytest.fixture(scope="module")
def dataset(patience_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/cromwell-random, as the README's first command writes it (smaller)."""
    d = tmp_path_factory.mktemp("data")
    subprocess.run([str(patience_cli), "generate", "--episodes", EPISODES], cwd=d, check=True, capture_output=True)
    assert (d / "data" / "cromwell-random" / "steps").is_dir()
    return d / "data"


@pytest.mark.filterwarnings("ignore::UserWarning:minari.utils")  # its advice to name an author, a description...
@pytest.mark.parametrize("page", RUN_PAGES, ids=[str(p.relative_to(ROOT)) for p in RUN_PAGES])
def test_page_blocks_run(
    page: Path, dataset: Path, patience_cli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = [b for b in BLOCKS[page] if b.lang in RUNNABLE and b.not_run is None]
    needed = set()
    for b in blocks:
        if b.lang == "python":
            needed |= set(re.findall(r"^(?:import|from) (\w+)", b.code, re.MULTILINE))
        if b.lang == "sql":
            needed.add("duckdb")
    for lib in sorted(needed):
        pytest.importorskip(lib)
    if any(b.lang == "go" for b in blocks) and shutil.which("go") is None:
        pytest.skip("the Go toolchain is needed for the Go blocks")
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(dataset, work / "data")
    (work / "models").symlink_to(ROOT / "models")
    (work / "deals").symlink_to(ROOT / "deals")  # the shipped verdict tables
    # the protocol's result files, copied (a block may write under results/)
    shutil.copytree(ROOT / "results" / "protocol-v1", work / "results" / "protocol-v1")
    monkeypatch.chdir(work)
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))
    monkeypatch.setenv("PATH", f"{patience_cli.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    ran = 0
    for b in blocks:
        if b.lang == "python":
            run_python(b)
        elif b.lang == "sql":
            run_sql(b)
        elif b.lang == "go":
            if not re.search(r"^package main$", b.code, re.MULTILINE):
                continue  # a fragment of a program, not a program
            run_go(b, tmp_path)
        else:
            run_shell(b, work, patience_cli)
        ran += 1
    assert ran, f"{page}: no block ran"


def test_not_run_marks_give_a_reason_and_mark_a_block() -> None:
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        marked = {b.line for b in BLOCKS[page] if b.not_run is not None}
        for i, line in enumerate(lines):
            if "not run" in line and line.strip().startswith("<!--"):
                m = NOT_RUN.match(line.strip())
                assert m and m[1], f"{page.name}:{i + 1}: write <!-- not run: the reason -->"
                nxt = next(j for j in range(i + 1, len(lines)) if lines[j].strip())
                assert nxt + 1 in marked, f"{page.name}:{i + 1}: a not-run mark must stand just before a code block"


def test_blocks_cover_the_readers_and_libraries() -> None:
    code = "\n".join(b.code for bs in BLOCKS.values() for b in bs if b.lang == "python" and b.not_run is None)
    for lib in ("gymnasium", "patience_gym", "pandas", "polars", "pyarrow", "minari", "sb3_contrib", "torch"):
        assert re.search(rf"^(?:import|from) {lib}\b", code, re.MULTILINE), f"no runnable block imports {lib}"
    langs = {b.lang for bs in BLOCKS.values() for b in bs if b.not_run is None}
    assert {"sql", "go", "sh"} <= langs


def test_shrink_keeps_a_command_small() -> None:
    assert shrink(["patience", "generate"]) == ["patience", "generate", "--episodes", EPISODES]
    assert shrink(["patience", "bench", "--deals", "300"]) == ["patience", "bench", "--deals", "1", "--games", QUICK_GAMES]
    assert shrink(["patience", "bench", "--games", "cromwell"])[3] == "cromwell"
    proto = ["patience", "bench", "--protocol", "v1", "--games", "all", "--agents", "random"]
    assert shrink(proto) == proto  # the protocol fixes the deals and refuses --deals
    assert shrink(["patience", "solve", "x", "--deals=1000", "--budget", "10s"]) == [
        "patience", "solve", "x", "--deals=2", "--budget", "20k",
    ]
    assert shrink(["patience", "solve", "x", "--deals", "1"])[4] == "1"
    assert shrink(["patience", "label", "x", "--per-deal", "40"]) == ["patience", "label", "x", "--per-deal", "2", "--deals", "2"]


def _headline(text: str) -> list[str]:
    """The tables of the two headline sections: how strong, how fast."""
    start = text.index("## How strong are the agents")
    fast = text.index("## How fast is it", start)
    section = text[start : text.index("\n## ", fast + 3)]
    return [line for line in section.split("\n") if line.startswith("|")]


def test_front_pages_show_one_headline_table() -> None:
    readme = _headline((ROOT / "README.md").read_text(encoding="utf-8"))
    site = _headline((ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
    assert readme and readme == site, "README.md and docs/index.md must show the same headline tables"


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", ["README.md", "results/README.md", "models/README.md"])
def test_relative_links_outside_the_site_resolve(page: str) -> None:
    """mkdocs --strict checks the links of docs/; these pages are read on the
    code host, so their relative links are checked here."""
    path = ROOT / page
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        file = (path.parent / target.split("#")[0]).resolve()
        assert file.exists(), f"{page}: the link {target} leads nowhere"
