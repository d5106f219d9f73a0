package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/patience-gym/patience/datasets/labels"
	"github.com/patience-gym/patience/env"
)

var labelCmd = &command{
	name:    "label",
	args:    "[GAME] [--agent A] [--deals N] [--seed-start S] [--per-deal P] [--rollouts R] [--rollout-steps K] [--out DIR] [--workers W]",
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
A rerun skips finished parts. Tune on deals below 1000000: the ones above are the measuring range.`,
	run: runLabel,
}

func runLabel(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	game := fs.String("game", "cromwell", "the game: "+joinNames(env.Names()))
	agentName := fs.String("agent", "heuristic", agentHelp())
	model := fs.String("model", "", modelHelp)
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
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := optionalArg(pos, game); err != nil {
		return err
	}
	spec, err := lookupGame(*game)
	if err != nil {
		return err
	}
	agent, err := parseAgent(*agentName, *model)
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
	bar := newProgress(inv.stderr, "label "+spec.Name, *deals)
	start := time.Now()
	tot, err := labels.Run(ctx, labels.Config{Game: spec, MaxSteps: *maxSteps, Agent: agent, SeedStart: seedStart.v,
		Deals: *deals, PerDeal: *perDeal, Rollouts: *rollouts, NoRollouts: *rollouts == 0, RolloutSteps: *rolloutSteps, RolloutSeed: rolloutSeed.v, PartDeals: *partDeals, Out: dir, Workers: *workers, OnDeal: func() { bar.add(1) }})
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
