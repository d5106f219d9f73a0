package royalparade

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/royalparade"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// table sets up a position by hand on an empty table with the stock dealt
// out: piles maps cells to the tops of base piles, loose cells to loose
// cards, aux auxiliary piles to their cards (bottom first, as cs reads
// them).
func table(t *testing.T, piles, loose map[int]string, aux map[int]string) *Position {
	t.Helper()
	g := rules.New()
	g.Clear()
	for i, c := range piles {
		if err := g.SetCell(i, cards.MustParse(c), true); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range loose {
		if err := g.SetCell(i, cards.MustParse(c), false); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range aux {
		if err := g.SetAux(p, cs(s)...); err != nil {
			t.Fatal(err)
		}
	}
	return New(g)
}

// action returns the id of the move named s ("a1>r1c1") in g.
func action(t *testing.T, g *Position, s string) int {
	t.Helper()
	a, err := g.ParseActions(s)
	if err != nil || len(a) != 1 {
		t.Fatalf("%s: %v %v", s, a, err)
	}
	return a[0]
}

// TestSafeMoveOnlyWithoutAContest: a 5♠ on an auxiliary pile and one 2♠
// pile taking it, its twin built nowhere: no safe move, since which copy
// goes first may matter. A second 2♠ pile that takes it too, or the twin
// built on the second pile, makes the build safe. A 3 that fits an empty
// cell of its row is never played so (a base is not built).
func TestSafeMoveOnlyWithoutAContest(t *testing.T) {
	for _, c := range []struct {
		name   string
		second string // the top of a second 2♠ pile in r1c2, "" for none
		want   string // the safe move, "" for none
	}{
		{"one pile takes it, the twin not built", "", ""},
		{"two piles take it", "2S", "a1>r1c1"},
		{"the twin built on the other pile", "5S", "a1>r1c1"},
	} {
		piles := map[int]string{0: "2S"}
		if c.second != "" {
			piles[1] = c.second
		}
		g := table(t, piles, nil, map[int]string{0: "5S", 1: "3H"})
		want := -1
		if c.want != "" {
			want = action(t, g, c.want)
		}
		if got := g.SafeMove(); got != want {
			t.Errorf("%s: SafeMove %d, want %d (%s)", c.name, got, want, c.want)
		}
	}
}

// TestPruneOffersOneEmptyCellARow: a 3 that may go into any of three empty
// cells of its row is offered the first only (the cells of a row are
// alike); a 5♥ building on a pile, and the deal, stay.
func TestPruneOffersOneEmptyCellARow(t *testing.T) {
	// Row 2 (cells 8..15): a 3♣ pile in r2c1, r2c2..r2c4 empty, the rest
	// loose cards; row 1: a 2♥ pile in r1c1, the rest loose.
	piles := map[int]string{0: "2H", 8: "3C"}
	loose := map[int]string{}
	for i := 1; i < 8; i++ {
		loose[i] = "KD"
	}
	for i := 12; i < 16; i++ {
		loose[i] = "KD"
	}
	for i := 16; i < 24; i++ {
		loose[i] = "QD"
	}
	g := table(t, piles, loose, map[int]string{0: "3S", 1: "5H"})
	if err := g.SetStock(cs("9C 9C 9C 9C 9C 9C 9C 9C")...); err != nil {
		t.Fatal(err)
	}
	m := env.NewMask(g.Spec().Actions)
	g.Legal(&m)
	for _, s := range []string{"a1>r2c2", "a1>r2c3", "a1>r2c4", "a2>r1c1", "deal"} {
		if !m.Has(action(t, g, s)) {
			t.Fatalf("%s is not legal before pruning", s)
		}
	}
	g.Prune(nil, &m)
	for s, want := range map[string]bool{"a1>r2c2": true, "a1>r2c3": false, "a1>r2c4": false, "a2>r1c1": true, "deal": true} {
		if got := m.Has(action(t, g, s)); got != want {
			t.Errorf("after pruning, %s kept %v, want %v", s, got, want)
		}
	}
}

// TestPlayoutScores: the greedy playout of the chain lock builds nothing
// (the 6♦ its 3♦ pile needs lies under the Q♦), so it scores the 23
// complete piles, the 8 aces and a quarter for the 3♦ pile's one card;
// with the 6♦ on top it builds the 6♦, the 9♦ and the Q♦: every card.
func TestPlayoutScores(t *testing.T) {
	g := chainLock(t)
	if got, want := playout(&g.Game), 8+23*4+0.25; got != want {
		t.Errorf("chain lock: playout %v, want %v", got, want)
	}
	if err := g.SetAux(0, cs("QD 6D")...); err != nil {
		t.Fatal(err)
	}
	if got := playout(&g.Game); got != 104 {
		t.Errorf("6♦ on top: playout %v, want 104", got)
	}
	if g.SearchEvaluate() <= 104 {
		t.Errorf("SearchEvaluate %v: want the playout's 104 plus a hundredth of the evaluation", g.SearchEvaluate())
	}
}

// TestPassesFindAWinTheUnlimitedPassMisses: Royal Parade's plan (Passes:
// each default pass ranked by the heuristic agent's evaluation, then by
// the playout) wins tuning deal 500,029 within 100k nodes (on its seventh
// pass, a plain one), where the unlimited pass alone, and the default
// passes (all ranked by the playout), leave it open at the same budget.
func TestPassesFindAWinTheUnlimitedPassMisses(t *testing.T) {
	g := rules.New()
	g.Deal(500029)
	search := func(passes []solver.Pass) solver.Result {
		return solvertest.New(t, solver.Options{Nodes: 100000, TableBits: 18, Passes: passes}).Solve(t.Context(), g)
	}
	if own := search(nil); own.Verdict != solver.Solved {
		t.Errorf("with its own passes: %v in %d nodes", own.Verdict, own.Nodes)
	}
	for name, passes := range map[string][]solver.Pass{"the unlimited pass alone": {}, "the default passes": solver.DefaultPasses} {
		if r := search(passes); r.Verdict == solver.Solved {
			t.Errorf("with %s: solved in %d nodes; the test proves nothing", name, r.Nodes)
		}
	}
}
