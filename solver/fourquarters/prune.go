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
		if g.use&Lookahead != 0 {
			g.pruneRounds(-1, -1, m) // a new round: leave out the dead ones
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
	if g.use&Lookahead != 0 {
		g.pruneRounds(act, last, m)
	}
}

// pruneRounds leaves out of m the moves that lead only to dead positions,
// looking at the rounds they can be part of. In a round under way in arm
// act (cells up to last emptied since the last close-up; act -1 for a
// calm position), a pair is kept only if some round that goes on with it,
// then with pairs of higher outer cells only, leaves a position that is
// not dead; and closing up is kept only if the position after it is not
// dead and is won or has such a round of some arm (two rounds ahead).
func (g *Position) pruneRounds(act, last int, m *env.Mask) {
	v := g.view()
	close := g.CloseAction()
	if act >= 0 && m.Has(close) {
		if w := v.after(act, &v.arms[act]); w.dead(act) || !w.anyLives() {
			m.Unset(close)
		}
	}
	for x := m.Next(0); x >= 0; x = m.Next(x + 1) {
		if x == close {
			continue
		}
		i, j, ok := g.ActionCells(x)
		if !ok {
			continue
		}
		a := i / rules.ArmCells
		r := v.arms[a]
		var ps [rules.ArmPairs]uint16
		n := r.pairs(&ps)
		if n > maxRoundPairs {
			continue
		}
		k, l := i%rules.ArmCells, j%rules.ArmCells
		e := uint16(1<<k | 1<<l)
		r[k], r[l] = 0, 0
		// The pairs the round may go on with: higher outer cells (pairs
		// lists them in that order), none of e's cells.
		rest := ps[:n]
		for len(rest) > 0 && rest[0] != e {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			rest = rest[1:]
		}
		if !v.roundLives(a, r, rest, e, true) {
			m.Unset(x)
		}
	}
}
