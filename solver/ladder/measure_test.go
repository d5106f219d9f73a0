package ladder

import (
	"fmt"
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The measurement of the techniques, run by hand (it takes an hour or
// more):
//
//	go test ./solver/ladder -run TestMeasure -measure 200 -nodes 300000
//
// decides deals 500,000 up (tuning deals) with the techniques added one at
// a time, at the same node budget, and prints a markdown table of the
// verdicts. -steps 0,2 measures the steps 0 and 2 only.
var measure = solvertest.NewFlags("measure", "nodes", "steps")

// steps are the techniques of the measurement, added one at a time.
var steps = []solvertest.Technique[Technique]{
	{Name: "safe moves (before)", Use: Safe},
	{Name: "+ rows keyed as a multiset", Use: Safe | RowKeys},
	{Name: "+ turn order", Use: Safe | RowKeys | TurnOrder},
	{Name: "+ shifts left out of the limited passes", Use: Safe | RowKeys | TurnOrder | Shifts},
	{Name: "+ search evaluation", Use: All},
	{Name: "the rules alone (no technique)", Use: 0},
}

func TestMeasure(t *testing.T) {
	newGame := func() env.Game { return rules.New() }
	measure.Table(t, "Ladder", solvertest.Dealt(newGame), solvertest.WithTechniques(NewWith, steps), "best progress (mean)", func(n solvertest.Tally) string {
		return fmt.Sprintf("%.1f", float64(n.Best)/float64(*measure.Deals))
	})
}
