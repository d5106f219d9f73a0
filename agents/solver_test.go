package agents

import (
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestSolverAgentWinsASolvableDeal: on deals the solver wins quickly, the
// agent plays the winning line to a win through the environment.
func TestSolverAgentWinsASolvableDeal(t *testing.T) {
	for _, c := range []struct {
		game string
		seed uint64
	}{{"cromwell", 5}, {"cromwell:noswap", 0}, {"fifteen", 7}} {
		e, err := env.Make(c.game, env.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewSolver(SolverSettings{Nodes: 20000})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Play(e, a, c.seed, c.seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != env.Won {
			t.Errorf("%s deal %d: %v with %d cards placed, want a win", c.game, c.seed, res.Outcome, res.Progress)
		}
	}
}

// TestSolverAgentFallsBack: where no win is found (a deal proved lost, and
// a budget too small), the agent plays the heuristic to the end, legally.
func TestSolverAgentFallsBack(t *testing.T) {
	for _, c := range []struct {
		game    string
		seed    uint64
		perMove bool
	}{{"cromwell:noswap", 7, false}, {"limited", 3, true}} {
		e, _ := env.Make(c.game, env.Options{MaxSteps: 60})
		a, err := NewSolver(SolverSettings{Nodes: 50, PerMove: c.perMove})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Play(e, a, c.seed, c.seed, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSolverAgentIsClairvoyant(t *testing.T) {
	a, _ := New("solver")
	if !IsClairvoyant(a) || a.Settings() != "nodes=1000000 per=game table-bits=20" {
		t.Errorf("solver agent: clairvoyant %v, settings %q", IsClairvoyant(a), a.Settings())
	}
	for _, n := range []string{"random", "heuristic", "mc", "uct"} {
		if b, _ := New(n); IsClairvoyant(b) {
			t.Errorf("%s reports itself clairvoyant", n)
		}
	}
	if _, err := NewSolver(SolverSettings{Nodes: -1}); err == nil {
		t.Error("negative budget accepted")
	}
}
