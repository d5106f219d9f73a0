package ladder

import (
	"github.com/patience-gym/patience/env/cards"
)

// distance returns how many cards of its suit must go home before c can:
// 1 when c fits a foundation now.
func (g *Game) distance(c cards.Card) int {
	s, r := c.Suit(), uint8(c.Rank())
	f := g.found[2*s]
	if f >= r {
		f = g.found[2*s+1]
	}
	return max(int(r)-int(f), 1)
}

// Evaluate scores the position for the heuristic agent, in cards, from what a
// player sees: the cards home; minus, for each row card lying under cards
// out of sequence, half a card per break in the descending alternating
// sequence above it (a king out of the inner place counts twice: only an
// empty row takes it), divided by how far the card is from going home; plus
// half a card for each empty row and for each available card (row outer
// card, waste top, ladder card) that goes home now; minus 0.3 of a card for
// each card left in the ladder, which gives its cards one at a time and
// holds back the redeal; minus 0.05 for each card under the waste top,
// out of reach until the redeal.
func (g *Game) Evaluate() float64 {
	score := float64(g.home)
	for r := range NumRows {
		n := int(g.rn[r])
		if n == 0 {
			score += 0.5
			continue
		}
		row := &g.rows[r]
		breaks := 0
		for i := n - 1; i >= 0; i-- {
			c := row[i]
			if i < n-1 && !buildsOn(row[i+1], c) {
				breaks++
				if row[i+1].Rank() == cards.King {
					breaks++
				}
			}
			if breaks > 0 {
				score -= 0.5 * float64(breaks) / float64(g.distance(c))
			}
		}
		if g.found.Fits(row[n-1]) {
			score += 0.5
		}
	}
	if g.wn > 0 && g.found.Fits(g.waste[g.wn-1]) {
		score += 0.5
	}
	if g.ln > 0 && g.found.Fits(g.ladder[g.ln-1]) {
		score += 0.5
	}
	score -= 0.3 * float64(g.ln)
	score -= 0.05 * float64(max(int(g.wn)-1, 0))
	return score
}
