package royalparade

import (
	"context"
	"flag"
	"strconv"
	"strings"
	"testing"

	rules "github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
)

// The re-proof of new "lost" verdicts, run by hand: each deal named is
// searched as the build before searched it (safe moves only: no dead test,
// no keys, no pruning), at a budget large enough to finish, and must not
// come out solved:
//
//	go test ./solver/royalparade -run Reprove -reprove 1000026,1000034 -reprove-nodes 50000000 -v
var (
	reprove      = flag.String("reprove", "", "deals to prove lost again with the plain search, comma-separated (empty: skip)")
	reproveNodes = flag.Int64("reprove-nodes", 50_000_000, "node budget of each re-proof")
)

func TestReprove(t *testing.T) {
	if *reprove == "" {
		t.Skip("a measurement: -reprove DEALS")
	}
	s, err := solver.New(solver.Options{Nodes: *reproveNodes, NoDeadTest: true, NoKey: true, NoPrune: true, TableBits: 24})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Split(*reprove, ",") {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		g := rules.New()
		g.Deal(seed)
		r := s.Solve(context.Background(), New(g))
		t.Logf("deal %d: %v, %d nodes, %.1f s", seed, r.Verdict, r.Nodes, r.Elapsed.Seconds())
		if r.Verdict == solver.Solved {
			t.Errorf("deal %d: the plain search wins it: the new verdict was wrong", seed)
		}
	}
}
