package cromwell

import "github.com/patience-gym/patience/env"

// The table: the eight foundations along the top with the swap's state
// beside them, then the 26 fans in two rows of 13, each fan a column of
// overlapping cards with its available card lowest.
const (
	layoutWidth  = 13
	layoutHeight = 8
	fanTop0      = 1.4 // top of the first row of fans
	fanRoom      = 3.15
	fanRowGap    = 3.45
	fanStep      = 0.27
)

// fanPlace names fan f (0-based) as moves do: "1".."26".
func fanPlace(f int) string { return env.PlaceNames[f] }

// Layout describes the table (see render.Layouter): foundations as place "F"
// (positions 0..7 in the observation's order), fans as places "1".."26"
// with one placement per card (position = depth from the deepest card),
// and the swap's state; the first pick of a swap under way is marked
// Picked.
func (g *Game) Layout(t *env.Table) {
	t.Reset(layoutWidth, layoutHeight)
	t.Foundations(0, 0, &g.found)
	var swap string
	strong := false
	switch g.swap {
	case SwapDone:
		swap = "swap used"
	case SwapFirst:
		swap, strong = "swap: pick the first card", true
	case SwapSecond:
		swap, strong = "swap: pick the second card", true
	default:
		swap = "swap unused"
	}
	t.Text(8.3, 0.14, 4.6, 0.34, "Cromwell", env.AlignRight, false)
	t.Text(8.3, 0.52, 4.6, 0.26, swap, env.AlignRight, strong)
	for f := range NumFans {
		x := float64(f % 13)
		y := fanTop0 + float64(f/13)*fanRowGap
		fan := t.Column(x, y, fanRoom, fanStep, fanPlace(f), g.fans[f][:g.n[f]], "")
		for k := range fan {
			if g.swap == SwapSecond && int(g.pick) == f*SwapDepth+k {
				fan[k].Flags |= env.Picked
			}
		}
	}
}

// ActionSpots says where action a takes a card from and puts it (see
// render.Layouter): "7>F" from fan 7 to the foundation its top card fits (or
// the foundations as a whole), "7>12" from fan 7 to fan 12, a swap pick
// the card itself; "swap" has no card to click.
func (g *Game) ActionSpots(a int) (from, to env.Spot) {
	if a < 0 || a >= NumActions {
		return env.NoSpot, env.NoSpot
	}
	kind, x, y := decode(a)
	switch kind {
	case ActFoundation:
		to = env.Whole("F")
		if n := g.n[x]; n > 0 {
			to.Pos = env.FoundationPos(&g.found, g.fans[x][n-1])
		}
		return env.Whole(fanPlace(x)), to
	case ActMove:
		return env.Whole(fanPlace(x)), env.Whole(fanPlace(y))
	case ActSwapBegin:
		return env.NoSpot, env.NoSpot
	}
	return env.Spot{Place: fanPlace(x), Pos: y}, env.NoSpot
}
