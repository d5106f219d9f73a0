package main

import (
	"testing"

	"github.com/patience-gym/patience/solver"
)

// TestOneSearchesBothWays: Royal Parade's training deal 34, which the table
// leaves open, is won by the one search and by the first restart, with the
// nodes each used; a restart's budget is the share of the whole.
func TestOneSearchesBothWays(t *testing.T) {
	r, err := one(t.Context(), plan{game: "royalparade", nodes: 400000, k: 2, jitter: 1}, 34)
	if err != nil {
		t.Fatal(err)
	}
	if r.one.Verdict != solver.Solved || r.wonBy != 1 || r.restartsN > 200000 {
		t.Errorf("deal 34: one search %v, won by restart %d in %d nodes", r.one.Verdict, r.wonBy, r.restartsN)
	}
}

func TestRunRefuses(t *testing.T) {
	if err := run(plan{game: "royalparade", nodes: 1000, k: 2}, 1<<20, 1, 1); err == nil {
		t.Error("no error for more deals than the table leaves open")
	}
	if err := run(plan{game: "royalparade", knowledge: "nothing", nodes: 1000, k: 2}, 0, 1, 1); err == nil {
		t.Error("no error for a knowledge set the game lacks")
	}
}
