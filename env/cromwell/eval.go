package cromwell

import (
	"math/bits"

	"github.com/patience-gym/patience/env/cards"
)

// Evaluate scores the position for the heuristic agent, in cards: the cards
// home, minus the cards locked under a king that is not the deepest card of
// its fan (they wait for the king to go home), minus half a card for each
// card lying above a lower card of its own suit in the same fan (a buried
// duplicate that blocks its own suit), plus a little for each available move
// and for an unused swap.
func (g *Game) Evaluate() float64 {
	score := float64(g.home)
	kings, pairs := 0, 0 // the depths of kings above the bottom; cards above a lower one of their suit
	for f := range NumFans {
		n := int(g.n[f])
		// The cards below depth k by code: one copy in once, both in twice.
		var once, twice uint64
		for k := range n {
			c := g.fans[f][k]
			if k > 0 {
				low := lowerInSuit[c]
				pairs += bits.OnesCount64(once&low) + bits.OnesCount64(twice&low)
				if c.Rank() == cards.King {
					kings += k
				}
			}
			bit := uint64(1) << c
			twice |= once & bit
			once |= bit
		}
		if n > 0 && g.found.Fits(g.fans[f][n-1]) {
			score += 0.5
		}
	}
	// Quarters and halves add up exactly in any order.
	score -= 0.5*float64(kings) + 0.25*float64(pairs)
	if g.swap == SwapUnused {
		score += 2
	}
	return score
}

// lowerInSuit[c] has the bits of the card codes of c's suit below c.
var lowerInSuit = func() (t [cards.FaceDown + 1]uint64) {
	for c := cards.Card(1); c <= 52; c++ {
		for b := cards.Card(1); b < c; b++ {
			if b.Suit() == c.Suit() {
				t[c] |= 1 << b
			}
		}
	}
	return t
}()
