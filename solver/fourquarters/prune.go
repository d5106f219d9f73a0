package fourquarters

import (
	"math/bits"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// Prune keeps, where one arm A is in the middle of a round (closing up
// would change A and no other arm), only the pairs of A and closing up;
// and of A's pairs only those whose outer cell (the higher-numbered) lies
// beyond every cell of A emptied since the last close-up. Elsewhere it
// keeps every move. It prunes only in a search that starts from a calm
// position (no arm in the middle of a round, as every deal starts:
// DeadAtStart, New), and never in the variant hub.
//
// Why it keeps the contract (the reach rule, for positions the search
// meets from a calm start). Pairs removed between two close-ups never
// make or break another pair except by taking its cards, so they can be
// removed in any order. And a round in which several arms lose pairs
// before one close-up ends where the same pairs, removed arm by arm in the
// refill's order (N, E, S, W), each arm closed up on its own, end: the
// refill hands out the stock in cell order, so each arm gets the same
// cards either way, and closing up changes nothing in an arm that lost no
// card (from a calm start, every arm is calm after each close-up: packed,
// and full while the stock lasts). So every winning line from the start
// is matched by one whose every round removes pairs in one arm, outer
// cells in increasing order, then closes up; each of its moves is kept
// where it is made, since the rule reads only the position. The cells
// "emptied since the last close-up" are read from the position as its
// empty cells while the stock has cards (a close-up refills every empty
// cell then) and as the gaps when it has none (the rest of an emptied
// file end is indistinguishable from one long empty, and leaving it out
// keeps more moves, never fewer).
func (g *Position) Prune(line []int, m *env.Mask) {
	if g.use&OneArm == 0 || !g.regular || g.hub() {
		return
	}
	act := -1
	for a := range rules.NumArms {
		if g.active(a) {
			if act >= 0 {
				return // two arms in a round: only a start that is not calm has them
			}
			act = a
		}
	}
	if act < 0 {
		return
	}
	r := g.ranksOf(act)
	h := r.gaps()
	if g.StockLeft() > 0 {
		h = r.empties()
	}
	last := -1 // the highest cell emptied since the last close-up
	if h != 0 {
		last = 15 - bits.LeadingZeros16(h)
	}
	close := g.CloseAction()
	if g.use&Frozen != 0 && m.Has(close) && g.closeFreezes(act, &r) {
		m.Unset(close)
	}
	for x := m.Next(0); x >= 0; x = m.Next(x + 1) {
		if x == close {
			continue
		}
		i, j, ok := g.ActionCells(x)
		if !ok {
			continue
		}
		if i/rules.ArmCells != act || j/rules.ArmCells != act || j%rules.ArmCells <= last {
			m.Unset(x)
		}
	}
}

// closeFreezes reports that closing up now would leave arm act, the one
// arm in the middle of a round (whose ranks are r), frozen (frozen.go):
// its files slid, its empty cells refilled from the stock in cell order
// (no other arm has an empty cell, so the refill starts with it), and no
// pair in it. The position it leads to is dead, so Prune leaves the move
// out: a win never needs it.
func (g *Position) closeFreezes(act int, r *armRanks) bool {
	c := r.compact()
	stock := g.Stock()
	for k := range c {
		if c[k] == 0 && len(stock) > 0 {
			c[k] = uint8(stock[0].Rank())
			stock = stock[1:]
		}
	}
	// Refilled full, or with the stock spent, the arm then changes only by
	// its own pairs.
	return c.count() > 0 && !c.hasPair()
}
