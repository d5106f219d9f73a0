package solvertest

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// Flags are the command-line flags of a measurement, which decides deals
// with a package's techniques added one at a time (the steps) and runs
// only when asked for deals.
type Flags struct {
	// Deals is the number of deals (0: skip the measurement).
	Deals *int
	// Start is the first deal.
	Start *uint64
	// Nodes is the node budget a deal.
	Nodes *int64
	// Steps lists the steps to run, by number from 0, comma-separated
	// (empty, or no such flag: all).
	Steps *string
	// name is the flag of the deals, for the message of a skipped test.
	name string
}

// NewFlags registers the flags of a measurement: name (the deals),
// name-start (the first deal, 500,000 unless set), nodes (the budget,
// 300,000 unless set) and, unless steps is empty, steps (the steps to
// run).
func NewFlags(name, nodes, steps string) Flags {
	f := Flags{
		Deals: flag.Int(name, 0, "deals of the measurement (0: skip it)"),
		Start: flag.Uint64(name+"-start", 500000, "first deal of the measurement"),
		Nodes: flag.Int64(nodes, 300000, "node budget a deal of the measurement"),
		Steps: new(string),
		name:  name,
	}
	if steps != "" {
		f.Steps = flag.String(steps, "", "steps of the measurement to run, by number from 0, comma-separated (empty: all)")
	}
	return f
}

// Step is one step of a measurement: its name, the solver's options (the
// node budget aside) and the position the solver is given for a deal's
// game (nil: the game itself).
type Step struct {
	Name     string
	Options  solver.Options
	Position func(env.Game) env.Game
}

// Technique is a step of a measurement that turns on a package's
// techniques: its name and the techniques in use (of the package's type T).
type Technique[T any] struct {
	Name string
	Use  T
}

// WithTechniques returns the steps of ts: each gives the solver, with its
// default options, the position newWith makes of a deal's game (of type
// R) with the step's techniques.
func WithTechniques[R, P env.Game, T any](newWith func(R, T) P, ts []Technique[T]) []Step {
	out := make([]Step, len(ts))
	for i, st := range ts {
		out[i] = Step{Name: st.Name, Position: func(g env.Game) env.Game { return newWith(g.(R), st.Use) }}
	}
	return out
}

// Tally is what one step of a measurement decided over its deals.
type Tally struct {
	// Verdicts counts the deals by verdict.
	Verdicts [3]int
	// Nodes and Best are the sums of the searches' nodes and best
	// progress.
	Nodes int64
	Best  int
	// Seconds are the searches' times, sorted.
	Seconds []float64
}

// MedianSeconds returns the median time of the searches.
func (t Tally) MedianSeconds() float64 { return t.Seconds[len(t.Seconds)/2] }

// Run runs the steps the flags select, each on every deal, and calls row
// with each step and its tally once its deals are decided. deal
// returns the game of a seed, dealt. Every winning line found is checked
// against the rules. It skips t unless the flags ask for deals.
func (f Flags) Run(t *testing.T, deal func(seed uint64) env.Game, steps []Step, row func(st Step, n Tally)) {
	t.Helper()
	if *f.Deals == 0 {
		t.Skipf("a measurement: run with -%s N", f.name)
	}
	for i, st := range steps {
		if *f.Steps != "" && !slices.Contains(strings.Split(*f.Steps, ","), fmt.Sprint(i)) {
			continue
		}
		o := st.Options
		o.Nodes = *f.Nodes
		s := New(t, o)
		var n Tally
		for d := range *f.Deals {
			seed := *f.Start + uint64(d)
			g := deal(seed)
			search := g
			if st.Position != nil {
				search = st.Position(g)
			}
			t0 := time.Now()
			r := s.Solve(context.Background(), search)
			n.Seconds = append(n.Seconds, time.Since(t0).Seconds())
			if r.Verdict == solver.Solved {
				if err := solver.VerifyEnv(g, 0, r.Line); err != nil {
					t.Fatalf("deal %d: %v", seed, err)
				}
			}
			n.Verdicts[r.Verdict]++
			n.Nodes += r.Nodes
			n.Best += r.Best
		}
		slices.Sort(n.Seconds)
		row(st, n)
	}
}

// CSV runs the steps as Run does and prints a CSV row for each, game its
// first column (the rows of the research pages' tables), after a
// header.
func (f Flags) CSV(t *testing.T, game string, deal func(seed uint64) env.Game, steps []Step) {
	t.Helper()
	if *f.Deals != 0 {
		fmt.Println("game,technique,deals,budget,solved,unsolvable,unknown,median_seconds")
	}
	f.Run(t, deal, steps, func(st Step, n Tally) {
		fmt.Printf("%s,%s,%d,%d,%d,%d,%d,%.2f\n", game, st.Name, *f.Deals, *f.Nodes,
			n.Verdicts[solver.Solved], n.Verdicts[solver.Unsolvable], n.Verdicts[solver.Unknown], n.MedianSeconds())
	})
}

// Table runs the steps as Run does and logs a markdown table of their
// verdicts, titled by game and the deals, with a last column named last
// whose cell for a step's tally is cell.
func (f Flags) Table(t *testing.T, game string, deal func(seed uint64) env.Game, steps []Step, last string, cell func(Tally) string) {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "| techniques | solved | lost | open | %s |\n|---|--:|--:|--:|--:|\n", last)
	f.Run(t, deal, steps, func(st Step, n Tally) {
		fmt.Fprintf(&sb, "| %s | %d | %d | %d | %s |\n", st.Name, n.Verdicts[solver.Solved], n.Verdicts[solver.Unsolvable], n.Verdicts[solver.Unknown], cell(n))
	})
	t.Logf("%s, deals %d to %d, %d nodes a deal:\n%s", game, *f.Start, *f.Start+uint64(*f.Deals)-1, *f.Nodes, sb.String())
}

// Dealt returns a measurement's deal: the game newGame makes, dealt with
// the seed.
func Dealt(newGame func() env.Game) func(seed uint64) env.Game {
	return func(seed uint64) env.Game {
		g := newGame()
		g.Deal(seed)
		return g
	}
}
