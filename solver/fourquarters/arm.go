package fourquarters

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// An arm's cells, as the techniques read them: cell k of an arm (0…11)
// lies at distance k/2 from the hub, in file k%2. Two cells of one arm
// touch when they differ and their distances differ by at most one.

// armRanks is an arm's ranks, cell by cell, 0 for an empty cell.
type armRanks [rules.ArmCells]uint8

// ranksOf returns the ranks of arm a of g.
func (g *Position) ranksOf(a int) armRanks {
	var r armRanks
	for k, c := range g.Cells()[a*rules.ArmCells : (a+1)*rules.ArmCells] {
		if c != cards.None {
			r[k] = uint8(c.Rank())
		}
	}
	return r
}

// touchArm[k] has bit l set when cells k and l of an arm touch.
var touchArm = func() (t [rules.ArmCells]uint16) {
	for k := range rules.ArmCells {
		for l := range rules.ArmCells {
			if dk, dl := k/2, l/2; k != l && dk-dl <= 1 && dl-dk <= 1 {
				t[k] |= 1 << l
			}
		}
	}
	return t
}()

// hasPair reports whether two touching cells of the arm hold cards of one
// rank.
func (r *armRanks) hasPair() bool {
	for k := range rules.ArmCells - 1 {
		if r[k] == 0 {
			continue
		}
		for l := k + 1; l < rules.ArmCells && l <= k+3; l++ {
			if r[l] == r[k] && touchArm[k]>>l&1 != 0 {
				return true
			}
		}
	}
	return false
}

// count returns the cards of the arm.
func (r *armRanks) count() int {
	n := 0
	for _, x := range r {
		if x != 0 {
			n++
		}
	}
	return n
}

// gaps returns the arm's empty cells that have a card further out in the
// same file, as a bit set of cells: the cells closing up would slide a card
// into.
func (r *armRanks) gaps() uint16 {
	var g uint16
	for f := range 2 {
		var empty uint16
		for d := range rules.ArmLen {
			k := 2*d + f
			if r[k] == 0 {
				empty |= 1 << k
			} else {
				g |= empty
				empty = 0
			}
		}
	}
	return g
}

// empties returns the arm's empty cells as a bit set.
func (r *armRanks) empties() uint16 {
	var e uint16
	for k, x := range r {
		if x == 0 {
			e |= 1 << k
		}
	}
	return e
}

// compact returns the arm with every file slid toward the hub, keeping its
// order (closing up without the refill).
func (r *armRanks) compact() armRanks {
	var c armRanks
	for f := range 2 {
		w := f
		for d := range rules.ArmLen {
			if x := r[2*d+f]; x != 0 {
				c[w] = x
				w += 2
			}
		}
	}
	return c
}

// calm reports whether closing up would change nothing in any arm: no arm
// has a gap, and none has an empty cell while the stock has cards. Every
// dealt game and every position right after closing up is calm.
func (g *Position) calm() bool {
	for a := range rules.NumArms {
		if g.active(a) {
			return false
		}
	}
	return true
}

// active reports whether closing up would change arm a: it has a gap, or
// an empty cell the stock would refill.
func (g *Position) active(a int) bool {
	r := g.ranksOf(a)
	if r.gaps() != 0 {
		return true
	}
	return g.StockLeft() > 0 && r.empties() != 0
}
