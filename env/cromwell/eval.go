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
	score := float64(g.home)
	for f := range NumFans {
		n := int(g.n[f])
		for k := 1; k < n; k++ {
			c := g.fans[f][k]
			if c.Rank() == cards.King {
				score -= float64(k) * 0.5
			}
			for j := 0; j < k; j++ {
				b := g.fans[f][j]
				if b.Suit() == c.Suit() && b.Rank() < c.Rank() {
					score -= 0.25
				}
			}
		}
		if n > 0 && g.found.Fits(g.fans[f][n-1]) {
			score += 0.5
		}
	}
	if g.swap == swapUnused {
		score += 2
	}
	return score
}
