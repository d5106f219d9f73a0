"""The learning curve of a run: evaluation points written to curve.csv at
each point and drawn as curve.png, with the Go agents as reference lines;
and the progress line a run prints."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

__all__ = ["CURVE_FIELDS", "Curve", "eval_marks", "human", "plot_curve", "progress", "reference_summary"]

CURVE_FIELDS = ["step", "seconds", "mean_return", "win_rate", "sampled_return", "sampled_win_rate", "train_return",
                "eval_seconds", "val_loss"]


class Curve:
    """Evaluation points, written to CSV at each point and drawn as PNG."""

    def __init__(self, out: Path, game: str, xlabel: str, refs: dict[str, dict[str, float]], title: str,
                 line: str = "policy (masked argmax)") -> None:
        self.path = out / "curve.csv"
        self.png = out / "curve.png"
        self.game, self.xlabel, self.refs, self.title, self.line = game, xlabel, refs, title, line
        self.rows: list[dict[str, float]] = []

    def add(self, row: dict[str, float]) -> None:
        self.rows.append(row)
        with open(self.path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
            w.writeheader()
            for r in self.rows:
                w.writerow({k: r.get(k, "") for k in CURVE_FIELDS})
        self.plot()

    def plot(self) -> None:
        plot_curve(self.path, self.png, self.refs, title=self.title, xlabel=self.xlabel, line=self.line)


def plot_curve(csv_path: Path, png: Path, refs: dict[str, dict[str, float]], *, title: str, xlabel: str,
               line: str = "policy (masked argmax)") -> None:
    """Draws mean return and win rate against the x column of a curve CSV,
    with the reference agents as horizontal lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    x = [float(r["step"]) for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    colours = {"random": "#999999", "heuristic": "#E69F00", "mc": "#009E73"}
    for ax, key, label in ((axes[0], "mean_return", "mean return (final progress)"), (axes[1], "win_rate", "win rate")):
        ax.plot(x, [float(r[key]) for r in rows], color="#0072B2", marker="o", ms=3, label=line)
        skey = key.replace("mean_", "sampled_") if key == "mean_return" else "sampled_win_rate"
        if rows and rows[0].get(skey, "") not in ("", None):
            ax.plot(x, [float(r[skey]) for r in rows], color="#56B4E9", marker="s", ms=3, ls=":",
                    label="policy (sampled, temperature 1)")
        for name, lv in refs.items():
            ax.axhline(lv[key], ls="--", lw=1.2, color=colours.get(name.split(":")[0], "#CC79A7"), label=name)
        ax.set_xlabel(xlabel)
        ax.xaxis.set_major_formatter(lambda v, _pos: tick(v))
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)




def progress(msg: str, end: bool = False) -> None:
    """Prints a run's progress on stderr: one line rewritten in place on a
    terminal (``end`` keeps it), one line per call elsewhere."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K" + msg + ("\n" if end else ""))
    else:
        sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def reference_summary(refs: dict[str, dict[str, float]]) -> str:
    """The reference agents' levels at the end of a progress line: "; NAME
    MEAN_RETURN/WIN_RATE" each."""
    return "".join(f"; {k} {v['mean_return']:.4f}/{v['win_rate']:.3f}" for k, v in refs.items())


def tick(v: float) -> str:
    """An axis label: 0, 500k, 1.5M."""
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= div:
            return f"{v / div:g}{unit}"
    return f"{v:g}"


def human(n: float) -> str:
    """A count as a person reads it: 950, 12.50k, 3.00M."""
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= div:
            return f"{n / div:.2f}{unit}"
    return f"{n:.0f}"


def eval_marks(steps_per_epoch: int, evals_per_epoch: int) -> set[int]:
    """The batches inside an epoch after which to evaluate, evals_per_epoch
    evaluations an epoch in all (the end of each epoch has its own)."""
    return {round(steps_per_epoch * j / evals_per_epoch) for j in range(1, max(1, evals_per_epoch))} - {0, steps_per_epoch}
