package ladder

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/ladder"
)

// SafeMove returns a move home that never costs a win, or -1: a row's outer
// card, the waste top or the ladder card, of rank r, that fits a
// foundation, when it is an ace, or when both copies of the card one rank
// below it in its suit are home and every card that could ever be built on
// it (the four cards of rank r−1 and the other colour) is home already. It
// reads no hidden card beyond what the move itself shows.
//
// Why it is safe: a card goes home, onto a row, or into an empty row; once
// home it cannot serve as the card others build on, and nothing could ever
// be built on it. Take any winning line from the position and play it with
// the card home at once, skipping the line's moves of that card (a run it
// lay at the end of moves without it; turning it onto the waste is skipped,
// which leaves the waste one card shorter and every other card where it
// was). The foundations take every card they took in the line: the other
// copy of the card finds its suit's other foundation at r−1, since both
// copies of r−1 are home. (Without that condition the other copy could lie
// on a copy of r−1 and need the one foundation showing r−1 first.) An ace
// needs no condition: each suit has two foundations and two aces.
func (g *Position) SafeMove() int {
	if g.use&Safe == 0 {
		return -1
	}
	found := g.Foundations()
	for r := range rules.NumRows {
		if row := g.Row(r); len(row) > 0 && safeHome(&found, row[len(row)-1]) {
			return rules.ActRowHome + r
		}
	}
	if w := g.Waste(); len(w) > 0 && safeHome(&found, w[len(w)-1]) {
		return rules.ActWasteHome
	}
	if l := g.Ladder(); len(l) > 0 && safeHome(&found, l[len(l)-1]) {
		return rules.ActLadderHome
	}
	return -1
}

// safeHome reports whether c fits a foundation of found and nothing can
// ever be built on it.
func safeHome(found *cards.Foundations, c cards.Card) bool {
	if !found.Fits(c) {
		return false
	}
	r := uint8(c.Rank())
	if r == uint8(cards.Ace) {
		return true
	}
	if found[2*int(c.Suit())+1] < r-1 {
		return false // a copy of r−1 of c's suit is not home
	}
	for s := range cards.NumSuits {
		if cards.Suit(s).Red() != c.Red() && found[2*s+1] < r-1 {
			return false // a card of rank r−1 of suit s is not home
		}
	}
	return true
}
