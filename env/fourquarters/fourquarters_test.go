package fourquarters

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// pos builds a position from cell assignments such as "N1=7S N3=7H" and a
// stock list, the next card to be drawn first. The removed cards are the rest
// of the double deck.
func pos(t *testing.T, layout, stock string) *Game {
	t.Helper()
	var cells [NumCells]cards.Card
	for _, f := range strings.Fields(layout) {
		name, card, ok := strings.Cut(f, "=")
		i, err := ParseCell(name)
		if !ok || err != nil {
			t.Fatalf("bad cell assignment %q: %v", f, err)
		}
		cells[i] = cards.MustParse(card)
	}
	g := New()
	g.Setup(cells, cards.MustParseList(stock))
	return g
}

// legal returns the names of the legal actions.
func legal(g *Game) []string { return envtest.Legal(g) }

func id(t *testing.T, s string) int { return envtest.Action(t, New(), s) }

// play plays the named move, which the rules and the mask must accept.
func play(t *testing.T, g *Game, s string) { envtest.Play(t, g, s) }

// cellsAre checks cell contents given as "N1=2S N2=--".
func cellsAre(t *testing.T, g *Game, want string) {
	t.Helper()
	for _, f := range strings.Fields(want) {
		name, card, _ := strings.Cut(f, "=")
		i, err := ParseCell(name)
		if err != nil {
			t.Fatal(err)
		}
		w := cards.None
		if card != "--" {
			w = cards.MustParse(card)
		}
		if g.cells[i] != w {
			t.Errorf("%s = %v, want %v", name, g.cells[i], w)
		}
	}
}

func cell(t *testing.T, name string) int {
	t.Helper()
	i, err := ParseCell(name)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func TestChecker(t *testing.T) {
	rep := envtest.Check(t, "fourquarters")
	if rep.Truncated != 0 {
		t.Errorf("%d games truncated: a game has at most 104 steps", rep.Truncated)
	}
}

// Geometry [chosen]: four arms of 2 files x 6 cells around a 2x2 hub on a
// 14x14 grid, cells numbered in deal order, the lower file (smaller column in
// N and S, smaller row in E and W) first.
func TestGeometry(t *testing.T) {
	where := map[string][2]int{
		"N1": {5, 6}, "N2": {5, 7}, "N3": {4, 6}, "N4": {4, 7}, "N11": {0, 6}, "N12": {0, 7},
		"E1": {6, 8}, "E2": {7, 8}, "E3": {6, 9}, "E12": {7, 13},
		"S1": {8, 6}, "S2": {8, 7}, "S3": {9, 6}, "S12": {13, 7},
		"W1": {6, 5}, "W2": {7, 5}, "W3": {6, 4}, "W12": {7, 0},
	}
	for name, rc := range where {
		r, c := CellPos(cell(t, name))
		if r != rc[0] || c != rc[1] {
			t.Errorf("%s at (%d,%d), want (%d,%d)", name, r, c, rc[0], rc[1])
		}
		if CellAt(rc[0], rc[1]) != cell(t, name) {
			t.Errorf("CellAt(%d,%d) is not %s", rc[0], rc[1], name)
		}
	}
	// The 48 cells fill exactly the cross: the hub and the grid's corners are
	// empty.
	n := 0
	for r := range GridSize {
		for c := range GridSize {
			inArm := (r < 6 || r > 7) && (c == 6 || c == 7) || (c < 6 || c > 7) && (r == 6 || r == 7)
			if got := CellAt(r, c) >= 0; got != inArm {
				t.Errorf("(%d,%d): cell %v, want %v", r, c, got, inArm)
			}
			if inArm {
				n++
			}
		}
	}
	if n != NumCells {
		t.Fatalf("%d cells on the grid", n)
	}
	// 26 touching pairs per arm: 10 along the files, 6 across, 10 diagonal.
	for a := range NumArms {
		var along, across, diag int
		for p := a * ArmPairs; p < (a+1)*ArmPairs; p++ {
			i, j := PairCells(p)
			if i/ArmCells != a || j/ArmCells != a || i >= j {
				t.Fatalf("pair %d: cells %s %s", p, CellName(i), CellName(j))
			}
			di, dj := i%ArmCells/2, j%ArmCells/2
			switch {
			case di == dj:
				across++
			case i%2 == j%2:
				along++
			default:
				diag++
			}
		}
		if along != 10 || across != 6 || diag != 10 {
			t.Errorf("arm %c: %d along, %d across, %d diagonal", armLetters[a], along, across, diag)
		}
	}
	// Pair ids are ordered by (first cell, second cell) within an arm.
	want := []string{"N1-N2", "N1-N3", "N1-N4", "N2-N3", "N2-N4", "N3-N4", "N3-N5"}
	for k, w := range want {
		if ActionName(k) != w {
			t.Errorf("action %d = %s, want %s", k, ActionName(k), w)
		}
	}
	if ActionName(25) != "N11-N12" || ActionName(26) != "E1-E2" || ActionName(103) != "W11-W12" || ActionName(104) != "close" {
		t.Errorf("range ends: %s %s %s %s", ActionName(25), ActionName(26), ActionName(103), ActionName(104))
	}
	// Arms touch one another only diagonally at the four inner corners.
	var corners []string
	for i := range NumCells {
		for j := i + 1; j < NumCells; j++ {
			if i/ArmCells != j/ArmCells && touch(i, j) {
				corners = append(corners, CellName(i)+"-"+CellName(j))
				ri, ci := CellPos(i)
				rj, cj := CellPos(j)
				if ri == rj || ci == cj {
					t.Errorf("%s and %s touch by a side", CellName(i), CellName(j))
				}
			}
		}
	}
	slices.Sort(corners)
	if want := []string{"E2-S2", "N1-W1", "N2-E1", "S1-W2"}; !slices.Equal(corners, want) {
		t.Errorf("cross-arm touching cells = %v, want %v", corners, want)
	}
}

// Rule 1: 48 cards dealt face up into the cells in cell order; the other 56
// form the stock, drawn in deal order.
func TestRule1Deal(t *testing.T) {
	g := New()
	g.Deal(7)
	d := cards.Deal(7)
	for i, c := range g.Cells() {
		if c != d[i] {
			t.Errorf("%s = %v, want deal card %d (%v)", CellName(i), c, i, d[i])
		}
	}
	if g.StockLeft() != StockSize || g.Progress() != 0 || g.Won() || g.Class() != "" {
		t.Fatalf("fresh deal: stock %d, progress %d, won %v, class %q", g.StockLeft(), g.Progress(), g.Won(), g.Class())
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	for i := range NumCells {
		if obs[ObsCells+i] != uint8(d[i]) {
			t.Fatalf("observation cell %d = %d, want %d", i, obs[ObsCells+i], d[i])
		}
	}
	if obs[ObsStock] != StockSize {
		t.Errorf("observed stock %d", obs[ObsStock])
	}
	for k := range 52 {
		if obs[ObsRemoved+k] != 0 {
			t.Fatalf("removed counter %d = %d on a fresh deal", k, obs[ObsRemoved+k])
		}
	}
	// The stock is drawn from deal card 48 up: remove a pair, close up, and
	// deal cards 48 and 49 fill the two cells left empty at the outer ends
	// of the files, in cell order.
	p := firstPair(t, g)
	i, j := PairCells(p)
	g.Apply(p)
	g.Apply(ActClose)
	outer := func(k int) int { return k/ArmCells*ArmCells + 10 + k%2 } // d = 5 of k's file
	e1, e2 := outer(i), outer(j)
	if e1 == e2 { // one file: its two outermost cells
		e1 -= 2
	}
	e1, e2 = min(e1, e2), max(e1, e2)
	if g.cells[e1] != d[48] || g.cells[e2] != d[49] || g.StockLeft() != StockSize-2 {
		t.Errorf("after %s and close: %s = %v, %s = %v, stock %d; want deal cards 48 and 49 (%v %v)",
			ActionName(p), CellName(e1), g.cells[e1], CellName(e2), g.cells[e2], g.StockLeft(), d[48], d[49])
	}
}

// Golden deals: the first places of deals 0 and 1 are pinned.
func TestGoldenDeal(t *testing.T) {
	golden := []struct {
		seed  uint64
		cells string
		stock string // first two stock cards
	}{
		{0, "N1=3D N2=8S N3=JC N4=6C N12=6C E1=AH E2=KS S1=QC S2=10D W1=5C W2=9H W12=8H", "4C 9H"},
		{1, "N1=6H N2=7H N3=JC N4=8C N12=10H E1=KD E2=JH S1=5S S2=3S W1=AS W2=AD W12=5D", "2D 3S"},
	}
	for _, gd := range golden {
		g := New()
		g.Deal(gd.seed)
		cellsAre(t, g, gd.cells)
		if want := cards.MustParseList(gd.stock); g.stock[0] != want[0] || g.stock[1] != want[1] {
			t.Errorf("deal %d: stock starts %v %v, want %v", gd.seed, g.stock[0], g.stock[1], want)
		}
	}
}

// Rule 2: a pair is two cards of equal rank, any suits, in the same arm,
// touching by a side or a corner; both leave play.
func TestRule2Pairs(t *testing.T) {
	tests := []struct {
		name   string
		layout string
		move   string
		ok     bool
		why    string
	}{
		{"along a file", "N1=7S N3=7H", "N1-N3", true, ""},
		{"across the files", "E5=QC E6=QD", "E5-E6", true, ""},
		{"diagonal", "S7=2H S10=2S", "S7-S10", true, ""},
		{"other diagonal", "W4=KC W5=KH", "W4-W5", true, ""},
		{"identical cards", "N11=AS N12=AS", "N11-N12", true, ""},
		{"different ranks", "N1=7S N2=8S", "N1-N2", false, "differ in rank"},
		{"same suit next rank", "E1=9H E3=10H", "E1-E3", false, "differ in rank"},
		{"one cell empty", "N1=7S", "N1-N2", false, "N2 is empty"},
		{"both empty", "N1=7S", "N3-N4", false, "both empty"},
	}
	for _, tc := range tests {
		g := pos(t, tc.layout, "")
		err := g.Explain(id(t, tc.move))
		if (err == nil) != tc.ok || err != nil && !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: %s legal=%v (%v), want %v %q", tc.name, tc.move, err == nil, err, tc.ok, tc.why)
		}
		if got := slices.Contains(legal(g), tc.move); got != tc.ok {
			t.Errorf("%s: %s in mask = %v", tc.name, tc.move, got)
		}
	}

	// Cards two steps apart do not touch: no action names them, none is legal.
	g := pos(t, "N1=7S N3=3C N5=7H N2=4D", "")
	if got := legal(g); len(got) != 0 {
		t.Errorf("legal = %v with no touching pair", got)
	}
	if _, err := g.ParseActions("N1-N5"); err == nil {
		t.Error("N1-N5 parsed: they do not touch")
	}

	// Removing a pair takes both cards out of play and counts them.
	g = pos(t, "N1=7S N3=7H N2=5D", "")
	before := g.Progress()
	play(t, g, "N3-N1")
	cellsAre(t, g, "N1=-- N3=-- N2=5D")
	if g.Progress() != before+2 {
		t.Errorf("progress %d, want %d", g.Progress(), before+2)
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsRemoved+int(cards.MustParse("7S"))-1] != 2 || obs[ObsRemoved+int(cards.MustParse("5D"))-1] != 1 {
		t.Errorf("removed counters: 7♠ %d, 5♦ %d", obs[ObsRemoved+int(cards.MustParse("7S"))-1], obs[ObsRemoved+int(cards.MustParse("5D"))-1])
	}
}

// Rule 2: cells of two arms touching at an inner corner never pair.
func TestRule2InnerCornersNeverPair(t *testing.T) {
	for _, c := range [][2]string{{"N1", "W1"}, {"N2", "E1"}, {"S1", "W2"}, {"S2", "E2"}} {
		a, b := cell(t, c[0]), cell(t, c[1])
		if !touch(a, b) {
			t.Fatalf("%s and %s do not touch on the grid", c[0], c[1])
		}
		g := pos(t, c[0]+"=9C "+c[1]+"=9D", "")
		if got := legal(g); len(got) != 0 {
			t.Errorf("%s=9♣ %s=9♦: legal = %v, want nothing", c[0], c[1], got)
		}
		if _, err := g.ParseActions(c[0] + "-" + c[1]); err == nil || !strings.Contains(err.Error(), "different arms") {
			t.Errorf("%s-%s: parse error %v, want different arms", c[0], c[1], err)
		}
	}
}

// Rule 2: when three or more equal cards touch, the player chooses the pair.
func TestRule2ThreeTouching(t *testing.T) {
	g := pos(t, "N1=4S N2=4H N3=4C N4=9D", "")
	want := []string{"N1-N2", "N1-N3", "N2-N3"}
	if got := legal(g); !slices.Equal(got, want) {
		t.Fatalf("legal = %v, want %v", got, want)
	}
	play(t, g, "N2-N3")
	cellsAre(t, g, "N1=4S N2=-- N3=--")
	if got := legal(g); !slices.Equal(got, []string{"close"}) {
		t.Errorf("legal after the pair = %v, want only close (N4 slides)", got)
	}
}

// The mask agrees with the rules' own check on crowded random positions:
// few ranks (many pairs, triples) and many holes.
func TestLegalMatchesExplainDense(t *testing.T) {
	rng := cards.NewRand(9)
	m := env.NewMask(NumActions)
	for n := range 3000 {
		var cells [NumCells]cards.Card
		for i := range cells {
			if rng.IntN(3) > 0 {
				cells[i] = cards.New(cards.Suit(rng.IntN(4)), cards.Rank(1+rng.IntN(3)))
			}
		}
		g := New()
		g.Setup(cells, make([]cards.Card, 0))
		if n%2 == 0 {
			g.Setup(cells, cards.MustParseList("KC"))
		}
		g.Legal(&m)
		for a := range NumActions {
			if why := g.Explain(a); m.Has(a) != (why == nil) {
				t.Fatalf("position %d, %s: in mask %v, rules say %v\n%s", n, ActionName(a), m.Has(a), why, g.Render())
			}
		}
	}
}

// Rule 3: close up slides every file toward the hub keeping its order, then
// fills the empty cells in cell order from the stock while it lasts.
func TestRule3CloseUp(t *testing.T) {
	// N file 0: N1 empty, N3=2S, N5 empty, N7=3S, N9=4S; file 1: N2=5H,
	// N4 empty, N6=6H. Every other arm full but E5 (a hole inside a file).
	layout := "N3=2S N7=3S N9=4S N2=5H N6=6H"
	for a := 1; a < NumArms; a++ {
		for k := range ArmCells {
			name := CellName(a*ArmCells + k)
			if name == "E5" {
				continue
			}
			layout += " " + name + "=" + [...]string{"AC", "2D", "3C", "4D", "5C", "6D", "7C", "8D", "9C", "10D", "JC", "QD"}[k]
		}
	}
	g := pos(t, layout, "KC KD KH")
	if !slices.Contains(legal(g), "close") {
		t.Fatal("close not offered")
	}
	progress := g.Progress()
	play(t, g, "close")
	// Slid: N file 0 holds 2S 3S 4S from the hub, file 1 5H 6H; in E file 0
	// the cards beyond the hole at E5 move one step in. The three stock
	// cards refill the first empty cells in cell order: N6 (d 2, file 1),
	// N7, N8; E11 and the rest stay empty.
	cellsAre(t, g, "N1=2S N3=3S N5=4S N2=5H N4=6H N6=KC N7=KD N8=KH N9=-- N10=-- N11=-- N12=--")
	cellsAre(t, g, "E1=AC E3=3C E5=7C E7=9C E9=JC E11=--")
	if g.StockLeft() != 0 || g.Progress() != progress {
		t.Errorf("stock %d progress %d", g.StockLeft(), g.Progress())
	}
	// Nothing left to change: packed files and an empty stock.
	if err := g.Explain(ActClose); err == nil {
		t.Error("close offered again with nothing to change")
	}

	// The stock lasting: every empty cell is refilled, in cell order across
	// arms, the stock's next card first.
	g = pos(t, full("N5 E12 S1 W7"), "2C 3C 4C 5C 6C")
	play(t, g, "close")
	// Holes in file 0 of N, S and W leave d = 5 of that file empty (N11,
	// S11, W11); E12 is itself at d = 5.
	cellsAre(t, g, "N11=2C E12=3C S11=4C W11=5C N5=7C S1=3H W7=9S")
	if g.StockLeft() != 1 || g.stock[g.next] != cards.MustParse("6C") {
		t.Errorf("stock left %d, next %v", g.StockLeft(), g.stock[g.next])
	}
	if err := g.Explain(ActClose); err == nil || !strings.Contains(err.Error(), "every cell holds a card") {
		t.Errorf("close on a full cross: %v", err)
	}
}

// full returns a layout with every cell holding a card except the named
// ones; no two touching cells of an arm share a rank.
func full(holes string) string {
	skip := strings.Fields(holes)
	var sb strings.Builder
	for i := range NumCells {
		if slices.Contains(skip, CellName(i)) {
			continue
		}
		// Rank (i%12)+1 in each arm: all twelve cells of an arm differ.
		c := cards.New(cards.Suit(i/ArmCells), cards.Rank(i%ArmCells+1))
		sb.WriteString(" " + CellName(i) + "=" + c.ASCII())
	}
	return sb.String()
}

// Rule 3: close up is offered only when it would change something.
func TestRule3OfferedOnlyWhenItChangesSomething(t *testing.T) {
	tests := []struct {
		name   string
		layout string
		stock  string
		ok     bool
	}{
		{"full cross, stock left", full(""), "KC", false},
		{"full cross, stock empty", full(""), "", false},
		{"packed files, stock empty", "N1=2S N3=3S E1=4S E2=5D", "", false},
		{"a gap, stock empty", "N1=2S N5=3S", "", true},
		{"a gap in file 1 only", "N1=2S N2=6D N6=3S", "", true},
		{"packed, an empty cell and stock", "N1=2S", "KC", true},
		{"empty cross, stock left", "", "KC", true},
	}
	for _, tc := range tests {
		g := pos(t, tc.layout, tc.stock)
		err := g.Explain(ActClose)
		if (err == nil) != tc.ok {
			t.Errorf("%s: close legal=%v (%v), want %v", tc.name, err == nil, err, tc.ok)
		}
		if got := slices.Contains(legal(g), "close"); got != tc.ok {
			t.Errorf("%s: close in mask = %v", tc.name, got)
		}
	}
	// A close-up with the stock empty only slides.
	g := pos(t, "N1=2S N5=3S N6=4H", "")
	play(t, g, "close")
	cellsAre(t, g, "N1=2S N3=3S N5=-- N2=4H N6=--")
}

// Rule 3 and the step bound: after a close-up nothing is left for another
// close-up until a pair is removed, so a dealt game lasts at most 104 steps.
func TestCloseUpThenPairAlternate(t *testing.T) {
	e, _ := env.Make("fourquarters", env.Options{})
	rng := cards.NewRand(3)
	for seed := uint64(0); seed < 300; seed++ {
		e.Reset(seed)
		prevClose := true // the deal is a full cross: no close-up yet
		for !e.Done() {
			if e.Mask().Has(ActClose) && prevClose {
				t.Fatalf("deal %d step %d: close-up offered twice without a pair", seed, e.Steps())
			}
			a := e.Mask().Nth(rng.IntN(e.Mask().Count()))
			prevClose = a == ActClose
			if _, _, _, err := e.Advance(a); err != nil {
				t.Fatal(err)
			}
		}
		if e.Steps() > 104 || e.Outcome() == env.Truncated {
			t.Fatalf("deal %d: %d steps, outcome %v", seed, e.Steps(), e.Outcome())
		}
	}
}

// Rule 4: after the stock is gone play goes on with pairs and closing up
// until nothing changes.
func TestRule4AfterTheStock(t *testing.T) {
	g := pos(t, "N1=5S N5=5H E1=8C E2=JD", "")
	if got := legal(g); !slices.Equal(got, []string{"close"}) {
		t.Fatalf("legal = %v, want close", got)
	}
	play(t, g, "close")
	if got := legal(g); !slices.Equal(got, []string{"N1-N3"}) {
		t.Fatalf("after closing up: legal = %v, want N1-N3", got)
	}
	play(t, g, "N1-N3")
	if got := legal(g); len(got) != 0 {
		t.Fatalf("nothing should change any more: legal = %v", got)
	}
}

// Rule 5: no cards left is a first-class win (the only Won); 2 or 4 left
// with nothing to change is a second-class win; more is lost.
func TestRule5Result(t *testing.T) {
	// First-class: the last pair.
	g := pos(t, "S1=QH S4=QS", "")
	e := env.FromPosition(g, 0, env.Options{})
	_, r, term, _, info, err := e.Step(id(t, "S1-S4"))
	if err != nil || !term || info.Outcome != env.Won || r < 2.0/104-1e-9 || r > 2.0/104+1e-9 {
		t.Fatalf("last pair: err %v, terminated %v, outcome %v, reward %v", err, term, info.Outcome, r)
	}
	if !g.Won() || g.Class() != "first-class" || g.Progress() != 104 || info.Class != "first-class" {
		t.Errorf("won %v class %q progress %d", g.Won(), g.Class(), g.Progress())
	}

	tests := []struct {
		name, layout, stock string
		class               string
		over                bool
	}{
		{"two left", "N1=3C E1=4C", "", "second-class", true},
		{"two in one file", "W1=3C W3=4C", "", "second-class", true},
		{"four left", "N1=3C E2=4C S1=5C W1=3D", "", "second-class", true},
		{"six left", "N1=3C N2=4C E1=5C E2=6C S1=7C W1=8C", "", "", true},
		{"four left, a pair to take", "N1=3C N2=3D S1=5C W1=8C", "", "", false},
		{"four left, a gap to close", "N1=3C N5=4D S1=5C W1=8C", "", "", false},
		{"two on the cross, two in the stock", "N1=3C E1=4C", "5C 6C", "", false},
	}
	for _, tc := range tests {
		g := pos(t, tc.layout, tc.stock)
		e := env.FromPosition(g, 0, env.Options{})
		if g.Class() != tc.class || g.Won() || e.Done() != tc.over {
			t.Errorf("%s: class %q won %v over %v, want %q false %v", tc.name, g.Class(), g.Won(), e.Done(), tc.class, tc.over)
		}
		if tc.over && e.Outcome() != env.Lost {
			t.Errorf("%s: outcome %v, want lost (only a first-class win is Won)", tc.name, e.Outcome())
		}
		if e.Info().Class != tc.class {
			t.Errorf("%s: info class %q", tc.name, e.Info().Class)
		}
	}
}

// Progress counts removed cards.
func TestProgressCountsRemoved(t *testing.T) {
	g := New()
	g.Deal(0)
	for p := range NumPairs {
		if g.pairOK(p) {
			g.Apply(p)
			break
		}
	}
	on := 0
	for _, c := range g.Cells() {
		if c != cards.None {
			on++
		}
	}
	if g.Progress() != 2 || g.Progress() != cards.DeckSize-on-g.StockLeft() {
		t.Errorf("progress %d with %d on the cross and %d in the stock", g.Progress(), on, g.StockLeft())
	}
}

// Hidden information: the stock order is not in the observation or the mask,
// and Determinize reshuffles only it.
func TestHiddenStock(t *testing.T) {
	base := New()
	base.Deal(11)
	base.Apply(firstPair(t, base))
	twin := base.Clone().(*Game)
	// Reverse the twin's stock: a state that differs only in hidden cards.
	s := twin.stock[twin.next:]
	slices.Reverse(s)
	twin.hash = twin.fullHash()
	if twin.Hash() == base.Hash() {
		t.Fatal("hash ignores the stock order")
	}
	if !envtest.SameView(base, twin) || base.Evaluate() != twin.Evaluate() {
		t.Fatal("states differing only in the stock order look different")
	}
	changed := 0
	for seed := range uint64(8) {
		d := base.Clone().(*Game)
		d.Determinize(cards.NewRand(seed))
		if !envtest.SameView(base, d) {
			t.Fatalf("seed %d: Determinize changed the observation or the mask", seed)
		}
		if d.stock != base.stock {
			changed++
		}
		a, b := slices.Clone(d.stock[d.next:]), slices.Clone(base.stock[base.next:])
		cards.Sort(a)
		cards.Sort(b)
		if !slices.Equal(a, b) || d.cells != base.cells {
			t.Fatalf("seed %d: Determinize changed which cards are hidden or the cross", seed)
		}
		// The same rng from the twin's order gives the same stock.
		dt := twin.Clone().(*Game)
		dt.Determinize(cards.NewRand(seed))
		if dt.stock != d.stock || dt.Hash() != d.Hash() || d.Hash() != d.fullHash() {
			t.Fatalf("seed %d: Determinize depends on the order it replaces", seed)
		}
	}
	if changed < 7 {
		t.Errorf("Determinize changed the stock order in only %d of 8 seeds", changed)
	}
}

func firstPair(t *testing.T, g *Game) int {
	t.Helper()
	for p := range NumPairs {
		if g.pairOK(p) {
			return p
		}
	}
	t.Fatal("no pair")
	return 0
}

func TestNamesRoundTrip(t *testing.T) {
	g := New()
	// The round trip of every id (so distinct names) is in the checker.
	for s, want := range map[string]string{
		"N3 N4": "N3-N4", "n4-n3": "N3-N4", "N3,N4": "N3-N4", "N3-4": "N3-N4", " w12  w11 ": "W11-W12",
		"e1 - e4": "E1-E4", "close": "close", "Close Up": "close", "close-up": "close",
	} {
		ids, err := g.ParseActions(s)
		if err != nil || len(ids) != 1 || ActionName(ids[0]) != want {
			t.Errorf("ParseActions(%q) = %v, %v; want %s", s, ids, err, want)
		}
	}
	for _, bad := range []string{"", "N1", "N0-N1", "N12-N13", "X1-X2", "N1-W1", "N1-N5", "N1-N1", "N1 N2 N3", "closer", "N-N2", "1-2", "NN-N2"} {
		if ids, err := g.ParseActions(bad); err == nil {
			t.Errorf("ParseActions(%q) = %v, want an error", bad, ids)
		}
	}
	for i := range NumCells {
		if j, err := ParseCell(CellName(i)); err != nil || j != i {
			t.Fatalf("cell %d named %s parses to %d, %v", i, CellName(i), j, err)
		}
	}
}

func TestHashIncrementalMatchesFull(t *testing.T) {
	envtest.CheckHash(t, "fourquarters", 100, (*Game).fullHash)
}

func TestRenderShowsCross(t *testing.T) {
	g := pos(t, "N1=KS N12=2H E1=10D W12=QC S2=AH", "5C 6C")
	out := g.Render()
	for _, want := range []string{"K♠", "2♥", "10♦", "Q♣", "A♥", "stock 2", "N11 N12", "W12", "E11", "S1  S2", "··"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n >= 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	if !strings.Contains(pos(t, "N1=3C E1=4C", "").Render(), "second-class win") {
		t.Error("render of a finished second-class game does not say so")
	}
}

func TestEvaluate(t *testing.T) {
	// A pair available scores above the same cards apart, and removing it
	// scores higher still.
	apart := pos(t, "N1=7S N7=7H", "")
	near := pos(t, "N1=7S N3=7H", "")
	if !(near.Evaluate() > apart.Evaluate()) {
		t.Errorf("touching pair %v not above apart %v", near.Evaluate(), apart.Evaluate())
	}
	before := near.Evaluate()
	play(t, near, "N1-N3")
	if !(near.Evaluate() > before) {
		t.Errorf("after the pair %v, before %v", near.Evaluate(), before)
	}
	// Cards that closing up brings together count.
	slides := pos(t, "N1=7S N5=7H N2=4D", "")
	stays := pos(t, "N1=7S N3=4D N5=7H", "")
	if !(slides.Evaluate() > stays.Evaluate()) {
		t.Errorf("a pair that closing up joins %v, a pair kept apart %v", slides.Evaluate(), stays.Evaluate())
	}
}

func TestHotPathDoesNotAllocate(t *testing.T) {
	g := New()
	g.Deal(5)
	m := env.NewMask(NumActions)
	obs := make([]uint8, ObsLen)
	c := New()
	n := testing.AllocsPerRun(100, func() {
		c.CopyFrom(g)
		c.Legal(&m)
		c.Observe(obs)
		_ = c.Evaluate() + float64(c.Progress())
		_ = c.Class()
		_ = c.Won()
		_ = c.Hash()
		if a := m.Next(0); a >= 0 {
			c.Apply(a)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per step", n)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStep(b, "fourquarters") }

func FuzzPlay(f *testing.F)      { envtest.FuzzPlay(f, "fourquarters") }
func FuzzMoveNames(f *testing.F) { envtest.FuzzMoveNames(f, "fourquarters") }
