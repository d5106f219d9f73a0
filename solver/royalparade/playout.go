package royalparade

import (
	"math/bits"

	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/royalparade"
)

// playout plays the rest of g's game by a fixed greedy policy, on a
// scratch copy of its cards, and returns the progress it reaches (cards in
// complete piles and aces out), plus a quarter of a card for each card of
// an incomplete pile. The policy: build every card a pile takes, put each
// 2, 3 or 4 that shows into an empty cell of its row, else into an empty
// cell of the row with the most of them, move a waiting card into its row
// when a cell there is empty, and deal only when nothing else moves.
func playout(g *rules.Game) float64 {
	var p sim
	p.load(g)
	stock := g.Stock()
	for {
		p.settle()
		if len(stock) == 0 {
			break
		}
		for a := range rules.NumAux {
			if c := stock[a]; c.Rank() == cards.Ace {
				p.aces++
			} else {
				p.aux[a][p.an[a]] = c
				p.an[a]++
			}
		}
		stock = stock[rules.NumAux:]
	}
	score := float64(p.aces)
	for i := range rules.NumCells {
		if h := p.high[i]; h == rules.PileCards {
			score += rules.PileCards
		} else {
			score += 0.25 * float64(h)
		}
	}
	return score
}

// rowCells are the cells of each row, one bit each.
var rowCells = [rules.Rows]uint32{0xff, 0xff << rules.Cols, 0xff << (2 * rules.Cols)}

// sim is the state of a playout.
type sim struct {
	cell  [rules.NumCells]cards.Card
	high  [rules.NumCells]uint8
	aux   [rules.NumAux][rules.MaxAux]cards.Card
	an    [rules.NumAux]uint8
	fit   [cards.NumCodes]uint32 // the cells whose piles take each card next
	empty uint32                 // the empty cells
	wait  uint32                 // the cells holding a loose card
	aces  int
}

func (p *sim) load(g *rules.Game) {
	for i := range rules.NumCells {
		c, h := g.Cell(i)
		p.cell[i], p.high[i] = c, uint8(h)
		switch {
		case c == cards.None:
			p.empty |= 1 << i
		case h == 0:
			p.wait |= 1 << i
		case h < rules.PileCards:
			p.fit[rules.NextOnPile(c)] |= 1 << i
		}
	}
	for a := range rules.NumAux {
		n := copy(p.aux[a][:], g.Aux(a))
		p.an[a] = uint8(n)
	}
	p.aces = g.AcesOut()
}

// place finds where card c, from cell from (−1 for an auxiliary pile),
// goes by the policy: the cell index, or −1.
func (p *sim) place(c cards.Card, from int) int {
	r := c.Rank()
	if !rules.IsBase(r) {
		if f := p.fit[c]; f != 0 {
			return bits.TrailingZeros32(f)
		}
		return -1
	}
	row := rules.RowOf(r)
	if e := p.empty & rowCells[row]; e != 0 {
		return bits.TrailingZeros32(e)
	}
	if from >= 0 {
		return -1 // a waiting card stays where it waits
	}
	best, most := -1, 0
	for r2 := range rules.Rows {
		if r2 == row {
			continue
		}
		if e := p.empty & rowCells[r2]; bits.OnesCount32(e) > most {
			best, most = bits.TrailingZeros32(e), bits.OnesCount32(e)
		}
	}
	return best
}

// put puts card c into cell i by the rules: built on a pile, a base in
// its row, or waiting.
func (p *sim) put(c cards.Card, i int) {
	switch {
	case p.cell[i] != cards.None:
		p.fit[c] &^= 1 << i
		p.high[i]++
	case rules.RowOf(c.Rank()) == i/rules.Cols:
		p.empty &^= 1 << i
		p.high[i] = 1
	default:
		p.empty &^= 1 << i
		p.wait |= 1 << i
		p.high[i] = 0
	}
	p.cell[i] = c
	if h := p.high[i]; h > 0 && h < rules.PileCards {
		p.fit[rules.NextOnPile(c)] |= 1 << i
	}
}

// settle makes every move of the policy until none is left.
func (p *sim) settle() {
	for moved := true; moved; {
		moved = false
		for w := p.wait; w != 0; w &= w - 1 {
			i := bits.TrailingZeros32(w)
			c := p.cell[i]
			if d := p.place(c, i); d >= 0 {
				p.cell[i] = cards.None
				p.wait &^= 1 << i
				p.empty |= 1 << i
				p.put(c, d)
				moved = true
			}
		}
		for a := range rules.NumAux {
			for p.an[a] > 0 {
				c := p.aux[a][p.an[a]-1]
				d := p.place(c, -1)
				if d < 0 {
					break
				}
				p.an[a]--
				p.put(c, d)
				moved = true
			}
		}
	}
}
