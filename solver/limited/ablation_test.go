package limited

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
)

// The ablation measures what each technique of this package decides: it
// solves deals with the techniques added one at a time and prints a CSV
// row per step (results/solver/techniques.csv). It runs only when asked:
//
//	go test ./solver/limited -run Ablation -ablation 200 -timeout 10h -v
var (
	ablation      = flag.Int("ablation", 0, "deals for the ablation (0: skip it)")
	ablationStart = flag.Uint64("ablation-start", 500000, "first deal of the ablation")
	ablationNodes = flag.Int64("ablation-nodes", 300000, "node budget of the ablation")
	ablationOnly  = flag.String("ablation-steps", "", "rows of the ablation to run, by number from 0, comma-separated (empty: all)")
)

// ablationRows are the rows of the ablation: the techniques on, as
// solver options, and whether the playout evaluation ranks moves.
var ablationRows = []struct {
	name string
	o    solver.Options
	eval bool
}{
	{"plain search (before)", solver.Options{NoKey: true, NoPrune: true}, false},
	{"+ keys", solver.Options{NoPrune: true}, false},
	{"+ one space", solver.Options{}, false},
	{"+ playout evaluation", solver.Options{Passes: solver.DefaultPasses}, true},
	{"+ plain passes too (all)", solver.Options{}, true},
}

// noEval is a search position without the search evaluation and without
// its own passes: the heuristic agent's evaluation (env.Evaluator) ranks
// moves. It forwards the rules and the other techniques to a Position.
type noEval struct{ p Position }

func (g *noEval) Spec() *env.Spec                         { return g.p.Spec() }
func (g *noEval) Deal(seed uint64)                        { g.p.Deal(seed) }
func (g *noEval) Legal(m *env.Mask)                       { g.p.Legal(m) }
func (g *noEval) Explain(a int) error                     { return g.p.Explain(a) }
func (g *noEval) Apply(a int)                             { g.p.Apply(a) }
func (g *noEval) Progress() int                           { return g.p.Progress() }
func (g *noEval) Won() bool                               { return g.p.Won() }
func (g *noEval) Observe(dst []uint8)                     { g.p.Observe(dst) }
func (g *noEval) Inventory(dst []cards.Card) []cards.Card { return g.p.Inventory(dst) }
func (g *noEval) Hash() uint64                            { return g.p.Hash() }
func (g *noEval) Clone() env.Game                         { c := *g; return &c }
func (g *noEval) CopyFrom(src env.Game)                   { *g = *src.(*noEval) }
func (g *noEval) ActionString(a int) string               { return g.p.ActionString(a) }
func (g *noEval) ParseActions(s string) ([]int, error)    { return g.p.ParseActions(s) }
func (g *noEval) Render() string                          { return g.p.Render() }
func (g *noEval) Evaluate() float64                       { return g.p.Evaluate() }
func (g *noEval) Key() uint64                             { return g.p.Key() }
func (g *noEval) Prune(line []int, m *env.Mask)           { g.p.Prune(line, m) }

func TestAblation(t *testing.T) {
	if *ablation == 0 {
		t.Skip("run with -ablation N")
	}
	fmt.Println("game,technique,deals,budget,solved,unsolvable,unknown,median_seconds")
	for i, row := range ablationRows {
		if *ablationOnly != "" && !slices.Contains(strings.Split(*ablationOnly, ","), fmt.Sprint(i)) {
			continue
		}
		o := row.o
		o.Nodes = *ablationNodes
		s, err := solver.New(o)
		if err != nil {
			t.Fatal(err)
		}
		var cnt [3]int
		var secs []float64
		for d := range *ablation {
			g := rules.New()
			g.Deal(*ablationStart + uint64(d))
			var search env.Game = g
			if !row.eval {
				search = &noEval{*New(g)}
			}
			t0 := time.Now()
			r := s.Solve(context.Background(), search)
			secs = append(secs, time.Since(t0).Seconds())
			if r.Verdict == solver.Solved {
				if err := solver.VerifyEnv(g, 0, r.Line); err != nil {
					t.Fatalf("deal %d: %v", *ablationStart+uint64(d), err)
				}
			}
			cnt[r.Verdict]++
		}
		slices.Sort(secs)
		fmt.Printf("limited,%s,%d,%d,%d,%d,%d,%.2f\n", row.name, *ablation, *ablationNodes,
			cnt[solver.Solved], cnt[solver.Unsolvable], cnt[solver.Unknown], secs[len(secs)/2])
	}
}
