"""The command line, ``python -m patience_gym.train COMMAND [flags]``: one
sub-command per method (ppo, bc, dagger, value, cem) and eval, each flag a
field of the method's config."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Sequence

import torch

from .._lib import game_spec
from ..env import TRAINING_DEALS
from .bc import BCConfig, bc
from .cem import FEATURES, CEMConfig, cem
from .dagger import DAggerConfig, dagger
from .evaluation import EVAL_DEALS, eval_deals, evaluate, evaluate_agent
from .model_file import HEAD_VALUE, load_model
from .net import DTYPES
from .ppo import PPOConfig, ppo
from .value import TIE_EVAL_WEIGHT, ValueConfig, value
from .winnable import KINDS, WinnableConfig, winnable

__all__ = ["build_parser", "command_line", "main", "parse_count", "parse_hidden"]

DESCRIPTION = ("Reference trainer: masked PPO, behaviour cloning, DAgger, value learning, the cross-entropy method and "
               "learning from the solver's verdicts, "
               "writing the policy files the Go agent plays.")


def parse_count(s: str) -> int:
    """'5M', '500k', '2.5e6', '1000' as an integer."""
    s = s.strip().replace("_", "").replace(",", "")
    mult = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}.get(s[-1:].lower(), 1)
    if mult != 1:
        s = s[:-1]
    return int(float(s) * mult)


def parse_hidden(s: str) -> tuple[int, ...]:
    """'32,256' as (32, 256)."""
    return tuple(int(x) for x in s.split(",") if x.strip())


def command_line(argv: Sequence[str]) -> str:
    """The command as a person would type it again."""
    return "python -m patience_gym.train " + shlex.join(argv)


REFERENCES_HELP = "Go agents drawn as reference lines ('' for none)"


def add_net_args(p: argparse.ArgumentParser, hidden_help: str = "hidden widths, e.g. 32,256 (default: the game's)") -> None:
    """The flags of the network a method trains (NetConfig's hidden,
    card_dim and dtype)."""
    p.add_argument("--hidden", type=parse_hidden, default=(), help=hidden_help)
    p.add_argument("--card-dim", type=int, default=-1,
                   help="card embedding width of the first layer; 0: a row per one-hot input (default: the game's)")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="", help="dtype of the exported file (default: the game's)")


def add_eval_args(p: argparse.ArgumentParser, deals: int = 200) -> None:
    """The flags of the evaluation deals (RunConfig's eval_deals, from
    deals, and eval_start)."""
    p.add_argument("--eval-deals", type=int, default=deals)
    p.add_argument("--eval-start", type=int, default=EVAL_DEALS)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every sub-command and its flags."""
    p = argparse.ArgumentParser(prog="python -m patience_gym.train", description=DESCRIPTION,
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("ppo", help="masked PPO on the vector environment",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    q.add_argument("--game", default="fifteen")
    q.add_argument("--steps", type=parse_count, default=5_000_000, help="environment steps (5M, 500k, ...)")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--out", default="", help="run directory (default runs/ppo-GAME-sSEED)")
    add_net_args(q)
    q.add_argument("--num-envs", type=int, default=0, help="parallel environments (default: the game's)")
    q.add_argument("--num-steps", type=int, default=0, help="steps per environment per rollout (default: the game's)")
    q.add_argument("--lr", type=float, default=0.0, help="learning rate (default: the game's)")
    q.add_argument("--no-anneal", dest="anneal_lr", action="store_false", help="keep the learning rate constant")
    q.add_argument("--gamma", type=float, default=0.0, help="discount (default: the game's)")
    q.add_argument("--gae-lambda", type=float, default=0.95)
    q.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    q.add_argument("--minibatches", type=int, default=8)
    q.add_argument("--clip", type=float, default=0.2)
    q.add_argument("--ent-coef", type=float, default=-1.0, help="entropy bonus (default: the game's)")
    q.add_argument("--vf-coef", type=float, default=0.5)
    q.add_argument("--max-grad-norm", type=float, default=0.5)
    q.add_argument("--target-kl", type=float, default=0.0, help="stop an update's epochs past this KL (0: never)")
    q.add_argument("--init", default="", help="start the policy from a model file (a bc run's best.safetensors)")
    q.add_argument("--warmup-updates", type=int, default=0, help="first updates that train the value function only (useful with --init)")
    q.add_argument("--eval-every", type=parse_count, default=0, help="environment steps between evaluations (default: steps/20)")
    add_eval_args(q)
    q.add_argument("--max-steps", type=int, default=0, help="episode step limit (0: the game's)")
    q.add_argument("--threads", type=int, default=1, help="torch threads (more than 1 is slower on a busy machine)")
    q.add_argument("--workers", type=int, default=1, help="Go goroutines stepping the environments")
    q.add_argument("--resume", action="store_true", help="continue from the run directory's checkpoint.pt")
    q.add_argument("--eval-inline", action="store_true",
                   help="evaluate in the training process, training waiting (default: in a process beside it, on the exported file)")
    q.add_argument("--references", default="random,heuristic", help=REFERENCES_HELP)

    b = sub.add_parser("bc", help="behaviour cloning from datasets", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    b.add_argument("--data", action="append", required=True, help="a dataset directory (repeat for several)")
    b.add_argument("--out", default="", help="run directory (default runs/bc-GAME-sSEED)")
    add_net_args(b)
    b.add_argument("--epochs", type=int, default=10)
    b.add_argument("--batch-size", type=int, default=512)
    b.add_argument("--lr", type=float, default=1e-3)
    b.add_argument("--weight-decay", type=float, default=0.0)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--val-frac", type=float, default=0.05, help="fraction of episodes held out")
    b.add_argument("--init", default="", help="start from a model file")
    add_eval_args(b)
    b.add_argument("--evals-per-epoch", type=int, default=1)
    b.add_argument("--threads", type=int, default=1)
    b.add_argument("--references", default="random,heuristic", help=REFERENCES_HELP)
    b.add_argument("--scores-temperature", type=float, default=0.0,
                   help="above 0: imitate the datasets' move scores (generate --scores): softmax(score/T) over mc's "
                        "candidates, visits^(1/T) over uct's; 0: the move played only")
    b.add_argument("--scores-weight", type=float, default=1.0,
                   help="with --scores-temperature: the scores' share of the target, the rest on the move played")

    g = sub.add_parser("dagger", help="DAgger: a Go agent labels the positions the student reaches",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    g.add_argument("--game", default="limited")
    g.add_argument("--teacher", default="mc", help="the Go agent whose moves are the labels (heuristic, mc:rollouts=8, ...)")
    g.add_argument("--out", default="", help="run directory (default runs/dagger-GAME-sSEED)")
    g.add_argument("--rounds", type=int, default=10)
    g.add_argument("--steps-per-round", type=parse_count, default=20_000, help="labelled positions per round")
    g.add_argument("--num-envs", type=int, default=64)
    g.add_argument("--beta", type=float, default=0.5, help="chance of playing the teacher's move in round 1")
    g.add_argument("--beta-decay", type=float, default=0.5, help="beta's factor per round")
    g.add_argument("--data", action="append", default=[], help="a dataset of the teacher's games to start from (repeatable)")
    g.add_argument("--init", default="", help="start from a model file (a bc run's best.safetensors)")
    add_net_args(g)
    g.add_argument("--epochs", type=int, default=2, help="passes over all labels after each round")
    g.add_argument("--batch-size", type=int, default=512)
    g.add_argument("--lr", type=float, default=1e-3)
    g.add_argument("--seed", type=int, default=1)
    add_eval_args(g)
    g.add_argument("--max-steps", type=int, default=0, help="episode step limit (0: the game's)")
    g.add_argument("--threads", type=int, default=1)
    g.add_argument("--references", default="random,heuristic", help=REFERENCES_HELP)

    v = sub.add_parser("value", help="a value network from labelled moves (patience label), played by one-step look-ahead",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    v.add_argument("--moves", action="append", required=True, help="a patience label output directory (repeat for several)")
    v.add_argument("--out", default="", help="run directory (default runs/value-GAME-sSEED)")
    add_net_args(v)
    v.add_argument("--epochs", type=int, default=4)
    v.add_argument("--batch-positions", type=int, default=64, help="positions per batch (with all their moves)")
    v.add_argument("--lr", type=float, default=1e-3)
    v.add_argument("--weight-decay", type=float, default=0.0)
    v.add_argument("--rank-weight", type=float, default=4.0, help="weight of the error on the moves' differences within a position")
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--val-frac", type=float, default=0.05, help="fraction of positions held out")
    v.add_argument("--init", default="", help="start from a value file")
    add_eval_args(v, deals=100)
    v.add_argument("--evals-per-epoch", type=int, default=1)
    v.add_argument("--threads", type=int, default=1)
    v.add_argument("--references", default="random,heuristic", help=REFERENCES_HELP)
    v.add_argument("--choice", action="store_true",
                   help="learn the agent's choices (column chosen; patience label --rollouts 0) as a correction to the game's evaluation, "
                        "by the cross-entropy over each position's moves, instead of regressing on the labels")
    v.add_argument("--eval-weight", type=float, default=0.0,
                   help="with --choice, the starting weight of the evaluation over the cards, in logits (0: the game's card count)")
    v.add_argument("--ties-only", action="store_true",
                   help="with --choice, learn only which of the moves the evaluation ranks first the agent chose: the file "
                        f"(eval weight {TIE_EVAL_WEIGHT:g}) plays as the heuristic ranks and breaks its ties by the network")
    v.add_argument("--fixed-eval-weight", action="store_true",
                   help="with --choice, keep the evaluation's weight at --eval-weight: a large one makes the network learn where the agent "
                        "departs from the evaluation's ranking rather than how sure it is")

    c = sub.add_parser("cem", help="the cross-entropy method over a linear correction to the evaluation, from whole games' outcomes",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    c.add_argument("--game", default="royalparade")
    c.add_argument("--out", default="", help="run directory (default runs/cem-GAME-sSEED)")
    c.add_argument("--features", default="segments", choices=FEATURES,
                   help="the parameters: two per observation segment (its non-empty cells, the sum of their values), or "
                        "ranks: a card segment's non-empty cells and its cards of each rank; +terms (or terms alone): "
                        "a weight per term of the game's evaluation as well")
    c.add_argument("--deals", type=int, default=500, help="training deals: every candidate plays all of them")
    c.add_argument("--seed-start", type=int, default=100_000, help="first training deal (below 1,000,000)")
    c.add_argument("--population", type=int, default=16, help="candidates per generation")
    c.add_argument("--elite", type=int, default=4, help="best candidates the distribution is refitted to")
    c.add_argument("--generations", type=int, default=10)
    c.add_argument("--sigma", type=float, default=0.1, help="the parameters' starting spread (cards per cell or per unit of value)")
    c.add_argument("--noise", type=float, default=0.01, help="added to the refitted spread, so that it does not collapse at once")
    c.add_argument("--seed", type=int, default=1)
    add_eval_args(c, deals=1000)
    c.add_argument("--max-steps", type=int, default=0, help="episode step limit (0: the game's)")
    c.add_argument("--resume", action="store_true", help="continue from the run directory's state.json")
    c.add_argument("--init", default="", help="start the mean at an earlier cem file's parameters, by name (others at 0)")
    c.add_argument("--references", default="random,heuristic", help=REFERENCES_HELP)
    c.add_argument("--lookahead-samples", type=int, default=1,
                   help="a game with hidden cards: the files score each move by its mean over this many reshuffled copies "
                        "(lookahead_samples, docs/models.md), and candidates are judged so")

    w = sub.add_parser("winnable", help="a value network on the solver's verdicts (patience label --solver), played by one-step look-ahead",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    w.add_argument("--labels", action="append", required=True, help="a patience label --solver output directory (repeat for several)")
    w.add_argument("--out", default="", help="run directory (default runs/winnable-GAME-sSEED)")
    add_net_args(w, hidden_help="hidden widths (default 256,256)")
    w.add_argument("--stacks", default="auto",
                   help="the columns the network reads turned over: auto (the game's), none, or OFFSET:COUNT:HEIGHT;...")
    w.add_argument("--no-sort-stacks", dest="sort_stacks", action="store_false", help="keep the columns in their order")
    w.add_argument("--kinds", default=",".join(KINDS), help="the kinds of rows to learn from")
    w.add_argument("--child-weight", type=float, default=2.0, help="weight of a child row (a legal move's successor) in the loss")
    w.add_argument("--rank-weight", type=float, default=0.0,
                   help="weight of the loss on the choice among children: the softmax of their logits on the won ones")
    w.add_argument("--rank-groups", type=int, default=16, help="positions with won and lost children per step, for --rank-weight")
    w.add_argument("--value-floor", type=float, default=0.0,
                   help="write value_floor F into the files: the agent scores min(0, log sigmoid(z) - log F), the network a veto")
    w.add_argument("--rank-eval", action="store_true",
                   help="rank by the agent's scores (log sigmoid of the logit plus --eval-weight times the evaluation), not the logits")
    w.add_argument("--epochs", type=int, default=6)
    w.add_argument("--batch", type=int, default=256)
    w.add_argument("--lr", type=float, default=1e-3)
    w.add_argument("--weight-decay", type=float, default=1e-4)
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--val-frac", type=float, default=0.05, help="fraction of deals held out")
    w.add_argument("--init", default="", help="start from a value file (a winnable run's)")
    add_eval_args(w)
    w.add_argument("--evals-per-epoch", type=int, default=1)
    w.add_argument("--eval-weight", type=float, default=10.0,
                   help="the file's eval_weight: the agent's score is log P(won) + this times the evaluation over the cards")
    w.add_argument("--tune-weights", default="", help="eval weights to try with the best file on the evaluation deals, comma-separated")
    w.add_argument("--threads", type=int, default=1)
    w.add_argument("--references", default="random,heuristic", help=REFERENCES_HELP)
    w.add_argument("--resume", action="store_true", help="continue from the run directory's checkpoint.pt")

    e = sub.add_parser("eval", help="greedy play of a model file on fixed deals")
    e.add_argument("--model", required=True)
    e.add_argument("--deals", type=int, default=200)
    e.add_argument("--start", type=int, default=EVAL_DEALS, help="first deal (below 1,000,000)")
    e.add_argument("--temperature", type=float, default=0.0, help="0: masked argmax; above 0: sample from the masked softmax")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--threads", type=int, default=1)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line (argv without the program name; sys.argv's by
    default) and returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.cmd == "value" and not args.choice and (args.ties_only or args.fixed_eval_weight or args.eval_weight):
        parser.error("value: --ties-only, --eval-weight and --fixed-eval-weight learn choices: add --choice")
    cmd = command_line(argv)
    kw = {k: v for k, v in vars(args).items() if k != "cmd"}
    t0 = time.perf_counter()
    if args.cmd == "ppo":
        cfg = PPOConfig(**kw, command=cmd)
        cfg.out = cfg.out or f"runs/ppo-{game_spec(cfg.game).name}-s{cfg.seed}"
        path = ppo(cfg)
    elif args.cmd == "bc":
        cfg_b = BCConfig(**kw, command=cmd)
        if not cfg_b.out:
            from .. import datasets

            cfg_b.out = f"runs/bc-{game_spec(str(datasets.load(cfg_b.data[0]).meta['game'])).name}-s{cfg_b.seed}"
        path = bc(cfg_b)
    elif args.cmd == "value":
        path = value(ValueConfig(**kw, command=cmd))
    elif args.cmd == "cem":
        try:
            path = cem(CEMConfig(**kw, command=cmd))
        except ValueError as err:
            print(f"train {err}", file=sys.stderr)
            return 2
    elif args.cmd == "dagger":
        path = dagger(DAggerConfig(**kw, command=cmd))
    elif args.cmd == "winnable":
        path = winnable(WinnableConfig(**kw, command=cmd))
    else:
        torch.set_num_threads(args.threads)
        net, meta = load_model(args.model)
        if args.start + args.deals > TRAINING_DEALS:
            print("train eval: deals from 1,000,000 are the measuring range: use patience bench there", file=sys.stderr)
            return 2
        if meta.get("head") == HEAD_VALUE:
            # Python has no copies of positions to look ahead on: the Go
            # policy agent plays a value file.
            agent = f"policy:model={args.model}"
            if args.temperature > 0:
                agent += f",sample=1,temperature={args.temperature}"
            r = evaluate_agent(meta["game"], agent, eval_deals(args.deals, args.start))
        else:
            r = evaluate(net, eval_deals(args.deals, args.start), temperature=args.temperature, seed=args.seed)
        print(json.dumps({"model": args.model, "game": meta["game"], "deals": f"{args.start}..{args.start + args.deals - 1}",
                          "mean_return": round(r.mean_return, 4), "win_rate": round(r.win_rate, 4),
                          "mean_steps": float(r.steps.mean()), "seconds": round(r.seconds, 2)}))
        return 0
    print(f"train: done in {time.perf_counter() - t0:.0f}s; best model {path}", file=sys.stderr)
    return 0
