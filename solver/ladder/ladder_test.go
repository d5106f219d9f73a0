package ladder

import (
	"flag"
	"fmt"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
	rules "github.com/patience-gym/patience/env/ladder"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// stress sets the number of positions of the verdict tests for a longer
// run: go test ./solver/ladder -run Keep -stress 3000.
var stress = flag.Int("stress", 0, "positions in the verdict tests")

// tiny returns a random small position: a few cards of each suit left
// (the foundations hold the rest), spread over the rows, the ladder, the
// stock and the waste, the redeal made or not. In crowded positions
// (crowded true) every row holds cards and the stock is spent, so that
// the ladder and the waste must wait for cards to go home: such positions
// are often lost.
func tiny(rng *cards.Rand, crowded bool) *rules.Game {
	left := 10 + rng.IntN(16)
	if crowded {
		left = 23 + rng.IntN(4)
	}
	tops, rest := envtest.TinyCards(rng, left)
	var rows [rules.NumRows][]cards.Card
	var ladder, stock, waste []cards.Card
	nrows := 2 + rng.IntN(rules.NumRows-1)
	if crowded {
		nrows = rules.NumRows
	}
	for i, c := range rest {
		x := rng.IntN(10)
		switch {
		case crowded && i < rules.NumRows:
			rows[i] = append(rows[i], c)
		case crowded && x < 4:
			r := rng.IntN(nrows)
			rows[r] = append(rows[r], c)
		case crowded && x < 5:
			ladder = append(ladder, c)
		case crowded:
			waste = append(waste, c)
		case x < 4:
			r := rng.IntN(nrows)
			rows[r] = append(rows[r], c)
		case x < 6:
			ladder = append(ladder, c)
		case x < 8:
			stock = append(stock, c)
		default:
			waste = append(waste, c)
		}
	}
	g := rules.New()
	g.SetRows(rows[:]...)
	g.SetLadder(ladder)
	g.SetStock(stock)
	g.SetWaste(waste)
	for s, tp := range tops {
		g.SetFoundation(cards.Suit(s), tp[0], tp[1])
	}
	g.SetRedealUsed(crowded || rng.IntN(3) != 0)
	return g
}

// TestKeepsVerdicts compares, on many small positions, the verdict of the
// search with the default techniques (New) against the plain search (no
// safe moves, pruning or keys), which decides exactly which positions can
// be won.
// Small positions of Ladder are nearly always won: even with every row
// taken, the redeal spent and half the cards in the ladder and the waste,
// 198 of 200 are.
func TestKeepsVerdicts(t *testing.T) {
	n := 200
	if *stress > 0 {
		n = *stress
	}
	v := solvertest.NewVerdicts(t, map[string]solver.Options{"the search with the techniques": {}}, 50000)
	rng := cards.NewRand(5)
	for i := range n {
		v.Check(t, fmt.Sprint("position ", i), tiny(rng, i%2 == 1))
	}
	count := v.Count
	t.Logf("decided by the reference: %d solved, %d unsolvable", count[solver.Solved], count[solver.Unsolvable])
	// A search that leaves out moves or merges positions wrongly can only
	// turn a win into a loss (every line found is replayed), so it is the
	// won positions that test it.
	if count[solver.Solved] < n/2 {
		t.Errorf("too few positions won: %v", count)
	}
}

// TestKeyIgnoresRowOrder: the rows' contents in another order give the
// same key, other contents another; without RowKeys the key is the hash.
func TestKeyIgnoresRowOrder(t *testing.T) {
	a, b, c := rules.New(), rules.New(), rules.New()
	x, y := cards.MustParseList("9S 8H"), cards.MustParseList("KD QC JD")
	a.SetRows(x, y)
	b.SetRows(nil, y, nil, nil, nil, x)
	c.SetRows(y, x[:1])
	for _, g := range []*rules.Game{a, b, c} {
		g.SetStock(cards.MustParseList("2C 3C"))
	}
	if New(a).Key() != New(b).Key() {
		t.Error("the same rows in another order: different keys")
	}
	if a.Hash() == b.Hash() {
		t.Error("the hashes do not tell the rows' order apart")
	}
	if New(a).Key() == New(c).Key() {
		t.Error("other rows: the same key")
	}
	// A card of another suit, at a row's inner or outer end: another key.
	for _, rows := range [][2]string{{"9S 8H", "KH QC JD"}, {"9S 8D", "KD QC JD"}} {
		f := rules.New()
		f.SetRows(cards.MustParseList(rows[0]), cards.MustParseList(rows[1]))
		f.SetStock(cards.MustParseList("2C 3C"))
		if New(a).Key() == New(f).Key() {
			t.Errorf("rows %s and %s key as rows %v and %v", rows[0], rows[1], x, y)
		}
	}
	if p := NewWith(a, All&^RowKeys); p.Key() != a.Hash() {
		t.Error("without RowKeys the key is not the hash")
	}
	// Two empty rows and one of two cards differ from one empty row and
	// two of one card each: the keys are added, not xored.
	d, e := rules.New(), rules.New()
	d.SetRows(cards.MustParseList("9S 8H"), nil)
	e.SetRows(cards.MustParseList("9S"), cards.MustParseList("8H"))
	if New(d).Key() == New(e).Key() {
		t.Error("a run split over two rows keys as the run whole")
	}
}

// TestPruneAfterTurn: right after a turn only the waste's moves, another
// turn and the redeal are kept; after any other move, or without the
// technique, every move is.
func TestPruneAfterTurn(t *testing.T) {
	g := rules.New()
	g.SetRows(cards.MustParseList("9S"), cards.MustParseList("10H"), cards.MustParseList("AS"))
	g.SetStock(cards.MustParseList("8D 2C"))
	g.SetWaste(cards.MustParseList("5C"))
	g.SetLadder(cards.MustParseList("AD"))
	p := New(g)
	p.Apply(rules.ActTurn) // 8D on the waste: it fits 9S
	m := env.NewMask(rules.NumActions)
	p.Legal(&m)
	all := m.Count()
	p.Prune([]int{rules.ActTurn}, &m)
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		if !wasteMove(a) {
			t.Errorf("kept %s after a turn", p.ActionString(a))
		}
	}
	if !m.Has(rules.ActWaste+0) || !m.Has(rules.ActTurn) {
		t.Error("the waste's build or the turn left out")
	}
	if m.Count() == all {
		t.Error("nothing left out after a turn")
	}
	p.Legal(&m)
	p.Prune([]int{rules.ActTurn, rules.ActRowHome + 2}, &m)
	if m.Count() != all {
		t.Error("moves left out after a move that is not a turn")
	}
	q := NewWith(g, All&^TurnOrder)
	q.Apply(rules.ActTurn)
	q.Legal(&m)
	q.Prune([]int{rules.ActTurn}, &m)
	if m.Count() != all {
		t.Error("moves left out without the technique")
	}
}

// TestNarrowLeavesOutShifts: moving 9♠ from 10♥ onto 10♦ uncovers 10♥,
// which neither goes home nor takes a card that could move: left out;
// with a black nine elsewhere, or hearts home up to nine, it is kept, as
// are the moves that are no shifts.
func TestNarrowLeavesOutShifts(t *testing.T) {
	shift := rules.ActBuild + rules.NumRows*1 + 0
	cases := []struct {
		name  string
		third string
		heart cards.Rank
		kept  bool
	}{
		{"nothing for 10♥", "5C", 0, false},
		{"9♣ could go onto 10♥", "9C", 0, true},
		{"10♥ goes home", "5C", 9, true},
	}
	m := env.NewMask(rules.NumActions)
	for _, c := range cases {
		g := rules.New()
		g.SetRows(cards.MustParseList("10D"), cards.MustParseList("10H 9S"), cards.MustParseList(c.third))
		g.SetFoundation(cards.Hearts, c.heart, 0)
		g.SetStock(cards.MustParseList("2C"))
		p := NewWith(g, All) // the narrowing is not among the Default techniques
		p.Legal(&m)
		if !m.Has(shift) {
			t.Fatalf("%s: 2>1 is not legal", c.name)
		}
		p.Narrow(nil, &m)
		if m.Has(shift) != c.kept {
			t.Errorf("%s: 2>1 kept %v, want %v", c.name, m.Has(shift), c.kept)
		}
		// 9♠ alone into an empty row uncovers 10♥ as well.
		if into := rules.ActEmpty + rules.MaxRun*(rules.NumRows*1+4); m.Has(into) != c.kept {
			t.Errorf("%s: 2>5:1 kept %v, want %v", c.name, m.Has(into), c.kept)
		}
		if !m.Has(rules.ActTurn) {
			t.Errorf("%s: the turn left out", c.name)
		}
	}
}

// TestEachTechniqueKeepsVerdicts is TestKeepsVerdicts for each technique
// alone (NewWith(g, use), the search's own switches on), on the same
// positions: a user who measures the techniques one at a time, or runs
// the default set or every technique, relies on each of them keeping every
// verdict by itself, and not only beside the others, whose cuts could hide
// its error. A technique that left the search unchanged on every position
// would pass without being tested, so each must also change the node count
// of the search without techniques (NewWith(g, 0)) on some position. None
// of the techniques needs another. Shifts narrows only the limited passes
// and Ranking only orders the moves, so neither can turn a verdict (the
// unlimited pass tries every move), but a line they find must still win.
func TestEachTechniqueKeepsVerdicts(t *testing.T) {
	n := solvertest.N(200, 60)
	if *stress > 0 {
		n = *stress
	}
	const nodes = 50000
	plain := solvertest.New(t, solvertest.Plain(nodes, 18))
	search := solvertest.New(t, solver.Options{Nodes: nodes, TableBits: 18})
	rng := cards.NewRand(5)
	games := make([]*rules.Game, n)
	want := make([]solver.Verdict, n)
	none := make([]int64, n) // the nodes of the search without techniques, -1 until searched
	won := 0
	for i := range n {
		games[i] = tiny(rng, i%2 == 1)
		want[i] = plain.Solve(t.Context(), games[i]).Verdict
		none[i] = -1
		if want[i] == solver.Solved {
			won++
		}
	}
	if won < n/2 {
		t.Fatalf("too few positions won: %d of %d", won, n)
	}
	for _, c := range []struct {
		name string
		use  Technique
	}{
		{"safe moves", Safe},
		{"row keys", RowKeys},
		{"turn order", TurnOrder},
		{"shifts", Shifts},
		{"ranking", Ranking},
	} {
		t.Run(c.name, func(t *testing.T) {
			searches := map[string]*solver.Solver{c.name + " alone": search}
			changed := false
			for i, g := range games {
				if want[i] == solver.Unknown {
					continue
				}
				p := NewWith(g, c.use)
				solvertest.Agree(t, fmt.Sprint("position ", i), p, want[i], searches)
				if !changed {
					if none[i] < 0 {
						none[i] = search.Solve(t.Context(), NewWith(g, 0)).Nodes
					}
					changed = search.Solve(t.Context(), p).Nodes != none[i]
				}
			}
			if !changed {
				t.Errorf("the search with %s alone is the search without techniques on all %d positions", c.name, n)
			}
		})
	}
}
