package fourquarters

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The table is the 14×14 grid of the cross, one card per grid square: the
// four arms (each a quarter, framed, its letter at its outer end) around
// the empty hub, with the stock in the top left corner and the removed
// cards in the top right one.
const (
	layoutWidth  = GridSize
	layoutHeight = GridSize
)

// cellNames holds the cells' names, made once.
var cellNames = func() (s [NumCells]string) {
	for i := range s {
		s[i] = CellName(i)
	}
	return
}()

// armBox returns an arm's box on the grid: its first column and row and its
// size in squares.
func armBox(a int) (c, r, w, h float64) {
	switch a {
	case 0:
		return 6, 0, 2, ArmLen
	case 1:
		return 8, 6, ArmLen, 2
	case 2:
		return 6, 8, 2, ArmLen
	}
	return 0, 6, ArmLen, 2
}

// Layout describes the table (see render.Layouter): the cells are places
// "N1".."W12" (an empty cell is a slot with its name), the stock "stock"
// (face down) and the removed cards "removed" (a slot counting them).
func (g *Game) Layout(t *env.Table) {
	t.Reset(layoutWidth, layoutHeight)
	const pad = 0.1
	for a := range NumArms {
		c, r, w, h := armBox(a)
		t.Area(c-pad, r-pad, w-1+env.CardWidth+2*pad, h-1+env.CardHeight+2*pad, "")
		t.Frame(c-pad, r-pad, w-1+env.CardWidth+2*pad, h-1+env.CardHeight+2*pad, "", false)
	}
	// Each arm's letter beside its outer end.
	t.Text(5.05, 0.25, 0.8, 0.4, "N", env.AlignCenter, false)
	t.Text(12.5, 5.2, 1, 0.4, "E", env.AlignCenter, false)
	t.Text(5.05, 13.25, 0.8, 0.4, "S", env.AlignCenter, false)
	t.Text(0, 5.2, 1, 0.4, "W", env.AlignCenter, false)
	t.Area(6-pad, 6-pad, 1+env.CardWidth+2*pad, 1+env.CardHeight+2*pad, "hub")

	t.Text(0.3, 0, 2.2, 0.34, "Four Quarters", env.AlignLeft, false)
	t.Text(0.3, 0.55, 1.5, 0.24, "stock", env.AlignLeft, false)
	t.Pile(0.3, 0.9, cards.FaceDown, g.StockLeft(), "stock", 0, "stock")
	t.Text(12.5, 0.55, 1.3, 0.24, "removed", env.AlignRight, false)
	t.Pile(12.7, 0.9, cards.None, int(g.removed), "removed", 0, "")

	for i, c := range g.cells {
		r, col := CellPos(i)
		x, y := float64(col), float64(r)
		if c == cards.None {
			t.Slot(x, y, cellNames[i], 0, cellNames[i])
			continue
		}
		t.Card(x, y, c, cellNames[i], 0)
	}
}

// ActionSpots says where action a takes a card from and puts it (see
// render.Layouter): a pair from its lower cell to its higher one (either card
// may be clicked first); "close" is a click on the stock.
func (g *Game) ActionSpots(a int) (from, to env.Spot) {
	switch {
	case a == ActClose:
		return env.Whole("stock"), env.NoSpot
	case a < ActPair || a >= ActPair+NumPairs:
		return env.NoSpot, env.NoSpot
	}
	i, j := PairCells(a - ActPair)
	return env.Whole(cellNames[i]), env.Whole(cellNames[j])
}
