package fourquarters

import "github.com/patience-gym/patience/env/cards"

// Class returns "first-class" when every card is removed, "second-class" when
// no move is left with 2 or 4 cards on the cross, and "" otherwise (while the
// game runs, and at an ordinary loss).
//
// Why the cards left sit "in the inner corners of the cross", as the text
// says: the game ends only when closing up would change nothing. With at
// most 4 cards on the cross there are empty cells, so the stock must be empty
// (it would refill them) and every file packed toward the hub (a card would
// slide). Each card left therefore lies at the hub end of its file: with one
// card per file they all sit at d = 0, in the eight cells N1, N2, E1, E2, S1,
// S2, W1 and W2 that flank the four inner corners. A file may also keep two
// cards or more (d = 0, 1, …) whose touching neighbours differ in rank, so
// the place describes the usual end rather than a condition: the class
// counts the cards only.
func (g *Game) Class() string {
	switch {
	case g.removed == cards.DeckSize:
		return "first-class"
	case g.removed >= cards.DeckSize-4 && !g.anyMove():
		return "second-class"
	}
	return ""
}
