// Command sampled measures whether games played by a sampled policy win
// deals that the solver leaves open: it takes the training deals that the
// shipped verdict table leaves open (tuning deals, below 1,000,000), -skip
// of them first left out, and plays each of -n of them up to -k times
// with an agent (by default the learned policy, sampling from its softmax
// at -temperature), agent seeds 1 to k, stopping at the first win. A win
// found so is a winning line of the rules (replayed through a fresh
// environment here), whatever the agent saw. One line per deal: the games
// played, the seed that won (0: none) and the most cards any game placed;
// on standard error how many deals were won and the games they took.
//
//	go run ./round23/sampled -game ladder -n 20 -k 2000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/internal/runner"
	"github.com/patience-gym/patience/research/internal/cli"
	"github.com/patience-gym/patience/research/internal/opendeals"
	"github.com/patience-gym/patience/solver"
)

func main() {
	d := opendeals.Flags{Game: "ladder", N: 20, Workers: 1}
	d.Register(flag.CommandLine, "play")
	agent := flag.String("agent", "", "the agent (default: policy:model=../models/GAME.safetensors,sample=1,temperature=T)")
	temperature := flag.Float64("temperature", 1, "the policy's softmax temperature (default agent only)")
	k := flag.Int("k", 1000, "most games a deal")
	maxSteps := flag.Int("max-steps", 0, "step limit of a game (0: the game's default)")
	flag.Parse()
	if d.N < 1 || d.Skip < 0 || *k < 1 || *maxSteps < 0 || !(*temperature > 0) {
		cli.Usage("sampled", "-n and -k must be 1 or more, -skip and -max-steps 0 or more, -temperature above 0")
	}
	a := *agent
	if a == "" {
		a = fmt.Sprintf("policy:model=../models/%s.safetensors,sample=1,temperature=%g", d.Game, *temperature)
	}
	p := plan{game: d.Game, agent: a, k: *k, maxSteps: *maxSteps}
	cli.Exit("sampled", run(p, d.Skip, d.N, d.Workers))
}

// plan is what each deal's games are: the game, the agent, the most games
// and their step limit.
type plan struct {
	game, agent string
	k, maxSteps int
}

// result is one deal's games: how many were played, the agent seed that
// won (0: none), its line, and the most cards any game placed.
type result struct {
	seed    uint64
	games   int
	wonBy   uint64
	line    []int
	best    int
	elapsed time.Duration
}

func run(p plan, skip, n, workers int) error {
	if _, err := agents.New(p.agent); err != nil {
		return err
	}
	seeds, err := opendeals.Training(p.game, skip, n)
	if err != nil {
		return err
	}
	won, games := 0, 0
	err = runner.Run(context.Background(), runner.Task[struct{}, result]{
		Units: runner.Span(0, n), Workers: max(workers, 1),
		Do: func(ctx context.Context, _ struct{}, i int) (result, error) {
			return one(ctx, p, seeds[i])
		},
		Emit: func(_ int, r result, _ bool) error {
			if r.wonBy > 0 {
				won++
				games += r.games
			}
			fmt.Printf("%d games=%d won-by=%d best=%d line=%d %.1fs\n", r.seed, r.games, r.wonBy, r.best, len(r.line), r.elapsed.Seconds())
			return nil
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s, %d open training deals after %d, up to %d games of %s: %d won (%d games to the wins)\n",
		p.game, n, skip, p.k, p.agent, won, games)
	return nil
}

// one plays deal seed up to p.k times, agent seeds 1 to k, until a game
// wins; a win is replayed through a fresh environment.
func one(ctx context.Context, p plan, seed uint64) (result, error) {
	start := time.Now()
	ag, err := agents.New(p.agent)
	if err != nil {
		return result{}, err
	}
	e, err := env.Make(p.game, env.Options{MaxSteps: p.maxSteps})
	if err != nil {
		return result{}, err
	}
	r := result{seed: seed}
	for i := 1; i <= p.k && ctx.Err() == nil; i++ {
		res, err := agents.Play(e, ag, seed, uint64(i), nil)
		if err != nil {
			return result{}, err
		}
		r.games = i
		r.best = max(r.best, res.Progress)
		if res.Outcome == env.Won {
			r.wonBy, r.line = uint64(i), res.Actions
			g, err := env.NewGame(p.game)
			if err != nil {
				return result{}, err
			}
			g.Deal(seed)
			if err := solver.VerifyEnv(g, seed, res.Actions); err != nil {
				return result{}, fmt.Errorf("deal %d, agent seed %d: the win does not replay: %w", seed, i, err)
			}
			break
		}
	}
	r.elapsed = time.Since(start)
	return r, nil
}
