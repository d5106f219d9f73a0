package main

import (
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/policy"
)

// TestCorrections: with no correction a deal ends as the agent plays it
// alone; with corrections every deal the agent won is still won with none,
// and some deal it lost from a winnable start is won after one or more;
// a game replayed with its corrections never meets an illegal one.
func TestCorrections(t *testing.T) {
	const file = "../../../models/fifteen.safetensors"
	m, err := policy.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := env.Make("fifteen", env.Options{})
	w := weights(e.Spec(), m.Meta().EvalTerms)
	a, err := agents.New("policy:model=" + file)
	if err != nil {
		t.Fatal(err)
	}
	rescued := 0
	for seed := uint64(610000); seed < 610030; seed++ {
		r, err := agents.Play(e, a, seed, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		none, err := one("fifteen", "policy:model="+file, w, seed, 0, 100000)
		if err != nil {
			t.Fatal(err)
		}
		if (none.fixes == 0) != (r.Outcome == env.Won) {
			t.Fatalf("deal %d: alone the agent ends %v; with no correction the tool says fixes=%d", seed, r.Outcome, none.fixes)
		}
		some, err := one("fifteen", "policy:model="+file, w, seed, 4, 100000)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome == env.Won && some.fixes != 0 {
			t.Fatalf("deal %d: won alone, but fixes=%d with corrections allowed", seed, some.fixes)
		}
		if r.Outcome != env.Won && some.fixes > 0 {
			rescued++
		}
	}
	if rescued == 0 {
		t.Fatal("no lost deal was won after a correction")
	}
	t.Logf("%d of 30 deals won only after corrections", rescued)
}
