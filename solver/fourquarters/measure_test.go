package fourquarters

import (
	"flag"
	"fmt"
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The measurement of the techniques, run by hand (it takes minutes):
//
//	go test ./solver/fourquarters -run TestMeasure -measure 200 -nodes 300000
//
// decides deals 500,000 up (tuning deals) with the techniques added one at
// a time, at the same node budget, and prints a markdown table of the
// verdicts.
var (
	measure    = solvertest.NewFlags("measure", "nodes", "")
	measureVar = flag.String("measure-variant", "", "variant of the measurement (hub)")
)

func TestMeasure(t *testing.T) {
	steps := []solvertest.Technique[Technique]{
		{Name: "parity (before)", Use: Parity},
		{Name: "+ frozen arms", Use: Parity | Frozen},
		{Name: "+ one arm a round", Use: Parity | Frozen | OneArm},
		{Name: "+ dead rounds left out", Use: Parity | Frozen | OneArm | Lookahead},
		{Name: "+ ranks as keys", Use: All &^ ProofFirst},
		{Name: "+ the proof first", Use: All},
	}
	game := "Four Quarters"
	if *measureVar != "" {
		game += ":" + *measureVar
	}
	measure.Table(t, game, func(seed uint64) env.Game {
		g := rules.New()
		if err := g.SetVariant(*measureVar); err != nil {
			t.Fatal(err)
		}
		g.Deal(seed)
		return g
	}, solvertest.WithTechniques(NewWith, steps), "nodes (mean)", func(n solvertest.Tally) string {
		return fmt.Sprint(n.Nodes / int64(*measure.Deals))
	})
}
