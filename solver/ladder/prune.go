package ladder

import (
	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/ladder"
)

// Prune leaves out, right after a turn of the stock (the last action of
// line), every move that neither takes the waste's top nor turns the stock
// again nor redeals: the moves of a row's cards and of the ladder card.
//
// Why it keeps the contract (the reach rule): such a move X reads and
// changes only the rows, the ladder and the foundations, which a turn
// neither reads nor changes, and a turn reads only the stock. So X is
// legal before the turn, and X then the turn leads where the turn then X
// does. The position before the turn was expanded by the search, with X
// among its moves unless it too came right after a turn; going back over
// the turns in a row, the first position before them that came by another
// move (or is the start) has X, and from the position X leads to the same
// turns (never left out) reach the position after the turn and X.
func (g *Position) Prune(line []int, m *env.Mask) {
	if g.use&TurnOrder == 0 || len(line) == 0 || line[len(line)-1] != rules.ActTurn {
		return
	}
	w := m.Words()
	// Keep the waste's moves (home, onto or into rows), the turn and the
	// redeal; clear the rest.
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		if !wasteMove(a) {
			w[a>>6] &^= 1 << (uint(a) & 63)
		}
	}
}

// wasteMove reports whether action a takes the waste's top, turns the
// stock or redeals.
func wasteMove(a int) bool {
	switch {
	case a == rules.ActWasteHome, a == rules.ActTurn, a == rules.ActRedeal:
		return true
	case a >= rules.ActWaste && a < rules.ActLadder:
		return true
	}
	return false
}
