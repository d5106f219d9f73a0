package limited

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The ablation measures what each technique of this package decides: it
// solves deals with the techniques added one at a time and prints a CSV
// row per step, the rows of the research page's tables
// (docs/research/solver-*.md). It runs only when asked:
//
//	go test ./solver/limited -run Ablation -ablation 200 -timeout 10h -v
var ablation = solvertest.NewFlags("ablation", "ablation-nodes", "ablation-steps")

// ablationRows are the rows of the ablation: the techniques on, as
// solver options, and, before the playout evaluation, the position
// without it (noEval).
var ablationRows = []solvertest.Step{
	{Name: "plain search (before)", Options: solver.Options{NoKey: true, NoPrune: true}, Position: withoutEval},
	{Name: "+ keys", Options: solver.Options{NoPrune: true}, Position: withoutEval},
	{Name: "+ one space", Options: solver.Options{}, Position: withoutEval},
	{Name: "+ playout evaluation", Options: solver.Options{Passes: solver.DefaultPasses}},
	{Name: "+ plain passes too (all)", Options: solver.Options{}},
}

// noEval is a search position without the search evaluation and without
// its own passes: the heuristic agent's evaluation (env.Evaluator) ranks
// moves. It forwards the rules and the other techniques to a Position.
type noEval struct {
	solvertest.Rules[Position, *Position]
}

// withoutEval returns the noEval position of a game of Limited.
func withoutEval(g env.Game) env.Game {
	return &noEval{solvertest.Rules[Position, *Position]{P: *New(g.(*rules.Game))}}
}

func (g *noEval) Clone() env.Game               { c := *g; return &c }
func (g *noEval) CopyFrom(src env.Game)         { *g = *src.(*noEval) }
func (g *noEval) Key() uint64                   { return g.P.Key() }
func (g *noEval) Prune(line []int, m *env.Mask) { g.P.Prune(line, m) }

func TestAblation(t *testing.T) {
	ablation.CSV(t, "limited", solvertest.Dealt(newGame), ablationRows)
}
