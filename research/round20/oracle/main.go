// Command oracle measures how far a perfect veto would take an agent of an
// open game: the agent plays a deal; if it loses a deal the solver wins from
// the start, the last position the solver still wins is found (by halving,
// as `lost` does), the agent's move there is replaced by the legal move that
// keeps the win and that the file's weighed terms score best, and the deal
// is played again with that correction (and the earlier ones), the agent
// choosing every other move, up to -fixes corrections. One line per deal
// (its outcome and the corrections it needed), and on standard error the
// deals won with at most k corrections for each k.
//
//	bin/oracle -model models/fifteen.safetensors -start 610000 -n 300 -fixes 3
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/policy"
	"github.com/patience-gym/patience/research/internal/cli"
	"github.com/patience-gym/patience/research/internal/labelcsv"
	_ "github.com/patience-gym/patience/solver/all"
)

func main() {
	d := cli.OpenDeals(610000, 100)
	model := flag.String("model", "models/fifteen.safetensors", "the value file the policy agent plays and whose terms rank the corrections")
	fixes := flag.Int("fixes", 3, "corrections at most a deal")
	nodes := flag.Int64("nodes", 100000, "the solver's node budget a search")
	flag.Parse()
	if *fixes < 0 {
		cli.Usage("oracle", "-fixes must be 0 or more")
	}
	cli.Exit("oracle", run(d.Game, *model, d.Start, d.N, *fixes, *nodes, d.Workers))
}

// outcome is one deal's: won after fixes corrections (fixes = -1: not
// won; winnable false: the solver did not win it from the start).
type outcome struct {
	seed      uint64
	fixes     int
	winnable  bool
	truncated bool // stopped by the step limit
}

func run(game, model string, start uint64, n, fixes int, nodes int64, workers int) error {
	m, err := policy.Load(model)
	if err != nil {
		return err
	}
	e, err := env.Make(game, env.Options{})
	if err != nil {
		return err
	}
	if err := m.Check(e.Spec()); err != nil {
		return err
	}
	w := weights(e.Spec(), m.Meta().EvalTerms)
	byFixes := make([]int, fixes+1)
	lost, unwinnable, truncated := 0, 0, 0
	err = labelcsv.Each(start, n, workers, func(seed uint64) (outcome, error) {
		return one(game, "policy:model="+model, w, seed, fixes, nodes)
	}, func(o outcome) error {
		switch {
		case o.fixes >= 0:
			byFixes[o.fixes]++
			fmt.Printf("%d won fixes=%d\n", o.seed, o.fixes)
		case !o.winnable:
			unwinnable++
			fmt.Printf("%d not-won start=not-won\n", o.seed)
		case o.truncated:
			truncated++
			fmt.Printf("%d not-won truncated\n", o.seed)
		default:
			lost++
			fmt.Printf("%d not-won fixes=%d\n", o.seed, fixes)
		}
		return nil
	})
	if err != nil {
		return err
	}
	total := 0
	for k, c := range byFixes {
		total += c
		fmt.Fprintf(os.Stderr, "won with at most %d corrections: %d of %d\n", k, total, n)
	}
	fmt.Fprintf(os.Stderr, "not won after %d: %d; stopped by the step limit: %d; not won by the solver from the start: %d\n",
		fixes, lost, truncated, unwinnable)
	return nil
}

// weights are the weights the file scores a position's terms by: the
// evaluation's own plus the file's eval_terms, in the order of spec.Terms.
func weights(spec *env.Spec, extra map[string]float64) []float64 {
	w := make([]float64, len(spec.Terms))
	for i, t := range spec.Terms {
		w[i] = t.Weight + extra[t.Name]
	}
	return w
}

// one plays deal seed with the agent, correcting its losing move up to
// fixes times.
func one(game, agent string, w []float64, seed uint64, fixes int, nodes int64) (outcome, error) {
	p, err := labelcsv.NewPlayer(game, agent, nodes)
	if err != nil {
		return outcome{}, err
	}
	a, e, won := p.Agent, p.Env, p.Won
	if err := agents.Prepare(a, e.Spec()); err != nil {
		return outcome{}, err
	}
	fixed := map[int]int{} // step: the move played there instead of the agent's
	last := -1             // the step of the last correction
	for k := 0; ; k++ {
		// The agent plays the deal, the corrections in place; its
		// positions are kept.
		var states []env.Game
		e.Reset(seed)
		a.Reset(seed)
		var acts []int
		for !e.Done() {
			act := a.Act(agents.NewView(e))
			if f, ok := fixed[len(states)]; ok {
				act = f
			}
			states = append(states, e.Game().Clone())
			acts = append(acts, act)
			if _, _, _, err := e.Advance(act); err != nil {
				return outcome{}, err
			}
		}
		if e.Outcome() == env.Won {
			return outcome{seed: seed, fixes: k, winnable: true}, nil
		}
		if k == 0 && !won(states[0]) {
			return outcome{seed: seed, fixes: -1}, nil
		}
		if k == fixes || e.Outcome() == env.Truncated {
			// Out of corrections, or stopped by the step limit, where the
			// last position need not be lost.
			return outcome{seed: seed, fixes: -1, winnable: true, truncated: e.Outcome() == env.Truncated}, nil
		}
		// states[lo] is won (the start, or the position after the last
		// correction, which the solver won when it was chosen); the
		// position after the last move is not. Halving above the last
		// correction keeps the corrections in the order of the game.
		lo := labelcsv.LastWon(states, last+1, won)
		best := bestKept(states[lo], w, won)
		if best < 0 { // the budget decided no move: give up
			return outcome{seed: seed, fixes: -1, winnable: true}, nil
		}
		fixed[lo], last = best, lo
	}
}

// bestKept returns the legal move of g that keeps the win and that the
// weighed terms of the position it leads to score best (a win above all),
// or -1 when none keeps it.
func bestKept(g env.Game, w []float64, won func(env.Game) bool) int {
	m := env.NewMask(g.Spec().Actions)
	g.Legal(&m)
	terms := make([]float64, len(w))
	best, bs := -1, math.Inf(-1)
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		c := g.Clone()
		c.Apply(a)
		if !won(c) {
			continue
		}
		sc := math.Inf(1) // a won game
		if t, ok := c.(env.Termer); ok && !c.Won() {
			t.Terms(terms)
			sc = 0
			for i, x := range terms {
				sc += w[i] * x
			}
		}
		if sc > bs {
			best, bs = a, sc
		}
	}
	return best
}
