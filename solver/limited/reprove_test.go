package limited

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The re-proof of new "lost" verdicts, run by hand: each deal named is
// searched with every technique switched off (no keys, no pruning, the
// heuristic agent's evaluation: the plain rules) by the unlimited pass
// alone (solvertest.Reprove), and must not come out won:
//
//	go test ./solver/limited -run Reprove -reprove 1000550 -reprove-nodes 100000000 -v -timeout 60m
func TestReprove(t *testing.T) {
	o := solver.Options{NoSafeMoves: true, NoDeadTest: true, NoKey: true, NoPrune: true, NoNarrow: true, TableBits: 26}
	solvertest.Reprove(t, 20_000_000, o, func(seed uint64) env.Game {
		g := rules.New()
		g.Deal(seed)
		return withoutEval(g)
	})
}
