package solvertest_test

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
	"github.com/patience-gym/patience/solver/limited"
)

// plain is a position of Limited with its rules only (solvertest.Rules).
type plain struct {
	solvertest.Rules[limited.Position, *limited.Position]
}

func (g *plain) Clone() env.Game       { c := *g; return &c }
func (g *plain) CopyFrom(src env.Game) { *g = *src.(*plain) }

func newGame() env.Game { return rules.New() }

// TestRun: a measurement of two deals, one of which a short search wins,
// with and without the knowledge of Limited (the position given through
// Rules), runs the steps asked for and tallies every deal; CSV and Table
// run the same steps.
func TestRun(t *testing.T) {
	deals, start, nodes, steps := 2, uint64(1000003), int64(3000), "0,2"
	f := solvertest.Flags{Deals: &deals, Start: &start, Nodes: &nodes, Steps: &steps}
	rulesOnly := func(g env.Game) env.Game {
		return &plain{solvertest.Rules[limited.Position, *limited.Position]{P: *limited.New(g.(*rules.Game))}}
	}
	all := []solvertest.Step{
		{Name: "rules only", Position: rulesOnly},
		{Name: "skipped"},
		{Name: "knowledge", Options: solver.Options{TableBits: 18}},
	}
	var ran []string
	f.Run(t, solvertest.Dealt(newGame), all, func(st solvertest.Step, n solvertest.Tally) {
		ran = append(ran, st.Name)
		if n.Verdicts[solver.Solved] == 0 || n.Verdicts[solver.Solved]+n.Verdicts[solver.Unknown] != deals || len(n.Seconds) != deals || n.Nodes <= 0 {
			t.Errorf("%s: tally %+v", st.Name, n)
		}
	})
	if len(ran) != 2 || ran[0] != "rules only" || ran[1] != "knowledge" {
		t.Errorf("steps run: %v, want rules only and knowledge", ran)
	}
	f.CSV(t, "limited", solvertest.Dealt(newGame), all[2:])
	f.Table(t, "Limited", solvertest.Dealt(newGame), all[2:], "nodes", func(n solvertest.Tally) string { return "-" })
}

// TestBefore: the positions k moves before a line's end, for the k
// shorter than the line.
func TestBefore(t *testing.T) {
	g := newGame()
	g.Deal(1000003)
	r := solvertest.New(t, solver.Options{Nodes: 3000}).Solve(t.Context(), g)
	if r.Verdict != solver.Solved {
		t.Fatalf("deal 1,000,003: %v", r.Verdict)
	}
	ps := solvertest.Before(g, r.Line, 1, len(r.Line)-1, len(r.Line))
	if len(ps) != 2 {
		t.Fatalf("%d positions, want 2", len(ps))
	}
	first := g.Clone()
	first.Apply(r.Line[0])
	if ps[1].Hash() != first.Hash() {
		t.Error("the position one move into the line differs")
	}
}
