// Command qlabels labels moves by the agent's own play: for positions drawn
// from the agent's games (K a game, among its first S steps), every legal
// move is played and the agent plays on from there to the end, as it would
// have had it chosen that move (its memory of the positions before is the
// game's). A move is labelled by whether that game was won and by its
// progress. One CSV row per move, the columns of `lost -csv` (seed, kind,
// step, move, played, keep = won, then progress and the evaluation's terms
// of the position the move leads to), only for positions where some moves
// win and some do not.
//
//	go run ./results/train/round17/qlabels -agent policy:model=FILE -start 290000 -n 1000 -per-game 10 -steps 60 -csv OUT
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/results/train/internal/deals"
)

func main() {
	game := flag.String("game", "fifteen", "the game (an open one)")
	agent := flag.String("agent", "policy", "the agent (deterministic given its seed)")
	start := flag.Uint64("start", 290000, "first deal")
	n := flag.Int("n", 100, "deals")
	perGame := flag.Int("per-game", 10, "positions drawn from each game")
	steps := flag.Int("steps", 60, "draw positions among the game's first this many")
	workers := flag.Int("workers", 2, "parallel workers")
	out := flag.String("csv", "", "the CSV file to write (required)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "qlabels: -csv is required")
		os.Exit(2)
	}
	if err := run(*game, *agent, *start, *n, *perGame, *steps, *workers, *out); err != nil {
		fmt.Fprintln(os.Stderr, "qlabels:", err)
		os.Exit(1)
	}
}

func run(game, agent string, start uint64, n, perGame, steps, workers int, path string) error {
	e, err := env.Make(game, env.Options{})
	if err != nil {
		return err
	}
	if _, err := agents.New(agent); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	defer f.Close() // a second close, after the one below, does nothing
	if _, err := f.WriteString(deals.Header(e.Spec(), "seed", "kind", "step", "move", "played", "keep", "progress")); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	done, kept := 0, 0
	err = deals.Each(start, n, workers, func(seed uint64) (labelled, error) {
		r, k, err := one(game, agent, seed, perGame, steps)
		return labelled{r, k}, err
	}, func(r labelled) error {
		done++
		kept += r.positions
		if _, err := f.WriteString(r.rows); err != nil {
			return fmt.Errorf("csv: %w", err)
		}
		if done%100 == 0 {
			fmt.Fprintf(os.Stderr, "%d deals\n", done)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	fmt.Fprintf(os.Stderr, "%d deals, %d positions with moves that win and moves that do not\n", done, kept)
	return nil
}

// labelled is one deal's CSV rows and how many positions they hold.
type labelled struct {
	rows      string
	positions int
}

// one plays deal seed with the agent, draws positions among its first
// steps, and returns the rows of those whose moves do not all end alike,
// and how many those are.
func one(game, agent string, seed uint64, perGame, steps int) (string, int, error) {
	a, err := agents.New(agent)
	if err != nil {
		return "", 0, err
	}
	e, err := env.Make(game, env.Options{})
	if err != nil {
		return "", 0, err
	}
	r, err := agents.Play(e, a, seed, seed, nil)
	if err != nil {
		return "", 0, err
	}
	played := r.Actions
	k := min(steps, len(played))
	rng := rand.New(rand.NewPCG(seed, 17))
	var out strings.Builder
	positions := 0
	terms := make([]float64, len(e.Spec().Terms))
	for _, i := range rng.Perm(k)[:min(perGame, k)] {
		var rows strings.Builder
		wins := 0
		if err := replay(e, a, seed, played[:i]); err != nil {
			return "", 0, err
		}
		moves := e.Mask().AppendActions(nil)
		for _, b := range moves {
			if err := replay(e, a, seed, played[:i]); err != nil {
				return "", 0, err
			}
			name := e.ActionString(b)
			a.Act(agents.NewView(e)) // the agent sees the position as in its game
			if _, _, _, err := e.Advance(b); err != nil {
				return "", 0, err
			}
			e.Terms(terms)
			for !e.Done() {
				if _, _, _, err := e.Advance(a.Act(agents.NewView(e))); err != nil {
					return "", 0, err
				}
			}
			won := e.Outcome() == env.Won
			if won {
				wins++
			}
			rows.WriteString(deals.Row(terms, seed, "sample", i, name, b == played[i], won, e.Progress()))
		}
		if wins > 0 && wins < len(moves) {
			out.WriteString(rows.String())
			positions++
		}
	}
	return out.String(), positions, nil
}

// replay resets e and the agent to deal seed and plays acts, the agent
// seeing every position (so that its memory and generator are as in the
// game).
func replay(e *env.Env, a agents.Agent, seed uint64, acts []int) error {
	e.Reset(seed)
	a.Reset(seed)
	for _, act := range acts {
		a.Act(agents.NewView(e))
		if _, _, _, err := e.Advance(act); err != nil {
			return err
		}
	}
	return nil
}
