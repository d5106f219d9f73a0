package render

import (
	"image/color"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// Highlight says which placements of a table (indices into Table.Cards) to
// light up.
type Highlight struct {
	// Moved are the cards the last action moved (see Moved).
	Moved []int
	// Targets are the legal destinations of the selected card.
	Targets []int
	// Selected is the selected card.
	Selected []int
}

// The highlight bits of one placement.
const (
	hlMoved uint8 = 1 << iota
	hlTarget
	hlSelected
)

// numStr holds the decimal strings of 0..255, so counts are printed
// without allocating.
var numStr = func() (s [256]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return
}()

func countString(n int) string {
	if n >= 0 && n < len(numStr) {
		return numStr[n]
	}
	return strconv.Itoa(n)
}

// highlightBits fills bits (one per placement) from hl.
func highlightBits(bits []uint8, n int, hl *Highlight) []uint8 {
	if cap(bits) < n {
		bits = make([]uint8, n)
	}
	bits = bits[:n]
	clear(bits)
	if hl == nil {
		return bits
	}
	set := func(idx []int, b uint8) {
		for _, i := range idx {
			if i >= 0 && i < n {
				bits[i] |= b
			}
		}
	}
	set(hl.Moved, hlMoved)
	set(hl.Targets, hlTarget)
	set(hl.Selected, hlSelected)
	return bits
}

// grouper is implemented by painters that group each placement's drawing
// (the interactive SVG).
type grouper interface {
	begin(i int, pl *env.Placement, x, y, w, h float64)
	end()
}

// drawTable draws the whole table: felt, marks, then the placements in order
// with their flags and highlights.
func drawTable(p painter, g *geom, t *env.Table, bits []uint8, sc *path) {
	for i := range t.Marks {
		drawMark(p, g, &t.Marks[i], sc)
	}
	grp, _ := p.(grouper)
	for i := range t.Cards {
		pl := &t.Cards[i]
		x, y := g.x(pl.X), g.y(pl.Y)
		if grp != nil {
			grp.begin(i, pl, x, y, g.cardW, g.cardH)
		}
		drawPlacement(p, g, pl, x, y, sc)
		var b uint8
		if i < len(bits) {
			b = bits[i]
		}
		drawHighlight(p, g, x, y, b, sc)
		if grp != nil {
			grp.end()
		}
	}
}

// drawMark draws one of a game's marks.
func drawMark(p painter, g *geom, m *env.Mark, sc *path) {
	x, y := g.ox+m.X*g.uw, g.oy+m.Y*g.uh
	w, h := m.W*g.uw, m.H*g.uh
	switch m.Kind {
	case env.MarkText:
		fs := h * 0.92
		tx := x
		switch m.Align {
		case env.AlignCenter:
			tx = x + w/2
		case env.AlignRight:
			tx = x + w
		}
		c := labelText
		if m.Strong {
			c = strongText
		}
		p.text(tx, y+h*0.82, fs, m.Text, c, m.Align, m.Strong)
	case env.MarkFrame:
		c := frameRing
		if m.Strong {
			c = frameStrong
		}
		p.ring(x, y, w, h, 6*g.s, 1.5*g.s, c)
		if m.Text != "" {
			p.text(x+4*g.s, y-4*g.s, g.labelSize, m.Text, labelFaint, env.AlignLeft, false)
		}
	case env.MarkArea:
		sc.reset()
		sc.roundRect(x, y, w, h, 8*g.s, false)
		p.fill(sc, areaFill)
		if m.Text != "" {
			fs := min(h*0.45, 26*g.s)
			p.text(x+w/2, y+h/2+fs*0.36, fs, m.Text, labelFaint, env.AlignCenter, true)
		}
	case env.MarkLine:
		sc.reset()
		sc.segment(x, y, x+w, y+h, 2*g.s)
		p.fill(sc, lineColor)
	}
}

// drawPlacement draws one card, pile or slot with the game's flags on it.
func drawPlacement(p painter, g *geom, pl *env.Placement, x, y float64, sc *path) {
	w, h, r := g.cardW, g.cardH, g.radius
	if pl.Card == cards.None {
		sc.reset()
		sc.roundRect(x, y, w, h, r, false)
		p.fill(sc, slotFill)
		rc := slotRing
		if pl.Flags&env.Dim != 0 {
			rc = slotDim
		}
		p.ring(x+0.75*g.s, y+0.75*g.s, w-1.5*g.s, h-1.5*g.s, r, 1.5*g.s, rc)
		if pl.Label != "" {
			fs, c := g.labelSize, labelFaint
			if utf8.RuneCountInString(pl.Label) == 1 {
				fs = 20 * g.s
				if pl.Label == "♥" || pl.Label == "♦" {
					c = labelRed
				}
			}
			if pl.Flags&env.Dim != 0 {
				c.A /= 2
			}
			p.text(x+w/2, y+h/2+fs*0.36, fs, pl.Label, c, env.AlignCenter, false)
		}
		if pl.Count > 0 {
			drawBadge(p, g, x, y, pl.Count, sc)
		}
		return
	}
	// A pile shows its thickness: up to three edges under the top card.
	for k := min(pl.Count-1, 3); k >= 1; k-- {
		d := 1.6 * float64(k) * g.s
		sc.reset()
		sc.roundRect(x+d, y+d, w, h, r, false)
		edge := cardFace
		if pl.Card == cards.FaceDown {
			edge = backRim
		}
		p.fill(sc, edge)
		p.ring(x+d+0.5, y+d+0.5, w-1, h-1, r, 1, cardEdge)
	}
	p.card(x, y, pl.Card, pl.Peek)
	if pl.Card == cards.FaceDown && pl.Count > 1 {
		drawBadge(p, g, x, y, pl.Count, sc)
	}
	o := 1.5 * g.s
	if pl.Flags&env.Paired != 0 {
		p.ring(x-o/2, y-o/2, w+o, h+o, r+o/2, 2*g.s, pairedRing)
	}
	if pl.Flags&env.Picked != 0 {
		p.ring(x-o, y-o, w+2*o, h+2*o, r+o, 3*g.s, pickedRing)
	}
	if pl.Flags&env.Complete != 0 {
		sc.reset()
		sc.circle(x+w-7*g.s, y+h-7*g.s, 4.5*g.s)
		p.fill(sc, goldDot)
	}
	if pl.Flags&env.Locked != 0 {
		// A small padlock at the bottom right.
		lx, ly := x+w-11*g.s, y+h-11*g.s
		p.ring(lx+2*g.s, ly-3*g.s, 5*g.s, 6*g.s, 2.5*g.s, 1.4*g.s, lockFill)
		sc.reset()
		sc.roundRect(lx, ly, 9*g.s, 7*g.s, 1.5*g.s, false)
		p.fill(sc, lockFill)
	}
}

// drawHighlight draws the rings of a placement's highlight bits.
func drawHighlight(p painter, g *geom, x, y float64, b uint8, sc *path) {
	if b == 0 {
		return
	}
	w, h, r := g.cardW, g.cardH, g.radius
	o := 2 * g.s
	if b&hlTarget != 0 {
		sc.reset()
		sc.roundRect(x, y, w, h, r, false)
		p.fill(sc, targetFill)
		p.ring(x-o, y-o, w+2*o, h+2*o, r+o, 3*g.s, targetRing)
	}
	if b&hlSelected != 0 {
		p.ring(x-o, y-o, w+2*o, h+2*o, r+o, 3*g.s, selectRing)
	}
	if b&hlMoved != 0 {
		p.ring(x-o/2, y-o/2, w+o, h+o, r+o/2, 2.5*g.s, movedRing)
	}
}

// drawBadge prints a pile's count in a pill at the card's lower right.
func drawBadge(p painter, g *geom, x, y float64, n int, sc *path) {
	s := countString(n)
	fs := g.badgeSize
	tw := textWidth(s, fs, true)
	pw, ph := math.Max(tw+8*g.s, 16*g.s), 14*g.s
	bx, by := x+g.cardW-pw-3*g.s, y+g.cardH-ph-3*g.s
	sc.reset()
	sc.roundRect(bx, by, pw, ph, ph/2, false)
	p.fill(sc, badgeFill)
	p.text(bx+pw/2, by+ph/2+fs*0.36, fs, s, badgeText, env.AlignCenter, true)
}

// feltAt returns the felt's colour at (x, y) of a picture w × h: a radial
// gradient, lighter in the middle (the SVG writer declares the same one).
func feltAt(x, y, w, h float64) color.NRGBA {
	dx := (x/w - 0.5) / 0.75
	dy := (y/h - 0.45) / 0.75
	t := math.Min(1, math.Sqrt(dx*dx+dy*dy))
	lerp := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return color.NRGBA{lerp(feltInner.R, feltOuter.R), lerp(feltInner.G, feltOuter.G), lerp(feltInner.B, feltOuter.B), 0xff}
}

// Moved returns, appended to dst, the indices of the face-up placements of
// after that are not in before: the cards an action put somewhere (the
// same card at the same place and position counts as unmoved).
func Moved(before, after *env.Table, dst []int) []int {
	for i := range after.Cards {
		a := &after.Cards[i]
		if !a.Card.Valid() {
			continue
		}
		found := false
		for j := range before.Cards {
			b := &before.Cards[j]
			if b.Card == a.Card && b.Place == a.Place && b.Pos == a.Pos {
				found = true
				break
			}
		}
		if !found {
			dst = append(dst, i)
		}
	}
	return dst
}
