package limited

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func cs(s string) []cards.Card { return cards.MustParseList(s) }

// filler is an inert column that pads test positions: a pair that takes
// nothing and whose queen never fits a foundation in these tests.
const filler = "KC +QC"

// position builds a first-deal game from columns given as card lists,
// deepest first; a "+" before a column's last card marks it paired onto the
// card below it ("KS 5H +4H"). Columns not given are filled with inert
// pairs, so the only spaces are the columns given as "".
func position(cols ...string) *Game {
	g := New()
	var lists [][]cards.Card
	var pairs []int
	for len(cols) < NumCols {
		cols = append(cols, filler)
	}
	for i, c := range cols {
		if strings.Contains(c, "+") {
			pairs = append(pairs, i)
			c = strings.ReplaceAll(c, "+", "")
		}
		lists = append(lists, cs(c))
	}
	g.SetColumns(lists...)
	for _, c := range pairs {
		g.SetPaired(c, true)
	}
	return g
}

// legal returns the names of the legal actions.
func legal(g *Game) []string { return envtest.Legal(g) }

func act(t *testing.T, s string) int { return envtest.Action(t, New(), s) }

// play plays the named move, which the rules and the mask must accept, and
// checks the incremental hash after it.
func play(t *testing.T, g *Game, s string) {
	t.Helper()
	envtest.Play(t, g, s)
	if g.Hash() != g.fullHash() {
		t.Fatalf("after %s: incremental hash differs", s)
	}
}

func TestChecker(t *testing.T) {
	rep := envtest.Check(t, "limited")
	if rep.Truncated != 0 {
		t.Errorf("%d games truncated: play should never loop", rep.Truncated)
	}
	t.Log(rep)
}

// The deal is a contract: pin the first places of deals 0 and 1.
func TestGoldenDeal(t *testing.T) {
	tests := []struct {
		seed       uint64
		col1, col2 string // deepest first
		exposed    string // the third row, columns 1..12
		turns      string // the first three stock cards turned
		last       string // the last stock card turned
	}{
		{0, "3D AH QC", "8S KS 10D", "QC 10D 8C 3H JH 2C AC 9C KS KH 4S 7H", "5C 9H 6D", "10H"},
		{1, "6H KD 5S", "7H JH 3S", "5S 3S 7S AC 8S 9C 8D 9D QD 3D 6C 7D", "AS AD AS", "7S"},
	}
	names := func(l []cards.Card) string {
		var out []string
		for _, k := range l {
			out = append(out, k.ASCII())
		}
		return strings.Join(out, " ")
	}
	for _, tc := range tests {
		g := New()
		g.Deal(tc.seed)
		var row []cards.Card
		for c := range NumCols {
			row = append(row, g.Column(c)[2])
		}
		var turned []cards.Card
		for range 3 {
			g.Apply(ActTurn)
			turned = append(turned, g.WasteTop())
		}
		for range StockSize - 3 {
			g.Apply(ActTurn)
		}
		got := []string{names(g.Column(0)), names(g.Column(1)), names(row), names(turned), g.WasteTop().ASCII()}
		want := []string{tc.col1, tc.col2, tc.exposed, tc.turns, tc.last}
		if !slices.Equal(got, want) {
			t.Errorf("deal %d: got %q, want %q", tc.seed, got, want)
		}
	}
}

// Rule 1: 36 cards face up in three rows of 12; the other 68 are the stock,
// turned in deal order.
func TestRule1Deal(t *testing.T) {
	g := New()
	g.Deal(7)
	d := cards.Deal(7)
	for c := range NumCols {
		col := g.Column(c)
		if len(col) != 3 || g.Paired(c) {
			t.Fatalf("column %d: %v paired=%v", c+1, col, g.Paired(c))
		}
		for k, x := range col {
			if x != d[k*NumCols+c] {
				t.Errorf("column %d card %d = %v, want deck card %d", c+1, k+1, x, k*NumCols+c)
			}
		}
	}
	if g.StockCount() != 68 || g.WasteCount() != 0 || g.SecondDeal() || g.Progress() != 0 {
		t.Fatalf("fresh deal: stock %d waste %d second %v progress %d", g.StockCount(), g.WasteCount(), g.SecondDeal(), g.Progress())
	}
	for i := range StockSize {
		g.Apply(ActTurn)
		if g.WasteTop() != d[Dealt+i] {
			t.Fatalf("turn %d shows %v, want deck card %d (%v)", i+1, g.WasteTop(), Dealt+i, d[Dealt+i])
		}
	}
	// The observation shows the columns and nothing of the stock.
	g.Deal(7)
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsColumns+2] != uint8(d[24]) || obs[ObsColumns+3] != 0 || obs[ObsStock] != 68 || obs[ObsWaste] != 0 {
		t.Errorf("observation of column 1 / stock: %v", obs[:Height])
	}
}

// Rule 2: foundations two per suit, ace up in suit; aces in the upper rows
// wait until uncovered.
func TestRule2Foundations(t *testing.T) {
	g := position("AS 2S 7H", "3D AH", "AS", "2H")
	got := legal(g)
	if slices.Contains(got, "1>F") {
		t.Error("7♥ went home on nothing")
	}
	play(t, g, "2>F") // A♥
	play(t, g, "4>F") // 2♥ on A♥
	play(t, g, "3>F") // A♠ starts a spade foundation
	envtest.Refused(t, g, "2>F", "")
	// A♠ and 2♠ lie under 7♥: they wait.
	g2 := position("AS 2S 7H", "8H")
	for _, name := range legal(g2) {
		if strings.HasSuffix(name, ">F") {
			t.Errorf("%s offered with the aces buried", name)
		}
	}
	// The second ace of a suit starts the second foundation.
	g3 := position("AC", "AC", "2C", "2C")
	play(t, g3, "1>F")
	play(t, g3, "2>F")
	play(t, g3, "3>F")
	play(t, g3, "4>F")
	if g3.found[0] != 2 || g3.found[1] != 2 || g3.Progress() != 4 {
		t.Errorf("club foundations %v, progress %d", g3.found[:2], g3.Progress())
	}
}

// Rule 3: the available cards are the exposed unpaired column cards and the
// waste top in the first deal, the privileged cards and a turned fifth card
// in the second; a pair's upper card may only go home.
func TestRule3Available(t *testing.T) {
	g := position("6C 9D", "10D", "5S +4S", "")
	g.SetWaste(cs("8D 3S"))
	g.SetFoundation(cards.Spades, 3, 0)
	got := legal(g)
	want := []string{"1>2", "1>4", "3>F", "w>4", "deal"}
	if !slices.Equal(got, want) {
		t.Errorf("legal = %v, want %v", got, want)
	}
	// 8♦ under the waste top is not available; 6♣ under 9♦ neither.
	envtest.Refused(t, g, "w>1", "")

	// Second deal: privileged cards instead of the waste.
	g2 := position("9D", "10D")
	g2.SetSecondDeal(cs("8D 3S -- --"), nil)
	envtest.Refused(t, g2, "w>1", "")
	play(t, g2, "p1>1")
	if !g2.Paired(0) {
		t.Error("8♦ from the privileged row did not pair")
	}
}

// Rule 4: pairs are the only building; nothing goes on a pair; a pair's
// cards go only home, the upper card first.
func TestRule4Pairs(t *testing.T) {
	tests := []struct {
		src, dst string
		ok       bool
	}{
		{"4S", "5S", true},
		{"4S", "5C", false}, // same colour, other suit
		{"4S", "5H", false},
		{"4S", "6S", false},
		{"5S", "4S", false}, // up is not allowed
		{"QH", "KH", true},
		{"AD", "2D", true},
		{"KD", "AD", false},
	}
	for _, tc := range tests {
		g := position("9C "+tc.src, tc.dst)
		err := g.Explain(act(t, "1>2"))
		if (err == nil) != tc.ok {
			t.Errorf("%s on %s: legal=%v, want %v (%v)", tc.src, tc.dst, err == nil, tc.ok, err)
		}
	}
	g := position("9C 4S", "7H 5S", "3S", "", "QD 3S")
	play(t, g, "1>2")
	if !g.Paired(1) || !slices.Equal(g.Column(1), cs("7H 5S 4S")) {
		t.Fatalf("after 1>2: column 2 %v paired=%v", g.Column(1), g.Paired(1))
	}
	// Nothing goes on the pair, and the pair moves to no column or space.
	envtest.Refused(t, g, "3>2", "")
	envtest.Refused(t, g, "5>2", "")
	envtest.Refused(t, g, "2>4", "")
	envtest.Refused(t, g, "2>1", "")
	// With spades at 4 and 3 both pair cards fit a foundation, but the upper
	// card goes first.
	g.SetFoundation(cards.Spades, 4, 3)
	play(t, g, "2>F")
	if g.Paired(1) || !slices.Equal(g.Column(1), cs("7H 5S")) {
		t.Fatalf("after 2>F: column 2 %v paired=%v", g.Column(1), g.Paired(1))
	}
	// The lower card is an ordinary single card again: it can go to a space.
	play(t, g, "2>4")
	if !slices.Equal(g.Column(3), cs("5S")) || g.Paired(3) {
		t.Errorf("5♠ in the space: %v paired=%v", g.Column(3), g.Paired(3))
	}
	// A column holds at most 3 dealt cards plus one paired card.
	g2 := position("KC QH 6D", "5D")
	play(t, g2, "2>1")
	if len(g2.Column(0)) != Height || !g2.Paired(0) {
		t.Errorf("column of 4: %v", g2.Column(0))
	}
}

// Rule 5: a space takes any single available card; filling is optional.
func TestRule5Spaces(t *testing.T) {
	g := position("2C 9H", "", "JS +10S", "4D")
	g.SetWaste(cs("8H"))
	got := legal(g)
	for _, want := range []string{"1>2", "w>2", "deal"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal = %v, missing %s", got, want)
		}
	}
	envtest.Refused(t, g, "3>2", "") // a paired card
	// [chosen] a card alone in its column does not move to a space.
	envtest.Refused(t, g, "4>2", "")
	// Filling is optional: other moves remain offered beside it (above).
	play(t, g, "1>2")
	if !slices.Equal(g.Column(1), cs("9H")) || g.Paired(1) {
		t.Errorf("space filled: %v paired=%v", g.Column(1), g.Paired(1))
	}
	// A card put into a space can take a pair.
	play(t, g, "w>2")
	if !g.Paired(1) || !slices.Equal(g.Column(1), cs("9H 8H")) {
		t.Errorf("8♥ onto 9♥ in the filled space: %v paired=%v", g.Column(1), g.Paired(1))
	}
}

// Rule 6: the stock is turned one card at a time onto the waste, whose top
// is available; one pass only.
func TestRule6FirstDeal(t *testing.T) {
	g := position("7S", "KH QH")
	g.SetStock(cs("6S 9C"))
	play(t, g, "turn")
	if g.WasteTop() != cards.MustParse("6S") || g.StockCount() != 1 {
		t.Fatalf("after turn: waste top %v stock %d", g.WasteTop(), g.StockCount())
	}
	play(t, g, "w>1")
	play(t, g, "turn")
	if g.WasteTop() != cards.MustParse("9C") || g.StockCount() != 0 || g.WasteCount() != 1 {
		t.Fatalf("after second turn: waste %v/%d stock %d", g.WasteTop(), g.WasteCount(), g.StockCount())
	}
	// One pass: the stock is not made again.
	envtest.Refused(t, g, "turn", "")
	if got := legal(g); !slices.Equal(got, []string{"deal"}) {
		t.Errorf("legal = %v, want only the second deal", got)
	}
}

// Rule 7 [chosen: an explicit move]: once the stock is empty the player may
// start the second deal: the waste turned over without shuffling, the first
// card that went onto it first, its first four cards the privileged row.
func TestRule7SecondDeal(t *testing.T) {
	g := position("KS 10C")
	g.SetStock(cs("9C"))
	g.SetWaste(cs("2D 3D 4D 5D 6D 7D"))
	envtest.Refused(t, g, "deal", "") // the stock is not empty
	play(t, g, "turn")
	// Not automatic: the waste top stays available until the deal.
	if g.SecondDeal() || !slices.Contains(legal(g), "w>1") {
		t.Fatalf("second deal started by itself, legal %v", legal(g))
	}
	play(t, g, "deal")
	if !g.SecondDeal() || g.WasteCount() != 0 || g.PileCount() != 3 {
		t.Fatalf("after deal: second %v waste %d pile %d", g.SecondDeal(), g.WasteCount(), g.PileCount())
	}
	if row := g.PrivilegedRow(); !slices.Equal(row[:], cs("2D 3D 4D 5D")) {
		t.Errorf("privileged row %v, want 2♦ 3♦ 4♦ 5♦", row)
	}
	if got := g.pack[:g.np]; !slices.Equal(got, cs("9C 7D 6D")) { // 6♦ comes next
		t.Errorf("pile %v, want 6♦ 7♦ 9♣ to come in that order", got)
	}
	envtest.Refused(t, g, "deal", "")
	envtest.Refused(t, g, "turn", "")
	// Fewer than four cards: all of them.
	g2 := position("KS QH")
	g2.SetWaste(cs("2D 3D"))
	play(t, g2, "deal")
	if row := g2.PrivilegedRow(); !slices.Equal(row[:], cs("2D 3D -- --")) || g2.PileCount() != 0 {
		t.Errorf("privileged row %v pile %d", row, g2.PileCount())
	}
	// An empty waste gives nothing to deal: not offered.
	g3 := position("KS QH")
	envtest.Refused(t, g3, "deal", "")
}

// Rule 8: a privileged card goes home, pairs onto a column or fills a space;
// its slot is refilled from the pile at once; column moves stay legal.
func TestRule8Privileged(t *testing.T) {
	g := position("9S 3C", "4C", "KH QH", "")
	g.SetFoundation(cards.Hearts, 1, 0)
	g.SetSecondDeal(cs("2H 8S JD 5C"), cs("7D 6D"))
	got := legal(g)
	envtest.Refused(t, g, "p2>1", "") // 9♠ is covered
	for _, want := range []string{"p1>F", "p1>4", "p3>4", "1>2", "1>4", "3>4"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal = %v, missing %s", got, want)
		}
	}
	envtest.Refused(t, g, "p4>2", "") // 5♣ on 4♣ is up, not down
	play(t, g, "p1>F")
	if row := g.PrivilegedRow(); !slices.Equal(row[:], cs("7D 8S JD 5C")) || g.PileCount() != 1 {
		t.Fatalf("after p1>F: row %v pile %d", row, g.PileCount())
	}
	play(t, g, "p3>4") // J♦ fills the space; 6♦ takes slot 3
	if row := g.PrivilegedRow(); !slices.Equal(row[:], cs("7D 8S 6D 5C")) || g.PileCount() != 0 {
		t.Fatalf("after p3>4: row %v pile %d", row, g.PileCount())
	}
	play(t, g, "1>2") // a column move in the second deal
	play(t, g, "p2>1")
	if row := g.PrivilegedRow(); !slices.Equal(row[:], cs("7D -- 6D 5C")) {
		t.Fatalf("after p2>1 with the pile empty: row %v", row)
	}
}

// Rule 9: the fifth card is turned only when no privileged card can be
// played; if it can be played its moves are the only ones; if not, the game
// is lost.
func TestRule9FifthCard(t *testing.T) {
	g := position("9S 3C", "KH QH", "2C")
	g.SetFoundation(cards.Hearts, 2, 0)
	g.SetSecondDeal(cs("5D 6D 7D 8D"), cs("3H 10C"))
	if got := legal(g); !slices.Contains(got, "fifth") || !slices.Contains(got, "3>1") {
		t.Fatalf("legal = %v, want the fifth card and the column move", got)
	}
	play(t, g, "fifth")
	if g.Fifth() != cards.MustParse("3H") || g.PileCount() != 1 {
		t.Fatalf("fifth %v pile %d", g.Fifth(), g.PileCount())
	}
	if got := legal(g); !slices.Equal(got, []string{"5th>F"}) {
		t.Fatalf("with 3♥ turned, legal = %v, want only 5th>F", got)
	}
	envtest.Refused(t, g, "3>1", "")
	envtest.Refused(t, g, "fifth", "")
	play(t, g, "5th>F")
	if g.Fifth() != cards.None || g.PileCount() != 1 || g.Class() != "" {
		t.Fatalf("after 5th>F: fifth %v pile %d class %q", g.Fifth(), g.PileCount(), g.Class())
	}
	if row := g.PrivilegedRow(); !slices.Equal(row[:], cs("5D 6D 7D 8D")) {
		t.Errorf("a played fifth card changed the row: %v", row)
	}
	// Not while a privileged card can move: a space lets every one move.
	g2 := position("9S 3C", "")
	g2.SetSecondDeal(cs("5D 6D 7D 8D"), cs("3H"))
	envtest.Refused(t, g2, "fifth", "")
	// A fifth card that cannot be played loses the game at once.
	e := env.FromPosition(g, 0, env.Options{})
	a := act(t, "fifth")
	_, _, term, _, info, err := e.Step(a)
	if err != nil {
		t.Fatal(err)
	}
	if !term || info.Outcome != env.Lost || info.Class != ClassFifthCard || g.Fifth() != cards.MustParse("10C") {
		t.Errorf("10♣ turned: terminated %v outcome %v class %q fifth %v", term, info.Outcome, info.Class, g.Fifth())
	}
	if !e.Mask().Empty() {
		t.Errorf("moves after rule 9: %v", legal(g))
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsFifth] != uint8(cards.MustParse("10C")) {
		t.Error("the lost fifth card is not shown")
	}
	// A fifth card may also fill a space or pair.
	g3 := position("9S 3C", "4H")
	g3.SetSecondDeal(cs("5D 6D 7D 8D"), cs("3H"))
	play(t, g3, "fifth")
	if got := legal(g3); !slices.Equal(got, []string{"5th>2"}) {
		t.Errorf("legal = %v, want the pair 5th>2", got)
	}
}

// Rule 10: won with all 104 cards home; lost when no move is left.
func TestRule10WinAndLoss(t *testing.T) {
	g := New()
	g.SetColumns(cs("KC"), cs("KC"), cs("KD"), cs("KD"), cs("KH"), cs("KH"), cs("KS"), cs("KS"))
	for s := cards.Suit(0); s < cards.NumSuits; s++ {
		g.SetFoundation(s, cards.Queen, cards.Queen)
	}
	envtest.PlayToWin(t, g, ActMove, ActMove+NumDests, ActMove+2*NumDests, ActMove+3*NumDests,
		ActMove+4*NumDests, ActMove+5*NumDests, ActMove+6*NumDests, ActMove+7*NumDests)
	// No move at all: lost, with no class of its own.
	g2 := position("5S 9H", "2C")
	g2.SetSecondDeal(cs("KD"), nil)
	envtest.CheckLost(t, g2)
	if g2.Class() != "" {
		t.Errorf("dead position: class %q", g2.Class())
	}
}

// Two positions that differ only in hidden cards look the same and offer
// the same moves; Determinize keeps both and changes the hidden order.
func TestHiddenInformation(t *testing.T) {
	a := position("9S 3C", "KH QH")
	a.SetStock(cs("2D 3D 4D 5D"))
	a.SetWaste(cs("6S 7S 8S"))
	b := position("9S 3C", "KH QH")
	b.SetStock(cs("7S 3D 2D 6S"))
	b.SetWaste(cs("5D 4D 8S"))
	same := func(x, y *Game, what string) {
		t.Helper()
		ox, oy := make([]uint8, ObsLen), make([]uint8, ObsLen)
		x.Observe(ox)
		y.Observe(oy)
		mx, my := envtest.Mask(x), envtest.Mask(y)
		if !slices.Equal(ox, oy) || !mx.Equal(&my) {
			t.Errorf("%s: observations or masks differ", what)
		}
	}
	same(a, b, "first deal")
	if a.Hash() == b.Hash() {
		t.Error("different hidden cards, same hash")
	}
	c := position("9S 3C", "KH QH")
	c.SetSecondDeal(cs("2D 3D 4D 5D"), cs("6S 7S 8S"))
	d := position("9S 3C", "KH QH")
	d.SetSecondDeal(cs("2D 3D 4D 5D"), cs("8S 6S 7S"))
	same(c, d, "second deal")

	for _, g := range []*Game{a, c} {
		orig := *g
		changed := 0
		for seed := range uint64(8) {
			x := orig
			x.Determinize(cards.NewRand(seed))
			same(&x, &orig, "determinized")
			if x.Hash() != x.fullHash() {
				t.Error("Determinize left a stale hash")
			}
			if x.Hash() != orig.Hash() {
				changed++
			}
		}
		if changed == 0 {
			t.Error("Determinize never changed the hidden order")
		}
	}
	// The waste top stays; the cards below it are shuffled with the stock.
	g := position("9S")
	g.SetStock(cs("2D 3D 4D"))
	g.SetWaste(cs("6S 7S 8S"))
	moved := false
	for seed := range uint64(16) {
		x := *g
		x.Determinize(cards.NewRand(seed))
		if x.WasteTop() != cards.MustParse("8S") {
			t.Fatal("Determinize moved the waste top")
		}
		if !slices.Equal(x.waste[:2], cs("6S 7S")) {
			moved = true
		}
	}
	if !moved {
		t.Error("the waste below its top was never reshuffled")
	}
}

func TestHashIncrementalMatchesFull(t *testing.T) {
	envtest.CheckHash(t, "limited", 50, (*Game).fullHash)
}

// Play never loops: random games end well within the bound argued in the
// package doc.
func TestStepBound(t *testing.T) {
	e, _ := env.Make("limited", env.Options{})
	rng := cards.NewRand(2)
	longest := 0
	for seed := range uint64(200) {
		e.Reset(seed)
		for !e.Done() {
			e.Advance(e.Mask().Nth(rng.IntN(e.Mask().Count())))
		}
		if e.Outcome() == env.Truncated {
			t.Fatalf("seed %d truncated", seed)
		}
		longest = max(longest, e.Steps())
	}
	if longest > 433 {
		t.Errorf("a game took %d steps, above the bound of 433", longest)
	}
}

func TestNamesRoundTrip(t *testing.T) {
	g := New()
	// The round trip of every id is in the checker.
	for s, want := range map[string]string{" W > 7 ": "w>7", "P2>f": "p2>F", "5TH>f": "5th>F", "Turn": "turn", "12 > 1": "12>1"} {
		ids, err := g.ParseActions(s)
		if err != nil || len(ids) != 1 || ActionName(ids[0]) != want {
			t.Errorf("ParseActions(%q) = %v, %v; want %s", s, ids, err, want)
		}
	}
	for _, bad := range []string{"", "7", "0>F", "13>F", "7>13", "7>0", "7>X", "p0>F", "p5>1", "p>1", "w", "x>F", "6th>F", "w>w", "turn 2"} {
		if _, err := g.ParseActions(bad); err == nil {
			t.Errorf("ParseActions(%q) accepted", bad)
		}
	}
}

func TestRender(t *testing.T) {
	g := position("KS 2H 10D", "5S +4S")
	g.SetWaste(cs("7C"))
	out := g.Render()
	for _, want := range []string{"K♠", "10♦", "+4♠", "first deal", "Waste (w): 7♣", "  12", "row3"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	g.SetSecondDeal(cs("2D -- 4D 5D"), cs("9H"))
	out = g.Render()
	for _, want := range []string{"second deal", "p1  2♦", "p2  --", "pile 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n >= 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStep(b, "limited") }

func FuzzPlay(f *testing.F)      { envtest.FuzzPlay(f, "limited") }
func FuzzMoveNames(f *testing.F) { envtest.FuzzMoveNames(f, "limited") }
