package solver

import (
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
)

func TestExpMC(t *testing.T) {
	if *expGame == "" || !*expMC {
		t.Skip()
	}
	e, err := env.Make(*expGame, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := agents.New("mc", agents.Options{})
	wins := 0
	for i := 0; i < *expN; i++ {
		seed := *expStart + uint64(i)
		r, err := agents.Play(e, a, seed, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("deal %d: %v %d", seed, r.Outcome, r.Progress)
		if r.Outcome == env.Won {
			wins++
		}
	}
	t.Log("wins", wins)
}
