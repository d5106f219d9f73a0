package main

import (
	"testing"

	"github.com/patience-gym/patience/env"

	"github.com/patience-gym/patience/research/internal/opendeals"
	"github.com/patience-gym/patience/solver"
)

// TestOneSearchesBothWays: Limited's training deal 196, which the table
// leaves open, is won both ways, the plain-ranked pass first finding it
// in far fewer nodes (32,799 against 577,835 at 2M, measured).
func TestOneSearchesBothWays(t *testing.T) {
	r, err := opendeals.SearchTwice(t.Context(), "limited", 196, ways(2000000))
	if err != nil {
		t.Fatal(err)
	}
	one, plainToo := r.Res[0], r.Res[1]
	if one.Verdict != solver.Solved || plainToo.Verdict != solver.Solved || plainToo.Nodes >= one.Nodes {
		t.Errorf("deal 196: %s in %d nodes, with the plain-ranked pass %s in %d", one.Verdict, one.Nodes, plainToo.Verdict, plainToo.Nodes)
	}
}

func TestRunRefuses(t *testing.T) {
	if err := run(opendeals.Flags{Game: "limited", N: 1, Skip: 1 << 20}, 1000); err == nil {
		t.Error("no error for more deals than the table leaves open")
	}
}

// TestFirstIsBestFirst10: the first search is `patience solve --best-first
// 10` (solver.Options.BestFirst with Limited's own plan): the same verdict
// in the same nodes on deal 196.
func TestFirstIsBestFirst10(t *testing.T) {
	g, err := env.NewGame("limited")
	if err != nil {
		t.Fatal(err)
	}
	g.Deal(196)
	var res [2]solver.Result
	for k, o := range []solver.Options{{Nodes: 1000000, BestFirst: 10}, {Nodes: 1000000, Passes: twoWays(false)}} {
		s, err := solver.New(o)
		if err != nil {
			t.Fatal(err)
		}
		res[k] = s.Solve(t.Context(), g)
	}
	if res[0].Verdict != res[1].Verdict || res[0].Nodes != res[1].Nodes {
		t.Errorf("--best-first 10: %s in %d nodes; the first search: %s in %d", res[0].Verdict, res[0].Nodes, res[1].Verdict, res[1].Nodes)
	}
}
