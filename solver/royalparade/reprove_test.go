package royalparade

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The re-proof of new "lost" verdicts, run by hand: each deal named is
// searched with the techniques the build before lacked switched off (safe
// moves only: no dead test, no keys, no pruning, the heuristic agent's
// evaluation instead of the playout) by the unlimited pass alone
// (solvertest.Reprove), at a budget large enough to finish, and must not
// come out won:
//
//	go test ./solver/royalparade -run Reprove -reprove 1000026,1000034 -reprove-nodes 20000000 -v
func TestReprove(t *testing.T) {
	o := solver.Options{NoDeadTest: true, NoKey: true, NoPrune: true, TableBits: 24}
	solvertest.Reprove(t, 20_000_000, o, func(seed uint64) env.Game {
		g := rules.New()
		g.Deal(seed)
		return withoutEval(g)
	})
}
