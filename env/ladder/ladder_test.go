package ladder

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func cs(s string) []cards.Card { return cards.MustParseList(s) }

// position builds a game from rows given as card lists, inner end first; the
// ladder, stock, waste and foundations are empty, and so are the rows not
// given. Tests that list every legal move fill the rows they do not use with
// "KD": a locked king nothing in them goes on.
func position(rows ...string) *Game {
	g := New()
	g.SetRows(envtest.CardLists(rows...)...)
	return g
}

// legal returns the names of the legal actions.
func legal(g *Game) []string { return envtest.Legal(g) }

func id(t *testing.T, s string) int { return envtest.Action(t, New(), s) }

// play plays the named move, which the rules and the mask must accept.
func play(t *testing.T, g *Game, s string) { envtest.Play(t, g, s) }

func rowIs(t *testing.T, g *Game, r int, want string) {
	t.Helper()
	if got := g.Row(r - 1); !slices.Equal(got, cs(want)) {
		t.Errorf("row %d = %v, want %v", r, got, cs(want))
	}
}

func TestChecker(t *testing.T) {
	rep := envtest.Check(t, "ladder")
	if rep.Hidden == 0 {
		t.Error("no determinization changed the hidden cards")
	}
}

// TestDealGolden pins deals 0 and 1: the ladder's first and face-up cards,
// the eight rows, and the first and last stock cards to be turned.
func TestDealGolden(t *testing.T) {
	golden := []struct {
		seed              uint64
		ladder0, ladderUp string
		rows              [NumRows]string
		stockFirst        string
		stockLast         string
	}{
		{0, "3D", "JH", [NumRows]string{
			"2C AC 9C KS", "KH 4S 7H 5C", "9H 6D 2D 2C", "6S 3C KC AC",
			"QS JD 8H 4C", "9H 5H 3D 6H", "QH 5C 6D 8C", "AD 7C 7D 8D",
		}, "6H 10S 4S", "QD 10H"},
		{1, "6H", "8S", [NumRows]string{
			"9C 8D 9D QD", "3D 6C 7D AS", "AD AS 6D 6H", "KH 3H KC JS",
			"10D 5S 5D 2D", "3S 2C 8H 7C", "4S 8H 2H JH", "2S 9H 2C 5C",
		}, "9S 5H 7C", "4H 7S"},
	}
	for _, gd := range golden {
		g := New()
		g.Deal(gd.seed)
		l := g.Ladder()
		if len(l) != LadderSize || l[0] != cards.MustParse(gd.ladder0) || l[LadderSize-1] != cards.MustParse(gd.ladderUp) {
			t.Errorf("deal %d ladder %v", gd.seed, l)
		}
		for r, want := range gd.rows {
			rowIs(t, g, r+1, want)
		}
		st := g.Stock() // next card last
		first, last := cs(gd.stockFirst), cs(gd.stockLast)
		for i, c := range first {
			if st[len(st)-1-i] != c {
				t.Errorf("deal %d stock card %d to turn = %v, want %v", gd.seed, i+1, st[len(st)-1-i], c)
			}
		}
		for i, c := range last {
			if st[len(last)-1-i] != c {
				t.Errorf("deal %d stock: last cards to turn %v, want %v", gd.seed, st[:len(last)], last)
			}
		}
	}
}

// Rule 1: 29 ladder cards, the last face up; eight rows of four face up; the
// other 43 cards face down in the stock. The deal order is the package doc's.
func TestRule1Deal(t *testing.T) {
	g := New()
	g.Deal(7)
	d := cards.Deal(7)
	if !slices.Equal(g.Ladder(), d[:LadderSize]) {
		t.Errorf("ladder %v, want the first 29 cards", g.Ladder())
	}
	for r := range NumRows {
		if !slices.Equal(g.Row(r), d[29+4*r:33+4*r]) {
			t.Errorf("row %d = %v, want deck cards %d..%d from the inner end", r+1, g.Row(r), 29+4*r, 32+4*r)
		}
	}
	st := g.Stock()
	for i := range StockSize {
		if st[StockSize-1-i] != d[61+i] {
			t.Fatalf("stock card %d to turn = %v, want deck card %d", i+1, st[StockSize-1-i], 61+i)
		}
	}
	if len(g.Waste()) != 0 || g.Progress() != 0 || g.RedealUsed() {
		t.Errorf("fresh deal: waste %v progress %d redeal %v", g.Waste(), g.Progress(), g.RedealUsed())
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsLadder] != uint8(d[28]) || obs[ObsLadderDown] != 28 || obs[ObsPiles] != 43 || obs[ObsPiles+1] != 0 {
		t.Errorf("observation: ladder %d, face down %d, stock %d, waste %d", obs[ObsLadder], obs[ObsLadderDown], obs[ObsPiles], obs[ObsPiles+1])
	}
	// Re-dealing a used game gives the same deal.
	h := g.Hash()
	g.Apply(ActTurn)
	g.Deal(7)
	if g.Hash() != h {
		t.Error("re-dealing changed the deal")
	}
}

// Rule 2: eight foundations, two per suit, up in suit from the ace.
func TestRule2Foundations(t *testing.T) {
	g := position("2S", "AS", "AS", "3C", "AH 4S", "KD", "KD", "KD")
	if got := legal(g); !slices.Equal(got, []string{"2>F", "3>F"}) {
		t.Fatalf("legal = %v, want the two aces home", got)
	}
	envtest.Refused(t, g, "1>F", "only an ace")
	play(t, g, "2>F")
	play(t, g, "3>F") // the second ace starts the second spade foundation
	if g.found[6] != 1 || g.found[7] != 1 {
		t.Fatalf("spade foundations %v", g.found[6:8])
	}
	play(t, g, "1>F")
	envtest.Refused(t, g, "4>F", "only an ace")
	envtest.Refused(t, g, "5>F", "does not fit")
	if g.Progress() != 3 {
		t.Errorf("progress %d, want 3", g.Progress())
	}
	// Both foundations started: a third ace has nowhere to go.
	g2 := position("AS")
	g2.SetFoundation(cards.Spades, 2, 1)
	envtest.Refused(t, g2, "1>F", "already started")
}

// Rule 3: only a row's outer card is available; rows grow outward.
func TestRule3OuterCardAvailable(t *testing.T) {
	g := position("AS 5H", "AH 6C", "KD", "KD", "KD", "KD", "KD", "KD")
	if got := legal(g); !slices.Equal(got, []string{"1>2"}) {
		t.Errorf("legal = %v, want only 5♥ onto 6♣ (the aces are covered)", got)
	}
	play(t, g, "1>2")
	rowIs(t, g, 2, "AH 6C 5H") // added at the outer end
	rowIs(t, g, 1, "AS")
	play(t, g, "1>F")
}

// Rule 4: a card or a run moves onto another row's outer card one rank
// higher and of the other colour; the destination fixes the part that moves.
func TestRule4BuildAlternating(t *testing.T) {
	single := []struct {
		src, dst string
		ok       bool
	}{
		{"7S", "8H", true},
		{"7S", "8D", true},
		{"7H", "8S", true},
		{"7S", "8C", false}, // same colour
		{"7H", "8D", false},
		{"7S", "9H", false},
		{"8S", "7H", false}, // never upwards
		{"QD", "KC", true},
		{"2C", "AH", false}, // nothing goes on an ace
	}
	for _, tc := range single {
		g := position(tc.src, tc.dst)
		err := g.Explain(id(t, "1>2"))
		m := env.NewMask(NumActions)
		g.Legal(&m)
		if (err == nil) != tc.ok || m.Has(id(t, "1>2")) != tc.ok {
			t.Errorf("%s on %s: explain %v, mask %v, want legal %v", tc.src, tc.dst, err, m.Has(id(t, "1>2")), tc.ok)
		}
	}

	// Row 1 ends in the run 9♠ 8♥ 7♣ 6♦.
	g := position("2C 9S 8H 7C 6D", "7S", "10D", "8C", "9C")
	got := legal(g)
	for _, want := range []string{"1>2", "1>3", "1>5"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal = %v, missing %s", got, want)
		}
	}
	// 7♣ is the run's 7 but black, like 8♣: no part of the run goes on it.
	envtest.Refused(t, g, "1>4", "other colour")
	// Part of the run: 6♦ alone onto 7♠.
	play(t, g, "1>2")
	rowIs(t, g, 2, "7S 6D")
	rowIs(t, g, 1, "2C 9S 8H 7C")
	// The whole run 9♠ 8♥ 7♣ onto 10♦.
	play(t, g, "1>3")
	rowIs(t, g, 3, "10D 9S 8H 7C")
	rowIs(t, g, 1, "2C")
	// A broken sequence is not a run: 9♠ under 7♣ 6♦ (no 8) stays.
	g2 := position("9S 7C 6D", "10H")
	envtest.Refused(t, g2, "1>2", "no card of the run")
	// Same colour breaks a run too: 8♠ under 7♣ stays.
	g3 := position("8S 7C", "9H")
	envtest.Refused(t, g3, "1>2", "no card of the run")
	envtest.Refused(t, g3, "1>1", "onto itself")
}

// Rule 5: an empty row takes any available card or run (any tail of it,
// [chosen]) from another row, the waste top or the ladder card; filling is
// optional; a count is named only for an empty row.
func TestRule5EmptyRow(t *testing.T) {
	g := position("2C 9S 8H 7C", "", "KD", "KD", "KD", "KD", "KD", "KD")
	g.SetWaste(cs("4D QH"))
	g.SetLadder(cs("3S JC"))
	got := legal(g)
	want := []string{"1>2:1", "1>2:2", "1>2:3", "W>2", "L>2"}
	if !slices.Equal(got, want) {
		t.Fatalf("legal = %v, want %v", got, want)
	}
	envtest.Refused(t, g, "1>2:4", "not a run")
	envtest.Refused(t, g, "1>2:5", "only 4")
	envtest.Refused(t, g, "1>2", "is empty: say how many")
	envtest.Refused(t, g, "2>1:1", "row 2 is empty")
	envtest.Refused(t, g, "1>1:1", "into itself")

	// Part of a run: 8♥ 7♣ into the empty row.
	h := *g
	play(t, &h, "1>2:2")
	rowIs(t, &h, 1, "2C 9S")
	rowIs(t, &h, 2, "8H 7C")
	envtest.Refused(t, &h, "1>2:1", "not empty")
	// The whole run.
	h = *g
	play(t, &h, "1>2:3")
	rowIs(t, &h, 1, "2C")
	rowIs(t, &h, 2, "9S 8H 7C")
	// The waste top and the ladder card.
	h = *g
	play(t, &h, "W>2")
	rowIs(t, &h, 2, "QH")
	if !slices.Equal(h.Waste(), cs("4D")) {
		t.Errorf("waste %v", h.Waste())
	}
	h = *g
	play(t, &h, "L>2")
	rowIs(t, &h, 2, "JC")

	// A whole row into an empty row would change nothing but its number:
	// refused, while a part of it may go.
	g2 := position("QH JS 10D", "")
	envtest.Refused(t, g2, "1>2:3", "change nothing")
	play(t, g2, "1>2:2")
	rowIs(t, g2, 2, "JS 10D")
}

// Rule 6: a king placed into an empty row never moves again except to its
// foundation; [chosen] so does a king lying at the inner end from the deal.
// A king elsewhere may go into an empty row.
func TestRule6KingLock(t *testing.T) {
	// A dealt king at the inner end, with a run on it, and an empty row.
	g := position("KH QS JD", "", "5C 9D KS QH")
	got := legal(g)
	for _, want := range []string{"1>2:1", "1>2:2", "3>2:1", "3>2:2"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal = %v, missing %s", got, want)
		}
	}
	envtest.Refused(t, g, "1>2:3", "inner end of row 1")
	// K♠ is not at the inner end: it may go into the empty row with its run...
	play(t, g, "3>2:2")
	rowIs(t, g, 2, "KS QH")
	// ...and is locked there from now on.
	g.SetRows(cs("KS QH"), nil)
	envtest.Refused(t, g, "1>2:2", "moves only to its foundation")
	play(t, g, "1>2:1") // the queen above it still moves

	// A locked king still goes home.
	g2 := position("KD", "")
	g2.SetFoundation(cards.Diamonds, cards.Queen, 0)
	envtest.Refused(t, g2, "1>2:1", "inner end")
	play(t, g2, "1>F")
	// A king from the waste or the ladder placed into an empty row is locked
	// too.
	g3 := position("", "")
	g3.SetWaste(cs("KC"))
	play(t, g3, "W>1")
	envtest.Refused(t, g3, "1>2:1", "inner end")
	// The lock is visible: row cell 0 holds the king.
	obs := make([]uint8, ObsLen)
	g3.Observe(obs)
	if obs[ObsRows] != uint8(cards.MustParse("KC")) {
		t.Errorf("row 1 cell 0 = %d", obs[ObsRows])
	}
}

// Rule 7: the ladder card goes only to a foundation or into an empty row;
// nothing is placed on it; when it leaves the next one turns face up.
func TestRule7Ladder(t *testing.T) {
	g := position("8D", "2H")
	g.SetLadder(cs("5S AC 7C"))
	envtest.Refused(t, g, "L>1", "only to a foundation or into an empty row")
	envtest.Refused(t, g, "L>F", "only an ace")
	// Nothing goes on the ladder card: no action names it as a destination.
	for _, name := range legal(g) {
		if strings.HasSuffix(name, ">L") {
			t.Errorf("move onto the ladder offered: %s", name)
		}
	}
	if _, err := g.ParseActions("1>L"); err == nil {
		t.Error("1>L parsed")
	}
	g.SetRows(cs("8D"), nil)
	g.SetLadder(cs("5S AC 7C"))
	play(t, g, "L>2")
	rowIs(t, g, 2, "7C")
	if topOf(g.Ladder()) != cards.MustParse("AC") {
		t.Fatalf("next ladder card %v, want A♣ face up", topOf(g.Ladder()))
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsLadder] != uint8(cards.MustParse("AC")) || obs[ObsLadderDown] != 1 {
		t.Errorf("observed ladder %d with %d face down", obs[ObsLadder], obs[ObsLadderDown])
	}
	play(t, g, "L>F")
	if topOf(g.Ladder()) != cards.MustParse("5S") || g.Progress() != 1 {
		t.Errorf("ladder %v, progress %d", g.Ladder(), g.Progress())
	}
	// A card that came from the ladder is an ordinary row card.
	play(t, g, "2>1")
	rowIs(t, g, 1, "8D 7C")
	g.SetLadder(nil)
	envtest.Refused(t, g, "L>2", "ladder is empty")
	envtest.Refused(t, g, "L>F", "ladder is empty")
}

// Rule 8: the stock is turned one card at a time onto the waste, whose top
// goes to a foundation, onto a row, or into an empty row.
func TestRule8StockAndWaste(t *testing.T) {
	g := position("8S", "", "3H")
	g.SetStock(cs("7H AD 2D"))
	if got := legal(g); !slices.Contains(got, "turn") {
		t.Fatalf("turn not offered: %v", got)
	}
	envtest.Refused(t, g, "W>F", "waste is empty")
	play(t, g, "turn")
	if !slices.Equal(g.Waste(), cs("7H")) || len(g.Stock()) != 2 {
		t.Fatalf("waste %v stock %v", g.Waste(), g.Stock())
	}
	envtest.Refused(t, g, "W>3", "does not go on 3♥")
	play(t, g, "W>1") // 7♥ on 8♠
	rowIs(t, g, 1, "8S 7H")
	play(t, g, "turn")
	play(t, g, "W>F") // A♦
	play(t, g, "turn")
	play(t, g, "W>2") // 2♦ fills the empty row
	rowIs(t, g, 2, "2D")
	envtest.Refused(t, g, "turn", "stock is empty")
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsWaste] != 0 || obs[ObsPiles] != 0 || obs[ObsPiles+1] != 0 {
		t.Errorf("observed waste top %d, piles %v", obs[ObsWaste], obs[ObsPiles:ObsPiles+2])
	}
}

// Rule 9: when the stock and the ladder are exhausted the waste is turned
// over without shuffling and dealt again one at a time; [chosen] once only.
func TestRule9Redeal(t *testing.T) {
	g := position("KS")
	g.SetWaste(cs("4C 9D 2H")) // 4♣ went onto the waste first
	g.SetLadder(cs("QD"))
	envtest.Refused(t, g, "redeal", "ladder still has 1")
	g.SetLadder(nil)
	g.SetStock(cs("5S"))
	envtest.Refused(t, g, "redeal", "stock still has 1")
	g.SetStock(nil)
	if g.Class() != "" {
		t.Errorf("class %q before the redeal", g.Class())
	}
	play(t, g, "redeal")
	if len(g.Waste()) != 0 || !g.RedealUsed() || g.Class() != "redeal-used" {
		t.Fatalf("after redeal: waste %v used %v class %q", g.Waste(), g.RedealUsed(), g.Class())
	}
	// Not shuffled: the first card that went onto the waste comes first.
	for _, want := range cs("4C 9D 2H") {
		play(t, g, "turn")
		if topOf(g.Waste()) != want {
			t.Fatalf("turned %v, want %v", topOf(g.Waste()), want)
		}
	}
	envtest.Refused(t, g, "redeal", "only once")
	// An empty waste has nothing to deal again.
	g2 := position("KS")
	envtest.Refused(t, g2, "redeal", "waste is empty")
}

// Rule 10: won with all 104 cards home; lost when no legal move remains.
func TestRule10WinAndLoss(t *testing.T) {
	g := position("KC", "KC", "KD", "KD", "KH", "KH", "KS")
	g.SetWaste(cs("KS"))
	for s := cards.Suit(0); s < cards.NumSuits; s++ {
		g.SetFoundation(s, cards.Queen, cards.Queen)
	}
	var moves []int
	for _, name := range []string{"1>F", "2>F", "3>F", "4>F", "5>F", "6>F", "7>F", "W>F"} {
		moves = append(moves, envtest.Action(t, g, name))
	}
	envtest.PlayToWin(t, g, moves...)

	// Stuck: no foundation move, no build, no empty row, stock and ladder
	// empty, redeal used.
	g2 := position("5S", "9H", "2C", "QD", "7C", "JD", "4S", "KH")
	g2.SetWaste(cs("3S"))
	g2.SetRedealUsed(true)
	envtest.CheckLost(t, g2)
}

// Hidden information: states that differ only in hidden cards look and act
// the same; Determinize keeps the observation and the mask and changes the
// hidden cards.
func TestHiddenInformation(t *testing.T) {
	a := New()
	a.Deal(5)
	for range 10 {
		a.Apply(ActTurn)
	}
	b := New()
	*b = *a
	// Swap two different face-down ladder cards, two stock cards and two
	// waste cards below the top.
	swapDiff := func(s []cards.Card) {
		for i := 1; i < len(s); i++ {
			if s[i] != s[0] {
				s[0], s[i] = s[i], s[0]
				return
			}
		}
		t.Fatal("no two different cards")
	}
	swapDiff(b.ladder[:b.ln-1])
	swapDiff(b.stock[:b.sn])
	swapDiff(b.waste[:b.wn-1])
	b.hash = b.fullHash()
	if a.Hash() == b.Hash() {
		t.Fatal("hidden cards not in the hash")
	}
	sameView := func(x, y *Game) bool { return envtest.SameView(x, y) && x.Evaluate() == y.Evaluate() }
	if !sameView(a, b) {
		t.Error("states differing only in hidden cards look different")
	}
	changed := 0
	for seed := range uint64(8) {
		d := New()
		*d = *a
		d.Determinize(cards.NewRand(seed))
		if !sameView(a, d) {
			t.Errorf("Determinize(%d) changed the observation or the mask", seed)
		}
		if d.Hash() != d.fullHash() {
			t.Errorf("Determinize(%d) left a stale hash", seed)
		}
		if !slices.Equal(d.ladder[:d.ln-1], a.ladder[:a.ln-1]) && !slices.Equal(d.stock[:d.sn], a.stock[:a.sn]) && !slices.Equal(d.waste[:d.wn-1], a.waste[:a.wn-1]) {
			changed++
		}
		// Same rng, different hidden order: the same result.
		e := New()
		*e = *b
		e.Determinize(cards.NewRand(seed))
		if e.Hash() != d.Hash() {
			t.Errorf("Determinize(%d) depends on the hidden order", seed)
		}
	}
	if changed < 6 {
		t.Errorf("only %d of 8 determinizations reshuffled all three hidden places", changed)
	}
}

func TestHashIncrementalMatchesFull(t *testing.T) {
	envtest.CheckHash(t, "ladder", 40, (*Game).fullHash)
	// The redeal recomputes the hash.
	g := position("KS")
	g.SetWaste(cs("4C 9D"))
	g.Apply(ActRedeal)
	if g.Hash() != g.fullHash() {
		t.Error("hash after redeal differs")
	}
}

func TestNamesRoundTrip(t *testing.T) {
	g := New()
	// The round trip of every id (so distinct names) is in the checker.
	for s, want := range map[string]string{"w>f": "W>F", " 3 > 5 : 2 ": "3>5:2", "l>4": "L>4", "T": "turn", "REDEAL": "redeal", "3>f": "3>F"} {
		ids, err := g.ParseActions(s)
		if err != nil || len(ids) != 1 || ActionName(ids[0]) != want {
			t.Errorf("ParseActions(%q) = %v, %v; want %s", s, ids, err, want)
		}
	}
	for _, bad := range []string{"", "7", "0>F", "9>F", "3>9", "3>0", "3>X", "3>5:0", "3>5:14", "3>5:x", "3>F:2", "W>5:1", "L>F:1", "X>5", "F>3", "3>L", "3>W", "swap", ">", "3>", ">5"} {
		if ids, err := g.ParseActions(bad); err == nil {
			t.Errorf("ParseActions(%q) = %v, want an error", bad, ids)
		}
	}
	if ActionName(-1) != "#-1" || ActionName(NumActions) != "#924" {
		t.Error("out-of-range ids are not named as such")
	}
}

// TestMaxRowLength builds the longest row the package doc allows: three
// dealt cards, a dealt king, then queen down to ace.
func TestMaxRowLength(t *testing.T) {
	g := position("2C 3C 4C KS", "", "QH JC 10D 9S 8H 7C 6D 5S 4H 3S 2D AC")
	play(t, g, "3>1")
	if n := len(g.Row(0)); n != MaxRow {
		t.Fatalf("row 1 has %d cards, want %d", n, MaxRow)
	}
	obs := make([]uint8, ObsLen)
	g.Observe(obs)
	if obs[ObsRows+MaxRow-1] != uint8(cards.MustParse("AC")) {
		t.Errorf("the 16th card is not observed")
	}
	// The whole 13-card run K..A of a row moves into an empty row.
	g2 := position("5D KS QH JC 10D 9S 8H 7C 6D 5S 4H 3S 2D AC", "")
	play(t, g2, "1>2:13")
	rowIs(t, g2, 1, "5D")
}

func TestRenderShowsPlaces(t *testing.T) {
	g := New()
	g.Deal(0)
	out := g.Render()
	for _, want := range []string{"K♠  9♣  A♣  2♣ |", "|  Q♠  J♦  8♥  4♣", "Ladder (L): J♥, 28 face down", "Stock: 43", "Redeal: unused", " 8: "} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n >= 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	// Long rows on both sides keep the lines short.
	g2 := position("2C 3C 4C KS QH JC 10D 9S 8H 7C 6D 5S 4H 3S 2D AC", "", "", "", "2C 3C 4C KS QH JC 10D 9S 8H 7C 6D 5S 4H 3S 2D AC")
	for _, line := range strings.Split(g2.Render(), "\n") {
		if n := len([]rune(line)); n >= 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
}

func TestEvaluate(t *testing.T) {
	// Home cards count; an ace buried under a king scores worse than the
	// same cards the other way round.
	buried := position("AH KS")
	free := position("KS AH")
	if buried.Evaluate() >= free.Evaluate() {
		t.Errorf("buried ace %.2f >= free ace %.2f", buried.Evaluate(), free.Evaluate())
	}
	home := position("KS")
	home.SetFoundation(cards.Hearts, cards.Ace, 0)
	if home.Evaluate() <= free.Evaluate() {
		t.Errorf("ace home %.2f <= ace available %.2f", home.Evaluate(), free.Evaluate())
	}
	// A card in a run on its neighbour is no burden.
	run := position("9S 8H")
	broken := position("9S 8S")
	if run.Evaluate() <= broken.Evaluate() {
		t.Errorf("run %.2f <= broken %.2f", run.Evaluate(), broken.Evaluate())
	}
}

func TestStepAllocatesNothing(t *testing.T) { envtest.CheckStepAllocs(t, "ladder", 500, 2) }

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStep(b, "ladder") }

func FuzzPlay(f *testing.F)      { envtest.FuzzPlay(f, "ladder") }
func FuzzMoveNames(f *testing.F) { envtest.FuzzMoveNames(f, "ladder") }

// TestRowsHash: the rows' part of the hash is what the rows contribute:
// emptying every row leaves Hash xor RowsHash.
func TestRowsHash(t *testing.T) {
	g := New()
	g.Deal(7)
	if g.RowsHash() == 0 {
		t.Fatal("a deal's rows contribute nothing")
	}
	rest := g.Hash() ^ g.RowsHash()
	h := g.Clone().(*Game)
	for r := range NumRows {
		for h.rn[r] > 0 {
			h.popRow(r)
		}
	}
	if h.Hash() != rest || h.RowsHash() != 0 {
		t.Errorf("without the rows the hash is %x, want %x", h.Hash(), rest)
	}
}
