package solvertest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// Reprove searches each deal of the comma-separated list seeds again with
// o (a search without the techniques whose verdicts are checked), from the
// position deal(seed), and fails t if one comes out solved: a deal the
// techniques proved lost must not be won by the plain search. A deal the
// plain search leaves unknown within o's budget is logged, not failed (it
// confirms nothing and contradicts nothing). The search runs the unlimited
// pass alone, whatever o.Passes says: it is the only pass that proves a
// deal lost, and limited passes before it would take most of the budget.
func Reprove(t *testing.T, seeds string, o solver.Options, deal func(seed uint64) env.Game) {
	t.Helper()
	o.Passes = []solver.Pass{}
	s := New(t, o)
	for f := range strings.SplitSeq(seeds, ",") {
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
