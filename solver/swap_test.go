//go:build solverexp

package solver

import (
	"context"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cromwell"
)

// TestExpRootSwaps: for each deal, every swap at the start; how many
// survive the dead test, and how many of those the solver wins quickly.
func TestExpRootSwaps(t *testing.T) {
	if !*expSwaps {
		t.Skip()
	}
	s, _ := New(Options{Nodes: *expNodes})
	for i := 0; i < *expN; i++ {
		seed := *expStart + uint64(i)
		g := cromwell.New()
		g.Deal(seed)
		m := env.NewMask(cromwell.NumActions)
		alive, solved, unsolv, tried := 0, 0, 0, 0
		var nodes int64
		for x := 0; x < 26*4; x++ {
			for y := x + 1; y < 26*4; y++ {
				c := g.Clone()
				c.Apply(cromwell.ActSwapBegin)
				a1 := cromwell.ActSwap + (x/4)*16 + x%4
				a2 := cromwell.ActSwap + (y/4)*16 + y%4
				c.Legal(&m)
				if !m.Has(a1) {
					continue
				}
				c.Apply(a1)
				c.Legal(&m)
				if !m.Has(a2) {
					continue
				}
				c.Apply(a2)
				tried++
				if env.Dead(c) {
					continue
				}
				alive++
				if alive > *expMaxAlive {
					continue
				}
				r := s.Solve(context.Background(), c)
				nodes += r.Nodes
				switch r.Verdict {
				case Solved:
					solved++
					if *expMaxAlive > 1000 {
						t.Logf("  swap %s %s wins in %d nodes", c.ActionString(a1), c.ActionString(a2), r.Nodes)
					}
				case Unsolvable:
					unsolv++
				}
			}
		}
		t.Logf("deal %d: swaps %d alive %d; of the first %d: solved %d unsolvable %d (nodes %d)", seed, tried, alive, min(alive, *expMaxAlive), solved, unsolv, nodes)
	}
}
