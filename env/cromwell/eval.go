package cromwell

import (
	"github.com/patience-gym/patience/env/cards"
)

// Evaluate scores the position for the heuristic agent, in cards: the cards
// home, minus the cards locked under a king that is not the deepest card of
// its fan (they wait for the king to go home), minus half a card for each
// card lying above a lower card of its own suit in the same fan (a buried
// duplicate that blocks its own suit), plus a little for each available move
// and for an unused swap.
func (g *Game) Evaluate() float64 {
	// Quarters and halves add up exactly in any order.
	score := float64(g.home) + 0.5*float64(g.fitting())
	score -= 0.5*float64(g.kings) + 0.25*float64(g.pairs)
	if g.swap == SwapUnused {
		score += 2
	}
	return score
}

// fitting counts the fans whose top card fits a foundation now.
func (g *Game) fitting() int {
	n := 0
	for f := range NumFans {
		if k := g.n[f]; k > 0 && g.found.Fits(g.fans[f][k-1]) {
			n++
		}
	}
	return n
}

// tally returns fan f's share of Evaluate's tallies (see Game.kings and
// Game.pairs), counted afresh.
func (g *Game) tally(f int) (kings, pairs int) {
	for k := range int(g.n[f]) {
		c := g.fans[f][k]
		kings += kingDepth(c, k)
		pairs += lowerBelow(&g.fans[f], k, c)
	}
	return kings, pairs
}

// kingDepth is the depth k of card c, lying at depth k of its fan, when c
// is a king, and 0 otherwise.
func kingDepth(c cards.Card, k int) int {
	if c.Rank() == cards.King {
		return k
	}
	return 0
}

// lowerBelow counts the cards of fan[:k] lower than c in c's suit.
func lowerBelow(fan *[MaxDepth]cards.Card, k int, c cards.Card) int {
	low, n := lowerInSuit[c], 0
	for _, b := range fan[:k] {
		n += int(low >> b & 1)
	}
	return n
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
