"""Behaviour cloning from ``patience generate`` datasets
(``python -m patience_gym.train bc``): masked cross-entropy on the
(observation, mask, action) rows, or, with ``--scores-temperature``, on the
distribution the agent's move scores give (mc's rollout values, uct's root
visits). Whole episodes are held out for validation; each evaluation plays
the fixed deals and exports the network as a model file.
"""

from __future__ import annotations

import math
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray

from .._lib import game_spec
from .config import RowsConfig
from .curve import Curve, progress, reference_summary
from .data import held_out, read_rows
from .defaults import start_net
from .evaluation import evaluate
from .loop import steps_per_epoch, train_epochs
from .model_file import export_model
from .net import masked_argmax, masked_logits

if TYPE_CHECKING:
    from ..datasets import MoveScores

__all__ = ["BCConfig", "SoftTargets", "bc", "soft_targets"]


@dataclass
class BCConfig(RowsConfig):
    """Behaviour cloning's settings (with RowsConfig's); val_frac is the
    share of episodes held out."""

    out: str = "runs/bc"
    data: list[str] = field(default_factory=list)
    epochs: int = 10
    batch_size: int = 512
    scores_temperature: float = 0.0
    """Above 0: train on the datasets' move scores (patience generate
    --scores) at this temperature instead of the move played alone."""
    scores_weight: float = 1.0
    """With scores: the share of the target given by the scores; the rest
    goes to the move played."""


@dataclass
class SoftTargets:
    """A target distribution over the actions for every row: ``table``'s row
    i puts its scores, probabilities, on its actions (an action may repeat;
    its probabilities add up)."""

    table: MoveScores

    def dense(self, rows: NDArray[np.int64], num_actions: int) -> torch.Tensor:
        """The targets of rows, in that order, as a (len(rows), num_actions) tensor."""
        t = self.table.take(rows)
        pos = np.repeat(np.arange(len(rows)), np.diff(t.offsets))
        out = torch.zeros(len(rows), num_actions)
        out.index_put_((torch.from_numpy(pos), torch.from_numpy(t.actions.astype(np.int64))),
                       torch.from_numpy(t.scores), accumulate=True)
        return out


def soft_targets(scores: MoveScores, actions: NDArray[np.int64], temperature: float, weight: float) -> SoftTargets:
    """Each row's target for behaviour cloning on move scores: weight times
    the distribution the scores give the weighed moves, plus (1 - weight) on
    the move played. mc's rollout values (in cards) give softmax(score / T);
    uct's root visits give visits^(1/T), normalised (T = 1: in proportion to
    the visits). A row where the agent weighed nothing puts everything on
    the move played."""
    if not temperature > 0:
        raise ValueError(f"the scores' temperature must be above 0 (got {temperature})")
    if not 0 <= weight <= 1:
        raise ValueError(f"the scores' weight must be in 0..1 (got {weight})")
    n = len(scores)
    lens = scores.offsets[1:] - scores.offsets[:-1]
    seg = np.repeat(np.arange(n), lens)
    x = scores.scores.astype(np.float64)
    if "visits" in scores.kind:
        x = np.log(np.maximum(x, 1e-12)) / temperature
    else:
        x = x / temperature
    top = np.full(n, -np.inf)
    np.maximum.at(top, seg, x)
    e = np.exp(x - top[seg])
    p = e / np.bincount(seg, e, minlength=n)[seg] * weight
    # the move played: everything where nothing was weighed, else 1 - weight
    extra = np.where(lens == 0, 1.0, 1.0 - weight)
    keep = extra > 0
    rows = np.concatenate([seg, np.flatnonzero(keep)])
    acts = np.concatenate([scores.actions.astype(np.int64), actions[keep]])
    probs = np.concatenate([p, extra[keep]]).astype(np.float32)
    order = np.argsort(rows, kind="stable")
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
    from ..datasets import MoveScores

    return SoftTargets(MoveScores("target probabilities", offsets, acts[order].astype(np.int32), probs[order]))


def bc(cfg: BCConfig) -> Path:
    """Trains a policy on datasets' (obs, mask, action) rows with masked
    cross-entropy; returns the path of the best model (by mean return on the
    evaluation deals)."""
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    rows = read_rows(cfg.data)
    game, obs, masks, acts, eps = rows.game, rows.obs, rows.masks, rows.actions, rows.episodes
    spec = game_spec(game)
    if not masks[np.arange(len(acts)), acts].all():
        raise ValueError("bc: a dataset row's action is not legal under its own mask")
    soft: SoftTargets | None = None
    if cfg.scores_temperature > 0:
        if rows.scores is None:
            raise ValueError("bc: --scores-temperature needs move scores in every --data dataset, of one kind "
                             "(make them with patience generate --agent mc --scores)")
        soft = soft_targets(rows.scores, acts, cfg.scores_temperature, cfg.scores_weight)
    net = start_net(cfg, spec)
    # Hold out whole episodes for validation.
    ep_ids = np.unique(eps)
    val_eps = held_out(ep_ids, cfg.val_frac, rng)
    is_val = np.isin(eps, val_eps)
    tr, va = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    t_obs, t_mask, t_act = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(acts)
    out = Path(cfg.out)
    cfg.write(out)
    deals = cfg.evaluation_deals()
    refs = cfg.reference_lines(game, out)
    names = ", ".join(Path(p).name for p in cfg.data)
    curve = Curve(out, game, "training rows seen (behaviour cloning)", refs,
                  f"{spec.title}: behaviour cloning on {names} ({len(tr):,} rows), hidden {','.join(map(str, cfg.hidden))}")
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    total = steps_per_epoch(len(tr), cfg.batch_size) * cfg.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0 - s / total)
    t_start = time.perf_counter()
    best = -1.0
    print(f"bc: {game}, {len(tr):,} training rows and {len(va):,} validation rows from {len(ep_ids):,} episodes", file=sys.stderr)

    def val_stats() -> tuple[float, float]:
        net.eval()
        loss, hit = 0.0, 0
        with torch.no_grad():
            for s in range(0, len(va), 4096):
                i = torch.from_numpy(va[s : s + 4096])
                logits = masked_logits(net(t_obs[i]), t_mask[i])
                loss += float(F.cross_entropy(logits, t_act[i], reduction="sum"))
                hit += int((masked_argmax(logits, t_mask[i]) == t_act[i]).sum())
        net.train()
        return (loss / max(1, len(va)), hit / max(1, len(va)))

    def do_eval(epoch: float, seen: int) -> None:
        nonlocal best
        rounded = net.rounded(cfg.dtype)
        r = evaluate(rounded, deals)
        rs = evaluate(rounded, deals, temperature=1.0, seed=cfg.seed)
        vl, vacc = val_stats() if len(va) else (math.nan, math.nan)
        curve.add({"step": float(seen), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "sampled_return": rs.mean_return, "sampled_win_rate": rs.win_rate,
                   "train_return": math.nan, "eval_seconds": round(r.seconds + rs.seconds, 1), "val_loss": vl})
        meta = {"seed": str(cfg.seed), "data": ",".join(cfg.data), "rows": str(len(tr)), "epochs": f"{epoch:g}",
                "val_loss": f"{vl:.4f}", "val_accuracy": f"{vacc:.4f}", "eval_deals": f"{deals[0]}..{deals[-1]}",
                "eval_mean_return": f"{r.mean_return:.4f}", "eval_win_rate": f"{r.win_rate:.4f}",
                "eval_sampled_mean_return": f"{rs.mean_return:.4f}", "eval_sampled_win_rate": f"{rs.win_rate:.4f}"}
        if soft is not None and rows.scores is not None:
            meta["scores"] = f"{rows.scores.kind}, temperature {cfg.scores_temperature:g}, weight {cfg.scores_weight:g}"
        export_model(net, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=0, extra=meta)
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        if rs.mean_return >= max(row_.get("sampled_return", 0.0) for row_ in curve.rows):
            shutil.copyfile(out / "model.safetensors", out / "best-sampled.safetensors")
        progress(f"epoch {epoch:g}: val loss {vl:.4f}, val accuracy {vacc:.3f}; mean return {r.mean_return:.4f}, "
                 f"win rate {r.win_rate:.3f} (sampled {rs.mean_return:.4f}, {rs.win_rate:.3f}) on {len(deals)} deals"
                 + reference_summary(refs), end=True)

    def loss_of(rows_: NDArray[np.int64]) -> tuple[torch.Tensor, int]:
        i = torch.from_numpy(rows_)
        logits = masked_logits(net(t_obs[i]), t_mask[i])
        if soft is not None:
            target = soft.dense(rows_, spec.actions)
            return -(target * F.log_softmax(logits, dim=1)).sum(dim=1).mean(), len(i)
        return F.cross_entropy(logits, t_act[i]), len(i)

    do_eval(0, 0)
    train_epochs(tr, cfg.batch_size, cfg.epochs, rng=rng, opt=opt, sched=sched, loss_of=loss_of, evaluate=do_eval,
                 evals_per_epoch=cfg.evals_per_epoch, what="bc", unit="rows", t_start=t_start)
    return out / "best.safetensors"
