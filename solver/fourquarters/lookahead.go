package fourquarters

import (
	"math/bits"

	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// What Prune looks ahead at: the positions one or two rounds ahead of a
// calm position, or of a round under way, in the one-arm-a-round form of
// the game (prune.go). A round of arm a removes some of its pairs, then
// closes up: a's files slide and its empty cells are refilled from the
// stock's top in cell order (every other arm is full while the stock
// lasts, packed when it is spent, so the close-up changes a alone). The
// position after a round is dead when a is frozen (frozen.go) or, where
// the parity test is in use, the arms' parity is past mending by the
// stock left (parity.go).

// view is a position as the lookahead sees it: the arms' ranks and the
// stock, the next card first, with what the parity test reads kept up to
// date as the lookahead plays (so that no test counts them again).
type view struct {
	arms  [rules.NumArms]armRanks
	stock []cards.Card
	// left counts the stock's cards by rank; odd has bit k of arm a set
	// when the arm holds an odd number of cards of rank k.
	left   [14]uint8
	odd    [rules.NumArms]uint16
	parity bool // judge dead positions by parity too
}

// view returns g's position as the lookahead sees it.
func (g *Position) view() view {
	v := view{stock: g.Stock(), parity: g.use&Parity != 0}
	for a := range rules.NumArms {
		v.arms[a] = g.ranksOf(a)
		v.odd[a] = v.arms[a].odd()
	}
	for _, c := range v.stock {
		v.left[c.Rank()]++
	}
	return v
}

// odd returns the ranks the arm holds an odd number of, as bit k for rank
// k.
func (r *armRanks) odd() uint16 {
	var o uint16
	for _, x := range r {
		o ^= 1 << x
	}
	return o &^ 1 // bit 0 is the empty cells'
}

// after returns the position after arm a, whose ranks are now r (pairs
// removed, nothing slid yet), closes up.
func (v *view) after(a int, r *armRanks) view {
	w := *v
	c := r.compact()
	for k := range c {
		if c[k] == 0 && len(w.stock) > 0 {
			x := w.stock[0].Rank()
			c[k] = uint8(x)
			w.left[x]--
			w.stock = w.stock[1:]
		}
	}
	w.arms[a] = c
	w.odd[a] = c.odd()
	return w
}

// dead reports that v, reached by a round of arm a, is dead: a holds
// cards and no pair (refilled full, or with the stock spent, it then
// changes only by its own pairs), or the parity is past mending.
func (v *view) dead(a int) bool {
	if c := &v.arms[a]; c.count() > 0 && !c.hasPair() {
		return true
	}
	if !v.parity {
		return false
	}
	o0, o1, o2, o3 := v.odd[0], v.odd[1], v.odd[2], v.odd[3]
	for k := 1; k <= 13; k++ {
		n := o0>>k&1 + o1>>k&1 + o2>>k&1 + o3>>k&1
		if uint8(n) > v.left[k] {
			return true
		}
	}
	return false
}

// roundLives reports whether a round of arm a that has already left the
// arm as r (taken: it removed a pair) and may go on to remove any set of
// the pairs ps disjoint from used leaves a position that is not dead.
func (v *view) roundLives(a int, r armRanks, ps []uint16, used uint16, taken bool) bool {
	if taken {
		if w := v.after(a, &r); !w.dead(a) {
			return true
		}
	}
	for i, p := range ps {
		if p&used != 0 {
			continue
		}
		s := r
		for b := p; b != 0; b &= b - 1 {
			s[bits.TrailingZeros16(b)] = 0
		}
		if v.roundLives(a, s, ps[i+1:], used|p, true) {
			return true
		}
	}
	return false
}

// maxRoundPairs caps the pairs of an arm whose rounds the lookahead
// tries: beyond it the rounds are too many to try at every position, and
// the arm counts as having a round that lives.
const maxRoundPairs = 10

// armLives reports whether arm a has a round from the calm position v
// that leaves a position that is not dead.
func (v *view) armLives(a int) bool {
	var ps [rules.ArmPairs]uint16
	n := v.arms[a].pairs(&ps)
	if n == 0 {
		return false
	}
	if n > maxRoundPairs {
		return true
	}
	return v.roundLives(a, v.arms[a], ps[:n], 0, false)
}

// anyLives reports whether the calm position v is won or has a round that
// leaves a position that is not dead.
func (v *view) anyLives() bool {
	empty := true
	for a := range rules.NumArms {
		if v.arms[a].count() > 0 {
			empty = false
			if v.armLives(a) {
				return true
			}
		}
	}
	return empty && len(v.stock) == 0
}

// pairs lists the pairs of touching cells of arm ranks r that hold one
// rank, as cell bits, into ps, in increasing order of their higher cell
// then lower, and returns how many there are.
func (r *armRanks) pairs(ps *[rules.ArmPairs]uint16) int {
	n := 0
	for l := 1; l < rules.ArmCells; l++ {
		if r[l] == 0 {
			continue
		}
		for k := max(0, l-3); k < l; k++ {
			if r[k] == r[l] && touchArm[k]>>l&1 != 0 {
				ps[n] = 1<<k | 1<<l
				n++
			}
		}
	}
	return n
}
