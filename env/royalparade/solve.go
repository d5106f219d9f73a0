package royalparade

import (
	"github.com/patience-gym/patience/env/cards"
)

// SafeMove returns a build that never costs a win, or -1: a card c (the
// top of an auxiliary pile, or a loose card) that fits a base pile, when
// its twin is built already or two base piles take c now.
//
// Why it is safe: a card other than a 2, 3 or 4 has one use only, to be
// built on a base pile of its suit in its row, and built cards never move.
// Building c now frees the place it lay in (a card below it on its pile, or
// a cell) and moves a pile on. The only thing it could spoil is the twin's
// chance: if both copies of c wait for the same single pile, which of them
// goes first decides which place is freed first. When the twin is built
// already, or when both piles of c's suit in c's row take c now, there is no
// such contest: take any winning line from the position and play it with c
// built at once, skipping c's own build; where the line builds the twin, the
// other pile takes it (the two piles are alike, and c arriving early only
// fills the place a copy of c would fill). A 2, 3 or 4 is never built (it
// is a base), so this rule never moves one.
func (g *Game) SafeMove() int {
	for s := range NumSources {
		var c cards.Card
		if s < NumCells {
			if g.high[s] != 0 {
				continue
			}
			c = g.cell[s]
		} else if n := g.an[s-NumCells]; n > 0 {
			c = g.aux[s-NumCells][n-1]
		}
		if c == cards.None || isBase(c.Rank()) {
			continue
		}
		// The base piles of c's suit in c's row: those taking c now, and
		// those holding c's rank already (the twin).
		row := rowOf(c.Rank())
		dst, fit, built := -1, 0, 0
		for i := row * Cols; i < (row+1)*Cols; i++ {
			top := g.cell[i]
			if g.high[i] == 0 || top.Suit() != c.Suit() {
				continue
			}
			switch {
			case next(top) == c && g.high[i] < PileCards:
				fit++
				if dst < 0 {
					dst = i
				}
			case top.Rank() >= c.Rank():
				built++
			}
		}
		if dst >= 0 && (built > 0 || fit == 2) {
			return ActMove + s*NumCells + dst
		}
	}
	return -1
}
