"""Value learning (``python -m patience_gym.train value``): a network that
scores the position after each move, trained on the moves ``patience
label`` labelled, and played by a one-step look-ahead (the Go policy agent
with a value file). With ``--choice`` it learns the agent's own choices as a
correction to the game's evaluation instead.
"""

from __future__ import annotations

import math
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray
from torch import nn

from .._lib import game_spec
from .config import RowsConfig
from .curve import Curve, progress, reference_summary
from .data import check_same_game, held_out, label_parts
from .defaults import start_net
from .evaluation import evaluate_agent
from .loop import steps_per_epoch, train_epochs
from .model_file import HEAD_VALUE, export_model, load_model
from .net import PolicyNet, group_log_softmax, group_max

__all__ = [
    "END_LOGIT",
    "TIE_EVAL_WEIGHT",
    "ChoiceScorer",
    "MoveRows",
    "ValueConfig",
    "group_log_softmax",
    "group_max",
    "read_move_rows",
    "top_ties",
    "value",
]


@dataclass
class ValueConfig(RowsConfig):
    """Value learning's settings (with RowsConfig's; val_frac is the share
    of positions held out, init a value file to start from). The rows are every legal move of sampled
    positions, each labelled with the final progress an agent reached when
    it played on after the move (``patience label``); the network learns
    to score the position after a move, by the mean squared error on the
    labels plus rank_weight times the same error on the labels' differences
    from their position's mean (what ranks the moves of one position).

    With ``choice`` it learns the agent's own choices instead (column
    ``chosen``; ``patience label --rollouts 0`` writes such rows cheaply): a
    move's logit is the network's output on the position after it plus a
    learnt weight times the game's evaluation there over its cards
    (``eval_weight`` is its start, 0: the game's card count, so one card of
    evaluation is one logit), and the loss is the cross-entropy of the
    softmax over each position's moves against the move chosen. The
    network starts with an output of exactly 0, so the untrained file plays
    as the heuristic ranks. The file records the weight (metadata
    eval_weight) and the Go agent adds the weighted evaluation, with the
    heuristic's win bonus, dead-end penalty and repeat cost. With
    ``ties_only`` only the positions where the agent chose one of several
    moves the evaluation ranks first are learnt, and the weight is fixed at
    TIE_EVAL_WEIGHT: the network breaks the evaluation's ties."""

    eval_deals: int = 100
    moves: list[str] = field(default_factory=list)
    epochs: int = 4
    batch_positions: int = 64
    rank_weight: float = 4.0
    choice: bool = False
    eval_weight: float = 0.0
    fixed_eval_weight: bool = False
    ties_only: bool = False


@dataclass
class MoveRows:
    """The rows of ``patience label`` outputs, ordered by position: the
    observation after each move, its label, its position (numbered 0..
    across the outputs), and for learning choices: the game's evaluation
    after the move over its cards, whether the agent chose it, and how the
    move ends the game (+1 won, -1 no move left, 0 not ended)."""

    game: str
    obs: NDArray[np.uint8]
    value: NDArray[np.float32]
    group: NDArray[np.int64]
    eval: NDArray[np.float32]
    chosen: NDArray[np.bool_]
    end: NDArray[np.int8]


def read_move_rows(dirs: Sequence[str]) -> MoveRows:
    """Reads the rows of one or more ``patience label`` outputs of one game."""
    import pyarrow.parquet as pq

    from ..datasets import DatasetError, _fixed

    game = ""
    obs, ys, groups, evals, chosen, ends = [], [], [], [], [], []
    offset = 0
    for f, meta in label_parts(dirs, "patience label"):
        if not meta:
            raise DatasetError(f"{f}: no patience metadata: not the output of patience label")
        game = check_same_game(game, meta, f)
        spec = game_spec(game)
        t = pq.read_table(f, columns=["position", "obs", "value", "eval", "chosen", "terminal"])
        pos = t.column("position").to_numpy()
        _, g = np.unique(pos, return_inverse=True)
        obs.append(_fixed(t.column("obs"), spec.obs_len, "obs"))
        y = t.column("value").to_numpy().astype(np.float32)
        ys.append(y)
        evals.append(t.column("eval").to_numpy().astype(np.float32))
        chosen.append(t.column("chosen").to_numpy(zero_copy_only=False).astype(np.bool_))
        term = t.column("terminal").to_numpy(zero_copy_only=False).astype(np.bool_)
        # A move that ends the game is labelled with its exact final progress.
        ends.append(np.where(term, np.where(y >= 1.0, 1, -1), 0).astype(np.int8))
        groups.append(g.astype(np.int64) + offset)
        offset += int(g.max()) + 1 if len(g) else 0
    if not game:
        raise ValueError("value: no --moves given")
    group = np.concatenate(groups)
    order = np.argsort(group, kind="stable")
    return MoveRows(game, np.concatenate(obs)[order], np.concatenate(ys)[order], group[order],
                    np.concatenate(evals)[order], np.concatenate(chosen)[order], np.concatenate(ends)[order])


# The eval weight of a file that only breaks the evaluation's ties: far
# above any output of the network times the smallest difference of two
# evaluations, so that the network decides only between equals.
TIE_EVAL_WEIGHT = 1e9


def top_ties(r: MoveRows) -> MoveRows:
    """The rows of r that the evaluation ranks first in their position (with
    a win above all and a dead end below all, as the heuristic ranks), in
    the positions where two or more moves share that rank and the agent
    chose one of them; the positions are numbered again from 0. Their
    evaluations (equal within a position) are set to 0."""
    n = int(r.group[-1]) + 1 if len(r.group) else 0
    sc = r.eval.astype(np.float64) + 1e6 * r.end
    best = np.full(n, -np.inf)
    np.maximum.at(best, r.group, sc)
    top = sc == best[r.group]
    ntop = np.bincount(r.group, weights=top, minlength=n)
    chosen_top = np.zeros(n, np.bool_)
    chosen_top[r.group[r.chosen & top]] = True
    keep = top & (ntop[r.group] >= 2) & chosen_top[r.group]
    _, g = np.unique(r.group[keep], return_inverse=True)
    return MoveRows(r.game, r.obs[keep], r.value[keep], g.astype(np.int64), np.zeros(int(keep.sum()), np.float32),
                    r.chosen[keep], np.zeros(int(keep.sum()), np.int8))


# The logit a learnt-choice network adds for a move that wins (and takes
# away for one that leaves no move): far above any difference of
# evaluations, as the Go agent's win bonus and dead-end penalty are, yet
# small enough to keep the loss finite when the agent chose such a move.
END_LOGIT = 50.0


class ChoiceScorer(nn.Module):
    """The logits of moves for learning choices: a value network's output
    on the position after each move, plus a learnt weight times the game's
    evaluation there over its cards, plus END_LOGIT for a win and minus it
    for a dead end."""

    def __init__(self, net: PolicyNet, eval_weight: float) -> None:
        super().__init__()
        self.net = net
        self.eval_weight = nn.Parameter(torch.tensor(float(eval_weight)))

    def forward(self, obs: torch.Tensor, ev: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
        return self.net(obs)[:, 0] + self.eval_weight * ev + END_LOGIT * end.to(ev.dtype)


def value(cfg: ValueConfig) -> Path:
    """Trains a value network on labelled moves and returns the path of the
    best file, judged by the Go policy agent's mean return on the evaluation
    deals (each move it tries every legal move and plays the one whose
    position the network values most)."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    mr = read_move_rows(cfg.moves)
    if cfg.ties_only:
        if not cfg.choice:
            raise ValueError("value: --ties-only learns choices; add --choice")
        positions = int(mr.group[-1]) + 1 if len(mr.group) else 0
        mr = top_ties(mr)
        kept = int(mr.group[-1]) + 1 if len(mr.group) else 0
        if kept == 0:
            raise ValueError("value: no position has a tie at the top of the evaluation with the agent's move among it")
        print(f"value: {kept:,} of {positions:,} positions have two or more moves the evaluation ranks first, "
              "the agent's move among them", file=sys.stderr)
        cfg.eval_weight, cfg.fixed_eval_weight = TIE_EVAL_WEIGHT, True
    game, obs, target, group = mr.game, mr.obs, mr.value, mr.group
    spec = game_spec(game)
    net = start_net(cfg, spec, HEAD_VALUE)
    scorer: ChoiceScorer | None = None
    if cfg.choice:
        w0 = cfg.eval_weight or float(spec.cards)
        if cfg.init and not cfg.eval_weight:
            _, init_meta = load_model(cfg.init, spec.name)
            w0 = float(init_meta.get("eval_weight", w0))
        cfg.eval_weight = w0
        scorer = ChoiceScorer(net, w0)
        scorer.eval_weight.requires_grad_(not cfg.fixed_eval_weight)
        if not cfg.init:
            # An output of exactly 0: the untrained file ranks moves by the
            # heuristic's score, ties and all (the policy agent that plays it
            # still looks through a move of several actions, Cromwell's swap,
            # which the heuristic agent does not: docs/research/training.md,
            # round 12).
            with torch.no_grad():
                last = net.linear_layers()[-1] if net.linear_layers() else None
                if last is not None:
                    last.weight.zero_()
                    last.bias.zero_()
                else:  # a linear network: its one layer is the output
                    net.first.weight.zero_()
                    net.first_bias.zero_()
        t_ev, t_end = torch.from_numpy(mr.eval), torch.from_numpy(mr.end)
        t_chosen = torch.from_numpy(mr.chosen)
    elif not cfg.init:
        # Start at the labels' mean: the output bias is the last layer's.
        with torch.no_grad():
            (net.linear_layers()[-1].bias if net.linear_layers() else net.first_bias).fill_(float(target.mean()))
    # Each position's rows: start[g] .. start[g] + count[g] (rows are sorted by position).
    n_groups = int(group[-1]) + 1
    count = np.bincount(group, minlength=n_groups)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    val_g = held_out(np.arange(n_groups), cfg.val_frac, rng)
    is_val = np.zeros(n_groups, np.bool_)
    is_val[val_g] = True
    tr_g, va_g = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    t_obs, t_y = torch.from_numpy(obs), torch.from_numpy(target)

    def rows_of(gs: NDArray[np.int64]) -> tuple[torch.Tensor, torch.Tensor]:
        """The rows of positions gs and each row's index into gs."""
        c = count[gs]
        local = np.repeat(np.arange(len(gs)), c)
        rows = np.repeat(start[gs] - np.cumsum(c) + c, c) + np.arange(int(c.sum()))
        return torch.from_numpy(rows), torch.from_numpy(local)

    def losses(gs: NDArray[np.int64]) -> tuple[torch.Tensor, torch.Tensor]:
        """The labels' and the within-position squared errors; with
        choice, the cross-entropy and the share of positions whose best
        move is the one chosen."""
        rows, local = rows_of(gs)
        if scorer is not None:
            logits = scorer(t_obs[rows], t_ev[rows], t_end[rows])
            lp = group_log_softmax(logits, local, len(gs))
            ch = t_chosen[rows]
            ce = -lp[ch].sum() / len(gs)
            with torch.no_grad():
                best = group_max(logits, local, len(gs))
                hit = (logits[ch] >= best[local[ch]]).to(logits.dtype).mean()
            return ce, hit
        v, y = net(t_obs[rows])[:, 0], t_y[rows]
        k = torch.from_numpy(count[gs]).to(v.dtype)
        mv = torch.zeros(len(gs), dtype=v.dtype).index_add_(0, local, v) / k
        my = torch.zeros(len(gs), dtype=v.dtype).index_add_(0, local, y) / k
        return F.mse_loss(v, y), F.mse_loss(v - mv[local], y - my[local])

    out = Path(cfg.out or f"runs/{'choice' if cfg.choice else 'value'}-{spec.name}-s{cfg.seed}")
    cfg.write(out)
    deals = cfg.evaluation_deals()
    refs = cfg.reference_lines(game, out)
    names = ", ".join(Path(p).name for p in cfg.moves)
    what = "choices" if cfg.choice else "value"
    curve = Curve(out, game, f"labelled moves seen ({what} learning)", refs,
                  f"{spec.title}: {what} of {names} ({len(target):,} moves of {n_groups:,} positions), "
                  f"hidden {','.join(map(str, cfg.hidden))}",
                  line=f"{what} network (one-step look-ahead, Go agent)")
    opt = torch.optim.AdamW([p for p in (scorer or net).parameters() if p.requires_grad], lr=cfg.lr, weight_decay=cfg.weight_decay)
    total = steps_per_epoch(len(tr_g), cfg.batch_positions) * cfg.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0 - s / total)
    t_start = time.perf_counter()
    best = -1.0
    print(f"value: {game}, {len(target):,} labelled moves of {n_groups:,} positions ({len(va_g):,} held out); "
          + (f"learning the choices of {mr.chosen.sum():,} positions, eval weight from {cfg.eval_weight:g}" if cfg.choice
             else f"label mean {target.mean():.4f}, sd {target.std():.4f}"), file=sys.stderr)

    def val_stats() -> tuple[float, float]:
        net.eval()
        se, sr, n = 0.0, 0.0, 0
        with torch.no_grad():
            for s in range(0, len(va_g), 256):
                gs = va_g[s : s + 256]
                a, b = losses(gs)
                m = len(gs) if scorer is not None else int(count[gs].sum())
                se, sr, n = se + float(a) * m, sr + float(b) * m, n + m
        net.train()
        return se / max(1, n), sr / max(1, n)

    def do_eval(epoch: float, seen: int) -> None:
        nonlocal best
        vm, vr = val_stats() if len(va_g) else (math.nan, math.nan)
        meta = {"seed": str(cfg.seed), "moves": ",".join(cfg.moves), "labelled_moves": str(len(target)), "epochs": f"{epoch:g}",
                "eval_deals": f"{deals[0]}..{deals[-1]}"}
        if scorer is not None:
            meta |= {"objective": "choice", "val_choice_loss": f"{vm:.6f}", "val_choice_accuracy": f"{vr:.4f}",
                     "eval_weight": repr(float(scorer.eval_weight.detach()))}
        else:
            meta |= {"val_mse": f"{vm:.6f}", "val_rank_mse": f"{vr:.6f}"}
        path = export_model(net, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=0, extra=meta)
        r = evaluate_agent(spec.name, f"policy:model={path}", deals)
        curve.add({"step": float(seen), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "eval_seconds": round(r.seconds, 1), "val_loss": vm})
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(path, out / "best.safetensors")
        stats = (f"val choice loss {vm:.4f}, accuracy {vr:.3f}, eval weight {float(scorer.eval_weight.detach()):.1f}" if scorer is not None
                 else f"val mse {vm:.5f}, within positions {vr:.5f}")
        progress(f"epoch {epoch:g}: {stats}; the Go agent's mean return {r.mean_return:.4f}, "
                 f"win rate {r.win_rate:.3f} on {len(deals)} deals ({r.seconds:.0f}s)" + reference_summary(refs), end=True)

    def loss_of(gs: NDArray[np.int64]) -> tuple[torch.Tensor, int]:
        mse, rank = losses(gs)
        return (mse if scorer is not None else mse + cfg.rank_weight * rank), int(count[gs].sum())

    do_eval(0, 0)
    train_epochs(tr_g, cfg.batch_positions, cfg.epochs, rng=rng, opt=opt, sched=sched, loss_of=loss_of, evaluate=do_eval,
                 evals_per_epoch=cfg.evals_per_epoch, what="value", unit="moves", t_start=t_start, loss_format=".5f")
    return out / "best.safetensors"
