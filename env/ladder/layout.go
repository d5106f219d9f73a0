package ladder

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The table: the stock, the waste and the eight foundations along the top;
// below, the ladder stands in the middle between its two rails, its
// face-down cards above the face-up one, with rows 1-4 on its left (growing
// leftwards) and rows 5-8 on its right (growing rightwards).
const (
	layoutWidth  = 13.1
	layoutHeight = 5.75
	topY         = 0.3
	rowsY        = 1.5
	sideRoom     = 5.6                                 // room of a side's rows
	ladderX      = sideRoom + 0.46                     // the ladder column
	rightX       = ladderX + env.CardWidth + 0.46      // inner card of rows 5-8
	leftX        = sideRoom - env.CardWidth            // inner card of rows 1-4
	rowStep      = 0.42                                // overlap along a row
	ladderRoom   = NumRows/2 - 1 + env.CardHeight      // rows 1-4's height
	ladderStep   = 0.11                                // overlap down the ladder
	numberW      = ladderX - sideRoom                  // the gap for row numbers
	rungGap      = 0.42                                // between the ladder's rungs
	railInset    = 0.05                                // rails beside the cards
	railTop      = rowsY - 0.12                        // top of the rails
	railBottom   = rowsY + ladderRoom + 0.1            // bottom of the rails
	ladderRight  = ladderX + env.CardWidth + railInset // right rail
)

// Layout describes the table (see render.Layouter): rows are places "1".."8"
// (positions from the inner end; a king locked at the inner end is marked
// Locked), the ladder "L" (its face-down cards, then the face-up one),
// the waste "W" (its cards below the top face down), the stock "stock" and
// the foundations "F".
func (g *Game) Layout(t *env.Table) {
	t.Reset(layoutWidth, layoutHeight)
	t.Text(-0.1, 0, env.CardWidth+0.1, 0.24, "stock", env.AlignCenter, false)
	t.Pile(0, topY, cards.FaceDown, int(g.sn), "stock", 0, "stock")
	t.Text(1, 0, env.CardWidth+0.2, 0.24, "waste W", env.AlignCenter, false)
	if nw := int(g.wn); nw == 0 {
		t.Slot(1, topY, "W", -1, "")
	} else {
		if nw > 1 {
			t.Pile(1, topY, cards.FaceDown, nw-1, "W", 0, "")
		}
		t.Card(1, topY, g.waste[nw-1], "W", nw-1)
	}
	redeal := "redeal unused"
	if g.redealt {
		redeal = "redeal used"
	}
	t.Text(2.05, topY+0.1, 2.6, 0.34, "Ladder", env.AlignLeft, false)
	t.Text(2.05, topY+0.5, 2.6, 0.27, redeal, env.AlignLeft, false)
	t.Foundations(layoutWidth-8, topY, &g.found)

	// The ladder's rails and rungs, seen where its cards have gone.
	t.Line(ladderX-railInset, railTop, ladderX-railInset, railBottom)
	t.Line(ladderRight, railTop, ladderRight, railBottom)
	for y := railTop + rungGap/2; y < railBottom; y += rungGap {
		t.Line(ladderX-railInset, y, ladderRight, y)
	}
	t.Text(ladderX-0.2, railBottom-0.02, env.CardWidth+0.4, 0.24, "ladder L", env.AlignCenter, false)
	ln := int(g.ln)
	if ln == 0 {
		t.Slot(ladderX, rowsY+ladderRoom-env.CardHeight, "L", -1, "")
	}
	step := env.Step(LadderSize, ladderRoom, env.CardHeight, ladderStep)
	y0 := rowsY + ladderRoom - env.CardHeight - float64(ln-1)*step
	for i := range ln {
		c := cards.Card(cards.FaceDown)
		if i == ln-1 {
			c = g.ladder[i]
		}
		t.Card(ladderX, y0+float64(i)*step, c, "L", i)
	}

	for r := range NumRows {
		left := r < NumRows/2
		y := rowsY + float64(r%(NumRows/2))
		place := env.PlaceNames[r]
		inner, dir, peek := leftX, -1.0, env.PeekRight
		numX := sideRoom - 0.02
		if !left {
			inner, dir, peek = rightX, 1.0, env.PeekLeft
			numX = ladderX + env.CardWidth + 0.06
		}
		t.Text(numX, y+0.3, numberW-0.04, 0.26, place, env.AlignCenter, false)
		n := int(g.rn[r])
		if n == 0 {
			t.Slot(inner, y, place, -1, "")
			continue
		}
		step := env.Step(n, sideRoom, env.CardWidth, rowStep)
		for i := range n {
			p := t.Card(inner+dir*float64(i)*step, y, g.rows[r][i], place, i)
			p.Peek = peek
			if i == n-1 {
				p.Peek = env.PeekTop
			}
			if i == 0 && g.rows[r][0].Rank() == cards.King {
				p.Flags |= env.Locked
			}
		}
	}
}

// ActionSpots says where action a takes a card from and puts it (see
// render.Layouter): a row's move from the row (the last k cards into an empty
// row: from the innermost card of the k), the waste "W" and the ladder
// card "L" to a row or to the foundation the card fits; "turn" and
// "redeal" are a click on the stock.
func (g *Game) ActionSpots(a int) (from, to env.Spot) {
	if a < 0 || a >= NumActions {
		return env.NoSpot, env.NoSpot
	}
	kind, s, d, k := decode(a)
	home := func(c cards.Card) env.Spot { return env.Spot{Place: "F", Pos: env.FoundationPos(&g.found, c)} }
	switch kind {
	case ActRowHome:
		return env.Whole(env.PlaceNames[s]), home(topOf(g.rows[s][:g.rn[s]]))
	case ActWasteHome:
		return env.Whole("W"), home(topOf(g.waste[:g.wn]))
	case ActLadderHome:
		return env.Whole("L"), home(topOf(g.ladder[:g.ln]))
	case ActBuild:
		return env.Whole(env.PlaceNames[s]), env.Whole(env.PlaceNames[d])
	case ActEmpty:
		from = env.Whole(env.PlaceNames[s])
		if p := int(g.rn[s]) - k; p >= 0 {
			from.Pos = p
		}
		return from, env.Whole(env.PlaceNames[d])
	case ActWaste:
		return env.Whole("W"), env.Whole(env.PlaceNames[d])
	case ActLadder:
		return env.Whole("L"), env.Whole(env.PlaceNames[d])
	}
	return env.Whole("stock"), env.NoSpot
}
