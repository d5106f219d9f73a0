package fourquarters

import (
	"errors"
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// fileBits returns the occupancy of file fl (arm fl/2, file fl%2) as six bits,
// bit d set when the cell at distance d holds a card.
func fileBits(occ uint64, fl int) uint64 {
	x := (occ >> (uint(fl/2)*ArmCells + uint(fl%2))) & 0x555
	x = (x | x>>1) & 0x333
	x = (x | x>>2) & 0x0f0f
	x = (x | x>>4) & 0xff
	return x
}

// closeChanges reports whether closing up would change the cross: some file
// has a card beyond an empty cell, or an empty cell waits for a stock card.
func (g *Game) closeChanges() bool {
	if g.next < StockSize && g.occ != fullCells {
		return true
	}
	for fl := range numFiles {
		if b := fileBits(g.occ, fl); b&(b+1) != 0 {
			return true
		}
	}
	return false
}

// pairOK reports whether pair action p joins two cards of equal rank.
func (g *Game) pairOK(p int) bool {
	r := rankOf[g.cells[pairCells[p][0]]]
	return r != 0 && r == rankOf[g.cells[pairCells[p][1]]]
}

// armPairMask returns the legal pairs of arm a as 26 bits, bit k for the
// arm's pair k. The arm's ranks are packed four bits a cell (cell k in bits
// 4k…4k+3, 0 when empty); the touching cells of an arm are the cells k and
// k+s for s = 1 (any k), s = 2 (any k) and s = 3 (k in file 0), so three
// shifted comparisons find every pair.
func (g *Game) armPairMask(a int) uint64 {
	cs := g.cells[a*ArmCells : a*ArmCells+ArmCells]
	var x uint64
	for k := ArmCells - 1; k >= 0; k-- {
		x = x<<4 | uint64(rankOf[cs[k]])
	}
	held := (x | x>>1 | x>>2 | x>>3) & nibbleLow
	var b uint64
	for s := 1; s <= 3; s++ {
		y := x ^ x>>(4*s)
		eq := ^(y | y>>1 | y>>2 | y>>3) & held & offsetCells[s]
		for ; eq != 0; eq &= eq - 1 {
			b |= 1 << offsetPair[s][bits.TrailingZeros64(eq)/4]
		}
	}
	return b
}

// pairMask returns the legal pair actions as a 104-bit set: bit p of lo for
// p < 64, bit p-64 of hi otherwise.
func (g *Game) pairMask() (lo, hi uint64) {
	n, e, s, w := g.armPairMask(0), g.armPairMask(1), g.armPairMask(2), g.armPairMask(3)
	lo = n | e<<ArmPairs | s<<(2*ArmPairs)
	hi = s>>(64-2*ArmPairs) | w<<(3*ArmPairs-64)
	return lo, hi
}

// anyMove reports whether some action is legal.
func (g *Game) anyMove() bool {
	if g.closeChanges() {
		return true
	}
	if t := g.pairs; t != nil {
		return g.tableAny(t)
	}
	lo, hi := g.pairMask()
	return lo|hi != 0
}

// Legal writes the legal actions into m.
func (g *Game) Legal(m *env.Mask) {
	if t := g.pairs; t != nil {
		m.Clear()
		g.tablePairs(t, m)
		if g.closeChanges() {
			m.Set(t.close)
		}
		return
	}
	lo, hi := g.pairMask()
	if g.closeChanges() {
		hi |= 1 << (ActClose - 64)
	}
	w := m.Words()
	if len(w) != 2 {
		// Not a mask of this game's size: set the ids one by one.
		m.Clear()
		for a := range NumActions {
			if a < 64 && lo>>a&1 != 0 || a >= 64 && hi>>(a-64)&1 != 0 {
				m.Set(a)
			}
		}
		return
	}
	w[0], w[1] = lo, hi
}

// Explain says why action a is illegal, or returns nil. It follows the rules
// of docs/rules/fourquarters.md directly.
func (g *Game) Explain(a int) error {
	if t := g.pairs; t != nil {
		return g.explainTable(t, a)
	}
	if a < 0 || a >= NumActions {
		return env.Reasonf("no such action (the ids are 0..%d)", NumActions-1)
	}
	if a == ActClose {
		return g.explainClose()
	}
	// Rule 2: two cards of equal rank, any suits, in the same arm, touching
	// by a side or a corner.
	i, j := PairCells(a - ActPair)
	if i/ArmCells != j/ArmCells {
		return env.Reasonf("%s and %s are in different arms: a pair belongs to one quarter", CellName(i), CellName(j))
	}
	ri, ci := CellPos(i)
	rj, cj := CellPos(j)
	if ri-rj > 1 || rj-ri > 1 || ci-cj > 1 || cj-ci > 1 {
		return env.Reasonf("%s and %s do not touch", CellName(i), CellName(j))
	}
	return g.explainCards(i, j)
}

// explainTable is Explain in a variant with a pair table.
func (g *Game) explainTable(t *pairTable, a int) error {
	if a < 0 || a > t.close {
		return env.Reasonf("no such action (the ids are 0..%d)", t.close)
	}
	if a == t.close {
		return g.explainClose()
	}
	return g.explainCards(int(t.cells[a-ActPair][0]), int(t.cells[a-ActPair][1]))
}

// explainCards says why cells i and j (of one arm) hold no pair.
func (g *Game) explainCards(i, j int) error {
	x, y := g.cells[i], g.cells[j]
	switch {
	case x == cards.None && y == cards.None:
		return env.Reasonf("%s and %s are both empty", CellName(i), CellName(j))
	case x == cards.None:
		return env.Reasonf("%s is empty", CellName(i))
	case y == cards.None:
		return env.Reasonf("%s is empty", CellName(j))
	case x.Rank() != y.Rank():
		return env.Reasonf("%v (%s) and %v (%s) differ in rank: a pair needs two cards of equal rank", x, CellName(i), y, CellName(j))
	}
	return nil
}

// explainClose applies rule 3's condition: closing up is offered only when it
// would change something.
func (g *Game) explainClose() error {
	empty := false
	for a := range NumArms {
		for f := range 2 {
			gap := false
			for d := range ArmLen {
				if g.cells[a*ArmCells+2*d+f] == cards.None {
					gap, empty = true, true
				} else if gap {
					return nil // a card would slide toward the hub
				}
			}
		}
	}
	switch {
	case !empty:
		return errors.New("closing up changes nothing: every cell holds a card")
	case g.next < StockSize:
		return nil // an empty cell would be refilled from the stock
	}
	return errors.New("closing up changes nothing: every file is already packed toward the hub and the stock is empty")
}

// Apply plays legal action a.
func (g *Game) Apply(a int) {
	if t := g.pairs; t != nil {
		if a == t.close {
			g.closeUp()
			return
		}
		g.take(int(t.cells[a-ActPair][0]))
		g.take(int(t.cells[a-ActPair][1]))
		return
	}
	if a == ActClose {
		g.closeUp()
		return
	}
	g.take(int(pairCells[a-ActPair][0]))
	g.take(int(pairCells[a-ActPair][1]))
}

// take removes the card of cell i from play.
func (g *Game) take(i int) {
	c := g.cells[i]
	g.hash ^= cellKey(i, c)
	g.cells[i] = cards.None
	g.occ &^= 1 << i
	g.gone[c-1]++
	g.removed++
}

// closeUp slides every file toward the hub keeping its order, then fills the
// empty cells in cell order from the stock while it lasts (rule 3).
func (g *Game) closeUp() {
	for a := range NumArms {
		for f := range 2 {
			w := a*ArmCells + f // next cell to fill, from the hub out
			for d := range ArmLen {
				i := a*ArmCells + 2*d + f
				c := g.cells[i]
				if c == cards.None {
					continue
				}
				if i != w {
					g.hash ^= cellKey(i, c) ^ cellKey(w, c)
					g.cells[w], g.cells[i] = c, cards.None
					g.occ = g.occ&^(1<<i) | 1<<w
				}
				w += 2
			}
		}
	}
	for i := range NumCells {
		if g.next == StockSize {
			break
		}
		if g.cells[i] != cards.None {
			continue
		}
		c := g.stock[g.next]
		g.hash ^= stockKey(int(g.next), c) ^ cellKey(i, c)
		g.stock[g.next] = cards.None
		g.next++
		g.cells[i] = c
		g.occ |= 1 << i
	}
}
