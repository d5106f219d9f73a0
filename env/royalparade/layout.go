package royalparade

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The table: the rectangle of 3 rows of 8 cells with each row's base and
// building sequence on its left, the eight auxiliary piles fanned below it,
// and on the right the stock and the dead aces.
const (
	layoutWidth  = 10.75
	layoutHeight = 7.15
	cellX        = 1.05 // x of column 1
	cellY        = 0.35 // y of row 1
	rowGap       = 1.05
	auxY         = 3.75
	auxStep      = 0.27
	auxRoom      = 3.3
	sideX        = 9.45
)

// Place names, made once.
var (
	cellNames = func() (n [NumCells]string) {
		for i := range n {
			n[i] = cellName(i)
		}
		return n
	}()
	auxNames = func() (n [NumAux]string) {
		for p := range n {
			n[p] = auxName(p)
		}
		return n
	}()
	rowTitles = [Rows][2]string{{"r1  2s", "2 5 8 J"}, {"r2  3s", "3 6 9 Q"}, {"r3  4s", "4 7 10 K"}}
	colTitles = func() (n [Cols]string) {
		for c := range n {
			n[c] = "c" + env.PlaceNames[c]
		}
		return n
	}()
)

// Layout describes the table (see render.Layouter): cells are places
// "r1c1".."r3c8" (a base pile drawn as its top card with the pile's height
// as its count, Complete when finished; a loose card alone), auxiliary piles
// "a1".."a8" (every card face up, positions from the bottom), the stock
// "stock" and the discarded aces "aces" (one card each, position = suit).
func (g *Game) Layout(t *env.Table) {
	t.Reset(layoutWidth, layoutHeight)
	for c := range Cols {
		t.Text(cellX+float64(c), cellY-0.3, env.CardWidth, 0.24, colTitles[c], env.AlignCenter, false)
	}
	for r := range Rows {
		y := cellY + float64(r)*rowGap
		t.Text(0, y+0.22, 0.95, 0.3, rowTitles[r][0], env.AlignLeft, false)
		t.Text(0, y+0.56, 0.95, 0.22, rowTitles[r][1], env.AlignLeft, false)
		for c := range Cols {
			i := r*Cols + c
			x := cellX + float64(c)
			top, h := g.cell[i], int(g.high[i])
			switch {
			case top == cards.None:
				t.Slot(x, y, cellNames[i], -1, env.PlaceNames[r+1])
			case h > 0:
				p := t.Pile(x, y, top, h, cellNames[i], 0, "")
				if h == PileCards {
					p.Flags |= env.Complete
				}
			default:
				t.Card(x, y, top, cellNames[i], 0)
			}
		}
	}
	for p := range NumAux {
		x := cellX + float64(p)
		t.Text(x, auxY-0.3, env.CardWidth, 0.24, auxNames[p], env.AlignCenter, false)
		n := int(g.an[p])
		if n == 0 {
			t.Slot(x, auxY, auxNames[p], -1, "")
			continue
		}
		step := env.Step(n, auxRoom, env.CardHeight, auxStep)
		for k := range n {
			t.Card(x, auxY+float64(k)*step, g.aux[p][k], auxNames[p], k)
		}
	}
	t.Text(sideX-0.1, cellY-0.3, env.CardWidth+0.2, 0.24, "stock", env.AlignCenter, false)
	t.Pile(sideX, cellY, cards.FaceDown, g.StockLen(), "stock", 0, "stock")
	t.Text(sideX-0.2, cellY+1.1, env.CardWidth+0.4, 0.24, "dead aces", env.AlignCenter, false)
	y, any := cellY+1.4, false
	for s := range cards.NumSuits {
		for range g.aces[s] {
			t.Card(sideX, y, cards.New(cards.Suit(s), cards.Ace), "aces", s)
			y += 0.27
			any = true
		}
	}
	if !any {
		t.Slot(sideX, y, "aces", -1, "A")
	}
	t.Text(sideX-0.5, 5.9, 1.4, 0.3, "Royal", env.AlignRight, false)
	t.Text(sideX-0.5, 6.25, 1.4, 0.3, "Parade", env.AlignRight, false)
}

// ActionSpots says where action a takes a card from and puts it (see
// render.Layouter): from a cell or an auxiliary pile to a cell; "deal" is a
// click on the stock.
func (g *Game) ActionSpots(a int) (from, to env.Spot) {
	switch {
	case a == ActDeal:
		return env.Whole("stock"), env.NoSpot
	case a < 0 || a >= NumActions:
		return env.NoSpot, env.NoSpot
	}
	s, d := decode(a)
	if s < NumCells {
		from = env.Whole(cellNames[s])
	} else {
		from = env.Whole(auxNames[s-NumCells])
	}
	return from, env.Whole(cellNames[d])
}
