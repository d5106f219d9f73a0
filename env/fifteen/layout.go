package fifteen

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The table: the four up piles (ace to king) and the four down piles (king
// to ace) along the top, the title and the emergency rule's state beside
// them, then the fifteen columns with the first-dealt card at the top and
// the available card lowest.
const (
	layoutWidth  = NumCols
	layoutHeight = 6.05
	pileY        = 0.35
	downX        = 4.5
	colY         = 1.8
	colRoom      = layoutHeight - colY
	colStep      = 0.3
)

// Layout describes the table (see render.Layouter): the columns are places
// "1".."15" (positions from the first-dealt card), the up piles "U" and the
// down piles "D" (position = suit, in suit order).
func (g *Game) Layout(t *env.Table) {
	t.Reset(layoutWidth, layoutHeight)
	t.Text(0, 0.02, 4, 0.26, "up piles  A → K   (U)", env.AlignLeft, false)
	t.Text(downX, 0.02, 4, 0.26, "down piles  K → A   (D)", env.AlignLeft, false)
	for s := range cards.NumSuits {
		up, down := g.up[s], g.down[s]
		var top cards.Card
		if up > 0 {
			top = cards.New(cards.Suit(s), cards.Rank(up))
		}
		t.Pile(float64(s), pileY, top, int(up), "U", s, env.SuitLabels[s])
		top = cards.None
		n := 0
		if down > 0 {
			top, n = cards.New(cards.Suit(s), cards.Rank(down)), 14-int(down)
		}
		t.Pile(downX+float64(s), pileY, top, n, "D", s, env.SuitLabels[s])
	}
	emergency := "emergency rule unused"
	if g.emergency {
		emergency = "emergency rule used"
	}
	t.Text(9, pileY+0.1, 5.9, 0.34, "The Fifteen", env.AlignRight, false)
	t.Text(9, pileY+0.5, 5.9, 0.27, emergency, env.AlignRight, false)
	for c := range NumCols {
		t.Column(float64(c), colY, colRoom, colStep, env.PlaceNames[c], g.cols[c][:g.n[c]], "lane")
	}
}

// ActionSpots says where action a takes a card from and puts it (see
// render.Layouter): from a column to its suit's up or down pile or to another
// column; the emergency rule is chosen by its name only.
func (g *Game) ActionSpots(a int) (from, to env.Spot) {
	if a < 0 || a >= NumActions {
		return env.NoSpot, env.NoSpot
	}
	kind, x, y := decode(a)
	switch kind {
	case ActUp, ActDown:
		to = env.Whole("U")
		if kind == ActDown {
			to.Place = "D"
		}
		if n := g.n[x]; n > 0 {
			to.Pos = int(g.cols[x][n-1].Suit())
		}
		return env.Whole(env.PlaceNames[x]), to
	case ActMove:
		return env.Whole(env.PlaceNames[x]), env.Whole(env.PlaceNames[y])
	}
	return env.NoSpot, env.NoSpot
}
