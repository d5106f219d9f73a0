package royalparade

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func cs(s string) []cards.Card { return cards.MustParseList(s) }

// layout builds a position from three rows of eight tokens ("--" empty,
// "5S" a loose card, "[5S]" a base pile with that top card); missing tokens
// are empty cells. Auxiliary piles and the stock start empty.
func layout(t *testing.T, rows ...string) *Game {
	t.Helper()
	g := New()
	for r, row := range rows {
		for c, tok := range strings.Fields(row) {
			if tok == "--" {
				continue
			}
			base := strings.HasPrefix(tok, "[")
			card := cards.MustParse(strings.Trim(tok, "[]"))
			if err := g.SetCell(r*Cols+c, card, base); err != nil {
				t.Fatalf("cell %s: %v", cellName(r*Cols+c), err)
			}
		}
	}
	return g
}

func setAux(t *testing.T, g *Game, p int, s string) {
	t.Helper()
	if err := g.SetAux(p, cs(s)...); err != nil {
		t.Fatal(err)
	}
}

func id(t *testing.T, s string) int { return envtest.Action(t, New(), s) }

// legal returns the names of the legal actions.
func legal(g *Game) []string { return envtest.Legal(g) }

func TestChecker(t *testing.T) {
	envtest.Check(t, "royalparade")
}

// Rule 1: 24 cards in 3 rows of 8, row by row; the other 80 are the stock,
// dealt from deck index 24 on; the auxiliary piles start empty.
func TestRule1Deal(t *testing.T) {
	for _, seed := range []uint64{0, 1, 7, 12345} {
		g := New()
		g.Deal(seed)
		d := cards.Deal(seed)
		for i := range NumCells {
			top, _ := g.Cell(i)
			want := d[i]
			if want.Rank() == cards.Ace {
				want = cards.None
			}
			if top != want {
				t.Errorf("deal %d cell %s = %v, want %v (deck card %d)", seed, cellName(i), top, want, i)
			}
		}
		if !slices.Equal(g.Stock(), d[NumCells:]) {
			t.Errorf("deal %d: the stock is not deck cards 24..103 in order", seed)
		}
		for p := range NumAux {
			if len(g.Aux(p)) != 0 {
				t.Errorf("deal %d: auxiliary pile %d not empty", seed, p+1)
			}
		}
		if g.StockLen() != StockSize {
			t.Errorf("deal %d: stock %d", seed, g.StockLen())
		}
	}
}

// TestDealGolden pins the rectangle and the first deal of deals 0 and 1:
// deck cards 24..31 go onto piles a1..a8 (an ace goes nowhere).
func TestDealGolden(t *testing.T) {
	golden := []struct {
		seed       uint64
		row1, row2 string
		first      string // top of a1..a8 after the first deal
		aces       int
	}{
		{0, "3D 8S JC 6C 4D [2H] 10C 7D", "-- 8D 10D 6C -- KS JH KD", "QC 10D 8C 3H JH 2C -- 9C", 3},
		{1, "6H 7H JC 8C KS 7D 6S 8C", "6C 9C 5C 10H KD JH -- QS", "5S 3S 7S -- 8S 9C 8D 9D", 2},
	}
	for _, gd := range golden {
		g := New()
		g.Deal(gd.seed)
		want := layout(t, gd.row1, gd.row2)
		for i := range 2 * Cols {
			c1, h1 := g.Cell(i)
			c2, h2 := want.Cell(i)
			if c1 != c2 || h1 != h2 {
				t.Errorf("deal %d cell %s = %v/%d, want %v/%d", gd.seed, cellName(i), c1, h1, c2, h2)
			}
		}
		g.Apply(ActDeal)
		for p, c := range cs(gd.first) {
			var top cards.Card
			if a := g.Aux(p); len(a) > 0 {
				top = a[len(a)-1]
			}
			if top != c {
				t.Errorf("deal %d: a%d = %v, want %v", gd.seed, p+1, top, c)
			}
		}
		if g.AcesOut() != gd.aces || g.Progress() != gd.aces {
			t.Errorf("deal %d: %d aces out, progress %d, want %d", gd.seed, g.AcesOut(), g.Progress(), gd.aces)
		}
	}
}

// Rule 2: aces are dead and discarded at once: in the rectangle at the deal
// (leaving a space) and from a deal onto the auxiliary piles. They count as
// progress.
func TestRule2DeadAces(t *testing.T) {
	g := New()
	g.Deal(0) // deck cards 8 and 12 are A♥ A♥: cells r2c1 and r2c5
	for _, i := range []int{8, 12} {
		if c, _ := g.Cell(i); c != cards.None {
			t.Errorf("cell %s holds %v, want the space an ace left", cellName(i), c)
		}
	}
	if g.AcesOut() != 2 || g.Progress() != 2 {
		t.Errorf("aces out %d, progress %d, want 2 and 2", g.AcesOut(), g.Progress())
	}

	g = layout(t)
	setAux(t, g, 1, "9C")
	if err := g.SetStock(cs("AS 5H AS 7C 8C 9C 10C JC")...); err != nil {
		t.Fatal(err)
	}
	g.Apply(ActDeal)
	if !slices.Equal(g.Aux(0), nil) || !slices.Equal(g.Aux(1), cs("9C 5H")) || !slices.Equal(g.Aux(2), nil) {
		t.Errorf("after a deal with two aces: a1 %v a2 %v a3 %v", g.Aux(0), g.Aux(1), g.Aux(2))
	}
	if g.AcesOut() != 2 || g.Progress() != 2 {
		t.Errorf("aces out %d, progress %d, want 2", g.AcesOut(), g.Progress())
	}
	var obs [ObsLen]uint8
	g.Observe(obs[:])
	if obs[ObsAces+int(cards.Spades)] != 2 {
		t.Errorf("observation shows %d dead spade aces, want 2", obs[ObsAces+int(cards.Spades)])
	}
	if err := g.SetCell(0, cards.MustParse("AH"), false); err == nil {
		t.Error("an ace set into the rectangle")
	}
}

// Rule 3: row 1 builds 2-5-8-J, row 2 3-6-9-Q, row 3 4-7-10-K, by threes in
// suit, only on a base in its own row; a finished pile takes nothing; built
// cards never move.
func TestRule3Building(t *testing.T) {
	g := layout(t,
		"[2S] [5S] [JS] 5S -- -- -- --",
		"[3H] [9H] 2S -- -- -- -- --",
		"[4D] [10D] -- -- -- -- -- --")
	tests := []struct {
		card, cell string
		ok         bool
	}{
		{"5S", "r1c1", true}, // 2♠ 5♠
		{"5H", "r1c1", false},
		{"6S", "r1c1", false},
		{"8S", "r1c1", false}, // no skipping
		{"8S", "r1c2", true},  // 2♠ 5♠ 8♠
		{"QS", "r1c3", false}, // complete: J on top
		{"8S", "r1c4", false}, // a loose 5♠ is no base
		{"5S", "r2c3", false}, // a 2♠ out of its row is no base
		{"6H", "r2c1", true},
		{"QH", "r2c2", true},
		{"7D", "r3c1", true},
		{"KD", "r3c2", true},
		{"KH", "r3c2", false},
	}
	for _, tc := range tests {
		setAux(t, g, 0, tc.card)
		if got := envtest.IsLegal(t, g, "a1>"+tc.cell); got != tc.ok {
			t.Errorf("%s on %s: legal=%v, want %v (%v)", tc.card, tc.cell, got, tc.ok, g.Explain(id(t, "a1>"+tc.cell)))
		}
	}
	// Building: the pile grows and completes with its J.
	setAux(t, g, 0, "JS")
	setAux(t, g, 1, "8S")
	g.Apply(id(t, "a2>r1c2"))
	g.Apply(id(t, "a1>r1c2"))
	if top, h := g.Cell(1); top != cards.MustParse("JS") || h != 4 || g.Complete() != 2 || g.Progress() != 8 {
		t.Errorf("after 8♠ J♠ on 5♠: %v height %d, complete %d, progress %d", top, h, g.Complete(), g.Progress())
	}
	// Bases and built cards never move, not even onto an empty cell.
	for _, mv := range []string{"r1c1>r1c5", "r1c2>r1c5", "r3c1>r3c3", "r2c1>r2c4"} {
		if envtest.IsLegal(t, g, mv) {
			t.Errorf("%s: a base pile moved", mv)
		}
	}
}

// Rule 4: a cell is empty, a base pile or a loose card; the observation tells
// a pile from a loose card with the same top.
func TestRule4Cells(t *testing.T) {
	g := layout(t, "[5S] 5S -- 4C", "2S [3D]")
	var obs [ObsLen]uint8
	g.Observe(obs[:])
	five := uint8(cards.MustParse("5S"))
	wantCells := []struct {
		i    int
		card uint8
		h    uint8
	}{
		{0, five, 2},                         // the pile 2♠ 5♠
		{1, five, 0},                         // a loose 5♠
		{2, 0, 0},                            // empty
		{3, uint8(cards.MustParse("4C")), 0}, // a 4 in row 1 is loose
		{8, uint8(cards.MustParse("2S")), 0}, // a 2 in row 2 is loose
		{9, uint8(cards.MustParse("3D")), 1}, // a 3 in row 2 is a base
		{23, 0, 0},                           // empty
	}
	for _, w := range wantCells {
		if obs[ObsCells+w.i] != w.card || obs[ObsHeights+w.i] != w.h {
			t.Errorf("%s: card %d height %d, want %d %d", cellName(w.i), obs[ObsCells+w.i], obs[ObsHeights+w.i], w.card, w.h)
		}
	}
	if err := g.SetCell(0, cards.MustParse("6S"), true); err == nil {
		t.Error("a 6♠ pile accepted in row 1")
	}
	if err := g.SetCell(0, cards.MustParse("2S"), false); err == nil {
		t.Error("a loose 2♠ accepted in row 1")
	}
}

// Rule 5: the available cards are the auxiliary tops and the loose cards;
// cards under an auxiliary top are not.
func TestRule5Available(t *testing.T) {
	g := layout(t, "[2S] -- -- -- -- -- -- 5H", "[3H]", "5S")
	setAux(t, g, 0, "6H 9C") // 6♥ lies under 9♣
	got := legal(g)
	if !slices.Contains(got, "r3c1>r1c1") {
		t.Errorf("loose 5♠ cannot be built on 2♠: legal %v", got)
	}
	if slices.Contains(got, "a1>r2c1") {
		t.Error("6♥ under 9♣ was available")
	}
	if slices.Contains(got, "r1c8>r1c1") {
		t.Error("5♥ went on 2♠")
	}
	g.Apply(id(t, "r3c1>r1c1"))
	if c, _ := g.Cell(16); c != cards.None {
		t.Error("the loose card did not leave its cell")
	}
	if top, h := g.Cell(0); top != cards.MustParse("5S") || h != 2 {
		t.Errorf("r1c1 = %v/%d, want 5♠/2", top, h)
	}
}

// Rule 6: a 2/3/4 goes into an empty cell of its own row; only when its row
// has none, into an empty cell of another row, as a loose card; no other card
// goes into an empty cell. A waiting card may later move to its own row, or
// to another empty cell while its row stays full.
func TestRule6EmptyCells(t *testing.T) {
	full1 := "[2S] [2H] [2D] [2C] 9C 9C 9D 9D"
	tests := []struct {
		name  string
		rows  []string
		aux   string
		moves map[string]bool
	}{
		{"own row first", []string{"[2S] --", "--", "--"}, "2H",
			map[string]bool{"a1>r1c2": true, "a1>r2c1": false, "a1>r3c1": false}},
		{"other rows when own is full", []string{full1, "--", "--"}, "2H",
			map[string]bool{"a1>r2c1": true, "a1>r3c1": true}},
		{"3s and 4s too", []string{"--", "--", "--"}, "4C",
			map[string]bool{"a1>r3c1": true, "a1>r1c1": false, "a1>r2c1": false}},
		{"no other card", []string{"--", "--", "--"}, "5H",
			map[string]bool{"a1>r1c1": false, "a1>r2c1": false, "a1>r3c1": false}},
		{"no other card, KD", []string{"--", "--", "--"}, "KD",
			map[string]bool{"a1>r3c1": false}},
	}
	for _, tc := range tests {
		g := layout(t, tc.rows...)
		setAux(t, g, 0, tc.aux)
		for mv, want := range tc.moves {
			if got := envtest.IsLegal(t, g, mv); got != want {
				t.Errorf("%s: %s legal=%v, want %v (%v)", tc.name, mv, got, want, g.Explain(id(t, mv)))
			}
		}
	}
	// A 2 into its own row becomes a base; into another row it waits loose.
	g := layout(t, "[2S] -- ", "--")
	setAux(t, g, 0, "2H")
	g.Apply(id(t, "a1>r1c2"))
	if _, h := g.Cell(1); h != 1 {
		t.Errorf("2♥ in row 1 has height %d, want a base (1)", h)
	}
	g = layout(t, full1, "--", "-- --")
	setAux(t, g, 0, "2H")
	g.Apply(id(t, "a1>r2c1"))
	if c, h := g.Cell(8); c != cards.MustParse("2H") || h != 0 {
		t.Errorf("r2c1 = %v/%d, want a loose 2♥", c, h)
	}
	// While row 1 is full it may move on to an empty cell of another row
	// (not of its own waiting row: the cells of a row are alike, so that
	// would change nothing); once row 1 has room, only there.
	for mv, want := range map[string]bool{"r2c1>r2c2": false, "r2c1>r3c1": true, "r2c1>r1c1": false} {
		if got := envtest.IsLegal(t, g, mv); got != want {
			t.Errorf("waiting 2♥: %s legal=%v, want %v", mv, got, want)
		}
	}
	if err := g.SetCell(5, cards.None, false); err != nil { // r1c6 empties
		t.Fatal(err)
	}
	for mv, want := range map[string]bool{"r2c1>r1c6": true, "r2c1>r2c2": false, "r2c1>r3c1": false} {
		if got := envtest.IsLegal(t, g, mv); got != want {
			t.Errorf("2♥ with room in row 1: %s legal=%v, want %v", mv, got, want)
		}
	}
	g.Apply(id(t, "r2c1>r1c6"))
	if _, h := g.Cell(5); h != 1 {
		t.Error("the waiting 2♥ did not become a base in row 1")
	}
}

// Rule 7: auxiliary piles show their top only, take nothing, and an emptied
// pile stays empty until the next deal.
func TestRule7AuxPiles(t *testing.T) {
	if _, err := New().ParseActions("r1c1>a1"); err == nil {
		t.Error("a move onto an auxiliary pile parsed")
	}
	g := layout(t, "[2S] [2H]")
	setAux(t, g, 0, "5S")
	setAux(t, g, 1, "9C 5H")
	if err := g.SetStock(cs("7C 8C 9C 10C JC QC KC 6D")...); err != nil {
		t.Fatal(err)
	}
	g.Apply(id(t, "a1>r1c1"))
	if len(g.Aux(0)) != 0 {
		t.Fatal("a1 not emptied")
	}
	for _, s := range legal(g) {
		if strings.HasPrefix(s, "a1>") {
			t.Errorf("move %s from an empty pile", s)
		}
	}
	g.Apply(ActDeal)
	if !slices.Equal(g.Aux(0), cs("7C")) || !slices.Equal(g.Aux(1), cs("9C 5H 8C")) {
		t.Errorf("after the deal: a1 %v a2 %v", g.Aux(0), g.Aux(1))
	}
	// 5♥ is now under 8♣: not available.
	if envtest.IsLegal(t, g, "a2>r1c2") {
		t.Error("5♥ under 8♣ was played")
	}
}

// Rule 8: a deal at any time while the stock lasts, one card onto each pile,
// empty or not, left to right; ten deals in all.
func TestRule8Deal(t *testing.T) {
	g := New()
	g.Deal(3)
	d := cards.Deal(3)
	for k := range Deals {
		if !envtest.IsLegal(t, g, "deal") {
			t.Fatalf("deal %d refused", k+1)
		}
		before := make([]int, NumAux)
		for p := range NumAux {
			before[p] = len(g.Aux(p))
		}
		g.Apply(ActDeal)
		for p := range NumAux {
			c := d[NumCells+NumAux*k+p]
			a := g.Aux(p)
			switch {
			case c.Rank() == cards.Ace:
				if len(a) != before[p] {
					t.Errorf("deal %d: an ace stayed on a%d", k+1, p+1)
				}
			case len(a) != before[p]+1 || a[len(a)-1] != c:
				t.Errorf("deal %d: a%d = %v, want %v on top", k+1, p+1, a, c)
			}
		}
		if g.StockLen() != StockSize-NumAux*(k+1) {
			t.Errorf("deal %d: stock %d", k+1, g.StockLen())
		}
	}
	if envtest.IsLegal(t, g, "deal") {
		t.Error("an eleventh deal")
	}
	if got := g.AcesOut(); got != 8 {
		t.Errorf("after all deals %d aces out, want 8", got)
	}
}

// Rule 9: won when all 24 piles are complete; lost when the stock is empty
// and no move is left. A waiting 2/3/4 that can still change cells keeps the
// game alive.
func TestRule9WinAndLoss(t *testing.T) {
	g := layout(t,
		"[JC] [JC] [JD] [JD] [JH] [JH] [JS] [JS]",
		"[QC] [QC] [QD] [QD] [QH] [QH] [QS] [QS]",
		"[KC] [KC] [KD] [KD] [KH] [KH] [KS] [10S]")
	setAux(t, g, 4, "KS")
	if err := g.SetAces(2, 2, 2, 2); err != nil {
		t.Fatal(err)
	}
	e := env.FromPosition(g, 0, env.Options{})
	if g.Progress() != 23*4+8 {
		t.Fatalf("progress %d", g.Progress())
	}
	_, r, term, _, info, err := e.Step(id(t, "a5>r3c8"))
	if err != nil || !term || info.Outcome != env.Won || r <= 0 || g.Progress() != 104 {
		t.Errorf("last king: err %v terminated %v outcome %v reward %v progress %d", err, term, info.Outcome, r, g.Progress())
	}

	// All piles complete with the last eight cards of the stock all aces:
	// won, and the aces count as removed.
	g.Clear()
	for i := range NumCells {
		r := i / Cols
		if err := g.SetCell(i, cards.New(cards.Suit(i%Cols/2), cards.Rank(11+r)), true); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.SetStock(cs("AC AC AD AD AH AH AS AS")...); err != nil {
		t.Fatal(err)
	}
	if !g.Won() || g.Progress() != 104 {
		t.Errorf("complete piles with aces in the stock: won %v progress %d", g.Won(), g.Progress())
	}

	// Stock empty, nothing fits: lost.
	g = layout(t, "[2S] 9C", "[3H] --", "[4D]")
	setAux(t, g, 0, "6S")
	m := env.NewMask(NumActions)
	g.Legal(&m)
	if !m.Empty() {
		t.Errorf("moves in a dead position: %v", legal(g))
	}
	// With stock left, the deal is a move.
	if err := g.SetStock(cs("7C 8C 9C 10C JC QC KC 6D")...); err != nil {
		t.Fatal(err)
	}
	if got := legal(g); !slices.Equal(got, []string{"deal"}) {
		t.Errorf("legal = %v, want deal only", got)
	}
	// A loose 2 waiting in row 2 while row 1 is full can still move to
	// another row, but not along its own row: with only that, it is lost.
	g = layout(t, "[2S] [2S] [2H] [2H] [2D] [2D] 9C 9C", "2C -- 9H 9H 9H 9H 9H 9H", "9S 9S 9S 9S 9S 9S 9S --")
	if got := legal(g); !slices.Equal(got, []string{"r2c1>r3c8"}) {
		t.Errorf("legal = %v, want the waiting 2♣ to move to row 3", got)
	}
	g = layout(t, "[2S] [2S] [2H] [2H] [2D] [2D] 9C 9C", "2C -- 9H 9H 9H 9H 9H 9H", "9S 9S 9S 9S 9S 9S 9S 9S")
	g.Legal(&m)
	if !m.Empty() {
		t.Errorf("legal = %v, want none: moving along its own row changes nothing", legal(g))
	}
}

// Determinize and the hidden stock: the observation, the mask and the
// evaluation see only the stock size.
func TestHiddenStock(t *testing.T) {
	a, b := New(), New()
	a.Deal(5)
	a.Apply(ActDeal)
	b.CopyFrom(a)
	s := b.Stock()
	slices.Reverse(s)
	b.hash = b.fullHash()
	if a.Hash() == b.Hash() {
		t.Fatal("hash ignores the stock order")
	}
	if !envtest.SameView(a, b) || a.Evaluate() != b.Evaluate() {
		t.Error("states differing only in the stock order look different")
	}
	var oa [ObsLen]uint8
	a.Observe(oa[:])
	if oa[ObsStock] != 72 {
		t.Errorf("stock counter %d, want 72", oa[ObsStock])
	}
	changed := 0
	for seed := range uint64(8) {
		c := a.Clone().(*Game)
		c.Determinize(cards.NewRand(seed))
		if !envtest.SameView(a, c) {
			t.Errorf("seed %d: Determinize changed the observation or the mask", seed)
		}
		if !slices.Equal(c.Stock(), a.Stock()) {
			changed++
		}
		sa, sc := slices.Clone(a.Stock()), slices.Clone(c.Stock())
		cards.Sort(sa)
		cards.Sort(sc)
		if !slices.Equal(sa, sc) {
			t.Errorf("seed %d: Determinize changed the stock's cards", seed)
		}
		if c.Hash() != c.fullHash() {
			t.Errorf("seed %d: hash not updated", seed)
		}
		// From the reversed stock, the same rng gives the same stock.
		d := b.Clone().(*Game)
		d.Determinize(cards.NewRand(seed))
		if !slices.Equal(d.Stock(), c.Stock()) {
			t.Errorf("seed %d: Determinize depends on the order it replaces", seed)
		}
	}
	if changed < 7 {
		t.Errorf("Determinize changed the stock order %d times of 8", changed)
	}
}

func TestHashIncrementalMatchesFull(t *testing.T) {
	envtest.CheckHash(t, "royalparade", 100, (*Game).fullHash)
}

func TestNamesRoundTrip(t *testing.T) {
	g := New()
	// The round trip of every id (so distinct names) is in the checker.
	for s, want := range map[string]string{" A3 > R1C5 ": "a3>r1c5", "DEAL": "deal", "r2c4>r1c1": "r2c4>r1c1"} {
		if ids, err := g.ParseActions(s); err != nil || ActionName(ids[0]) != want {
			t.Errorf("ParseActions(%q) = %v, %v; want %s", s, ids, err, want)
		}
	}
	for _, bad := range []string{"", "deal 2", "a3", "a0>r1c1", "a9>r1c1", "r0c1>r1c1", "r4c1>r1c1",
		"r1c9>r1c1", "r1c0>r1c1", "a1>a2", "r1c1>a1", "x>r1c1", "a1>r1", "a1>c1", "a1>r1c1c1", "15>11"} {
		if _, err := g.ParseActions(bad); err == nil {
			t.Errorf("ParseActions(%q) accepted", bad)
		}
	}
}

func TestExplainMessages(t *testing.T) {
	g := layout(t, "[2S] [JS] 7H -- -- -- -- --", "--", "--")
	setAux(t, g, 0, "5H")
	for mv, part := range map[string]string{
		"a1>r1c1":   "takes only 5♠",
		"a1>r1c4":   "only a 2, 3 or 4",
		"a1>r1c2":   "complete",
		"a1>r1c3":   "loose 7♥",
		"a2>r1c1":   "a2 is empty",
		"r1c1>r1c4": "never move",
		"r1c4>r1c1": "r1c4 is empty",
		"r1c3>r1c3": "its own cell",
		"deal":      "stock is empty",
	} {
		err := g.Explain(id(t, mv))
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("%s: %v, want a message with %q", mv, err, part)
		}
	}
	g = layout(t, "--", "--", "--")
	setAux(t, g, 0, "3H")
	if err := g.Explain(id(t, "a1>r3c1")); err == nil || !strings.Contains(err.Error(), "row 2") {
		t.Errorf("3♥ into row 3: %v", err)
	}
}

func TestRenderShowsCards(t *testing.T) {
	g := layout(t, "[5S] 5S", "", "-- 10D")
	setAux(t, g, 2, "9C KH")
	out := g.Render()
	for _, want := range []string{"[5♠]", " 5♠", "10♦", "a3: 9♣ K♥", "r1 2s", "c8", "Stock 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) >= 100 || strings.HasSuffix(line, " ") {
			t.Errorf("render line too long or with trailing space: %q", line)
		}
	}
}

func TestEvaluatePrefersProgress(t *testing.T) {
	g := layout(t, "[2S] -- 9C", "", "")
	setAux(t, g, 0, "5S")
	setAux(t, g, 1, "KD 2H")
	before := g.Evaluate()
	for _, mv := range []string{"a1>r1c1", "a2>r1c2"} {
		c := g.Clone().(*Game)
		c.Apply(id(t, mv))
		if c.Evaluate() <= before {
			t.Errorf("%s: evaluation %.2f, not above %.2f", mv, c.Evaluate(), before)
		}
	}
}

func TestStepAllocatesNothing(t *testing.T) { envtest.CheckStepAllocs(t, "royalparade", 2000, 9) }

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStep(b, "royalparade") }

func FuzzPlay(f *testing.F)      { envtest.FuzzPlay(f, "royalparade") }
func FuzzMoveNames(f *testing.F) { envtest.FuzzMoveNames(f, "royalparade") }
