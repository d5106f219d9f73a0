package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/labels"
	"github.com/patience-gym/patience/labels/solverlabels"
)

var labelCmd = &command{
	name:    "label",
	args:    "[GAME] [--agent A] [--deals N] [--seed-start S] [--per-deal P] [--rollouts R] [--rollout-steps K] [--out DIR] [--workers W] | [GAME] --solver NODES [--agent A,B] [--explore E] [--worlds W] ...",
	summary: "label every legal move of sampled positions with the final progress an agent reaches after it (value-network targets)",
	long: `Plays each deal with the agent, draws --per-deal of its positions that have a choice, and labels
every legal move there with the final progress fraction the agent reaches when it plays on from the
position after that move (the mean of --rollouts continuations, each with its own agent seed, each
worth the game's evaluation over its cards where --rollout-steps stops it; in games with hidden cards it plays against the
deal's real hidden cards, so a label is one sample). Writes DIR/part-NNNNN.parquet, one row per move:
deal, position, step, action, action_name, chosen (the agent's own move), obs (after the move),
terminal, eval (the game's evaluation after the move, over its cards: what the heuristic ranks by)
and value. python -m patience_gym.train value --moves DIR trains a value network on them.
With --rollouts 0 no continuation is played and the label is the evaluation after the move (the final
progress where it ends the game): rows to learn the agent's own choices from (train value --choice).
A rerun skips finished parts; --shard i/n writes one machine's share of them. Tune on deals below 1000000: the ones above are the measuring range.

With --solver NODES the labels are the solver's verdicts instead, at a budget of NODES nodes a search
(500k, 2M): the agents of --agent (comma-separated) play the deals in turn, with a random legal move
instead of theirs with chance --explore, and positions of their games are labelled won (with the
length of the winning line found), lost, or unknown. In games of perfect information the game is cut
in halves to find the agent's last winnable position, whose children (every legal move's successor)
are labelled, with those of --sibling-positions other winnable positions; --path-positions positions
of the game and --line-positions of a winning line from the start are labelled too. In games with
hidden cards each position is labelled by --worlds determinizations (the share that can be won),
children in the same worlds. Rows: deal, position, parent, kind (path, child, line), agent, step,
action, chosen, obs, terminal, progress, eval, worlds, wins, unknown, distance, nodes.
python -m patience_gym.train winnable --labels DIR trains a network on them.`,
	run: runLabel,
}

func runLabel(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	game := gameFlag(fs)
	agentFlag := addAgentFlags(fs, "heuristic")
	deals := fs.Int64("deals", 100, "deals to play")
	var seedStart seedFlag
	fs.Var(&seedStart, "seed-start", "first deal ("+seedRange+")")
	perDeal := fs.Int("per-deal", 20, "positions drawn from each game")
	rollouts := fs.Int("rollouts", 1, "continuations after each move, each with its own agent seed; the label is their mean (0: none, the label is the evaluation after the move: rows to learn the agent's choices from)")
	var rolloutSeed seedFlag
	fs.Var(&rolloutSeed, "rollout-seed", "mixed into the continuations' agent seeds: another value draws independent labels of the same moves")
	rolloutSteps := fs.Int("rollout-steps", 0, "cap on a continuation's moves (0: to the end of the game); a capped one is worth the game's evaluation where it stops, over its cards")
	partDeals := fs.Int("part-deals", 50, "deals per part file")
	out := fs.String("out", "", "the output directory (default data/GAME-moves-AGENT)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (the files do not depend on it)")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = the game's default)")
	solverBudget := fs.String("solver", "", "label positions with the solver's verdicts at this node budget a search (500k, 2M) instead of rollouts")
	explore := fs.Float64("explore", 0, "with --solver: chance of a random legal move instead of the agent's")
	worlds := fs.Int("worlds", 8, "with --solver, in games with hidden cards: determinizations a position is labelled by")
	pathPositions := fs.Int("path-positions", 16, "with --solver: positions of each agent's game labelled")
	siblingPositions := fs.Int("sibling-positions", 2, "with --solver: winnable positions of each game, besides the critical one, whose every child is labelled")
	linePositions := fs.Int("line-positions", 8, "with --solver: positions of a winning line from the start labelled, per deal")
	completions := fs.Int("completions", 32, "with --solver: where a position whose children are labelled is inside a move of several actions (Cromwell's swap), the ways to finish it labelled: the best by the evaluation, and a quarter as many others")
	shard := shardFlag{0, 1}
	fs.Var(&shard, "shard", "write only share i of n of the part files (0-based: 0/4 .. 3/4); copy the shards' parts into one directory to merge them")
	tableBits := fs.Int("table-bits", 21, "with --solver: log2 of each worker's transposition table entries (16 bytes each)")
	spec, err := parseGameFlag(fs, args, game)
	if err != nil {
		return err
	}
	if *solverBudget != "" {
		return runSolverLabel(ctx, inv, args, spec, solverLabelFlags{agents: *agentFlag.agent, model: *agentFlag.model, budget: *solverBudget,
			deals: *deals, seedStart: seedStart.v, explore: *explore, worlds: *worlds, path: *pathPositions,
			siblings: *siblingPositions, line: *linePositions, completions: *completions, tableBits: *tableBits, partDeals: *partDeals, out: *out,
			workers: *workers, maxSteps: *maxSteps, shard: shard})
	}
	agent, err := agentFlag.parse()
	if err != nil {
		return err
	}
	switch {
	case *workers <= 0:
		return usagef("--workers must be positive")
	case *perDeal <= 0:
		return usagef("--per-deal must be positive")
	case *rollouts < 0:
		return usagef("--rollouts must not be negative")
	case *rolloutSteps < 0:
		return usagef("--rollout-steps must not be negative")
	case *partDeals <= 0:
		return usagef("--part-deals must be positive")
	case *maxSteps < 0:
		return usagef("--max-steps must not be negative")
	}
	if err := checkSeeds(seedStart.v, *deals); err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("data", spec.Name+"-moves-"+agent.Name())
	}
	bar := newProgress(inv.stderr, "label "+spec.Name, shardDeals(*deals, int64(*partDeals), shard))
	start := time.Now()
	tot, err := labels.Run(ctx, labels.Config{Game: spec, MaxSteps: *maxSteps, Agent: agent, SeedStart: seedStart.v,
		Deals: *deals, PerDeal: *perDeal, Rollouts: *rollouts, NoRollouts: *rollouts == 0, RolloutSteps: *rolloutSteps, RolloutSeed: rolloutSeed.v, PartDeals: *partDeals, Out: dir, Workers: *workers, Shard: shard.i, Shards: shard.n, OnDeal: func() { bar.add(1) }})
	bar.done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted: the finished parts are kept, and the same command finishes the rest: %w", err)
		}
		return err
	}
	fmt.Fprintf(inv.stdout, "%s, %s agent: wrote %d parts (%s labelled moves) in %s", spec.Title, agent.Label(), tot.Parts,
		thousands(tot.Rows), time.Since(start).Round(time.Millisecond))
	if tot.Skipped > 0 {
		fmt.Fprintf(inv.stdout, "; skipped %d parts already finished", tot.Skipped)
	}
	fmt.Fprintf(inv.stdout, "\n%s\n", dir)
	return nil
}

// solverLabelFlags are label's flags in its --solver mode.
type solverLabelFlags struct {
	agents, model, budget, out                string
	deals                                     int64
	seedStart                                 uint64
	explore                                   float64
	worlds, path, siblings, line, tableBits   int
	partDeals, workers, maxSteps, completions int
	shard                                     shardFlag
}

// runSolverLabel runs `patience label --solver`.
func runSolverLabel(ctx context.Context, inv *invocation, args []string, spec *env.Spec, f solverLabelFlags) error {
	b, err := parseBudget(f.budget)
	if err != nil {
		return usageError{err}
	}
	if b.nodes <= 0 {
		return usagef("--solver %s: a node budget (500k, 2M), not a time: labels must not depend on the machine", f.budget)
	}
	list, err := agentList(f.agents, []*env.Spec{spec}, f.model)
	if err != nil {
		return err
	}
	switch {
	case f.workers <= 0:
		return usagef("--workers must be positive")
	case !(f.explore >= 0 && f.explore <= 1):
		return usagef("--explore must be a chance from 0 to 1")
	case f.worlds <= 0:
		return usagef("--worlds must be positive")
	case f.path < 0 || f.siblings < 0 || f.line < 0:
		return usagef("--path-positions, --sibling-positions and --line-positions must not be negative")
	case f.completions <= 0:
		return usagef("--completions must be positive")
	case f.tableBits < 10 || f.tableBits > 30:
		return usagef("--table-bits must be from 10 to 30")
	case f.partDeals <= 0:
		return usagef("--part-deals must be positive")
	case f.maxSteps < 0:
		return usagef("--max-steps must not be negative")
	}
	if err := checkSeeds(f.seedStart, f.deals); err != nil {
		return err
	}
	dir := f.out
	if dir == "" {
		dir = filepath.Join("data", spec.Name+"-solver-labels")
	}
	bar := newProgress(inv.stderr, "label "+spec.Name, shardDeals(f.deals, int64(f.partDeals), f.shard))
	start := time.Now()
	tot, err := solverlabels.Run(ctx, solverlabels.Config{Game: spec, MaxSteps: f.maxSteps, Agents: list, Explore: f.explore,
		SeedStart: f.seedStart, Deals: f.deals, Nodes: b.nodes, TableBits: f.tableBits, Worlds: f.worlds,
		PathPositions: f.path, SiblingPositions: f.siblings, LinePositions: f.line, Completions: f.completions, PartDeals: f.partDeals,
		Command: commandLine(append([]string{"patience", "label"}, args...)), Out: dir, Workers: f.workers, Shard: f.shard.i, Shards: f.shard.n,
		OnDeal: func() { bar.add(1) }})
	bar.done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted: the finished parts are kept, and the same command finishes the rest: %w", err)
		}
		return err
	}
	fmt.Fprintf(inv.stdout, "%s: wrote %d parts (%s labelled positions, %s searches, %s nodes) in %s", spec.Title, tot.Parts,
		thousands(tot.Rows), thousands(tot.Searches), thousands(tot.Nodes), time.Since(start).Round(time.Millisecond))
	if tot.Skipped > 0 {
		fmt.Fprintf(inv.stdout, "; skipped %d parts already finished", tot.Skipped)
	}
	fmt.Fprintf(inv.stdout, "\n%s\n", dir)
	return nil
}

// shardDeals returns the number of deals in shard's part files, of a run
// of deals in parts of partDeals (0: every deal, when partDeals is not
// set yet).
func shardDeals(deals, partDeals int64, shard shardFlag) int64 {
	if shard.n <= 1 || partDeals <= 0 {
		return deals
	}
	parts := (deals + partDeals - 1) / partDeals
	lo, hi := int64(shard.i)*parts/int64(shard.n), int64(shard.i+1)*parts/int64(shard.n)
	return min(hi*partDeals, deals) - min(lo*partDeals, deals)
}
