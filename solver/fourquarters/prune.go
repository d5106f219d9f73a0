package fourquarters

import (
	"math/bits"

	"github.com/patience-gym/patience/env"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// Prune keeps, where one arm A is in the middle of a round (closing up
// would change A and no other arm), only the pairs of A and closing up;
// of A's pairs only those whose outer cell (the higher-numbered) lies
// beyond every cell of A emptied since the last close-up; and closing up
// only if the position it leads to is not known dead (closeFreezes). At a
// calm position (no arm in a round) it leaves out the pairs of the arms
// all of whose rounds lead to such dead positions (roundsDead). Elsewhere
// it keeps every move. It prunes only in a search that starts from a calm
// position (no arm in the middle of a round, as every deal starts:
// DeadAtStart, New), and never in the variant hub. The close-ups and
// rounds are left out with the technique Lookahead, and judged with the
// frozen-arm test and, where in use, the parity test.
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
// keeps more moves, never fewer). The moves left out because they lead to
// dead positions only, or only by rounds of that form, are never needed
// by a win.
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
		// A new round: leave out the arms all of whose rounds lead to dead
		// positions.
		if g.use&Lookahead == 0 {
			return
		}
		var dead [rules.NumArms]bool
		any := false
		for a := range rules.NumArms {
			dead[a] = g.roundsDead(a)
			any = any || dead[a]
		}
		if !any {
			return
		}
		for x := m.Next(0); x >= 0; x = m.Next(x + 1) {
			if i, _, ok := g.ActionCells(x); ok && dead[i/rules.ArmCells] {
				m.Unset(x)
			}
		}
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
	if g.use&Lookahead != 0 && m.Has(close) && g.closeFreezes(act, &r) {
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

// closeFreezes reports that closing up now would leave a dead position:
// arm act, the one arm in the middle of a round (whose ranks are r), has
// its files slid and its empty cells refilled from the stock in cell
// order (no other arm has an empty cell, so the refill starts with it),
// and then it is frozen (frozen.go), or, where the parity test is in use,
// the arms' parity is beyond what the stock left can mend (parity.go).
// The position it leads to is dead, so Prune leaves the move out: a win
// never needs it.
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
	if c.count() > 0 && !c.hasPair() {
		return true
	}
	if g.use&Parity == 0 {
		return false
	}
	var left [14]uint8
	for _, x := range stock {
		left[x.Rank()]++
	}
	var odd [14]uint8 // arms with an odd number of the rank
	for a := range rules.NumArms {
		ra := c
		if a != act {
			ra = g.ranksOf(a)
		}
		var par [14]uint8
		for _, x := range ra {
			par[x] ^= 1
		}
		for k := 1; k <= 13; k++ {
			odd[k] += par[k]
		}
	}
	for k := 1; k <= 13; k++ {
		if odd[k] > left[k] {
			return true
		}
	}
	return false
}

// armPairs lists the pairs of touching cells of arm ranks r that hold one
// rank, as cell bits, into ps, and returns how many there are (at most
// len(ps)).
func (r *armRanks) pairs(ps *[rules.ArmPairs]uint16) int {
	n := 0
	for k := range rules.ArmCells - 1 {
		if r[k] == 0 {
			continue
		}
		for l := k + 1; l < rules.ArmCells && l <= k+3; l++ {
			if r[l] == r[k] && touchArm[k]>>l&1 != 0 {
				ps[n] = 1<<k | 1<<l
				n++
			}
		}
	}
	return n
}

// maxRoundPairs caps the pairs of an arm whose rounds roundsDead tries:
// beyond it the rounds are too many to try at every position.
const maxRoundPairs = 10

// roundsDead reports that every round arm a could play from this calm
// position (a non-empty set of its pairs removed, then, if that slides or
// refills anything, a close-up, which with the other arms calm refills a
// from the stock's top) leaves a dead position (closeFreezes). It is false
// when the arm has no pair, or too many to try.
func (g *Position) roundsDead(a int) bool {
	r := g.ranksOf(a)
	var ps [rules.ArmPairs]uint16
	n := r.pairs(&ps)
	if n == 0 || n > maxRoundPairs {
		return false
	}
	return !g.someRoundLives(a, &r, ps[:n], 0, false)
}

// someRoundLives reports whether a round of arm a that removes, besides
// the cells already emptied in r, a set of the pairs ps (disjoint from
// those cells) leaves a position that is not known dead; taken says
// whether r already lost a pair.
func (g *Position) someRoundLives(a int, r *armRanks, ps []uint16, used uint16, taken bool) bool {
	if taken && !g.closeFreezes(a, r) {
		return true
	}
	for i, p := range ps {
		if p&used != 0 {
			continue
		}
		s := *r
		for b := p; b != 0; b &= b - 1 {
			s[bits.TrailingZeros16(b)] = 0
		}
		if g.someRoundLives(a, &s, ps[i+1:], used|p, true) {
			return true
		}
	}
	return false
}
