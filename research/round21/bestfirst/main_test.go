package main

import (
	"testing"

	"github.com/patience-gym/patience/solver"
)

// TestOneSearchesTwice: Limited's training deal 11, which the table leaves
// open, is won by the search with a best-first pass in front and left
// open by the game's passes alone at 200k nodes.
func TestOneSearchesTwice(t *testing.T) {
	r, err := one(t.Context(), "limited", 11, 200000, 10)
	if err != nil {
		t.Fatal(err)
	}
	if r.plain.Verdict != solver.Unknown || r.withBF.Verdict != solver.Solved {
		t.Errorf("deal 11: the passes %v, with best first %v", r.plain.Verdict, r.withBF.Verdict)
	}
}

func TestRunRefusesTooManyDeals(t *testing.T) {
	if err := run("limited", 1<<20, 1, 1000, 10, 1); err == nil {
		t.Error("no error for more deals than the table leaves open")
	}
}
