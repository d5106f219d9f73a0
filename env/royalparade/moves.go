package royalparade

import (
	"errors"
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// rowMask is the set of cells of each row, one bit per cell.
var rowMask = [Rows]uint32{0xff, 0xff << Cols, 0xff << (2 * Cols)}

// Legal writes the legal actions into m.
func (g *Game) Legal(m *env.Mask) {
	m.Clear()
	g.legal(m)
}

// AnyLegal reports whether any action is legal (env.AnyLegaler): at once
// while the stock has cards to deal.
func (g *Game) AnyLegal() bool { return g.dealt < StockSize || g.legal(nil) }

// legal sets the legal actions in m, or, when m is nil, returns true as
// soon as it finds one (and false if there is none).
func (g *Game) legal(m *env.Mask) bool {
	// fit[c] holds the cells whose base pile takes card c next; empty holds
	// the empty cells.
	var fit [cards.NumCodes]uint32
	var empty uint32
	for i, c := range g.cell {
		switch h := g.high[i]; {
		case c == cards.None:
			empty |= 1 << i
		case h > 0 && h < PileCards:
			fit[NextOnPile(c)] |= 1 << i
		}
	}
	// Where a 2/3/4 of each row may go into an empty cell (rule 6).
	var wait [Rows]uint32
	for r := range Rows {
		wait[r] = empty & rowMask[r]
		if wait[r] == 0 {
			wait[r] = empty
		}
	}
	for s := range NumSources {
		var c cards.Card
		if s < NumCells {
			if g.high[s] != 0 {
				continue
			}
			c = g.cell[s]
		} else if n := g.an[s-NumCells]; n > 0 {
			c = g.aux[s-NumCells][n-1]
		}
		if c == cards.None {
			continue
		}
		dst := fit[c]
		if r := c.Rank(); IsBase(r) {
			to := wait[RowOf(r)]
			if s < NumCells {
				// A waiting card moving to another empty cell of its row
				// changes nothing: the cells of a row are alike.
				to &^= rowMask[s/Cols]
			}
			dst |= to
		}
		for dst != 0 {
			d := bits.TrailingZeros32(dst)
			dst &= dst - 1
			if m.Found(ActMove + s*NumCells + d) {
				return true
			}
		}
	}
	return g.dealt < StockSize && m.Found(ActDeal)
}

// Explain says why action a is illegal, or returns nil. It follows the rules
// of docs/rules/royalparade.md directly.
func (g *Game) Explain(a int) error {
	if a < 0 || a >= NumActions {
		return env.Reasonf("no such action (the ids are 0..%d)", NumActions-1)
	}
	if a == ActDeal {
		// Rule 8: a deal at any time while the stock lasts.
		if g.dealt >= StockSize {
			return errors.New("the stock is empty: all 10 deals have been made")
		}
		return nil
	}
	s, d := decode(a)
	// Rule 5: the available cards are the auxiliary tops and loose cards.
	var c cards.Card
	if s < NumCells {
		if s == d {
			return env.Reasonf("a card cannot move onto its own cell %s", cellName(s))
		}
		c = g.cell[s]
		if c == cards.None {
			return env.Reasonf("cell %s is empty", cellName(s))
		}
		if g.high[s] > 0 {
			return env.Reasonf("%s is a base pile (%v on top): bases and built cards never move", cellName(s), c)
		}
	} else {
		p := s - NumCells
		if g.an[p] == 0 {
			return env.Reasonf("auxiliary pile %s is empty", auxName(p))
		}
		c = g.aux[p][g.an[p]-1]
	}
	row := d / Cols
	t := g.cell[d]
	if t == cards.None {
		// Rule 6: only a 2/3/4 goes into an empty cell, its own row first.
		r := c.Rank()
		if r < 2 || r > 4 {
			return env.Reasonf("only a 2, 3 or 4 may go into an empty cell, not %v", c)
		}
		own := int(r) - 2
		if s < NumCells && s/Cols == row {
			return env.Reasonf("%v already waits in row %d: moving it to another empty cell of the same row changes nothing", c, row+1)
		}
		if row == own {
			return nil
		}
		for i := own * Cols; i < (own+1)*Cols; i++ {
			if g.cell[i] == cards.None {
				return env.Reasonf("%v must go into row %d while it has an empty cell (%s)", c, own+1, cellName(i))
			}
		}
		return nil
	}
	// Rule 3: only a base pile in its own row is built on, by threes in suit.
	h := g.high[d]
	if h == 0 {
		return env.Reasonf("%s holds a loose %v: only a base pile in its own row is built on", cellName(d), t)
	}
	if h >= PileCards {
		return env.Reasonf("the pile at %s is complete (%v on top) and takes nothing more", cellName(d), t)
	}
	if c.Suit() != t.Suit() || c.Rank() != t.Rank()+3 {
		return env.Reasonf("%v does not go on %v: it takes only %v (three higher, same suit)", c, t, NextOnPile(t))
	}
	return nil
}

// Apply plays legal action a, with the ace discards of a deal (rule 2).
func (g *Game) Apply(a int) {
	if a == ActDeal {
		for p := range NumAux {
			c := g.stock[g.dealt]
			g.hash ^= stockKey(int(g.dealt), c)
			g.stock[g.dealt] = cards.None
			g.dealt++
			if c.Rank() == cards.Ace {
				s := int(c.Suit())
				g.hash ^= keysAces[s*3+int(g.aces[s])] ^ keysAces[s*3+int(g.aces[s])+1]
				g.aces[s]++
				continue
			}
			g.hash ^= keysAux.Push(g.aux[p][:], &g.an[p], p*MaxAux, c)
		}
		return
	}
	s, d := decode(a)
	var c cards.Card
	if s < NumCells {
		c = g.cell[s]
		g.hash ^= cellKey(s, c, 0)
		g.cell[s] = cards.None
	} else {
		p := s - NumCells
		var key uint64
		c, key = keysAux.Pop(g.aux[p][:], &g.an[p], p*MaxAux)
		g.hash ^= key
	}
	old, h := g.cell[d], g.high[d]
	g.hash ^= cellKey(d, old, h)
	switch {
	case old != cards.None: // build on a base pile
		h++
		if h == PileCards {
			g.full++
		}
	case RowOf(c.Rank()) == d/Cols: // a 2/3/4 into its own row: a base
		h = 1
	default: // a 2/3/4 waiting in another row
		h = 0
	}
	g.cell[d], g.high[d] = c, h
	g.hash ^= cellKey(d, c, h)
}
