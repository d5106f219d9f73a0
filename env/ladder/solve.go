package ladder

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

var _ env.SafeMover = (*Game)(nil)

// SafeMove returns a move home that never costs a win, or -1: a row's outer
// card, the waste top or the ladder card, of rank r, that fits a
// foundation, when it is an ace or a two, or when every card that could
// ever be built on it (the four cards of rank r−1 and the other colour) is
// home already. It reads no hidden card beyond what the move itself shows.
//
// Why it is safe: a card goes home, onto a row, or into an empty row; once
// home it cannot serve as the card others build on. If nothing could ever be
// built on it, take any winning line from the position and play it with the
// card home at once, skipping the line's moves of that card (a run it lay at
// the end of moves without it; turning it onto the waste is skipped, which
// leaves the waste one card shorter and every other card where it was). A
// foundation that took a card in the line still takes it (the two of a suit
// are alike, so the card arriving early only fills the place one copy of its
// rank would fill). An ace never waits anywhere (each suit has two
// foundations and two aces), so nothing needs a two either.
func (g *Game) SafeMove() int {
	for r := range NumRows {
		if n := g.rn[r]; n > 0 && g.safeHome(g.rows[r][n-1]) {
			return ActRowHome + r
		}
	}
	if g.wn > 0 && g.safeHome(g.waste[g.wn-1]) {
		return ActWasteHome
	}
	if g.ln > 0 && g.safeHome(g.ladder[g.ln-1]) {
		return ActLadderHome
	}
	return -1
}

// safeHome reports whether c fits a foundation and nothing can ever be
// built on it.
func (g *Game) safeHome(c cards.Card) bool {
	if !g.found.Fits(c) {
		return false
	}
	r := uint8(c.Rank())
	if r <= 2 {
		return true
	}
	for s := range cards.NumSuits {
		if cards.Suit(s).Red() != c.Red() && g.found[2*s+1] < r-1 {
			return false // a card of rank r−1 of suit s is not home
		}
	}
	return true
}
