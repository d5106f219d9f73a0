package cromwell

import (
	"math/rand/v2"
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// TestTermsSumToEvaluate: on the positions of random play, the terms
// weighted by the Spec's weights add up exactly to Evaluate, and Terms
// does not allocate.
func TestTermsSumToEvaluate(t *testing.T) {
	if len(Spec().Terms) != NumTerms {
		t.Fatalf("Spec has %d terms; want %d", len(Spec().Terms), NumTerms)
	}
	g := New()
	dst := make([]float64, NumTerms)
	playRandom(g, 60, 300, rand.New(rand.NewPCG(3, 4)), func(seed uint64, step int) {
		g.Terms(dst)
		sum := 0.0
		for i, term := range Spec().Terms {
			sum += term.Weight * dst[i]
		}
		if want := g.Evaluate(); sum != want {
			t.Fatalf("deal %d, step %d: weighted terms %v, Evaluate %v (terms %v)\n%s", seed, step, sum, want, dst, g.Render())
		}
	})
	g.Deal(1)
	if n := testing.AllocsPerRun(100, func() { g.Terms(dst) }); n != 0 {
		t.Errorf("Terms allocates %v times", n)
	}
}

// TestTermsByHand checks the terms Evaluate weighs 0 on a position laid
// out by hand.
func TestTermsByHand(t *testing.T) {
	c := cards.MustParseList
	g := New()
	// Clubs: both foundations at 2, so both 3♣ are needed: one lies under
	// two cards, the other under none. Hearts: foundations at 5 and 3, so
	// a 6♥ (under one card, the nearer copy) and a 4♥ (under three).
	g.SetFans(
		c("3C 9D 8D"),     // 3♣ under 2; run 9♦ 8♦ (one card under the top)
		c("3C"),           // 3♣ under none
		c("4H 2S 10S 6S"), // 4♥ under 3
		c("6H KS"),        // 6♥ under 1; K♠ at depth 1 has one card under it
		c("6H 7H 5D"),     // the other 6♥ under 2; 5♦ and 8♦ are no build
		c("9S"),           // 9♠ fits onto 10♠? no: 10♠ is not a top
		c("10D"),          // 9♦'s run fits 10♦: fan 0 builds
	)
	g.SetFoundation(cards.Clubs, 2, 2)
	g.SetFoundation(cards.Hearts, 5, 3)
	g.SetFoundation(cards.Diamonds, 13, 13)
	g.SetFoundation(cards.Spades, 1, 1)
	g.SetSwapUsed(true)
	dst := make([]float64, NumTerms)
	g.Terms(dst)
	want := map[int]float64{
		TermNextBuried: 2 + 0 + 1 + 3 + 0, // clubs both copies; hearts 6 (nearer) and 4; spades' 2♠ under 2 counted below
		TermBuilds:     1,
		TermEmpty:      NumFans - 7,
		TermRunCards:   1,
		TermSwapUnused: 0,
		TermKingDepth:  1,
	}
	// Spades: both foundations at ace, so both 2♠ are needed: the one copy
	// in the fans lies under two cards.
	want[TermNextBuried] += 2
	for i, w := range want {
		if dst[i] != w {
			t.Errorf("term %s = %v, want %v (all: %v)", Spec().Terms[i].Name, dst[i], w, dst)
		}
	}
}

// BenchmarkTerms times Terms beside Evaluate, on one deal's start.
func BenchmarkTerms(b *testing.B) { envtest.BenchmarkTerms(b, "cromwell", 500023) }
