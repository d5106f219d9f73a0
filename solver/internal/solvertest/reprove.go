package solvertest

import (
	"context"
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// The flags of a re-proof, run by hand in a search package's test binary
// (its TestReprove calls Reprove):
//
//	go test ./solver/GAME -run Reprove -reprove 1000001,1000004 -reprove-nodes 20000000 -v
var (
	reproveSeeds = flag.String("reprove", "", "deals to prove lost again with the plain search, comma-separated (empty: skip)")
	reproveNodes = flag.Int64("reprove-nodes", 0, "node budget of each re-proof (0: the package's default)")
)

// Reprove searches each deal that the -reprove flag lists again with o (a
// search without the techniques whose verdicts are checked) and a budget
// of -reprove-nodes (nodes when the flag is not given), from the position
// deal(seed), and fails t if one comes out solved: a deal the techniques
// proved lost must not be won by the plain search. A deal the plain search
// leaves unknown within the budget is logged, not failed (it confirms
// nothing and contradicts nothing). The search runs the unlimited pass
// alone, whatever o.Passes says: it is the only pass that proves a deal
// lost, and limited passes before it would take most of the budget.
// Without -reprove the test is skipped: it is a measurement.
func Reprove(t *testing.T, nodes int64, o solver.Options, deal func(seed uint64) env.Game) {
	t.Helper()
	if *reproveSeeds == "" {
		t.Skip("a measurement: -reprove DEALS")
	}
	o.Nodes = nodes
	if *reproveNodes > 0 {
		o.Nodes = *reproveNodes
	}
	o.Passes = []solver.Pass{}
	s := New(t, o)
	for f := range strings.SplitSeq(*reproveSeeds, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			t.Fatalf("-reprove: %v", err)
		}
		r := s.Solve(context.Background(), deal(seed))
		t.Logf("deal %d: %v, %d nodes, %.1f s", seed, r.Verdict, r.Nodes, r.Elapsed.Seconds())
		if r.Verdict == solver.Solved {
			t.Errorf("deal %d: the plain search wins it: the new verdict was wrong", seed)
		}
	}
}
