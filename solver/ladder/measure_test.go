package ladder

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	rules "github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver"
)

// The measurement of the techniques, run by hand (it takes an hour or
// more):
//
//	go test ./solver/ladder -run TestMeasure -measure 200 -nodes 300000
//
// decides deals 500,000 up (tuning deals) with the techniques added one at
// a time, at the same node budget, and prints a markdown table of the
// verdicts.
var (
	measureDeals = flag.Int("measure", 0, "deals of the measurement (0: skip it)")
	measureStart = flag.Uint64("measure-start", 500000, "first deal of the measurement")
	measureNodes = flag.Int64("nodes", 300000, "node budget a deal of the measurement")
	measureSteps = flag.String("steps", "", "the steps to measure, by number (all: empty)")
)

// measureSteps are the techniques of the measurement, added one at a time.
var steps = []struct {
	name string
	use  Technique
}{
	{"safe moves (before)", Safe},
	{"+ rows keyed as a multiset", Safe | RowKeys},
	{"+ turn order", Safe | RowKeys | TurnOrder},
	{"+ shifts left out of the limited passes", Safe | RowKeys | TurnOrder | Shifts},
	{"+ search evaluation", All},
}

func TestMeasure(t *testing.T) {
	if *measureDeals == 0 {
		t.Skip("a measurement: -measure N")
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "| techniques | solved | lost | open | best progress (mean) |\n|---|--:|--:|--:|--:|\n")
	for i, st := range steps {
		if *measureSteps != "" && !strings.Contains(*measureSteps, fmt.Sprint(i)) {
			continue
		}
		s, err := solver.New(solver.Options{Nodes: *measureNodes})
		if err != nil {
			t.Fatal(err)
		}
		var n [3]int
		best := 0
		for d := range *measureDeals {
			g := rules.New()
			g.Deal(*measureStart + uint64(d))
			r := s.Solve(context.Background(), NewWith(g, st.use))
			n[r.Verdict]++
			best += r.Best
		}
		fmt.Fprintf(&sb, "| %s | %d | %d | %d | %.1f |\n", st.name, n[solver.Solved], n[solver.Unsolvable], n[solver.Unknown], float64(best)/float64(*measureDeals))
	}
	t.Logf("Ladder, deals %d to %d, %d nodes a deal:\n%s", *measureStart, *measureStart+uint64(*measureDeals)-1, *measureNodes, sb.String())
}
