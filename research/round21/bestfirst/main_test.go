package main

import (
	"testing"

	"github.com/patience-gym/patience/research/internal/opendeals"
	"github.com/patience-gym/patience/solver"
)

// TestOneSearchesTwice: Limited's training deal 11, which the table leaves
// open, is won by the search with a best-first pass in front and left
// open by the game's passes alone at 200k nodes.
func TestOneSearchesTwice(t *testing.T) {
	r, err := opendeals.SearchTwice(t.Context(), "limited", 11, ways(200000, 10))
	if err != nil {
		t.Fatal(err)
	}
	if r.Res[0].Verdict != solver.Unknown || r.Res[1].Verdict != solver.Solved {
		t.Errorf("deal 11: the passes %v, with best first %v", r.Res[0].Verdict, r.Res[1].Verdict)
	}
}

func TestRunRefusesTooManyDeals(t *testing.T) {
	if err := run("limited", 1<<20, 1, 1000, 10, 1); err == nil {
		t.Error("no error for more deals than the table leaves open")
	}
}
