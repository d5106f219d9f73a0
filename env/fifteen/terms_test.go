package fifteen

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
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
}
