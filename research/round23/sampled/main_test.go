package main

import (
	"testing"
)

// limitedPolicy is Limited's learned policy, sampled.
const limitedPolicy = "policy:model=../../../models/limited.safetensors,sample=1,temperature=1"

// TestOneStopsAtTheFirstWin: Limited's training deal 12 is first won by
// the policy's game with agent seed 3 (its line replays, or one fails);
// with two games a deal, none wins and both are played.
func TestOneStopsAtTheFirstWin(t *testing.T) {
	r, err := one(t.Context(), plan{game: "limited", agent: limitedPolicy, k: 5}, 12)
	if err != nil {
		t.Fatal(err)
	}
	if r.wonBy != 3 || r.games != 3 || len(r.line) == 0 || r.best != 104 {
		t.Errorf("deal 12, 5 games: won by seed %d after %d games, line of %d moves, best %d", r.wonBy, r.games, len(r.line), r.best)
	}
	r, err = one(t.Context(), plan{game: "limited", agent: limitedPolicy, k: 2}, 12)
	if err != nil {
		t.Fatal(err)
	}
	if r.wonBy != 0 || r.games != 2 || r.line != nil || r.best >= 104 {
		t.Errorf("deal 12, 2 games: won by seed %d after %d games, line of %d moves, best %d", r.wonBy, r.games, len(r.line), r.best)
	}
}

func TestRunRefuses(t *testing.T) {
	if err := run(plan{game: "limited", agent: limitedPolicy, k: 1}, 1<<20, 1, 1); err == nil {
		t.Error("no error for more deals than the table leaves open")
	}
	if err := run(plan{game: "limited", agent: "nobody", k: 1}, 0, 1, 1); err == nil {
		t.Error("no error for an unknown agent")
	}
}
