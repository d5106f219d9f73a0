"""Learning from the solver (``python -m patience_gym.train winnable``): a
value network that says how likely a position is to be won, trained on the
solver's verdicts that ``patience label --solver`` writes, and played by the
Go policy agent by a one-step look-ahead.

The network's output is the logit of the share of the position's worlds
the solver can win (in a game of perfect information: 1 for a winnable
position, 0 for a lost one), learnt by the binary cross-entropy. The file
says ``value_link = logsigmoid``: the agent scores the position each legal
move leads to by log P(won) plus ``eval_weight`` times the game's
evaluation over its cards (with the heuristic's win bonus, dead-end
penalty and repeat cost), so that it keeps its games winnable first and
makes progress among the moves that do. With ``--stacks`` the network
reads the columns of the game turned over (the playable card first) and,
by default, sorted, so that the order of the columns (which the rules
ignore) does not matter (docs/models.md).
"""

from __future__ import annotations

import copy
import json
import math
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray

from .._lib import GameSpec, game_spec
from .config import RowsConfig
from .curve import Curve, progress, reference_summary
from .data import check_same_game, held_out, label_parts
from .defaults import DEFAULTS
from .evaluation import evaluate_agent
from .loop import steps_per_epoch, train_epochs
from .model_file import export_model, load_model
from .net import PolicyNet, arrange_stacks, group_log_softmax, parse_stacks

__all__ = ["KINDS", "STACKS", "SolverLabels", "WinnableConfig", "read_solver_labels", "winnable"]

STACKS = {"fifteen": "0:15:31", "cromwell": "0:26:28"}
"""Each game's columns as stack groups (docs/models.md), for --stacks auto."""

KINDS = ("path", "child", "line")
"""The kinds of rows of patience label --solver."""


@dataclass
class WinnableConfig(RowsConfig):
    """The settings of a run (with RowsConfig's; init is a value file to
    start from, hidden's default 256,256). The rows are read from ``labels`` (the
    directories of ``patience label --solver``), those of kinds ``kinds``,
    rows whose every search ran out of budget left out, and rows inside a
    move of several actions too (the agent never scores those). Child rows
    weigh ``child_weight``; the rest 1. A share ``val_frac`` of the deals is
    held out. With ``rank_weight`` the loss adds, for ``rank_groups``
    training positions with won and lost children a step, minus the log of
    the softmax mass of their won children: over the logits, or with
    ``rank_eval`` over the agent's scores (log σ of the logit plus
    ``eval_weight`` times the evaluation), so that the network learns the
    correction the heuristic's ranking needs. The agent plays the files with ``eval_weight``; with
    ``tune_weights`` the best file is played again with each weight on the
    evaluation deals and the best weight kept. With ``value_floor`` f the
    files say so: the agent scores min(0, log σ(z) − log f), so that the
    network only vetoes the moves it thinks won with a chance below f."""

    weight_decay: float = 1e-4
    labels: list[str] = field(default_factory=list)
    stacks: str = "auto"
    sort_stacks: bool = True
    kinds: str = "path,child,line"
    child_weight: float = 2.0
    rank_weight: float = 0.0
    rank_groups: int = 16
    rank_eval: bool = False
    epochs: int = 6
    batch: int = 256
    eval_weight: float = 10.0
    value_floor: float = 0.0
    tune_weights: str = ""
    resume: bool = False


@dataclass
class SolverLabels:
    """The rows of ``patience label --solver`` outputs: each position's
    observation, the share of its decided worlds won (the target), the
    number of worlds decided, its kind (an index of KINDS), its deal, its
    parent's row number (-1 for none; below -1, a parent that was not read,
    numbered apart so that its children still share it), the distance to a win found (-1) and
    the heuristic's score of it over the game's cards (the evaluation, with
    the win bonus or the dead-end penalty of a finished game), which the
    Go agent adds eval_weight times to the network's log-probability."""

    game: str
    obs: NDArray[np.uint8]
    target: NDArray[np.float32]
    decided: NDArray[np.int32]
    kind: NDArray[np.int8]
    deal: NDArray[np.int64]
    parent: NDArray[np.int64]
    distance: NDArray[np.int32]
    score: NDArray[np.float32]


WIN_BONUS, DEAD_PENALTY = 1e6, 1e3
"""The heuristic's score of a won and of a lost game beyond its evaluation
(agents/greedy.go), in the evaluation's units."""


def read_solver_labels(dirs: list[str], kinds: tuple[str, ...] = KINDS) -> SolverLabels:
    """Reads the rows of kinds ``kinds`` of one or more ``patience label
    --solver`` outputs of one game, leaving out the rows no search decided
    and the rows inside a move of several actions."""
    import pyarrow.parquet as pq

    from ..datasets import DatasetError, _fixed

    game = ""
    names_ = ("obs", "target", "decided", "kind", "deal", "parent", "distance", "score")
    cols: dict[str, list[Any]] = {k: [] for k in names_}
    offset, missing = 0, -1
    for f, meta in label_parts(dirs, "patience label --solver"):
        if "nodes" not in meta or "worlds" not in meta:
            raise DatasetError(f"{f}: not the output of patience label --solver (no solver budget in its metadata)")
        game = check_same_game(game, meta, f)
        spec = game_spec(game)
        names = set(pq.read_schema(f).names)
        want = ["position", "parent", "kind", "deal", "obs", "worlds", "wins", "unknown", "distance", "eval", "terminal"]
        t = pq.read_table(f, columns=want + (["inside"] if "inside" in names else []))
        pos = t.column("position").to_numpy()
        kind = np.array([KINDS.index(k) if k in KINDS else -1 for k in t.column("kind").to_pylist()], np.int8)
        worlds, wins, unknown = (t.column(c).to_numpy().astype(np.int32) for c in ("worlds", "wins", "unknown"))
        decided = worlds - unknown
        keep = (decided > 0) & np.isin(kind, [KINDS.index(k) for k in kinds])
        if "inside" in names:
            keep &= ~t.column("inside").to_numpy(zero_copy_only=False).astype(np.bool_)
        # Parents by row number across the files; a parent that was left
        # out (or another kind) gets a number of its own below -1, so
        # that its children still group together.
        par = t.column("parent").to_numpy()
        kept_pos = pos[keep]
        row_of = {int(p): offset + i for i, p in enumerate(kept_pos)}
        for p in np.unique(par[keep]):
            if p >= 0 and int(p) not in row_of:
                missing -= 1
                row_of[int(p)] = missing
        cols["parent"].append(np.array([row_of.get(int(p), -1) for p in par[keep]], np.int64))
        cols["obs"].append(_fixed(t.column("obs"), spec.obs_len, "obs")[keep])
        cols["target"].append((wins[keep] / decided[keep]).astype(np.float32))
        cols["decided"].append(decided[keep])
        cols["kind"].append(kind[keep])
        cols["deal"].append(t.column("deal").to_numpy()[keep].astype(np.int64))
        cols["distance"].append(t.column("distance").to_numpy()[keep].astype(np.int32))
        terminal = t.column("terminal").to_numpy(zero_copy_only=False).astype(np.bool_)
        end = np.where(wins > 0, WIN_BONUS, -DEAD_PENALTY) / spec.cards
        cols["score"].append((t.column("eval").to_numpy() + np.where(terminal, end, 0.0))[keep].astype(np.float32))
        offset += int(keep.sum())
    if not game:
        raise ValueError("winnable: no --labels given")
    return SolverLabels(game, *(np.concatenate(cols[k]) for k in names_))


def stack_groups(cfg: WinnableConfig, spec: GameSpec) -> tuple[tuple[int, int, int], ...]:
    """The stack groups of --stacks: the game's (auto), none, or given."""
    if cfg.stacks == "none":
        return ()
    if cfg.stacks == "auto":
        return parse_stacks(STACKS[spec.name]) if spec.name in STACKS else ()
    return parse_stacks(cfg.stacks)


def sibling_accuracy(z: NDArray[np.float32], lab: SolverLabels, rows: NDArray[np.int64]) -> tuple[float, int]:
    """Among the child rows in rows, grouped by parent, the groups with both
    a won and a lost child: the share whose highest-scored child (by z, one
    score per row of rows) is won, and how many such groups there are (the
    decisions that matter)."""
    child = rows[lab.kind[rows] == KINDS.index("child")]
    if len(child) == 0:
        return math.nan, 0
    par, y, s = lab.parent[child], lab.target[child], z[np.searchsorted(rows, child)]
    hits, n = 0, 0
    order = np.argsort(par, kind="stable")
    par, y, s = par[order], y[order], s[order]
    cut = np.flatnonzero(np.diff(par)) + 1
    for ys, ss in zip(np.split(y, cut), np.split(s, cut)):
        if ys.max() > ys.min():
            n += 1
            hits += int(ys[int(np.argmax(ss))] == ys.max())
    return (hits / n if n else math.nan), n


def winnable(cfg: WinnableConfig) -> Path:
    """Trains a value network on the solver's labels and returns the path
    of the best file, judged by the Go policy agent's wins (then mean
    return) on the evaluation deals."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    kinds = tuple(k.strip() for k in cfg.kinds.split(",") if k.strip())
    if any(k not in KINDS for k in kinds):
        raise ValueError(f"winnable: --kinds {cfg.kinds!r}: want some of {', '.join(KINDS)}")
    lab = read_solver_labels(cfg.labels, kinds)
    spec = game_spec(lab.game)
    groups = stack_groups(cfg, spec)
    d = DEFAULTS[spec.name]
    cfg.dtype = cfg.dtype or d.dtype
    if cfg.init:
        net, _ = load_model(cfg.init, spec.name)
        if net.linear_layers()[-1].out_features != 1:
            raise ValueError(f"winnable: {cfg.init} is not a value network")
        groups, cfg.sort_stacks = net.stacks, net.sort_stacks
        cfg.hidden, cfg.card_dim = net.hidden, net.card_dim
    else:
        cfg.hidden = cfg.hidden or (256, 256)
        cfg.card_dim = d.card_dim if cfg.card_dim < 0 else cfg.card_dim
        net = PolicyNet(spec, cfg.hidden, 1, card_dim=cfg.card_dim, stacks=groups, sort_stacks=cfg.sort_stacks)
        with torch.no_grad():  # start at the labels' mean
            p = float(np.clip(lab.target.mean(), 1e-3, 1 - 1e-3))
            net.linear_layers()[-1].bias.fill_(math.log(p / (1 - p)))
    obs = np.concatenate([arrange_stacks(lab.obs[s : s + 65536], groups, net.sort_stacks)
                          for s in range(0, len(lab.obs), 65536)]) if groups else lab.obs
    deals = np.unique(lab.deal)
    val_deals = held_out(deals, cfg.val_frac, rng)
    is_val = np.isin(lab.deal, val_deals)
    tr, va = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    weight = np.where(lab.kind == KINDS.index("child"), cfg.child_weight, 1.0).astype(np.float32)
    t_obs, t_y, t_w = torch.from_numpy(obs), torch.from_numpy(lab.target), torch.from_numpy(weight)
    t_score = torch.from_numpy(lab.score)
    # The training positions whose children are some won and some lost: each child's row, by parent.
    child = tr[lab.kind[tr] == KINDS.index("child")]
    child = child[np.argsort(lab.parent[child], kind="stable")]
    cut = np.flatnonzero(np.diff(lab.parent[child])) + 1
    mixed = [g for g in np.split(child, cut) if len(g) and lab.target[g].max() > lab.target[g].min()]

    out = Path(cfg.out or f"runs/winnable-{spec.name}-s{cfg.seed}")
    cfg.write(out)
    ev_deals = cfg.evaluation_deals()
    refs = cfg.reference_lines(lab.game, out)
    curve = Curve(out, lab.game, "labelled positions seen", refs,
                  f"{spec.title}: winnable from {', '.join(Path(p).name for p in cfg.labels)} "
                  f"({len(lab.target):,} positions), hidden {','.join(map(str, cfg.hidden))}",
                  line="value network on the solver's verdicts (one-step look-ahead, Go agent)")
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    total = steps_per_epoch(len(tr), cfg.batch) * cfg.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.5 * (1 + math.cos(math.pi * min(s, total) / total)))
    state: dict[str, Any] = {"epoch": 0, "seen": 0, "best": (-1.0, -1.0), "best_net": None}
    ckpt = out / "checkpoint.pt"
    if cfg.resume and ckpt.is_file():
        c = torch.load(ckpt, weights_only=False)
        net.load_state_dict(c["net"])
        opt.load_state_dict(c["opt"])
        sched.load_state_dict(c["sched"])
        rng = c["rng"]
        state = c["state"]
        progress(f"winnable: resumed from {ckpt} after epoch {state['epoch']}", end=True)
    print(f"winnable: {spec.name}, {len(lab.target):,} positions of {len(deals):,} deals ({len(va):,} held out); "
          f"won share {lab.target.mean():.3f}; kinds {dict(zip(KINDS, np.bincount(lab.kind, minlength=3).tolist()))}; "
          f"stacks {groups or 'none'}{' sorted' if groups and net.sort_stacks else ''}; "
          f"{len(mixed):,} training positions with won and lost children", file=sys.stderr)

    def val_stats() -> dict[str, float]:
        net.eval()
        zs = []
        with torch.no_grad():
            for s in range(0, len(va), 4096):
                zs.append(net.forward_arranged(t_obs[va[s : s + 4096]])[:, 0])
        net.train()
        if not zs:
            return {}
        z = torch.cat(zs)
        y = t_y[va]
        bce = float(F.binary_cross_entropy_with_logits(z, y))
        acc = float(((z > 0).float() == (y > 0.5).float()).float().mean())
        sib, groups_n = sibling_accuracy(z.numpy(), lab, va)
        # As the agent ranks them: log σ(z) plus the weighted evaluation; and the evaluation alone.
        agent, _ = sibling_accuracy((F.logsigmoid(z) + cfg.eval_weight * t_score[va]).numpy(), lab, va)
        heur, _ = sibling_accuracy(t_score[va].numpy(), lab, va)
        return {"val_bce": bce, "val_accuracy": acc, "val_sibling_accuracy": sib, "val_agent_sibling_accuracy": agent,
                "val_heuristic_sibling_accuracy": heur, "val_sibling_groups": float(groups_n)}

    def export(path: Path, src: PolicyNet, w: float, extra: dict[str, str]) -> Path:
        return export_model(src, path, cfg.command, dtype=cfg.dtype, trained_steps=0, extra={
            "value_link": "logsigmoid", "eval_weight": repr(float(w)), "objective": "winnable", "seed": str(cfg.seed),
            "labels": ",".join(cfg.labels), "labelled_positions": str(len(lab.target)),
            **({"value_floor": repr(cfg.value_floor)} if cfg.value_floor > 0 else {}), **extra})

    def do_eval(epoch: float, seen: int) -> None:
        vs = val_stats()
        extra = {"epochs": f"{epoch:g}", "eval_deals": f"{ev_deals[0]}..{ev_deals[-1]}"} | {k: f"{v:.4f}" for k, v in vs.items()}
        path = export(out / "model.safetensors", net, cfg.eval_weight, extra)
        r = evaluate_agent(spec.name, f"policy:model={path}", ev_deals)
        curve.add({"step": float(seen), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "eval_seconds": round(r.seconds, 1), "val_loss": vs.get("val_bce", math.nan)})
        if (r.win_rate, r.mean_return) > tuple(state["best"]):
            state["best"], state["best_net"] = (r.win_rate, r.mean_return), copy.deepcopy(net.state_dict())
            shutil.copyfile(path, out / "best.safetensors")
        progress(f"epoch {epoch:g}: " + ", ".join(f"{k} {v:.4f}" for k, v in vs.items()) +
                 f"; the Go agent wins {r.win_rate:.3f}, mean return {r.mean_return:.4f} on {len(ev_deals)} deals ({r.seconds:.0f}s)"
                 + reference_summary(refs), end=True)

    def loss_of(rows_: NDArray[np.int64]) -> tuple[torch.Tensor, int]:
        b = torch.from_numpy(rows_)
        z = net.forward_arranged(t_obs[b])[:, 0]
        loss = (F.binary_cross_entropy_with_logits(z, t_y[b], reduction="none") * t_w[b]).sum() / t_w[b].sum()
        if cfg.rank_weight > 0 and mixed:
            gs = [mixed[i] for i in rng.integers(0, len(mixed), cfg.rank_groups)]
            rows = torch.from_numpy(np.concatenate(gs))
            local = torch.from_numpy(np.repeat(np.arange(len(gs)), [len(g) for g in gs]))
            zr = net.forward_arranged(t_obs[rows])[:, 0]
            if cfg.rank_eval:
                zr = F.logsigmoid(zr) + cfg.eval_weight * t_score[rows]
            lp = group_log_softmax(zr, local, len(gs))
            won = t_y[rows] >= 0.5
            mass = torch.zeros(len(gs)).index_add_(0, local[won], torch.exp(lp[won]))
            loss = loss + cfg.rank_weight * -torch.log(mass.clamp_min(1e-12)).mean()
        return loss, len(b)

    def end_epoch(epoch: int, seen: int) -> None:
        state["epoch"], state["seen"] = epoch, seen
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "rng": rng, "state": state}, ckpt)

    t_start = time.perf_counter()
    if state["epoch"] == 0 and not cfg.resume:
        do_eval(0, 0)
    train_epochs(tr, cfg.batch, cfg.epochs, rng=rng, opt=opt, sched=sched, loss_of=loss_of, evaluate=do_eval,
                 evals_per_epoch=cfg.evals_per_epoch, what="winnable", unit="positions", t_start=t_start, every=50,
                 first_epoch=state["epoch"] + 1, seen=state["seen"], end_epoch=end_epoch)
    best = out / "best.safetensors"
    if cfg.tune_weights and state["best_net"] is not None:
        best_net = copy.deepcopy(net)
        best_net.load_state_dict(state["best_net"])
        results = {}
        for w in (float(x) for x in cfg.tune_weights.split(",") if x.strip()):
            path = export(out / f"weight-{w:g}.safetensors", best_net, w, {"eval_deals": f"{ev_deals[0]}..{ev_deals[-1]}"})
            r = evaluate_agent(spec.name, f"policy:model={path}", ev_deals)
            results[f"{w:g}"] = {"win_rate": r.win_rate, "mean_return": r.mean_return}
            progress(f"eval weight {w:g}: wins {r.win_rate:.3f}, mean return {r.mean_return:.4f}", end=True)
        (out / "tune.json").write_text(json.dumps(results, indent=1))
        top = max(results, key=lambda k: (results[k]["win_rate"], results[k]["mean_return"]))
        shutil.copyfile(out / f"weight-{top}.safetensors", best)
        progress(f"kept eval weight {top}", end=True)
    return best

