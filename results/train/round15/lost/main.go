// Command lost finds where an agent's lost games of an open game (The
// Fifteen, Cromwell) were lost: for each deal the agent lost that the
// solver wins from the start, the last position of the game the solver
// still wins (found by halving, a verdict other than won counting as lost),
// the move the agent played there, and the moves that keep the win. One
// line per deal, in the order the deals finish.
//
//	go run ./results/train/round15/lost -game fifteen -agent policy:model=FILE -start 930000 -n 60
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
)

// namer is what a game's action names come from.
type namer interface{ ActionString(int) string }

func main() {
	game := flag.String("game", "fifteen", "the game (an open one)")
	agent := flag.String("agent", "policy", "the agent")
	start := flag.Uint64("start", 930000, "first deal")
	n := flag.Int("n", 60, "deals")
	nodes := flag.Int64("nodes", 300000, "the solver's node budget a search")
	workers := flag.Int("workers", 2, "parallel workers")
	flag.Parse()
	if err := run(*game, *agent, *start, *n, *nodes, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "lost:", err)
		os.Exit(1)
	}
}

func run(game, agent string, start uint64, n int, nodes int64, workers int) error {
	if _, err := agents.New(agent); err != nil {
		return err
	}
	jobs := make(chan uint64)
	lines := make(chan string)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range jobs {
				line, err := one(game, agent, seed, nodes)
				if err != nil {
					errs <- err
					return
				}
				lines <- line
			}
		}()
	}
	go func() {
		for i := range n {
			jobs <- start + uint64(i)
		}
		close(jobs)
		wg.Wait()
		close(lines)
	}()
	for l := range lines {
		fmt.Println(l)
	}
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// one plays deal seed and says where the game was lost.
func one(game, agent string, seed uint64, nodes int64) (string, error) {
	a, err := agents.New(agent)
	if err != nil {
		return "", err
	}
	s, err := solver.New(solver.Options{Nodes: nodes, TableBits: 20})
	if err != nil {
		return "", err
	}
	e, err := env.Make(game, env.Options{})
	if err != nil {
		return "", err
	}
	var states []env.Game
	var acts []int
	r, err := agents.Play(e, a, seed, seed, func(e *env.Env, act int) bool {
		states = append(states, e.Game().Clone())
		acts = append(acts, act)
		return true
	})
	if err != nil {
		return "", err
	}
	if r.Outcome == env.Won {
		return fmt.Sprintf("%d won steps=%d", seed, r.Steps), nil
	}
	won := func(g env.Game) bool { return s.Solve(context.Background(), g).Verdict == solver.Solved }
	if !won(states[0]) {
		return fmt.Sprintf("%d lost progress=%d start=not-won", seed, r.Progress), nil
	}
	lo, hi := 0, len(states) // states[lo] is won; the position after the last move is not
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; won(states[mid]) {
			lo = mid
		} else {
			hi = mid
		}
	}
	g := states[lo]
	name := func(act int) string { return fmt.Sprint(act) }
	if nm, ok := g.(namer); ok {
		name = nm.ActionString
	}
	m := env.NewMask(g.Spec().Actions)
	g.Legal(&m)
	var keep []string
	legal := 0
	for act := range g.Spec().Actions {
		if !m.Has(act) {
			continue
		}
		legal++
		c := g.Clone()
		c.Apply(act)
		if won(c) {
			keep = append(keep, name(act))
		}
	}
	return fmt.Sprintf("%d lost progress=%d last-won step=%d/%d home=%d move=%s legal=%d keep=[%s]",
		seed, r.Progress, lo, len(states), g.Progress(), name(acts[lo]), legal, strings.Join(keep, " ")), nil
}
