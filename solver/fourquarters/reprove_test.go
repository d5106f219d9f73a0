package fourquarters

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The re-proof of new "lost" verdicts, run by hand: each deal named is
// searched with the techniques of this package switched off (parity, the
// build before's dead test, kept), no keys and no pruning, by the unlimited
// pass alone (solvertest.Reprove), at a budget large enough to finish, and
// must not come out won:
//
//	go test ./solver/fourquarters -run Reprove -reprove 1000001,1000004 -reprove-nodes 50000000 -v
func TestReprove(t *testing.T) {
	o := solver.Options{NoKey: true, NoPrune: true, TableBits: 24}
	solvertest.Reprove(t, 50_000_000, o, func(seed uint64) env.Game {
		g := rules.New()
		g.Deal(seed)
		return NewWith(g, Parity)
	})
}
