package fifteen

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// TestTermsByHand checks the terms Evaluate weighs 0 on a position laid
// out by hand (the property checker checks that the weighted terms sum to
// Evaluate on random play).
func TestTermsByHand(t *testing.T) {
	c := cards.MustParseList
	g := New()
	g.SetColumns(
		c("5H 9C 6H 2S"), // 6♥ above 5♥: a partner below; 5♥ under three cards
		c("AS 3D"),       // A♠ under one card
		c("5H 4H"),       // 4♥ above 5♥: a partner below; the other 5♥ under one card
		c("KC"),
	)
	// Hearts: up pile at 4, down pile at 6, so both 5♥ are needed (3 + 1);
	// spades: both piles empty: an A♠ under one card, no K♠ in the columns;
	// clubs: up at 12 needs K♣ (under none), down pile finished; diamonds:
	// up at 2 needs 3♦ (under none), down at 4 needs 3♦ too: its one copy
	// in the columns under none.
	g.SetFoundation(cards.Hearts, 4, 6)
	g.SetFoundation(cards.Clubs, 12, 1)
	g.SetFoundation(cards.Diamonds, 2, 4)
	dst := make([]float64, NumTerms)
	g.Terms(dst)
	if got, want := dst[TermNextBuried], float64(3+1+1+0+0); got != want {
		t.Errorf("next_buried = %v, want %v (all: %v)", got, want, dst)
	}
	if got, want := dst[TermPartnerBelow], 2.0; got != want {
		t.Errorf("partner_below = %v, want %v (all: %v)", got, want, dst)
	}
	if got, want := dst[TermLanes], float64(NumCols-4); got != want {
		t.Errorf("lanes = %v, want %v", got, want)
	}
	// One column of one card (K♣), two of two; 4♥ lies on 5♥, the one
	// marriage made; 2♠ (no pile takes it, no 1♠ or 3♠ available) and 4♥
	// (both heart piles need 5♥, no other heart available) are stuck, while
	// 3♦ and K♣ go home. Lanes are empty, so the game is not cornered.
	// 4♥ on 5♥ is also the one run under an available card, and K♣ the
	// shortest column. After the next cards, the heart piles need 6♥ (under
	// 2♠: one card) and 4♥ (under none), the spade piles 2♠ (under none)
	// and no Q♠; clubs need nothing more, diamonds a 4♦ and a 2♦ that are
	// not in the columns. Under the available cards: 6♥ would be stuck
	// (no pile takes it, no 5♥ or 7♥ available), A♠ and 5♥ fit a pile; two
	// under them, 9♣ would be stuck. 3♦ then A♠ could go home one after
	// the other, and K♣; 4♥ on 5♥ is a run the down pile (needing 5♥)
	// would take the wrong way round, the available card last.
	for _, c := range []struct {
		term int
		want float64
	}{{TermSingles, 1}, {TermDoubles, 2}, {TermMarried, 1}, {TermStuck, 2}, {TermCornered, 0}, {TermTopRun, 1}, {TermMinHeight, 1}, {TermSecondBuried, 1}, {TermUnderStuck, 1}, {TermUnderFits, 2},
		{TermUnder2Stuck, 1}, {TermUnder2Fits, 0}, {TermTriples, 0}, {TermHomeRun, 3}, {TermRunWrong, 2}} {
		if dst[c.term] != c.want {
			t.Errorf("%s = %v, want %v (all: %v)", terms[c.term].Name, dst[c.term], c.want, dst)
		}
	}
}

// TestRunsByHand checks the terms of runs and of the cards two under the
// available ones on three columns of three cards.
func TestRunsByHand(t *testing.T) {
	c := cards.MustParseList
	g := New()
	g.SetColumns(
		c("6S 5S 4S"), // the spade up pile needs 4♠: the run goes home from the foot
		c("4H 5H 6H"), // the heart up pile needs 4♥, which lies at the run's far end
		c("2C 9D KD"), // K♦ goes home, 9♦ then does not; 2♣ fits the club up pile
	)
	g.SetFoundation(cards.Spades, 3, 0)
	g.SetFoundation(cards.Hearts, 3, 0)
	g.SetFoundation(cards.Clubs, 1, 0)
	dst := make([]float64, NumTerms)
	g.Terms(dst)
	for _, c := range []struct {
		term int
		want float64
	}{{TermTriples, 3}, {TermHomeRun, 3 + 0 + 1}, {TermRunWrong, 3}, {TermUnder2Fits, 2}, {TermUnder2Stuck, 1}} {
		if dst[c.term] != c.want {
			t.Errorf("%s = %v, want %v (all: %v)", terms[c.term].Name, dst[c.term], c.want, dst)
		}
	}
}

// TestCorneredByHand checks the cornered term: no lane, and at most one
// available card that can move.
func TestCorneredByHand(t *testing.T) {
	c := cards.MustParseList
	cols := func(last string) [][]cards.Card {
		// Fifteen columns of one card each; no two of them marry, and no
		// pile takes any (the piles are empty and there is no ace or king),
		// unless last marries one of them.
		out := [][]cards.Card{}
		for _, x := range []string{"2S", "4S", "6S", "8S", "TS", "QS", "2H", "4H", "6H", "8H", "TH", "QH", "2D", "4D", last} {
			out = append(out, c(x))
		}
		return out
	}
	dst := make([]float64, NumTerms)
	for _, tc := range []struct {
		last           string
		stuck, corners float64
	}{
		{"6D", 15, 1}, // nothing can move
		{"5D", 13, 0}, // 4♦ and 5♦ can marry, either onto the other
	} {
		g := New()
		g.SetColumns(cols(tc.last)...)
		g.Terms(dst)
		if dst[TermStuck] != tc.stuck || dst[TermCornered] != tc.corners || dst[TermSingles] != NumCols || dst[TermLanes] != 0 {
			t.Errorf("last card %s: stuck %v, cornered %v, singles %v, lanes %v; want %v, %v, 15, 0",
				tc.last, dst[TermStuck], dst[TermCornered], dst[TermSingles], dst[TermLanes], tc.stuck, tc.corners)
		}
	}
}

// BenchmarkTerms times Terms beside Evaluate, on one deal's start.
func BenchmarkTerms(b *testing.B) { envtest.BenchmarkTerms(b, "fifteen", 500023) }
