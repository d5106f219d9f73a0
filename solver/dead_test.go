//go:build solverexp

package solver

import (
	"context"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestExpDeadOnLine: no position of a winning line found without the dead
// test may be declared dead.
func TestExpDeadOnLine(t *testing.T) {
	if *expGame == "" {
		t.Skip()
	}
	s, _ := New(Options{Nodes: *expNodes, NoDeadTest: true})
	g, _ := env.NewGame(*expGame)
	for i := 0; i < *expN; i++ {
		seed := *expStart + uint64(i)
		g.Deal(seed)
		r := s.Solve(context.Background(), g)
		if r.Verdict != Solved {
			continue
		}
		st := g.Clone()
		for j, a := range r.Line {
			if env.Dead(st) {
				t.Errorf("deal %d: dead at step %d of a winning line:\n%s", seed, j, st.Render())
				break
			}
			st.Apply(a)
		}
	}
}
