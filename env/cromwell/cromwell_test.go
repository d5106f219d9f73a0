package cromwell

import (
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func cs(s string) []cards.Card { return cards.MustParseList(s) }

// position builds a game from fans given as card lists, deepest first.
func position(fans ...string) *Game {
	g := New()
	g.SetFans(envtest.CardLists(fans...)...)
	return g
}

func legal(g *Game) []string {
	m := env.NewMask(NumActions)
	g.Legal(&m)
	var out []string
	for _, a := range m.AppendActions(nil) {
		if a < ActSwap {
			out = append(out, ActionName(a))
		}
	}
	return out
}

func homeMoves(g *Game) []string {
	var out []string
	for _, name := range legal(g) {
		if strings.HasSuffix(name, ">F") {
			out = append(out, name)
		}
	}
	return out
}

func mustParse(t *testing.T, g *Game, s string) int { return envtest.Action(t, g, s) }

func TestChecker(t *testing.T) {
	envtest.Check(t, "cromwell")
}

// Rule 1: all 104 cards in 26 fans of 4, face up, no stock.
func TestRule1Deal(t *testing.T) {
	g := New()
	g.Deal(7)
	d := cards.Deal(7)
	for f := range NumFans {
		fan := g.Fan(f)
		if len(fan) != 4 {
			t.Fatalf("fan %d has %d cards", f+1, len(fan))
		}
		for k, c := range fan {
			if c != d[k*NumFans+f] {
				t.Errorf("fan %d card %d = %v, want deck card %d", f+1, k+1, c, k*NumFans+f)
			}
		}
	}
	if g.Progress() != 0 || g.SwapUsed() {
		t.Errorf("fresh deal: progress %d, swap used %v", g.Progress(), g.SwapUsed())
	}
}

// TestGoldenDeal pins the first fans of deals 0 and 1: deals never change.
func TestGoldenDeal(t *testing.T) {
	golden := map[uint64][]string{
		0: {"3D 8C 6H JS", "8S 3H QH 3S", "JC JH 5C 7S"},
		1: {"6H 7S 7C 4H", "7H AC 4S QC"},
	}
	for seed, fans := range golden {
		g := New()
		g.Deal(seed)
		for f, want := range fans {
			if got := g.Fan(f); !slices.Equal(got, cs(want)) {
				t.Errorf("deal %d fan %d = %v, want %v", seed, f+1, got, cs(want))
			}
		}
	}
}

// Rule 2: only the top card of a fan is available.
func TestRule2OnlyTopAvailable(t *testing.T) {
	g := position("AS 5H", "AH 6H")
	g.SetSwapUsed(true)
	got := legal(g)
	want := []string{"1>2"} // 5♥ on 6♥; the aces underneath are not available
	if !slices.Equal(got, want) {
		t.Errorf("legal = %v, want %v", got, want)
	}
}

// Rule 3: foundations built up in suit from the ace; an ace starts an empty
// one; two foundations per suit.
func TestRule3Foundations(t *testing.T) {
	g := position("2S", "AS", "AS", "3H")
	g.SetSwapUsed(true)
	if got := homeMoves(g); !slices.Equal(got, []string{"2>F", "3>F"}) {
		t.Fatalf("foundation moves = %v, want the aces only", got)
	}
	g.Apply(mustParse(t, g, "2>F"))
	if got := legal(g); !slices.Contains(got, "1>F") || !slices.Contains(got, "3>F") {
		t.Fatalf("after A♠ home: legal = %v, want 2♠ and the second A♠", got)
	}
	g.Apply(mustParse(t, g, "3>F")) // second ace starts the second spade foundation
	if g.found[6] != 1 || g.found[7] != 1 {
		t.Fatalf("spade foundations = %v", g.found[6:8])
	}
	if err := g.Explain(mustParse(t, g, "4>F")); err == nil {
		t.Error("3♥ accepted on an empty foundation")
	}
	g.Apply(mustParse(t, g, "1>F"))
	if g.Progress() != 3 {
		t.Errorf("progress %d, want 3", g.Progress())
	}
}

// Rule 4: an available card goes on another fan's top card of the same suit,
// one rank higher.
func TestRule4BuildDownInSuit(t *testing.T) {
	tests := []struct {
		src, dst string
		ok       bool
	}{
		{"7S", "8S", true},
		{"7S", "8C", false}, // same colour, other suit
		{"7S", "8H", false},
		{"7S", "9S", false},
		{"8S", "7S", false}, // up is not allowed
		{"QS", "KS", true},
	}
	for _, tc := range tests {
		g := position(tc.src, tc.dst)
		g.SetSwapUsed(true)
		err := g.Explain(mustParse(t, g, "1>2"))
		if (err == nil) != tc.ok {
			t.Errorf("%s on %s: legal=%v, want %v (%v)", tc.src, tc.dst, err == nil, tc.ok, err)
		}
	}
}

// Rule 5: a run moves in whole or in part onto a fitting card; any length.
func TestRule5RunsMove(t *testing.T) {
	g := position("2C 9D 8D 7D 6D 5D", "7D", "10D", "3H")
	g.SetSwapUsed(true)
	got := legal(g)
	for _, want := range []string{"1>2", "1>3"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal = %v, missing %s", got, want)
		}
	}
	if slices.Contains(got, "1>4") {
		t.Errorf("run moved onto 3♥")
	}
	// Part of the run: 6♦ 5♦ onto 7♦.
	g.Apply(mustParse(t, g, "1>2"))
	if !slices.Equal(g.Fan(1), cs("7D 6D 5D")) || !slices.Equal(g.Fan(0), cs("2C 9D 8D 7D")) {
		t.Fatalf("after 1>2: fan1 %v fan2 %v", g.Fan(0), g.Fan(1))
	}
	// The whole run 9♦..7♦ onto 10♦.
	g.Apply(mustParse(t, g, "1>3"))
	if !slices.Equal(g.Fan(2), cs("10D 9D 8D 7D")) || !slices.Equal(g.Fan(0), cs("2C")) {
		t.Fatalf("after 1>3: fan1 %v fan3 %v", g.Fan(0), g.Fan(2))
	}
	// A broken sequence is not a run: 8♦ under 6♦ does not move with it.
	g2 := position("8D 6D 5D", "9D")
	g2.SetSwapUsed(true)
	if err := g2.Explain(mustParse(t, g2, "1>2")); err == nil {
		t.Error("8♦ moved from under a broken run")
	}
}

// Rule 6: an emptied fan is never refilled.
func TestRule6EmptyFanStaysEmpty(t *testing.T) {
	g := position("AS", "KH")
	g.SetSwapUsed(true)
	g.Apply(mustParse(t, g, "1>F"))
	if len(g.Fan(0)) != 0 {
		t.Fatal("fan 1 not empty")
	}
	if err := g.Explain(mustParse(t, g, "2>1")); err == nil {
		t.Error("a card moved into an emptied fan")
	}
}

// Rule 7: one swap of any two layout cards, at any depth, same or different
// fans; identical cards are not offered; foundations are not part of it.
func TestRule7Swap(t *testing.T) {
	g := position("KS 2H 3H", "QD AC", "2H")

	ids, err := g.ParseActions("swap 1:1 1:3")
	if err != nil || len(ids) != 3 || ids[0] != ActSwapBegin {
		t.Fatalf("parse swap: %v %v", ids, err)
	}
	// Picks are not legal before the swap begins.
	if err := g.Explain(ids[1]); err == nil {
		t.Fatal("a pick accepted before the swap began")
	}
	for i, a := range ids {
		if err := g.Explain(a); err != nil {
			t.Fatalf("action %d (%s) refused: %v", i, ActionName(a), err)
		}
		g.Apply(a)
		// While the swap is under way only its picks are legal.
		if i < 2 {
			if got := legal(g); len(got) != 0 {
				t.Errorf("moves offered during a swap: %v", got)
			}
		}
	}
	if !slices.Equal(g.Fan(0), cs("3H 2H KS")) || !g.SwapUsed() {
		t.Fatalf("after swap in one fan: %v used=%v", g.Fan(0), g.SwapUsed())
	}
	// Only once per game.
	if err := g.Explain(ActSwapBegin); err == nil {
		t.Error("a second swap offered")
	}

	// Across fans, and two identical cards are not a swap.
	g2 := position("2H 5C", "9S 2H")
	for _, mv := range []string{"swap", "pick 1:1"} {
		g2.Apply(mustParse(t, g2, mv))
	}
	if err := g2.Explain(mustParse(t, g2, "pick 2:2")); err == nil {
		t.Error("swap of two identical 2♥ offered")
	}
	g2.Apply(mustParse(t, g2, "pick 2:1"))
	if !slices.Equal(g2.Fan(0), cs("9S 5C")) || !slices.Equal(g2.Fan(1), cs("2H 2H")) {
		t.Fatalf("after swap across fans: %v %v", g2.Fan(0), g2.Fan(1))
	}

	// A layout of only two identical cards offers no swap at all.
	g3 := position("7C", "7C")
	if err := g3.Explain(ActSwapBegin); err == nil {
		t.Error("swap offered with no two different cards")
	}
}

// Rule 8: won with all cards home; lost with no move, the unused swap
// counting as a move.
func TestRule8WinAndLoss(t *testing.T) {
	// Every foundation at queen, the two kings of clubs on top of two fans.
	g := New()
	g.SetFans(cs("KC"), cs("KC"), cs("KD"), cs("KD"), cs("KH"), cs("KH"), cs("KS"), cs("KS"))
	for s := cards.Suit(0); s < cards.NumSuits; s++ {
		g.SetFoundation(s, cards.Queen, cards.Queen)
	}
	envtest.PlayToWin(t, g, ActFoundation, ActFoundation+1, ActFoundation+2, ActFoundation+3,
		ActFoundation+4, ActFoundation+5, ActFoundation+6, ActFoundation+7)

	// No move but the swap: not lost yet; after the swap is used: lost.
	g2 := position("5S 9H", "2C")
	m := env.NewMask(NumActions)
	g2.Legal(&m)
	if m.Empty() {
		t.Fatal("unused swap not counted as a move")
	}
	g2.SetSwapUsed(true)
	envtest.CheckLost(t, g2)
}

func TestHashIncrementalMatchesFull(t *testing.T) {
	envtest.CheckHash(t, "cromwell", 50, (*Game).fullHash)
}

func TestNamesRoundTrip(t *testing.T) {
	g := New()
	// The round trip of every id is in the checker.
	for _, bad := range []string{"", "7", "0>F", "27>F", "7>27", "7>X", "pick", "swap 1", "swap 1:1", "pick 1:17", "pick 1:1 2:2", "swap 1:1 2:2 3:3", "x>y"} {
		if _, err := g.ParseActions(bad); err == nil {
			t.Errorf("ParseActions(%q) accepted", bad)
		}
	}
}

func TestRenderShowsCards(t *testing.T) {
	g := position("KS 2H 10D")
	out := g.Render()
	for _, want := range []string{"K♠", "2♥", "10♦", "Swap: unused", " 1:"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStep(b, "cromwell") }

func FuzzPlay(f *testing.F)      { envtest.FuzzPlay(f, "cromwell") }
func FuzzMoveNames(f *testing.F) { envtest.FuzzMoveNames(f, "cromwell") }
