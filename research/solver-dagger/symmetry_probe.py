"""A probe, not part of the trainer: do The Fifteen's symmetries help a
one-logit-per-action network imitate the solver on deals it never saw?

imitation_probe.py found that the network of ``train dagger`` learns the
solver's moves on its training deals (97.9 %) but picks the solver's move on
unseen deals only 17.5-24.1 % of the time (the heuristic: 60.5 %). The
Fifteen has two symmetries that change neither its rules nor the solver's
verdicts: the four suits can be relabelled (marriages and piles are by
suit, colour plays no part), and the 15 columns can be reordered (the
emergency rule names columns, not their places). This probe labels
positions as imitation_probe.py does (the solver, ``solver:nodes=30000``,
plays 128 environments from deal 123,456 up, training deals; environments
0-95 train, 96-127 are unseen deals), then trains the same network three
times for the same number of steps: on the positions as they are; with each
minibatch relabelled by a random suit permutation; and by a random suit and
column permutation (the observation's cells and card codes, the mask and
the solver's move mapped together). Then a network that has the column
symmetry built in (MoveScorer: one encoder shared by the 15 columns, and
each move scored from the features of the columns it names, so reordering
the columns reorders its scores), as the positions are and with the suits
relabelled. Each network, after its last epoch, also plays The Fifteen on
its own (the legal move it scores highest) on the selection deals
900,000-900,199, beside the heuristic on the same deals, and once more
never undoing its last move (a move from column a to b right after one
from b to a) while another move is legal.

    python research/solver-dagger/symmetry_probe.py > results/train/solver-dagger/symmetry_probe.txt

Needs the package with its train extra (PyTorch); --labels FILE keeps the
labelled positions (npz) and reuses them when the file exists.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from imitation_probe import fit, label  # this folder's other probe (the script's folder is on sys.path)

from patience_gym import PatienceVectorEnv
from patience_gym._lib import game_spec
from patience_gym.train.net import PolicyNet, masked_logits

# The Fifteen's layout (env/fifteen): 15 columns of 31 cells, then the
# eight piles (up and down of each suit), then the emergency flag; actions:
# up pile from column c, down pile from column c, a move from one column to
# another, and the emergency rule's pair of 1-based columns (0 = none).
COLS, HEIGHT, SUITS = 15, 31, 4
OBS_PILES = COLS * HEIGHT
ACT_UP, ACT_DOWN, ACT_MOVE = 0, COLS, 2 * COLS
ACT_EMERGENCY = ACT_MOVE + COLS * COLS
ACTIONS = ACT_EMERGENCY + (COLS + 1) ** 2


def symmetry(rng: np.random.Generator, suits: bool, columns: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random symmetry: (cell_src, code_map, act_map) such that the
    relabelled observation is code_map[obs[:, cell_src]], the relabelled
    mask is mask[:, act_src] with act_src the inverse of act_map, and the
    relabelled move of a is act_map[a]."""
    sigma = rng.permutation(SUITS) if suits else np.arange(SUITS)
    pi = rng.permutation(COLS) if columns else np.arange(COLS)
    code_map = np.arange(256, dtype=np.uint8)
    for c in range(1, 53):  # card codes: suit*13 + rank, rank 1..13
        s, r = (c - 1) // 13, (c - 1) % 13 + 1
        code_map[c] = sigma[s] * 13 + r
    cell_src = np.arange(OBS_PILES + 2 * SUITS + 1)
    for c in range(COLS):
        cell_src[pi[c] * HEIGHT : (pi[c] + 1) * HEIGHT] = np.arange(c * HEIGHT, (c + 1) * HEIGHT)
    for s in range(SUITS):
        for j in range(2):
            cell_src[OBS_PILES + 2 * sigma[s] + j] = OBS_PILES + 2 * s + j
    act_map = np.zeros(ACTIONS, np.int64)
    for c in range(COLS):
        act_map[ACT_UP + c] = ACT_UP + pi[c]
        act_map[ACT_DOWN + c] = ACT_DOWN + pi[c]
        for d in range(COLS):
            act_map[ACT_MOVE + c * COLS + d] = ACT_MOVE + pi[c] * COLS + pi[d]
    one_based = np.concatenate([[0], pi + 1])
    for a in range(COLS + 1):
        for k in range(COLS + 1):
            act_map[ACT_EMERGENCY + a * (COLS + 1) + k] = ACT_EMERGENCY + one_based[a] * (COLS + 1) + one_based[k]
    assert sorted(act_map) == list(range(ACTIONS))
    return cell_src, code_map, act_map


def check_up_moves(obs: np.ndarray, masks: np.ndarray) -> int:
    """Checks the layout this probe assumes, in the original or relabelled
    positions: wherever "up pile from column c" is legal, column c's top card
    is one rank above its suit's up pile. Returns the moves checked."""
    checked = 0
    for i in range(len(obs)):
        for c in np.flatnonzero(masks[i, ACT_UP : ACT_UP + COLS]):
            col = obs[i, c * HEIGHT : (c + 1) * HEIGHT]
            top = int(col[np.flatnonzero(col)[-1]])
            s, r = (top - 1) // 13, (top - 1) % 13 + 1
            pile = int(obs[i, OBS_PILES + 2 * s])
            assert (pile == 0 and r == 1) or (pile != 0 and (pile - 1) // 13 == s and (pile - 1) % 13 + 2 == r), (i, c)
            checked += 1
    return checked


class MoveScorer(torch.nn.Module):
    """Scores every action of The Fifteen from features shared by the
    columns: an encoder of one column's 31 cells (the same weights for all
    15), a context (the eight piles, the emergency flag and the mean of the
    column features), and for each kind of move a small network of the
    features of the columns it names and the context; the hidden layer of
    a move between two columns is the sum of one term per column and one
    for the context, so that all 225 moves cost one addition each."""

    def __init__(self, card_dim: int = 16, width: int = 128, hidden: int = 64) -> None:
        super().__init__()
        self.cards = torch.nn.Embedding(256, card_dim)
        self.column = torch.nn.Sequential(
            torch.nn.Linear(HEIGHT * card_dim, width), torch.nn.ReLU(), torch.nn.Linear(width, width), torch.nn.ReLU()
        )
        self.piles = torch.nn.Sequential(torch.nn.Linear(2 * SUITS * card_dim + 1, 64), torch.nn.ReLU())
        ctx = 64 + width
        self.home = torch.nn.Sequential(torch.nn.Linear(width + ctx, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 2))
        self.none = torch.nn.Parameter(torch.zeros(width))  # the emergency rule's "no column"
        self.pair_from = torch.nn.ModuleList([torch.nn.Linear(width, hidden) for _ in range(2)])
        self.pair_to = torch.nn.ModuleList([torch.nn.Linear(width, hidden, bias=False) for _ in range(2)])
        self.pair_ctx = torch.nn.ModuleList([torch.nn.Linear(ctx, hidden, bias=False) for _ in range(2)])
        self.pair_out = torch.nn.ModuleList([torch.nn.Linear(hidden, 1) for _ in range(2)])

    def pairs(self, k: int, f: torch.Tensor, ctx: torch.Tensor) -> torch.Tensor:
        a, b = self.pair_from[k](f), self.pair_to[k](f)
        h = torch.relu(a[:, :, None] + b[:, None, :] + self.pair_ctx[k](ctx)[:, None, None])
        return self.pair_out[k](h).flatten(1)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        x = obs.long()
        n = x.shape[0]
        f = self.column(self.cards(x[:, :OBS_PILES].reshape(n, COLS, HEIGHT)).flatten(2))
        piles = self.cards(x[:, OBS_PILES : OBS_PILES + 2 * SUITS]).flatten(1)
        ctx = torch.cat([self.piles(torch.cat([piles, obs[:, -1:].float()], 1)), f.mean(1)], 1)
        home = self.home(torch.cat([f, ctx[:, None].expand(n, COLS, ctx.shape[1])], 2))
        with_none = torch.cat([self.none.expand(n, 1, -1), f], 1)
        return torch.cat([home[..., 0], home[..., 1], self.pairs(0, f, ctx), self.pairs(1, with_none, ctx)], 1)


PLAY_DEALS, PLAY_FROM = 200, 900_000


def play(policy: object, guard: bool = False) -> str:
    """Plays deals PLAY_FROM.. once each with policy(envs, obs) -> actions
    (or, with guard, -> scores of every action, of which the best legal one
    is played, never the move that undoes the last one when another is
    legal); returns its wins, mean progress (the return is the share of the
    cards placed) and how many games ran into the step limit."""
    envs = PatienceVectorEnv("fifteen", PLAY_DEALS, autoreset_mode=AutoresetMode.SAME_STEP)
    o, _ = envs.reset(seed=PLAY_FROM)
    ret = np.zeros(PLAY_DEALS)
    alive = np.ones(PLAY_DEALS, np.bool_)
    last = np.full(PLAY_DEALS, -1)
    rows = np.arange(PLAY_DEALS)
    limit = 0
    while alive.any():
        if guard:
            z = np.where(envs.action_masks(), policy(envs, o), -np.inf)  # type: ignore[operator]
            m = last - ACT_MOVE
            back = np.where((m >= 0) & (m < COLS * COLS), ACT_MOVE + (m % COLS) * COLS + m // COLS, -1)
            undo = np.full_like(z, False, dtype=np.bool_)
            undo[rows[back >= 0], back[back >= 0]] = True
            other = np.isfinite(np.where(undo, -np.inf, z)).any(1)
            z = np.where(undo & other[:, None], -np.inf, z)
            a = z.argmax(1)
        else:
            a = policy(envs, o)  # type: ignore[operator]
        o, r, term, trunc, _ = envs.step(a)
        last = np.where(term | trunc, -1, a)
        ret[alive] += r[alive]
        limit += int((trunc & ~term & alive).sum())
        alive &= ~(term | trunc)
    envs.close()
    wins = int((ret > 1 - 1e-9).sum())
    return f"wins {wins} of {PLAY_DEALS}, mean progress {100 * ret.mean():.1f} %, {limit} games stopped by the step limit"


def train(data: dict[str, np.ndarray], suits: bool, columns: bool, out: str, scorer: bool = False) -> None:
    torch.manual_seed(1)
    spec = game_spec("fifteen")
    net: torch.nn.Module = MoveScorer() if scorer else PolicyNet(spec, (192, 256), spec.actions, card_dim=8)

    def relabel(rng: np.random.Generator, o: np.ndarray, m: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cell_src, code_map, act_map = symmetry(rng, suits, columns)
        act_src = np.argsort(act_map)
        return code_map[o[:, cell_src]], m[:, act_src], act_map[y]

    fit(net, data, out, relabel if suits or columns else None)

    def greedy(envs: PatienceVectorEnv, o: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            z = masked_logits(net(torch.from_numpy(o)), torch.from_numpy(envs.action_masks().copy()))
        return z.argmax(-1).numpy()

    def scores(envs: PatienceVectorEnv, o: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return net(torch.from_numpy(o)).numpy()

    print(f"{out}, playing alone: {play(greedy)}")
    print(f"{out}, playing alone, never undoing its last move: {play(scores, guard=True)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=200, help="steps of the 128 environments to label")
    ap.add_argument("--labels", type=Path, help="an npz file keeping the labelled positions")
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.labels and args.labels.exists():
        with np.load(args.labels) as f:
            data = {k: f[k] for k in f.files}
    else:
        spec = game_spec("fifteen")
        assert spec.actions == ACTIONS and spec.obs_len == OBS_PILES + 2 * SUITS + 1
        data = label(args.steps)
        if args.labels:
            np.savez_compressed(args.labels, **data)
    n = data["solver"].size
    legal = data["masks"].sum(-1)
    print(f"{n} positions; legal moves per position: mean {legal.mean():.1f}, median {np.median(legal):.0f}")
    print(f"the heuristic's move is the solver's in {(data['solver'] == data['heuristic']).mean():.3f} of the positions")
    # The layout check, on the positions as they are and relabelled.
    o, m = data["obs"][:20].reshape(-1, data["obs"].shape[-1]), data["masks"][:20].reshape(-1, ACTIONS)
    cell_src, code_map, act_map = symmetry(np.random.default_rng(5), True, True)
    moved = check_up_moves(o, m) + check_up_moves(code_map[o[:, cell_src]], m[:, np.argsort(act_map)])
    print(f"layout check: {moved} up-pile moves agree with the observation, as dealt and relabelled")
    # The scorer's column symmetry, checked: reordering the columns of a
    # position reorders its scores.
    net = MoveScorer()
    with torch.no_grad():
        o = data["obs"][0, :8]
        cell_src, code_map, act_map = symmetry(np.random.default_rng(6), False, True)
        z, zp = net(torch.from_numpy(o)), net(torch.from_numpy(code_map[o[:, cell_src]]))
        assert torch.allclose(zp[:, torch.from_numpy(act_map)], z, atol=1e-5)
    print(f"MoveScorer: {sum(p.numel() for p in net.parameters())} weights; its scores follow the columns' order")
    print(f"the heuristic, playing: {play(lambda envs, o: envs.agent_actions('heuristic', seed=1))}")
    for suits, columns, name in ((False, False, "as they are"), (True, False, "suits relabelled"),
                                 (True, True, "suits and columns relabelled")):
        train(data, suits, columns, name)
    train(data, False, False, "MoveScorer, as they are", scorer=True)
    train(data, True, False, "MoveScorer, suits relabelled", scorer=True)


if __name__ == "__main__":
    main()
