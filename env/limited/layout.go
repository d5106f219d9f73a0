package limited

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The table: the stock (in the second deal the face-down pile) and the waste
// at the top left, the eight foundations at the top right; below them the
// privileged row p1..p4 in a frame and the fifth card's slot; then the
// twelve columns, each a short fan with its exposed card lowest.
const (
	layoutWidth  = 12
	layoutHeight = 4.9
	topY         = 0.3
	privY        = 1.62
	colY         = 2.95
	colStep      = 0.3
	colRoom      = 1.95
)

// Place names of the reserve.
var privPlaces = [Privileged]string{"p1", "p2", "p3", "p4"}

// Layout describes the table (see render.Layouter): the columns are places
// "1".."12" (positions from the deepest card), the foundations "F", the
// waste "w" (its cards below the top face down), the stock "stock", the
// pile of the second deal "pile", the privileged slots "p1".."p4" and the
// fifth card "5th". A card paired onto the one beneath it is marked Paired.
func (g *Game) Layout(t *env.Table) {
	t.Reset(layoutWidth, layoutHeight)
	if g.second {
		t.Text(0, 0, env.CardWidth, 0.24, "pile", env.AlignCenter, false)
		t.Pile(0, topY, cards.FaceDown, int(g.np), "pile", 0, "pile")
	} else {
		t.Text(0, 0, env.CardWidth, 0.24, "stock", env.AlignCenter, false)
		t.Pile(0, topY, cards.FaceDown, int(g.np), "stock", 0, "stock")
	}
	t.Text(1, 0, env.CardWidth, 0.24, "waste", env.AlignCenter, false)
	switch nw := int(g.nw); {
	case nw == 0:
		t.Slot(1, topY, "w", -1, "")
	default:
		if nw > 1 {
			t.Pile(1, topY, cards.FaceDown, nw-1, "w", 0, "")
		}
		t.Card(1, topY, g.waste[nw-1], "w", nw-1)
	}
	t.Foundations(4, topY, &g.found)

	t.Frame(-0.08, privY-0.08, 3+env.CardWidth+0.16, env.CardHeight+0.16, "privileged", g.second)
	for i, k := range g.priv {
		p := t.Pile(float64(i), privY, k, countOf(k), privPlaces[i], 0, privPlaces[i])
		if !g.second {
			p.Flags |= env.Dim
		}
	}
	t.Text(4.4, privY-0.3, env.CardWidth, 0.24, "5th", env.AlignCenter, false)
	p := t.Pile(4.4, privY, g.fifth, countOf(g.fifth), "5th", 0, "5th")
	if !g.second {
		p.Flags |= env.Dim
	}
	phase := "first deal: one pass"
	switch {
	case g.lost:
		phase = "the fifth card has no move"
	case g.fifth != cards.None:
		phase = "the fifth card must be played"
	case g.second:
		phase = "second deal"
	}
	t.Text(5.6, privY+0.08, 6.3, 0.34, "Limited", env.AlignRight, false)
	t.Text(5.6, privY+0.48, 6.3, 0.27, phase, env.AlignRight, g.fifth != cards.None)

	for c := range NumCols {
		x := float64(c)
		place := env.PlaceNames[c]
		t.Text(x, colY-0.3, env.CardWidth, 0.24, place, env.AlignCenter, false)
		n := int(g.n[c])
		if n == 0 {
			t.Slot(x, colY, place, -1, "space")
			continue
		}
		step := env.Step(n, colRoom, env.CardHeight, colStep)
		for d := range n {
			p := t.Card(x, colY+float64(d)*step, g.cols[c][d], place, d)
			if d == n-1 && g.paired&(1<<c) != 0 {
				p.Flags |= env.Paired
			}
		}
	}
}

// countOf is 1 for a card and 0 for an empty slot.
func countOf(k cards.Card) int {
	if k == cards.None {
		return 0
	}
	return 1
}

// srcSpot returns the spot of move source s and the card it would move.
func (g *Game) srcSpot(s int) (env.Spot, cards.Card) {
	switch {
	case s < NumCols:
		var k cards.Card
		if n := g.n[s]; n > 0 {
			k = g.cols[s][n-1]
		}
		return env.Whole(env.PlaceNames[s]), k
	case s == SrcWaste:
		return env.Whole("w"), g.WasteTop()
	case s < SrcFifth:
		return env.Whole(privPlaces[s-SrcPriv]), g.priv[s-SrcPriv]
	}
	return env.Whole("5th"), g.fifth
}

// ActionSpots says where action a takes a card from and puts it (see
// render.Layouter): a card move from its source (a column, "w", "p1".."p4",
// "5th") to a column or to the foundation its card fits; "turn" and "deal"
// are a click on the stock, "fifth" a click on the pile.
func (g *Game) ActionSpots(a int) (from, to env.Spot) {
	switch {
	case a < 0 || a >= NumActions:
		return env.NoSpot, env.NoSpot
	case a == ActTurn, a == ActDeal:
		return env.Whole("stock"), env.NoSpot
	case a == ActFifth:
		return env.Whole("pile"), env.NoSpot
	}
	s, d := decode(a)
	from, k := g.srcSpot(s)
	if d == DstFoundation {
		return from, env.Spot{Place: "F", Pos: env.FoundationPos(&g.found, k)}
	}
	return from, env.Whole(env.PlaceNames[d-DstColumn])
}
