package agents_test

import (
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

// BenchmarkAgentGame plays whole games with an agent, one deal after
// another, and reports the agent's decisions per second: the cost of its
// look-ahead (the heuristic tries every legal move; mc also rolls the
// candidates out with the heuristic; uct grows a tree whose leaves it rolls
// out with the heuristic).
func BenchmarkAgentGame(b *testing.B) {
	for _, c := range []struct{ game, agent string }{
		{"cromwell", "heuristic"}, {"fifteen", "heuristic"}, {"ladder", "heuristic"},
		{"cromwell", "mc:rollouts=2"}, {"fifteen", "mc:rollouts=2"}, {"ladder", "mc:rollouts=2"},
		{"cromwell", "uct:iterations=20"}, {"fifteen", "uct:iterations=20"}, {"ladder", "uct:iterations=20"},
	} {
		b.Run(c.game+"/"+c.agent, func(b *testing.B) {
			f, err := agents.Parse(c.agent)
			if err != nil {
				b.Fatal(err)
			}
			e, err := env.Make(c.game, env.Options{MaxSteps: 300})
			if err != nil {
				b.Fatal(err)
			}
			a := f.New()
			moves, seed := 0, uint64(0)
			for b.Loop() {
				res, err := agents.Play(e, a, seed, seed, nil)
				if err != nil {
					b.Fatal(err)
				}
				moves += res.Steps
				seed++
			}
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
