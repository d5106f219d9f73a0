package agents

import (
	"testing"

	"github.com/patience-gym/patience/env"
)

// BenchmarkFairAgentMove times one decision of the fair search agents from
// the same position (Limited deal 500 after at least 20 moves of the
// heuristic, where three moves or more are legal: a first-deal position
// with a hidden stock), each decision by a fresh
// episode of the agent (Reset), and reports the solver's nodes per
// decision. Most of a decision is the solver's searches; what the agents
// themselves allocate (their worlds and buffers) is made at the first
// decision and reused.
func BenchmarkFairAgentMove(b *testing.B) {
	e, err := env.Make("limited", env.Options{})
	if err != nil {
		b.Fatal(err)
	}
	h, _ := New("heuristic")
	e.Reset(500)
	h.Reset(500)
	for e.Steps() < 20 || e.Mask().Count() < 3 {
		e.Advance(h.Act(NewView(e)))
	}
	for _, name := range []string{"hop:worlds=8,nodes=10000,line=keep,tie=rollout", "hop:worlds=6,nodes=3000", "ismcts:iterations=20,nodes=1500,leaf=solver-rollout"} {
		b.Run(name, func(b *testing.B) {
			a, err := New(name)
			if err != nil {
				b.Fatal(err)
			}
			a.Reset(1)
			a.Act(NewView(e)) // the buffers
			var nodes int64
			seed := uint64(1)
			b.ReportAllocs()
			for b.Loop() {
				seed++
				a.Reset(seed)
				a.Act(NewView(e))
				switch x := a.(type) {
				case *HOP:
					_, n := x.Searches()
					nodes += n
				case *ISMCTS:
					_, _, n := x.Searches()
					nodes += n
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
