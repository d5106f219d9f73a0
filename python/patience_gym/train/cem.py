"""The cross-entropy method over a linear value correction
(``python -m patience_gym.train cem``).

The model is a value file (docs/models.md) with no hidden layer and an
evaluation weight equal to the game's card count: the Go policy agent scores
the position after each legal move by the heuristic's score (the game's
evaluation, with its win bonus, dead-end penalty and repeat cost) plus a
linear function of the one-hot observation, in the same units (cards). The
linear function has two parameters per observation segment (env.Spec's
segments): a weight on the number of its cells that are not empty, and a
weight on the sum of their values (a card's rank for card cells, the count
for counter cells). With ``--features ranks`` a card segment has a weight per
rank instead of the one on the sum of ranks (a weight on its non-empty cells
and thirteen on its cards of each rank), so the correction can value, say,
the kings left in a tableau apart from the queens. With ``+terms``
(``--features ranks+terms``, or ``terms`` alone) the parameters also weigh
the game's evaluation terms (GameSpec.terms: Cromwell's cards lying on the
cards the foundations need next, say), which are no linear function of the
observation; the file holds them as its ``eval_terms``. All parameters at 0
play exactly as the heuristic ranks. ``--init FILE`` starts the
distribution's mean at the parameters of an earlier run's file, by name.
``--lookahead-samples K`` (a game with hidden cards) writes
``lookahead_samples`` K into every file, so that candidates are judged as
they will be played: each move scored by its mean over K copies of the
position with the hidden cards reshuffled (docs/models.md).

The cross-entropy method (Rubinstein 1999; Szita and Lőrincz 2006 for
Tetris) draws a population of parameter vectors from a normal distribution,
plays each on the same training deals with the Go policy agent, and refits
the distribution to the best few. It learns from whole games' final
progress only, so it needs no labels and no gradient through the game.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from .._lib import GameSpec, game_spec
from .config import RunConfig
from .curve import Curve, progress
from .evaluation import EvalResult, evaluate_agent
from .model_file import check_safetensors, export_model
from .model_meta import MAX_LOOKAHEAD_SAMPLES
from .net import PolicyNet

__all__ = ["FEATURES", "CEMConfig", "cem", "init_parameters", "linear_model", "parameter_names", "segment_features"]

CARD_RANKS = 13
FACE_DOWN = 53
RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
FEATURES = ("segments", "ranks", "terms", "segments+terms", "ranks+terms")
"""The parameter sets --features chooses from: two per segment, or per rank
in card segments; with +terms (or terms alone) a weight per evaluation
term as well."""
TERM_PREFIX = "term."
"""What the name of a term's parameter begins with ("term.next_buried")."""


def _check_features(features: str) -> None:
    if features not in FEATURES:
        raise ValueError(f"cem: --features {features!r}: want one of {', '.join(FEATURES)}")


def _onehot_part(features: str) -> str:
    """The one-hot parameter set of features: "segments", "ranks" or ""."""
    return "" if features == "terms" else features.removesuffix("+terms")


def segment_features(spec: GameSpec, features: str = "segments") -> NDArray[np.float64]:
    """The (one_hot_len, parameters) matrix that maps the parameters (named
    by parameter_names) to the weight of each one-hot input. For the input
    "cell c holds value v" of a segment: its "cells" column is 1 when v is
    not 0 (the cell is not empty); its "values" column is v's value (a
    card's rank 1-13 for card cells, 0 for an empty or face-down card; v
    itself for counters). With features "ranks", a card segment has instead
    of "values" a column per rank, 1 when v is a card of that rank. The
    layout is env.Spec.OneHot's: segments by offset, each cell's max+1
    inputs."""
    _check_features(features)
    segs = sorted(spec.segments, key=lambda s: s.offset)
    f = np.zeros((spec.one_hot_len, len(parameter_names(spec, features))))
    part = _onehot_part(features)
    if not part:
        return f  # the terms alone: no one-hot weight
    o, col = 0, 0
    for seg in segs:
        v = np.arange(seg.max + 1)
        per_rank = seg.card and part == "ranks"
        if seg.card:
            val = np.where((v == 0) | (v == FACE_DOWN), 0, (v - 1) % CARD_RANKS + 1)
        else:
            val = v
        for _ in range(seg.len):
            rows = slice(o, o + seg.max + 1)
            f[rows, col] = v != 0
            if per_rank:
                for r in range(CARD_RANKS):
                    f[rows, col + 1 + r] = val == r + 1
            else:
                f[rows, col + 1] = val
            o += seg.max + 1
        col += 1 + (CARD_RANKS if per_rank else 1)
    if o != spec.one_hot_len:
        raise AssertionError(f"{spec.name}: one-hot length {o}, spec says {spec.one_hot_len}")
    return f


def parameter_names(spec: GameSpec, features: str = "segments") -> list[str]:
    """The names of the parameters, in order, per segment: "SEGMENT.cells"
    and "SEGMENT.values", or with features "ranks", for a card segment,
    "SEGMENT.cells" and "SEGMENT.A" to "SEGMENT.K"; then with +terms (or
    terms alone) "term.NAME" for each of the game's evaluation terms."""
    _check_features(features)
    part = _onehot_part(features)
    names = []
    for seg in sorted(spec.segments, key=lambda s: s.offset) if part else ():
        if seg.card and part == "ranks":
            names += [f"{seg.name}.cells"] + [f"{seg.name}.{r}" for r in RANK_NAMES]
        else:
            names += [f"{seg.name}.cells", f"{seg.name}.values"]
    if features.endswith("terms"):
        if not spec.terms:
            raise ValueError(f"cem: --features {features}: {spec.name}'s evaluation has no named terms")
        names += [TERM_PREFIX + t.name for t in spec.terms]
    return names


def init_parameters(path: str | Path, spec: GameSpec, names: list[str]) -> NDArray[np.float64]:
    """The parameters of an earlier cem file (its cem_parameters metadata)
    in the order of names; a name the file lacks starts at 0. A file of
    another game, or one with none of the names, is refused."""
    if not Path(path).is_file():
        raise ValueError(f"cem: --init {path}: no such file")
    meta = check_safetensors(path)
    if meta.get("game") != spec.name:
        raise ValueError(f"cem: --init {path} is a file of {meta.get('game')}, not {spec.name}")
    if "cem_parameters" not in meta:
        raise ValueError(f"cem: --init {path}: not a cem file (its metadata has no cem_parameters)")
    old = json.loads(meta["cem_parameters"])
    if not set(old) & set(names):
        raise ValueError(f"cem: --init {path}: none of its parameters ({', '.join(sorted(old))}) is one of this run's")
    return np.array([float(old.get(n, 0.0)) for n in names])


@dataclass
class CEMConfig(RunConfig):
    """The cross-entropy method's settings (the command line's flags; with
    RunConfig's, init an earlier cem file whose parameters start the mean)."""

    eval_deals: int = 1000
    game: str = "royalparade"
    features: str = "segments"
    deals: int = 500
    seed_start: int = 100_000
    population: int = 16
    elite: int = 4
    generations: int = 10
    sigma: float = 0.1
    noise: float = 0.01
    max_steps: int = 0
    resume: bool = False
    lookahead_samples: int = 1


def linear_model(spec: GameSpec, features: NDArray[np.float64], params: NDArray[np.float64], path: Path, command: str,
                 extra: dict[str, str], names: list[str] | None = None) -> Path:
    """Writes the value file of a parameter vector: one-hot weights
    features·params (in cards), evaluation weight the card count. names
    are the parameters' (default: parameter_names(spec), the two per
    segment)."""
    net = PolicyNet(spec, (), 1)
    with torch.no_grad():
        net.first.weight.copy_(torch.from_numpy(features @ params).float().unsqueeze(1))
        net.first_bias.zero_()
    # The rows of value 0 are 0 by construction (an empty cell adds nothing).
    names = names or parameter_names(spec)
    if len(names) != len(params):
        raise ValueError(f"cem: {len(params)} parameters for {len(names)} names")
    meta = {"eval_weight": str(spec.cards), "objective": "cem",
            "cem_parameters": json.dumps(dict(zip(names, (round(float(x), 6) for x in params))))} | extra
    terms = {n.removeprefix(TERM_PREFIX): float(x) for n, x in zip(names, params) if n.startswith(TERM_PREFIX)}
    if terms:
        meta["eval_terms"] = json.dumps(terms)
    return export_model(net, path, command, dtype="f32", extra=meta)


def cem(cfg: CEMConfig) -> Path:
    """Runs the cross-entropy method; returns the path of the best file (by
    mean final progress on the evaluation deals). Writes in the run
    directory: model.safetensors (the distribution's mean after the last
    generation), best.safetensors, curve.csv/png, state.json (enough to go
    on with --resume after a crash) and config.json."""
    spec = game_spec(cfg.game)
    cfg.game = spec.name
    if cfg.elite < 1 or cfg.population < cfg.elite:
        raise ValueError(f"cem: --elite {cfg.elite} must be from 1 to --population {cfg.population}")
    if cfg.deals < 1 or cfg.generations < 0 or not cfg.sigma > 0:
        raise ValueError("cem: --deals must be at least 1, --generations at least 0 and --sigma above 0")
    if not 1 <= cfg.lookahead_samples <= MAX_LOOKAHEAD_SAMPLES:
        raise ValueError(f"cem: --lookahead-samples {cfg.lookahead_samples}: want 1 to {MAX_LOOKAHEAD_SAMPLES}")
    if cfg.lookahead_samples > 1 and not spec.hidden:
        raise ValueError(f"cem: --lookahead-samples {cfg.lookahead_samples}: {spec.name} has no hidden cards, "
                         "so one copy of a position is the position itself")
    looks = {"lookahead_samples": str(cfg.lookahead_samples)} if cfg.lookahead_samples > 1 else {}
    if cfg.seed_start + cfg.deals > 1_000_000:
        raise ValueError(f"cem: training deals {cfg.seed_start}..{cfg.seed_start + cfg.deals - 1} reach the measuring range "
                         "(from 1,000,000)")
    train = np.arange(cfg.seed_start, cfg.seed_start + cfg.deals, dtype=np.int64)
    deals = cfg.evaluation_deals()
    if len(np.intersect1d(train, deals)):
        raise ValueError("cem: the training deals overlap the evaluation deals")
    out = Path(cfg.out or f"runs/cem-{spec.name}-s{cfg.seed}")
    out.mkdir(parents=True, exist_ok=True)
    features = segment_features(spec, cfg.features)
    dim = features.shape[1]
    names = parameter_names(spec, cfg.features)
    max_steps = cfg.max_steps or None
    state_path = out / "state.json"
    resumed: dict[str, Any] | None = None
    if cfg.resume:
        if not state_path.is_file():
            raise ValueError(f"cem: --resume: no {state_path}")
        resumed = json.loads(state_path.read_text())
        was, k = resumed.get("features", "segments"), resumed.get("lookahead_samples", 1)
        if resumed["game"] != spec.name or resumed["dim"] != dim or was != cfg.features or k != cfg.lookahead_samples:
            raise ValueError(f"cem: {state_path} is a run of {resumed['game']} with {resumed['dim']} parameters "
                             f"(--features {was}, --lookahead-samples {k})")
    refs = cfg.reference_lines(spec.name, out)
    curve = Curve(out, spec.name, "training games played", refs,
                  f"{spec.title}: cross-entropy method, {dim} parameters, population {cfg.population}, elite {cfg.elite}",
                  line="the distribution's mean (Go policy agent)")

    rng = np.random.default_rng(cfg.seed)
    mu, sd = np.zeros(dim), np.full(dim, cfg.sigma)
    if cfg.init and not cfg.resume:
        mu = init_parameters(cfg.init, spec, names)
    gen0, games, best = 0, 0, -math.inf
    t_start = time.perf_counter()
    if resumed is not None:
        st = resumed
        mu, sd = np.array(st["mu"]), np.array(st["sd"])
        gen0, games, best = st["generation"], st["games"], st["best"]
        rng.bit_generator.state = st["rng"]
        curve.rows = st["curve"]
        t_start -= st["seconds"]
        progress(f"cem: resuming {out} after generation {gen0}", end=True)
    cfg.write(out)

    def play(params: NDArray[np.float64], seeds: NDArray[np.int64], name: str, extra: dict[str, str]) -> EvalResult:
        path = linear_model(spec, features, params, out / name, cfg.command, extra | {"cem_features": cfg.features} | looks, names)
        return evaluate_agent(spec.name, f"policy:model={path.resolve()}", seeds, max_steps=max_steps)

    def save_state(gen: int) -> None:
        st = {"game": spec.name, "features": cfg.features, "lookahead_samples": cfg.lookahead_samples, "dim": dim,
              "generation": gen, "games": games, "best": best, "mu": mu.tolist(),
              "sd": sd.tolist(), "rng": rng.bit_generator.state, "curve": curve.rows,
              "seconds": time.perf_counter() - t_start, "parameters": dict(zip(names, mu.tolist()))}
        tmp = state_path.with_name("state.json.tmp")
        tmp.write_text(json.dumps(st, indent=1))
        tmp.replace(state_path)

    def evaluate_mean(gen: int, train_return: float) -> None:
        nonlocal best
        extra = {"generation": str(gen), "training_deals": f"{train[0]}..{train[-1]}"}
        r = play(mu, deals, "model.safetensors", extra)
        ev = r.mean_return
        curve.add({"step": float(games), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": ev,
                   "win_rate": r.win_rate, "train_return": train_return, "eval_seconds": round(r.seconds, 1)})
        if ev > best:
            best = ev
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        progress(f"generation {gen}: mean return {ev:.4f} on {len(deals)} evaluation deals, {train_return:.4f} on the "
                  f"training deals" + "".join(f"; {k} {v['mean_return']:.4f}" for k, v in refs.items()), end=True)

    if gen0 == 0:
        evaluate_mean(0, play(mu, train, "candidate-0.safetensors", {}).mean_return)
        (out / "candidate-0.safetensors").unlink(missing_ok=True)
        save_state(0)
    for gen in range(gen0 + 1, cfg.generations + 1):
        cands = mu + sd * rng.standard_normal((cfg.population, dim))
        scores = np.zeros(cfg.population)
        for i, p in enumerate(cands):
            progress(f"generation {gen}/{cfg.generations}: candidate {i + 1}/{cfg.population}")
            # A new name for each file: the Go agents' model cache knows a
            # file by its path, size and time.
            name = f"candidate-{gen}-{i}.safetensors"
            scores[i] = play(p, train, name, {}).mean_return
            (out / name).unlink(missing_ok=True)
            games += len(train)
        order = np.argsort(-scores, kind="stable")
        top = cands[order[: cfg.elite]]
        mu = top.mean(0)
        sd = top.std(0) + cfg.noise
        evaluate_mean(gen, float(scores[order[: cfg.elite]].mean()))
        save_state(gen)
    if not (out / "best.safetensors").is_file():
        shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
    return out / "best.safetensors"

