//go:build solverexp

package solver

import (
	"context"
	"flag"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

var expGame = flag.String("exp.game", "", "")
var expN = flag.Int("exp.n", 20, "")
var expStart = flag.Uint64("exp.start", 0, "")
var expNodes = flag.Int64("exp.nodes", 1000000, "")
var expNoSafe = flag.Bool("exp.nosafe", false, "")
var expMC = flag.Bool("exp.mc", false, "")
var expBits = flag.Int("exp.bits", 22, "")
var expNoSlack = flag.Bool("exp.noslack", false, "")
var expSwaps = flag.Bool("exp.swaps", false, "")
var expLDS = flag.Bool("exp.lds", false, "")
var expMaxAlive = flag.Int("exp.maxalive", 200, "")

func TestExp(t *testing.T) {
	if *expGame == "" {
		t.Skip()
	}
	opts := Options{Nodes: *expNodes, NoSafeMoves: *expNoSafe, TableBits: *expBits}
	if *expNoSlack {
		opts.Passes = []Pass{}
	}
	s, _ := New(opts)
	g, err := env.NewGame(*expGame)
	if err != nil {
		t.Fatal(err)
	}
	debugPass = func(r Result) { t.Logf("  pass %d nodes %d", r.Passes, r.Nodes) }
	count := map[Verdict]int{}
	for i := 0; i < *expN; i++ {
		seed := *expStart + uint64(i)
		g.Deal(seed)
		r := s.Solve(context.Background(), g)
		count[r.Verdict]++
		for i, a := range r.Line {
			if name := g.ActionString(a); len(name) > 3 && (name[:4] == "swap" || name[:4] == "pick") {
				t.Logf("   move %d: %s", i, name)
			}
		}
		t.Logf("deal %d: %v best %d nodes %d safe %d dead %d depth %d line %d %v %.0f n/s %s", seed, r.Verdict, r.Best, r.Nodes, r.SafeMoves, r.Dead, r.MaxDepth, len(r.Line), r.Elapsed.Round(1e6), r.NodesPerSecond(), r.Err)
	}
	t.Log(count)
}
