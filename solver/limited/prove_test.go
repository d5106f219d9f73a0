package limited

import (
	"context"
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
)

// TestProveSetProvesAHopelessDeal: training deal 294, where no line gets
// more than six cards home and which the verdict table leaves open, is
// proved lost by the knowledge set "prove" (its unlimited pass alone)
// within 12M nodes; it searches through the package's keys and pruning
// and has no limited pass.
func TestProveSetProvesAHopelessDeal(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of 11M nodes")
	}
	g := rules.New()
	g.Deal(294)
	s, err := solver.New(solver.Options{Nodes: 12_000_000, Knowledge: "prove", TableBits: 26})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Solve(context.Background(), g); r.Verdict != solver.Unsolvable {
		t.Errorf("deal 294: %s after %d nodes, want unsolvable", r.Verdict, r.Nodes)
	}
	var p env.Game = NewProving(g)
	if _, ok := p.(solver.Keyer); !ok {
		t.Error("a Proving position has no key")
	}
	if _, ok := p.(solver.Pruner); !ok {
		t.Error("a Proving position does not prune")
	}
	if _, ok := p.(solver.SearchEvaluator); ok {
		t.Error("a Proving position ranks by the playout")
	}
	if pl, ok := p.(solver.Planner); !ok || len(pl.Passes()) != 0 {
		t.Error("a Proving position runs limited passes")
	}
}

// BenchmarkProve measures the proof search's nodes a second with a table
// larger than the caches (2^26 entries, 1 GiB), where every probe of the
// table is a miss to memory: 2M nodes of training deal 294 a search, the
// table reused from one search to the next as `patience solve` reuses a
// worker's.
func BenchmarkProve(b *testing.B) {
	g := rules.New()
	g.Deal(294)
	s, err := solver.New(solver.Options{Nodes: 2_000_000, Knowledge: "prove", TableBits: 26})
	if err != nil {
		b.Fatal(err)
	}
	s.Solve(context.Background(), g) // the table's pages touched once
	b.ResetTimer()
	var nodes int64
	for b.Loop() {
		nodes += s.Solve(context.Background(), g).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
