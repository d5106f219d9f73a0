package limited

import (
	"testing"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/limited"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// TestPruneOffersTheFirstSpace: in a second deal with two spaces (columns
// 2 and 4; the others hold cards that take none of the cards in play), every card that may fill a space is offered the first one
// only (the columns are alike); its other moves, and the moves of the
// other cards, stay.
func TestPruneOffersTheFirstSpace(t *testing.T) {
	g := rules.New()
	g.SetColumns(cs("9S KH"), nil, cs("7D"), nil, cs("KS"), cs("KS"), cs("KD"), cs("KD"), cs("QH"), cs("QH"), cs("JS"), cs("JS"))
	g.SetSecondDeal(cs("QC 6D"), cs("9H"))
	p := New(g)
	move := func(src, col int) int { return rules.ActMove + src*rules.NumDests + rules.DstColumn + col }
	m := env.NewMask(p.Spec().Actions)
	p.Legal(&m)
	first, second := map[string]int{}, map[string]int{}
	for name, src := range map[string]int{"K♥ of column 1": 0, "Q♣": rules.SrcPriv, "6♦": rules.SrcPriv + 1} {
		first[name], second[name] = move(src, 1), move(src, 3)
		if !m.Has(first[name]) || !m.Has(second[name]) {
			t.Fatalf("%s: not offered both spaces before pruning (%s, %s)", name, p.ActionString(first[name]), p.ActionString(second[name]))
		}
	}
	pair := move(rules.SrcPriv+1, 2) // 6♦ onto 7♦
	if !m.Has(pair) {
		t.Fatalf("6♦ onto 7♦ (%s) not legal", p.ActionString(pair))
	}
	before := m.Count()
	p.Prune(nil, &m)
	for name := range first {
		if !m.Has(first[name]) {
			t.Errorf("%s: the first space (%s) pruned", name, p.ActionString(first[name]))
		}
		if m.Has(second[name]) {
			t.Errorf("%s: the second space (%s) kept", name, p.ActionString(second[name]))
		}
	}
	if !m.Has(pair) {
		t.Error("the pair 6♦ onto 7♦ pruned")
	}
	if got := before - m.Count(); got != len(second) {
		t.Errorf("pruned %d moves, want the %d into the second space", got, len(second))
	}
}

// TestPassesFindAWinTheDefaultMisses: Limited's passes (each default pass
// ranked by the plain evaluation, then by the playout) win tuning deal
// 500,075 in a few thousand nodes, where the solver's default passes
// leave it open at 50k.
func TestPassesFindAWinTheDefaultMisses(t *testing.T) {
	g := rules.New()
	g.Deal(500075)
	own := solvertest.New(t, solver.Options{Nodes: 50000, TableBits: 18}).Solve(t.Context(), g)
	if own.Verdict != solver.Solved {
		t.Errorf("with its own passes: %v in %d nodes", own.Verdict, own.Nodes)
	}
	def := solvertest.New(t, solver.Options{Nodes: 50000, TableBits: 18, Passes: solver.DefaultPasses}).Solve(t.Context(), g)
	if def.Verdict == solver.Solved {
		t.Errorf("with the default passes: solved in %d nodes; the test proves nothing", def.Nodes)
	}
}
