package solver_test

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver"
)

// narrowAll is a game whose limited passes are told to leave out every
// move (solver.Narrower).
type narrowAll struct {
	*ladder.Game
	calls *int
}

func (g narrowAll) Clone() env.Game {
	return narrowAll{g.Game.Clone().(*ladder.Game), g.calls}
}

func (g narrowAll) CopyFrom(src env.Game) { g.Game.CopyFrom(src.(narrowAll).Game) }

func (g narrowAll) Narrow(line []int, m *env.Mask) {
	*g.calls++
	m.Clear()
}

// TestNarrowOnlyInLimitedPasses: a game that narrows away every move in
// the limited passes is still won, by the unlimited pass, which never
// narrows; a limited pass whose narrowing left moves out proves nothing.
func TestNarrowOnlyInLimitedPasses(t *testing.T) {
	lg := ladder.New()
	lg.SetRows(cards.MustParseList("2S"), cards.MustParseList("AS"))
	for s := range cards.NumSuits {
		if cards.Suit(s) != cards.Spades {
			lg.SetFoundation(cards.Suit(s), cards.King, cards.King)
		}
	}
	lg.SetFoundation(cards.Spades, cards.King, 0)
	lg.SetStock(cards.MustParseList("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"))
	calls := 0
	g := narrowAll{lg, &calls}
	r := solve(t, newSolver(t, solver.Options{Nodes: 100000, NoSafeMoves: true}), g)
	if r.Verdict != solver.Solved {
		t.Fatalf("verdict %v, want solved by the unlimited pass", r.Verdict)
	}
	if calls == 0 {
		t.Error("the limited passes never narrowed")
	}
	calls = 0
	r = solve(t, newSolver(t, solver.Options{Nodes: 100000, NoSafeMoves: true, NoNarrow: true}), g)
	if r.Verdict != solver.Solved || calls != 0 {
		t.Errorf("NoNarrow: verdict %v, %d calls", r.Verdict, calls)
	}
	calls = 0
	r = solve(t, newSolver(t, solver.Options{Nodes: 100000, NoSafeMoves: true, Passes: []solver.Pass{}}), g)
	if r.Verdict != solver.Solved || calls != 0 {
		t.Errorf("the unlimited pass alone: verdict %v, %d calls", r.Verdict, calls)
	}
}
