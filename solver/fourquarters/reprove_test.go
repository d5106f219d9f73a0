package fourquarters

import (
	"context"
	"flag"
	"strconv"
	"strings"
	"testing"

	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver"
)

// The re-proof of new "lost" verdicts, run by hand: each deal named is
// searched with the techniques of this package switched off (parity, the
// build before's dead test, kept), no keys and no pruning, at a budget large
// enough to finish, and must come out unsolvable:
//
//	go test ./solver/fourquarters -run Reprove -reprove 1000001,1000004 -reprove-nodes 50000000 -v
var (
	reprove      = flag.String("reprove", "", "deals to prove lost again with the plain search, comma-separated (empty: skip)")
	reproveNodes = flag.Int64("reprove-nodes", 50_000_000, "node budget of each re-proof")
)

func TestReprove(t *testing.T) {
	if *reprove == "" {
		t.Skip("a measurement: -reprove DEALS")
	}
	s, err := solver.New(solver.Options{Nodes: *reproveNodes, NoKey: true, NoPrune: true, TableBits: 24})
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
		r := s.Solve(context.Background(), NewWith(g, Parity))
		t.Logf("deal %d: %v, %d nodes, %.1f s", seed, r.Verdict, r.Nodes, r.Elapsed.Seconds())
		if r.Verdict == solver.Solved {
			t.Errorf("deal %d: the plain search wins it: the new verdict was wrong", seed)
		}
	}
}
