"""Masked PPO on the vector environment (``python -m patience_gym.train ppo``).

CleanRL's PPO for discrete actions, with the action mask applied to the
logits (illegal actions get -1e9), same-step autoreset (a truncated episode
is bootstrapped from its last observation's value), an actor and a critic of
the same shape, and an evaluation on fixed deals every ``eval_every`` steps,
played beside training by another process on the exported file,
that exports the actor as a model file the Go policy agent plays.
"""

from __future__ import annotations

import copy
import json
import math
import shutil
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn

from .._lib import check_memory, game_spec
from ..vector import PatienceVectorEnv
from .config import NetConfig
from .curve import Curve, human, progress, reference_summary
from .defaults import DEFAULTS
from .evaluation import EVAL_DEALS, Evaluator
from .model_file import export_model, load_model, model_file_bytes
from .net import PolicyNet, masked_logits

__all__ = ["PPOConfig", "ppo"]


@dataclass
class PPOConfig(NetConfig):
    """PPO's settings (the command line's flags; with NetConfig's, lr 0 and
    the network's settings taken from the game's defaults)."""

    out: str = "runs/ppo-fifteen"
    lr: float = 0.0
    game: str = "fifteen"
    steps: int = 5_000_000
    num_envs: int = 0
    num_steps: int = 0
    anneal_lr: bool = True
    gamma: float = 0.0
    gae_lambda: float = 0.95
    epochs: int = 4
    minibatches: int = 8
    clip: float = 0.2
    ent_coef: float = -1.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.0
    warmup_updates: int = 0
    eval_every: int = 0
    max_steps: int = 0
    workers: int = 1
    resume: bool = False
    eval_inline: bool = False

    def fill_defaults(self) -> None:
        d = DEFAULTS[game_spec(self.game).name]
        self.game = game_spec(self.game).name
        self.hidden = self.hidden or d.hidden
        self.card_dim = d.card_dim if self.card_dim < 0 else self.card_dim
        self.dtype = self.dtype or d.dtype
        self.num_envs = self.num_envs or d.num_envs
        self.num_steps = self.num_steps or d.num_steps
        self.lr = self.lr or d.lr
        self.gamma = self.gamma or d.gamma
        self.ent_coef = d.ent_coef if self.ent_coef < 0 else self.ent_coef
        self.eval_every = self.eval_every or max(self.num_envs * self.num_steps, self.steps // 20)


def ppo(cfg: PPOConfig) -> Path:
    """Trains a policy with masked PPO; returns the path of the best model
    (by mean return on the evaluation deals)."""
    cfg.fill_defaults()
    spec = game_spec(cfg.game)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    out = Path(cfg.out)
    N, T = cfg.num_envs, cfg.num_steps
    batch = N * T
    mb_size = batch // cfg.minibatches
    updates = max(1, cfg.steps // batch)

    if cfg.init:
        actor, init_meta = load_model(cfg.init, cfg.game)
        cfg.hidden, cfg.card_dim = actor.hidden, actor.card_dim
    else:
        actor = PolicyNet(spec, cfg.hidden, spec.actions, card_dim=cfg.card_dim)
    critic = PolicyNet(spec, cfg.hidden, 1, out_std=1.0, card_dim=cfg.card_dim)
    params = list(actor.parameters()) + list(critic.parameters())
    opt = torch.optim.Adam(params, lr=cfg.lr, eps=1e-5)
    size = model_file_bytes(spec, cfg.hidden, cfg.dtype, cfg.card_dim)
    if size > 2_000_000:
        print(f"train: warning: a {cfg.dtype} model of hidden {cfg.hidden} takes {size / 1e6:.1f} MB", file=sys.stderr)

    cfg.write(out)
    deals = cfg.evaluation_deals()
    refs = cfg.reference_lines(cfg.game, out)
    title = f"{spec.title}: masked PPO, hidden {','.join(map(str, cfg.hidden))}" + (" from " + Path(cfg.init).name if cfg.init else "")
    curve = Curve(out, cfg.game, "environment steps", refs, title)

    start_update, global_step, best, trained_before = 1, 0, -1.0, 0
    ckpt = out / "checkpoint.pt"
    elapsed_before = 0.0
    if cfg.resume and ckpt.is_file():
        state = torch.load(ckpt, weights_only=False)
        actor.load_state_dict(state["actor"])
        critic.load_state_dict(state["critic"])
        opt.load_state_dict(state["opt"])
        start_update, global_step, best = state["update"] + 1, state["global_step"], state["best"]
        elapsed_before = state["seconds"]
        curve.rows = state["curve"]
        rng = np.random.default_rng([cfg.seed, global_step])
        print(f"train: resumed {ckpt} at step {global_step}", file=sys.stderr)
    elif cfg.init:
        trained_before = int(init_meta.get("trained_steps", "0") or 0)

    # The rollout buffers below, checked before the vector is made: a
    # --num-envs or --num-steps too large is an error, not a machine out of memory.
    check_memory(f"PPO's rollout of {T} steps of {N} environments",
                 T * N * (spec.obs_len + spec.actions + 8 + 4 * 5) + 2 * T * N * (spec.obs_len + spec.actions))
    envs = PatienceVectorEnv(
        cfg.game, N, autoreset_mode=AutoresetMode.SAME_STEP, max_steps=cfg.max_steps or None, workers=cfg.workers
    )

    def fresh_deals() -> int:
        # Each environment's next episodes are dealt +N: leave room below EVAL_DEALS.
        return int(rng.integers(0, EVAL_DEALS - N * (T + 1) * 64))

    obs_np, _ = envs.reset(seed=fresh_deals())
    mask_np = envs.action_masks()
    final_np = envs.final_observations
    assert final_np is not None

    L, A = spec.obs_len, spec.actions
    b_obs = torch.zeros((T, N, L), dtype=torch.uint8)
    b_mask = torch.zeros((T, N, A), dtype=torch.bool)
    b_act = torch.zeros((T, N), dtype=torch.long)
    b_logp = torch.zeros((T, N))
    b_rew = torch.zeros((T, N))
    b_done = torch.zeros((T, N))
    b_val = torch.zeros((T, N))
    next_done = torch.zeros(N)
    ep_ret = np.zeros(N)
    recent: list[float] = []
    t_start = time.perf_counter() - elapsed_before
    last_eval = global_step if cfg.resume else -cfg.eval_every

    # The evaluations run beside training, in a process of their own, on the
    # file exported at each point (eval_inline: in this process, training
    # waiting); one at a time: a point that comes due while the last one is
    # still being played is taken as soon as it is done. held counts the
    # wall time training waited for them (exporting, and the last one).
    evaluator = Evaluator(background=not cfg.eval_inline)
    snapshot = out / "eval-snapshot.safetensors"
    pending: dict[str, Any] = {}
    held = 0.0

    def start_eval() -> None:
        nonlocal last_eval, held
        t0 = time.perf_counter()
        last_eval = global_step
        rounded = actor.rounded(cfg.dtype)
        export_model(rounded, snapshot, cfg.command, dtype=cfg.dtype, trained_steps=trained_before + global_step)
        pending.clear()
        pending.update(net=rounded, step=global_step, seconds=round(time.perf_counter() - t_start, 1),
                       train_return=float(np.mean(recent[-200:])) if recent else math.nan)
        # The checkpoint of this point, saved now and again with its curve
        # point once the evaluation is done (a copy: training goes on).
        pending["ckpt"] = copy.deepcopy({
            "actor": actor.state_dict(), "critic": critic.state_dict(), "opt": opt.state_dict(), "update": update,
            "global_step": global_step, "best": best, "curve": curve.rows,
            "seconds": time.perf_counter() - t_start, "config": asdict(cfg)})
        torch.save(pending["ckpt"], ckpt)
        evaluator.submit(snapshot, cfg.game, deals, max_steps=cfg.max_steps or None, workers=cfg.workers, seed=cfg.seed,
                         net=rounded)
        held += time.perf_counter() - t0

    def finish_eval(block: bool) -> None:
        nonlocal best, held
        t0 = time.perf_counter()
        res = evaluator.result(block=block)
        if res is None:
            held += time.perf_counter() - t0
            return
        step = pending["step"]
        row = {
            "step": float(step),
            "seconds": pending["seconds"],
            "mean_return": res["mean_return"],
            "win_rate": res["win_rate"],
            "sampled_return": res["sampled_return"],
            "sampled_win_rate": res["sampled_win_rate"],
            "train_return": pending["train_return"],
            "eval_seconds": round(res["seconds"], 1),
        }
        curve.add(row)
        meta = {"seed": str(cfg.seed), "eval_deals": f"{deals[0]}..{deals[-1]}",
                "eval_mean_return": f"{res['mean_return']:.4f}", "eval_win_rate": f"{res['win_rate']:.4f}",
                "eval_sampled_mean_return": f"{res['sampled_return']:.4f}", "eval_sampled_win_rate": f"{res['sampled_win_rate']:.4f}"}
        if cfg.init:
            meta["init"] = cfg.init
        export_model(pending["net"], out / "model.safetensors", cfg.command, dtype=cfg.dtype,
                     trained_steps=trained_before + step, extra=meta)
        if res["mean_return"] > best:
            best = res["mean_return"]
            shutil.copyfile(out / "model.safetensors", out / "best.safetensors")
        if res["sampled_return"] >= max((row_.get("sampled_return", 0.0) for row_ in curve.rows), default=0.0):
            shutil.copyfile(out / "model.safetensors", out / "best-sampled.safetensors")
        pending["ckpt"].update(curve=curve.rows, best=best)
        torch.save(pending["ckpt"], ckpt)
        held += time.perf_counter() - t0
        progress(f"eval @ {human(step)}: mean return {res['mean_return']:.4f}, win rate {res['win_rate']:.3f} "
                 f"(sampled {res['sampled_return']:.4f}, {res['sampled_win_rate']:.3f}) on {len(deals)} deals "
                 f"({res['seconds']:.1f}s)" + reference_summary(refs), end=True)

    update = start_update - 1
    step0, wall0 = global_step, time.perf_counter()
    if not cfg.resume and not curve.rows:
        start_eval()
    try:
        for update in range(start_update, updates + 1):
            if cfg.anneal_lr:
                for g in opt.param_groups:
                    g["lr"] = cfg.lr * (1.0 - (update - 1) / updates)
            # Keep training deals below EVAL_DEALS: redeal when the next ones would reach it.
            if int(envs.deals().max()) + N * (T + 2) >= EVAL_DEALS:
                obs_np, _ = envs.reset(seed=fresh_deals())
                next_done.zero_()
                ep_ret[:] = 0
            actor.eval()
            critic.eval()
            for t in range(T):
                global_step += N
                b_obs[t].copy_(torch.from_numpy(obs_np))
                np.copyto(b_mask[t].numpy(), mask_np)  # the masks are read-only (torch.from_numpy would warn)
                b_done[t] = next_done
                with torch.no_grad():
                    logp_all = torch.log_softmax(masked_logits(actor(b_obs[t]), b_mask[t]), dim=1)
                    # Gumbel-max: a sample of the masked softmax.
                    gumbel = -torch.log(-torch.log(torch.rand_like(logp_all).clamp_min(1e-20)))
                    a = (logp_all + gumbel).argmax(dim=1)
                    b_act[t] = a
                    b_logp[t] = logp_all.gather(1, a.unsqueeze(1)).squeeze(1)
                    b_val[t] = critic(b_obs[t]).squeeze(1)
                obs_np, rew, term, trunc, _ = envs.step(a.numpy())
                r = torch.from_numpy(rew).float()
                ended = term | trunc
                if trunc.any():
                    # A truncated episode is bootstrapped from its last observation's value.
                    idx = np.flatnonzero(trunc & envs.has_final)
                    if len(idx):
                        with torch.no_grad():
                            v = critic(torch.from_numpy(final_np[idx])).squeeze(1)
                        r[torch.from_numpy(idx)] += cfg.gamma * v
                b_rew[t] = r
                next_done = torch.from_numpy(ended).float()
                ep_ret += rew
                if ended.any():
                    recent.extend(ep_ret[ended].tolist())
                    ep_ret[ended] = 0.0
            del recent[:-1000]

            # GAE
            with torch.no_grad():
                next_value = critic(torch.from_numpy(obs_np)).squeeze(1)
                adv = torch.zeros((T, N))
                last = torch.zeros(N)
                for t in reversed(range(T)):
                    if t == T - 1:
                        nonterm, nv = 1.0 - next_done, next_value
                    else:
                        nonterm, nv = 1.0 - b_done[t + 1], b_val[t + 1]
                    delta = b_rew[t] + cfg.gamma * nv * nonterm - b_val[t]
                    last = delta + cfg.gamma * cfg.gae_lambda * nonterm * last
                    adv[t] = last
                ret = adv + b_val

            f_obs, f_mask = b_obs.reshape(batch, L), b_mask.reshape(batch, A)
            f_act, f_logp, f_adv, f_ret, f_val = (x.reshape(batch) for x in (b_act, b_logp, adv, ret, b_val))
            actor.train()
            critic.train()
            clipfracs, kls = [], []
            policy_frozen = update - start_update < cfg.warmup_updates and not cfg.resume
            for _ in range(cfg.epochs):
                perm = torch.randperm(batch)
                for s in range(0, batch - mb_size + 1, mb_size):
                    mb = perm[s : s + mb_size]
                    logits = masked_logits(actor(f_obs[mb]), f_mask[mb])
                    logp_all = torch.log_softmax(logits, dim=1)
                    new_logp = logp_all.gather(1, f_act[mb].unsqueeze(1)).squeeze(1)
                    entropy = -(logp_all.exp() * logp_all).sum(1).mean()
                    log_ratio = new_logp - f_logp[mb]
                    ratio = log_ratio.exp()
                    with torch.no_grad():
                        kls.append(float(((ratio - 1) - log_ratio).mean()))
                        clipfracs.append(float(((ratio - 1.0).abs() > cfg.clip).float().mean()))
                    a_mb = f_adv[mb]
                    a_mb = (a_mb - a_mb.mean()) / (a_mb.std() + 1e-8)
                    pg_loss = torch.max(-a_mb * ratio, -a_mb * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                    v = critic(f_obs[mb]).squeeze(1)
                    v_loss = 0.5 * ((v - f_ret[mb]) ** 2).mean()
                    if policy_frozen:
                        loss = cfg.vf_coef * v_loss
                    else:
                        loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
                    opt.zero_grad(set_to_none=True)
                    loss.backward()
                    nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                    opt.step()
                if cfg.target_kl and np.mean(kls[-cfg.minibatches:]) > cfg.target_kl:
                    break
            var_y = float(f_ret.var())
            stats = {
                "pg": pg_loss.item(), "v": v_loss.item(), "ent": entropy.item(), "kl": float(np.mean(kls)),
                "clip": float(np.mean(clipfracs)),
                "ev": math.nan if var_y == 0 else 1 - float((f_ret - f_val).var()) / var_y,
            }
            sps = (global_step - step0) / max(time.perf_counter() - wall0, 1e-9)
            mean_recent = float(np.mean(recent[-200:])) if recent else math.nan
            progress(
                f"{cfg.game} update {update}/{updates} step {human(global_step)} {sps:,.0f} steps/s "
                f"return {mean_recent:.4f} ({len(recent)} eps) ent {stats['ent']:.3f} kl {stats['kl']:.4f} "
                f"clip {stats['clip']:.3f} ev {stats['ev']:.2f}" + (" [value warm-up]" if policy_frozen else "")
            )
            if evaluator.busy:
                finish_eval(block=False)
            if global_step - last_eval >= cfg.eval_every and not evaluator.busy and update < updates:
                start_eval()
        # The last point: the final network, once the evaluation before it is done.
        if pending.get("step") != global_step:
            finish_eval(block=True)
            start_eval()
        finish_eval(block=True)
    finally:
        evaluator.close()
        envs.close()
        snapshot.unlink(missing_ok=True)
    wall = time.perf_counter() - wall0
    (out / "timing.json").write_text(json.dumps({
        "wall_seconds": round(wall, 1), "steps": global_step - step0, "eval_held_seconds": round(held, 1),
        "eval_held_share": round(held / max(wall, 1e-9), 3), "eval_inline": cfg.eval_inline,
        "eval_seconds": round(sum(float(r.get("eval_seconds", 0)) for r in curve.rows), 1)}, indent=1) + "\n")
    progress(f"train: {human(global_step - step0)} steps in {wall:.0f} s; the evaluations held training for {held:.0f} s "
             f"({100 * held / max(wall, 1e-9):.0f} %)", end=True)
    return out / "best.safetensors"
