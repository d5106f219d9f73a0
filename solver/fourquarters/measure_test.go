package fourquarters

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver"
)

// The measurement of the techniques, run by hand (it takes minutes):
//
//	go test ./solver/fourquarters -run TestMeasure -measure 200 -nodes 300000
//
// decides deals 500,000 up (tuning deals) with the techniques added one at
// a time, at the same node budget, and prints a markdown table of the
// verdicts.
var (
	measureDeals = flag.Int("measure", 0, "deals of the measurement (0: skip it)")
	measureStart = flag.Uint64("measure-start", 500000, "first deal of the measurement")
	measureNodes = flag.Int64("nodes", 300000, "node budget a deal of the measurement")
	measureVar   = flag.String("measure-variant", "", "variant of the measurement (hub)")
)

func TestMeasure(t *testing.T) {
	if *measureDeals == 0 {
		t.Skip("a measurement: -measure N")
	}
	steps := []struct {
		name string
		use  Technique
	}{
		{"parity (before)", Parity},
		{"+ frozen arms", Parity | Frozen},
		{"+ one arm a round", Parity | Frozen | OneArm},
		{"+ dead rounds left out", Parity | Frozen | OneArm | Lookahead},
		{"+ ranks as keys", All},
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "| techniques | solved | lost | open | nodes (mean) |\n|---|--:|--:|--:|--:|\n")
	for _, st := range steps {
		s, err := solver.New(solver.Options{Nodes: *measureNodes})
		if err != nil {
			t.Fatal(err)
		}
		var n [3]int
		var nodes int64
		for d := range *measureDeals {
			g := rules.New()
			if err := g.SetVariant(*measureVar); err != nil {
				t.Fatal(err)
			}
			g.Deal(*measureStart + uint64(d))
			r := s.Solve(context.Background(), NewWith(g, st.use))
			n[r.Verdict]++
			nodes += r.Nodes
		}
		fmt.Fprintf(&sb, "| %s | %d | %d | %d | %d |\n", st.name, n[solver.Solved], n[solver.Unsolvable], n[solver.Unknown], nodes/int64(*measureDeals))
	}
	t.Logf("Four Quarters%s, deals %d to %d, %d nodes a deal:\n%s", map[bool]string{true: ":" + *measureVar}[*measureVar != ""], *measureStart, *measureStart+uint64(*measureDeals)-1, *measureNodes, sb.String())
}
