"""The minibatch loop of the methods that learn from a table of labelled
rows (bc, value, winnable): epochs over the training rows, each in a fresh
random order cut into minibatches (the last, short one left out), a
gradient step on each, a progress line, and evaluations inside and at the
end of every epoch. What a step's loss is, and what an evaluation does,
stay in the method's module."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import torch
from numpy.typing import NDArray

from .curve import eval_marks, progress

__all__ = ["steps_per_epoch", "train_epochs"]


def steps_per_epoch(rows: int, batch: int) -> int:
    """The minibatches of an epoch over rows training rows (at least one)."""
    return max(1, rows // batch)


def train_epochs(
    rows: NDArray[np.int64],
    batch: int,
    epochs: int,
    *,
    rng: np.random.Generator,
    opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LRScheduler,
    loss_of: Callable[[NDArray[np.int64]], tuple[torch.Tensor, int]],
    evaluate: Callable[[float, int], None],
    evals_per_epoch: int,
    what: str,
    unit: str,
    t_start: float,
    every: int = 20,
    loss_format: str = ".4f",
    first_epoch: int = 1,
    seen: int = 0,
    end_epoch: Callable[[int, int], None] | None = None,
) -> int:
    """Trains for epochs first_epoch..epochs over the training rows (ids
    that loss_of understands): each epoch draws a permutation of rows with
    rng and takes a step of opt and of sched on the loss of each minibatch
    of batch ids. loss_of returns a minibatch's loss and how many of unit
    it counts for; seen (from seen) adds them up. Every every-th step
    prints the progress line "WHAT epoch E/EPOCHS batch K/STEPS loss L
    RATE UNIT/s" (the loss a running mean, in loss_format; the rate since
    t_start). evaluate(epoch, seen) is called evals_per_epoch - 1 times
    inside an epoch, at fractional epochs, and once at its end, after which
    end_epoch(epoch, seen) is. Returns seen."""
    steps = steps_per_epoch(len(rows), batch)
    marks = eval_marks(steps, evals_per_epoch)
    for epoch in range(first_epoch, epochs + 1):
        perm = rng.permutation(rows)
        run_loss = 0.0
        for k in range(steps):
            loss, n = loss_of(perm[k * batch : (k + 1) * batch])
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            sched.step()
            seen += n
            run_loss = 0.98 * run_loss + 0.02 * loss.item() if k else loss.item()
            if k % every == 0:
                el = time.perf_counter() - t_start
                progress(f"{what} epoch {epoch}/{epochs} batch {k}/{steps} loss {run_loss:{loss_format}} {seen / el:,.0f} {unit}/s")
            if k + 1 in marks:
                evaluate(epoch - 1 + (k + 1) / steps, seen)
        evaluate(epoch, seen)
        if end_epoch is not None:
            end_epoch(epoch, seen)
    return seen
