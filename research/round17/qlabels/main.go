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
// -reseeds R plays every move's continuation R times, the agent's generator
// seeded differently each time (its memory of the game is the same), one row
// each with its number in the column rep: how much of a label is the
// agent's tie-breaks. -obs adds the column obs, the observation of the
// position the move leads to as two hex digits a cell. -rollout AGENT plays
// the continuations with another agent, reset at the position the move
// leads to (no memory of the game before), so that a label says whether
// that player wins from there: with a search as the rollout agent, whether
// a strong player can still win after the move.
//
//	bin/qlabels -agent policy:model=FILE -start 290000 -n 1000 -per-game 10 -steps 60 -csv OUT
package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/research/internal/cli"
	"github.com/patience-gym/patience/research/internal/labelcsv"
)

func main() {
	d := cli.OpenDeals(290000, 100)
	agent := flag.String("agent", "policy", "the agent (deterministic given its seed)")
	perGame := flag.Int("per-game", 10, "positions drawn from each game")
	steps := flag.Int("steps", 60, "draw positions among the game's first this many")
	reseeds := flag.Int("reseeds", 1, "continuations of each move, the agent's generator seeded anew for each (1 to 64)")
	obs := flag.Bool("obs", false, "add the column obs: the observation after the move, two hex digits a cell")
	rollout := flag.String("rollout", "", "the agent that plays the continuations, from the position after the move (default: -agent, with its memory of the game)")
	out := flag.String("csv", "", "the CSV file to write (required)")
	cli.Parse("qlabels", "csv")
	if *reseeds < 1 || *reseeds > 64 {
		cli.Usage("qlabels", "-reseeds must be 1 to 64")
	}
	o := options{perGame: *perGame, steps: *steps, reseeds: *reseeds, obs: *obs, rollout: *rollout}
	cli.Exit("qlabels", run(d.Game, *agent, d.Start, d.N, o, d.Workers, *out))
}

// options are what is drawn and written for each deal.
type options struct {
	perGame, steps int    // positions drawn a game, among its first steps
	reseeds        int    // continuations of each move
	obs            bool   // write the observation after the move
	rollout        string // the continuations' agent, when not the sampler
}

// columns are the CSV columns before the terms.
func (o options) columns() []string {
	cols := []string{"seed", "kind", "step", "move", "played", "keep", "progress"}
	if o.reseeds > 1 {
		cols = append(cols, "rep")
	}
	if o.obs {
		cols = append(cols, "obs")
	}
	return cols
}

func run(game, agent string, start uint64, n int, o options, workers int, path string) error {
	e, err := env.Make(game, env.Options{})
	if err != nil {
		return err
	}
	if _, err := agents.New(agent); err != nil {
		return err
	}
	if o.rollout != "" {
		if _, err := agents.New(o.rollout); err != nil {
			return fmt.Errorf("-rollout: %w", err)
		}
	}
	f, err := labelcsv.Create(path, e.Spec(), o.columns()...)
	if err != nil {
		return err
	}
	defer f.Close() // a second close, after the one below, does nothing
	done, kept := 0, 0
	err = labelcsv.Each(start, n, workers, func(seed uint64) (labelled, error) {
		r, k, err := one(game, agent, seed, o)
		return labelled{r, k}, err
	}, func(r labelled) error {
		done++
		kept += r.positions
		if err := f.Write(r.rows); err != nil {
			return err
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
		return err
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
func one(game, agent string, seed uint64, o options) (string, int, error) {
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
	cont := a // the continuations' player
	if o.rollout != "" {
		if cont, err = agents.New(o.rollout); err != nil {
			return "", 0, err
		}
	}
	played := r.Actions
	k := min(o.steps, len(played))
	rng := rand.New(rand.NewPCG(seed, 17))
	var out strings.Builder
	positions := 0
	terms := make([]float64, len(e.Spec().Terms))
	for _, i := range rng.Perm(k)[:min(o.perGame, k)] {
		var rows strings.Builder
		wins, runs := 0, 0
		if err := replay(e, a, seed, seed, played[:i]); err != nil {
			return "", 0, err
		}
		moves := e.Mask().AppendActions(nil)
		for _, b := range moves {
			for rep := range o.reseeds {
				// rep 0 is the game's own generator; the others differ
				agentSeed := seed + uint64(rep)*0x9e3779b97f4a7c15
				if err := replay(e, a, seed, agentSeed, played[:i]); err != nil {
					return "", 0, err
				}
				name := e.ActionString(b)
				a.Act(agents.NewView(e)) // the agent sees the position as in its game
				if _, _, _, err := e.Advance(b); err != nil {
					return "", 0, err
				}
				if o.rollout != "" {
					cont.Reset(agentSeed)
				}
				e.Terms(terms)
				cols := []any{seed, "sample", i, name, b == played[i]}
				var obs string
				if o.obs {
					obs = hex.EncodeToString(e.Observation())
				}
				for !e.Done() {
					if _, _, _, err := e.Advance(cont.Act(agents.NewView(e))); err != nil {
						return "", 0, err
					}
				}
				won := e.Outcome() == env.Won
				if won {
					wins++
				}
				runs++
				cols = append(cols, won, e.Progress())
				if o.reseeds > 1 {
					cols = append(cols, rep)
				}
				if o.obs {
					cols = append(cols, obs)
				}
				rows.WriteString(labelcsv.Row(terms, cols...))
			}
		}
		if wins > 0 && wins < runs {
			out.WriteString(rows.String())
			positions++
		}
	}
	return out.String(), positions, nil
}

// replay resets e to deal seed and the agent to agentSeed, and plays acts,
// the agent seeing every position (so that its memory is as in the game,
// and its generator too when agentSeed is seed).
func replay(e *env.Env, a agents.Agent, seed, agentSeed uint64, acts []int) error {
	e.Reset(seed)
	a.Reset(agentSeed)
	for _, act := range acts {
		a.Act(agents.NewView(e))
		if _, _, _, err := e.Advance(act); err != nil {
			return err
		}
	}
	return nil
}
