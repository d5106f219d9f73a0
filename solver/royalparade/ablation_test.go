package royalparade

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The ablation measures what each technique of this package decides: it
// solves deals with the techniques added one at a time and prints a CSV
// row per step, the rows of the research page's tables
// (docs/research/solver-*.md). It runs only when asked:
//
//	go test ./solver/royalparade -run Ablation -ablation 200 -timeout 10h -v
var ablation = solvertest.NewFlags("ablation", "ablation-nodes", "ablation-steps")

// noEval is a search position without the search evaluation: the
// heuristic agent's (env.Evaluator) ranks moves instead. It forwards the
// rules and the other techniques to a Position.
type noEval struct {
	solvertest.Rules[Position, *Position]
}

// withoutEval returns the noEval position of a game of Royal Parade.
func withoutEval(g env.Game) env.Game {
	return &noEval{solvertest.Rules[Position, *Position]{P: *New(g.(*rules.Game))}}
}

func (g *noEval) SafeMove() int                 { return g.P.SafeMove() }
func (g *noEval) Dead() bool                    { return g.P.Dead() }
func (g *noEval) Clone() env.Game               { c := *g; return &c }
func (g *noEval) CopyFrom(src env.Game)         { *g = *src.(*noEval) }
func (g *noEval) Key() uint64                   { return g.P.Key() }
func (g *noEval) Prune(line []int, m *env.Mask) { g.P.Prune(line, m) }

// ablationRows are the rows of the ablation: the techniques on, as solver
// options, and, before the search evaluation, the position without it
// (noEval).
var ablationRows = []solvertest.Step{
	{Name: "safe moves (before)", Options: solver.Options{NoDeadTest: true, NoKey: true, NoPrune: true}, Position: withoutEval},
	{Name: "+ relaxed-game dead test", Options: solver.Options{NoKey: true, NoPrune: true}, Position: withoutEval},
	{Name: "safe moves + keys", Options: solver.Options{NoDeadTest: true, NoPrune: true}, Position: withoutEval},
	{Name: "+ dead test + keys", Options: solver.Options{NoPrune: true}, Position: withoutEval},
	{Name: "+ playout evaluation", Options: solver.Options{NoPrune: true, Passes: solver.DefaultPasses}},
	{Name: "+ one empty cell a row", Options: solver.Options{Passes: solver.DefaultPasses}},
	{Name: "+ plain passes too (all)", Options: solver.Options{}},
	{Name: "the rules alone (no safe moves)", Options: solver.Options{NoSafeMoves: true, NoDeadTest: true, NoKey: true, NoPrune: true}, Position: withoutEval},
}

func TestAblation(t *testing.T) {
	ablation.CSV(t, "royalparade", solvertest.Dealt(newGame), ablationRows)
}
