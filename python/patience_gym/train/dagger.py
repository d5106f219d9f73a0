"""DAgger (``python -m patience_gym.train dagger``): behaviour cloning on
the positions the student reaches, labelled by a Go agent, the teacher
(Ross, Gordon and Bagnell, 2011). Each evaluation exports the network and
lets the Go policy agent play it, as ``patience bench`` would.
"""

from __future__ import annotations

import math
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

from .._lib import game_spec
from ..vector import PatienceVectorEnv
from .config import NetConfig
from .curve import Curve, progress, reference_summary
from .data import load_rows
from .defaults import start_net
from .evaluation import EVAL_DEALS, evaluate_agent
from .model_file import export_model
from .net import masked_argmax, masked_logits

__all__ = ["DAggerConfig", "dagger"]


@dataclass
class DAggerConfig(NetConfig):
    """DAgger's settings (with NetConfig's): a Go agent (the teacher) labels
    the positions the student's own play reaches, and the student is trained
    on all labels so far (Ross, Gordon and Bagnell, 2011)."""

    game: str = "limited"
    teacher: str = "mc"
    rounds: int = 10
    steps_per_round: int = 20_000
    num_envs: int = 64
    beta: float = 0.5
    beta_decay: float = 0.5
    data: list[str] = field(default_factory=list)
    epochs: int = 2
    batch_size: int = 512
    max_steps: int = 0


def dagger(cfg: DAggerConfig) -> Path:
    """Trains a policy by DAgger with a Go agent as the teacher; returns the
    path of the best model (by greedy mean return on the evaluation deals).

    Each round plays steps_per_round steps on fresh training deals, in each
    position taking the teacher's move with probability beta (decayed by
    beta_decay each round) and the student's masked argmax otherwise, and
    records the teacher's move there as the label. The student is then
    trained for ``epochs`` passes over every label so far (and the rows of
    ``data``, datasets of the teacher's own games, if given)."""
    spec = game_spec(cfg.game)
    cfg.game = spec.name
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    net = start_net(cfg, spec)
    out = Path(cfg.out or f"runs/dagger-{spec.name}-s{cfg.seed}")
    cfg.write(out)
    deals = cfg.evaluation_deals()
    refs = cfg.reference_lines(spec.name, out)
    curve = Curve(out, spec.name, "labelled positions (DAgger)", refs,
                  f"{spec.title}: DAgger with teacher {cfg.teacher}, hidden {','.join(map(str, cfg.hidden))}, card_dim {cfg.card_dim}")
    obs_parts: list[NDArray[np.uint8]] = []
    mask_parts: list[NDArray[np.bool_]] = []
    label_parts: list[NDArray[np.int64]] = []
    if cfg.data:
        g, o, m, a, _ = load_rows(cfg.data)
        if g != spec.name:
            raise ValueError(f"dagger: {cfg.data[0]} is a {g} dataset, not {spec.name}")
        obs_parts.append(o)
        mask_parts.append(m)
        label_parts.append(a)
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr)
    N = cfg.num_envs
    envs = PatienceVectorEnv(spec.name, N, autoreset_mode=AutoresetMode.SAME_STEP, max_steps=cfg.max_steps or None)
    t_start = time.perf_counter()
    labelled, best = 0, -1.0
    state = {"teacher_seconds": 0.0}

    def do_eval(rnd: int) -> None:
        # The Go policy agent plays the exported file: what patience bench
        # measures (with its repeats=avoid).
        nonlocal best
        meta = {"seed": str(cfg.seed), "teacher": cfg.teacher, "rounds": str(rnd), "labelled": str(labelled)}
        tmp = export_model(net, out / "eval.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=labelled, extra=meta)
        r = evaluate_agent(spec.name, f"policy:model={tmp.resolve()}", deals, max_steps=cfg.max_steps or None)
        curve.add({"step": float(labelled), "seconds": round(time.perf_counter() - t_start, 1), "mean_return": r.mean_return,
                   "win_rate": r.win_rate, "train_return": math.nan, "eval_seconds": round(r.seconds, 1)})
        meta |= {"eval_deals": f"{deals[0]}..{deals[-1]}", "eval_agent": "policy (Go, repeats=avoid)",
                 "eval_mean_return": f"{r.mean_return:.4f}", "eval_win_rate": f"{r.win_rate:.4f}"}
        export_model(net, out / "model.safetensors", cfg.command, dtype=cfg.dtype, trained_steps=labelled, extra=meta)
        tmp.unlink()
        if r.mean_return > best:
            best = r.mean_return
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        progress(f"round {rnd}: {labelled:,} labels ({state['teacher_seconds']:.0f}s in the teacher); mean return "
                 f"{r.mean_return:.4f}, win rate {r.win_rate:.3f} on {len(deals)} deals" + reference_summary(refs), end=True)

    def train_epochs() -> None:
        net.train()
        obs = torch.from_numpy(np.concatenate(obs_parts))
        masks = torch.from_numpy(np.concatenate(mask_parts))
        labels = torch.from_numpy(np.concatenate(label_parts))
        for _ in range(cfg.epochs):
            perm = torch.from_numpy(rng.permutation(len(labels)))
            for k in range(0, len(perm), cfg.batch_size):
                i = perm[k : k + cfg.batch_size]
                loss = F.cross_entropy(masked_logits(net(obs[i]), masks[i]), labels[i])
                opt.zero_grad(set_to_none=True)
                loss.backward()  # type: ignore[no-untyped-call]
                opt.step()
        net.eval()

    try:
        if obs_parts:
            train_epochs()
        do_eval(0)
        for rnd in range(1, cfg.rounds + 1):
            beta = cfg.beta * cfg.beta_decay ** (rnd - 1)
            T = max(1, cfg.steps_per_round // N)
            # Each environment's next episodes are dealt +N: room below EVAL_DEALS.
            o_np, _ = envs.reset(seed=int(rng.integers(0, EVAL_DEALS - N * (T + 1))))
            r_obs = np.zeros((T, N, spec.obs_len), np.uint8)
            r_mask = np.zeros((T, N, spec.actions), np.bool_)
            r_lab = np.zeros((T, N), np.int64)
            for t in range(T):
                m_np = envs.action_masks()
                t0 = time.perf_counter()
                teach = envs.agent_actions(cfg.teacher, seed=cfg.seed)
                state["teacher_seconds"] += time.perf_counter() - t0
                with torch.no_grad():
                    student = masked_argmax(net(torch.from_numpy(o_np)), torch.tensor(m_np)).numpy()  # tensor: the masks are read-only
                r_obs[t], r_mask[t], r_lab[t] = o_np, m_np, teach
                act = np.where(rng.random(N) < beta, teach, student)
                o_np, *_ = envs.step(act)
                if t % 10 == 0:
                    progress(f"round {rnd}/{cfg.rounds}: step {t}/{T} (beta {beta:.2f})")
            obs_parts.append(r_obs.reshape(-1, spec.obs_len))
            mask_parts.append(r_mask.reshape(-1, spec.actions))
            label_parts.append(r_lab.reshape(-1))
            labelled += T * N
            train_epochs()
            do_eval(rnd)
    finally:
        envs.close()
    return out / "best.safetensors"
