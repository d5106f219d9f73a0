package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/env"
)

var generateCmd = &command{
	name:    "generate",
	args:    "[GAME] [--game G] [--agent A] [--model FILE] [--episodes N] [--out DIR] [options]",
	summary: "play episodes with an agent and write a Parquet dataset; --shard i/n for many machines",
	long: `Plays episodes with an agent and writes them as a Parquet dataset: DIR/steps/part-NNNNN.parquet (one row per
decision), DIR/episodes/part-NNNNN.parquet (one row per episode) and DIR/meta/info.json. The seed range is cut
into parts of --part-size episodes; --shard i/n writes a deterministic share of the parts, so machines can
split one dataset with no coordination. A rerun skips finished parts and removes the temporary files a
killed run left. With no flags: 200 episodes of cromwell by the random agent into data/cromwell-random.`,
	run: runGenerate,
}

func runGenerate(ctx context.Context, inv *invocation, args []string) error {
	fs := inv.flags()
	game := gameFlag(fs)
	agentFlag := addAgentFlags(fs, "random")
	episodes := fs.Int64("episodes", 200, "episodes of the whole dataset (all shards together)")
	out := fs.String("out", "", "the dataset directory (default data/GAME-AGENT)")
	var seedStart seedFlag
	fs.Var(&seedStart, "seed-start", "first deal: episode i plays deal seed-start+i ("+seedRange+")")
	agentSeedOffset := fs.Int64("agent-seed-offset", 0, "the agent's seed is the deal number plus this offset")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers (the files do not depend on it)")
	shard := shardFlag{0, 1}
	fs.Var(&shard, "shard", "write only share i of n of the parts (0-based: 0/4 .. 3/4)")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = the game's default)")
	partSize := fs.Int("part-size", 0, "episodes per part file (0 = automatic: 25 to 1000, from --episodes alone)")
	reward := fs.String("reward", "progress", "reward mode: progress or sparse")
	scores := fs.Bool("scores", false, "also record the moves the agent weighed and its score of each (mc: mean rollout value, uct: root visits), a richer target for behaviour cloning")
	spec, err := parseGameFlag(fs, args, game)
	if err != nil {
		return err
	}
	agent, err := agentFlag.parse()
	if err != nil {
		return err
	}
	rm, err := env.ParseRewardMode(*reward)
	if err != nil {
		return usageError{err}
	}
	if *workers <= 0 {
		return usagef("--workers must be positive")
	}
	if err := checkSeeds(seedStart.v, *episodes); err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("data", spec.Name+"-"+agent.Name())
	}
	var (
		bar   *progress
		steps atomic.Int64
	)
	sharded := shard.n > 1
	plan, err := datasets.NewPlan(datasets.Config{
		Game:            spec,
		Agent:           agent,
		Episodes:        *episodes,
		SeedStart:       seedStart.v,
		AgentSeedOffset: *agentSeedOffset,
		MaxSteps:        *maxSteps,
		Reward:          rm,
		PartSize:        *partSize,
		Shard:           shard.i,
		Shards:          shard.n,
		Workers:         *workers,
		Out:             dir,
		Scores:          *scores,
		OnStart: func(s datasets.Status) {
			for _, r := range s.Removed {
				fmt.Fprintf(inv.stderr, "removed %s, left by a killed run\n", r)
			}
			bar = newProgress(inv.stderr, "generate "+spec.Name, s.TodoEpisodes)
			start := time.Now()
			bar.extra = func() string {
				return fmt.Sprintf("%s steps/s", thousands(int64(float64(steps.Load())/time.Since(start).Seconds())))
			}
		},
		OnEpisode: func(n int) {
			steps.Add(int64(n))
			bar.add(1)
		},
	})
	if err != nil {
		return usageError{err}
	}
	sum, err := plan.Run(ctx)
	if bar != nil {
		bar.done()
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted: no partial file is left under a final name; the finished parts are kept, and the same command finishes the dataset: %w", err)
		}
		if errors.Is(err, datasets.ErrOtherDataset) {
			return usageError{err}
		}
		return err
	}
	reportGeneration(inv.stdout, sum, dir, sharded)
	return nil
}

// reportGeneration prints what a generation did and where the dataset
// stands.
func reportGeneration(w io.Writer, s *datasets.Summary, dir string, sharded bool) {
	m := &s.Meta
	rate := ""
	if secs := s.Elapsed.Seconds(); secs > 0 && s.Written.Steps > 0 {
		rate = fmt.Sprintf(", %s steps/s", thousands(int64(float64(s.Written.Steps)/secs)))
	}
	of := "of"
	if sharded {
		of = "of this shard's"
	}
	fmt.Fprintf(w, "%s, %s agent: wrote %d %s %d parts (%s episodes, %s steps) in %s%s\n",
		m.Spec.Title, m.Agent, len(s.Wrote), of, s.Parts, thousands(s.Written.Episodes), thousands(s.Written.Steps), s.Elapsed.Round(time.Millisecond), rate)
	if s.Skipped > 0 {
		fmt.Fprintf(w, "skipped %d parts already finished\n", s.Skipped)
	}
	info := s.Info
	state := "complete"
	if !info.Complete {
		state = fmt.Sprintf("%d of %d parts missing (other shards?)", info.Parts-info.PartsPresent, info.Parts)
	}
	fmt.Fprintf(w, "%s: %d/%d parts, %s episodes, %s steps, win rate %.2f %%, mean return %.4f; %s\n",
		dir, info.PartsPresent, info.Parts, thousands(info.Totals.Episodes), thousands(info.Totals.Steps), 100*info.WinRate, info.MeanReturn, state)
}
