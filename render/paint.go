package render

import (
	"image/color"
	"math"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The palette. Every colour of every picture is one of these.
var (
	feltInner   = color.NRGBA{0x2f, 0x7d, 0x4e, 0xff}
	feltOuter   = color.NRGBA{0x17, 0x55, 0x32, 0xff}
	cardFace    = color.NRGBA{0xfd, 0xfc, 0xf6, 0xff}
	cardEdge    = color.NRGBA{0x8d, 0x8b, 0x80, 0xff}
	cardShadow  = color.NRGBA{0x00, 0x00, 0x00, 0x48}
	suitRed     = color.NRGBA{0xcc, 0x1f, 0x2f, 0xff}
	suitBlack   = color.NRGBA{0x1c, 0x1c, 0x22, 0xff}
	backBlue    = color.NRGBA{0x23, 0x47, 0x9b, 0xff}
	backLattice = color.NRGBA{0x3f, 0x68, 0xc4, 0xff}
	backRim     = color.NRGBA{0xf4, 0xf2, 0xea, 0xff}
	slotFill    = color.NRGBA{0x00, 0x00, 0x00, 0x26}
	slotRing    = color.NRGBA{0xff, 0xff, 0xff, 0x5c}
	slotDim     = color.NRGBA{0xff, 0xff, 0xff, 0x28}
	labelText   = color.NRGBA{0xf1, 0xee, 0xd8, 0xff}
	labelFaint  = color.NRGBA{0xf1, 0xee, 0xd8, 0x99}
	labelRed    = color.NRGBA{0xff, 0xa4, 0xa8, 0xb0}
	strongText  = color.NRGBA{0xff, 0xd8, 0x5a, 0xff}
	frameRing   = color.NRGBA{0xff, 0xff, 0xff, 0x50}
	frameStrong = color.NRGBA{0xff, 0xd8, 0x5a, 0xc0}
	areaFill    = color.NRGBA{0x00, 0x00, 0x00, 0x1c}
	lineColor   = color.NRGBA{0xe8, 0xd9, 0xa8, 0xa0}
	badgeFill   = color.NRGBA{0x14, 0x14, 0x18, 0xd8}
	badgeText   = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	movedRing   = color.NRGBA{0xff, 0xd0, 0x2a, 0xff}
	targetRing  = color.NRGBA{0x3d, 0xe0, 0xff, 0xff}
	targetFill  = color.NRGBA{0x3d, 0xe0, 0xff, 0x40}
	selectRing  = color.NRGBA{0xff, 0x7a, 0x1a, 0xff}
	pickedRing  = color.NRGBA{0xe0, 0x40, 0xfb, 0xff}
	pairedRing  = color.NRGBA{0xe3, 0xb0, 0x2c, 0xff}
	goldDot     = color.NRGBA{0xe8, 0xb9, 0x2f, 0xff}
	lockFill    = color.NRGBA{0x55, 0x5a, 0x66, 0xff}
	courtFrame  = color.NRGBA{0xc8, 0xb0, 0x6a, 0xff}
)

// op is one segment of a path.
type op struct {
	kind byte // 'M', 'L', 'Q', 'C', 'Z'
	p    [6]float64
}

// nargs returns the number of coordinates of a segment kind.
func nargs(kind byte) int {
	switch kind {
	case 'M', 'L':
		return 2
	case 'Q':
		return 4
	case 'C':
		return 6
	}
	return 0
}

// path is a vector outline in pixels, filled with the nonzero rule.
type path struct{ ops []op }

func (p *path) reset() { p.ops = p.ops[:0] }

func (p *path) moveTo(x, y float64) { p.ops = append(p.ops, op{kind: 'M', p: [6]float64{x, y}}) }
func (p *path) lineTo(x, y float64) { p.ops = append(p.ops, op{kind: 'L', p: [6]float64{x, y}}) }
func (p *path) quadTo(x1, y1, x, y float64) {
	p.ops = append(p.ops, op{kind: 'Q', p: [6]float64{x1, y1, x, y}})
}
func (p *path) cubeTo(x1, y1, x2, y2, x, y float64) {
	p.ops = append(p.ops, op{kind: 'C', p: [6]float64{x1, y1, x2, y2, x, y}})
}
func (p *path) close() { p.ops = append(p.ops, op{kind: 'Z'}) }

// kappa places the control points of a cubic quarter circle.
const kappa = 0.5522847498

// roundRect adds a rounded rectangle, clockwise, or counter-clockwise when
// reverse is set (to cut a hole in a shape drawn clockwise).
func (p *path) roundRect(x, y, w, h, r float64, reverse bool) {
	r = max(0, min(r, w/2, h/2))
	k := r * (1 - kappa)
	if !reverse {
		p.moveTo(x+r, y)
		p.lineTo(x+w-r, y)
		p.cubeTo(x+w-k, y, x+w, y+k, x+w, y+r)
		p.lineTo(x+w, y+h-r)
		p.cubeTo(x+w, y+h-k, x+w-k, y+h, x+w-r, y+h)
		p.lineTo(x+r, y+h)
		p.cubeTo(x+k, y+h, x, y+h-k, x, y+h-r)
		p.lineTo(x, y+r)
		p.cubeTo(x, y+k, x+k, y, x+r, y)
	} else {
		p.moveTo(x+r, y)
		p.cubeTo(x+k, y, x, y+k, x, y+r)
		p.lineTo(x, y+h-r)
		p.cubeTo(x, y+h-k, x+k, y+h, x+r, y+h)
		p.lineTo(x+w-r, y+h)
		p.cubeTo(x+w-k, y+h, x+w, y+h-k, x+w, y+h-r)
		p.lineTo(x+w, y+r)
		p.cubeTo(x+w, y+k, x+w-k, y, x+w-r, y)
	}
	p.close()
}

// circle adds a clockwise circle.
func (p *path) circle(cx, cy, r float64) {
	k := r * kappa
	p.moveTo(cx, cy-r)
	p.cubeTo(cx+k, cy-r, cx+r, cy-k, cx+r, cy)
	p.cubeTo(cx+r, cy+k, cx+k, cy+r, cx, cy+r)
	p.cubeTo(cx-k, cy+r, cx-r, cy+k, cx-r, cy)
	p.cubeTo(cx-r, cy-k, cx-k, cy-r, cx, cy-r)
	p.close()
}

// segment adds a straight band of the given width from (x1, y1) to (x2, y2).
func (p *path) segment(x1, y1, x2, y2, width float64) {
	dx, dy := x2-x1, y2-y1
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l*width/2, dx/l*width/2
	p.moveTo(x1+nx, y1+ny)
	p.lineTo(x2+nx, y2+ny)
	p.lineTo(x2-nx, y2-ny)
	p.lineTo(x1-nx, y1-ny)
	p.close()
}

// suit adds the pip of suit s in the square of side size at (x, y).
func (p *path) suit(s cards.Suit, x, y, size float64) {
	X := func(u float64) float64 { return x + u*size }
	Y := func(v float64) float64 { return y + v*size }
	switch s {
	case cards.Diamonds:
		p.moveTo(X(0.5), Y(0))
		p.quadTo(X(0.64), Y(0.28), X(0.9), Y(0.5))
		p.quadTo(X(0.64), Y(0.72), X(0.5), Y(1))
		p.quadTo(X(0.36), Y(0.72), X(0.1), Y(0.5))
		p.quadTo(X(0.36), Y(0.28), X(0.5), Y(0))
		p.close()
	case cards.Hearts:
		p.moveTo(X(0.5), Y(0.97))
		p.cubeTo(X(0.22), Y(0.72), X(0.02), Y(0.52), X(0.02), Y(0.3))
		p.cubeTo(X(0.02), Y(0.12), X(0.15), Y(0.03), X(0.28), Y(0.03))
		p.cubeTo(X(0.4), Y(0.03), X(0.47), Y(0.1), X(0.5), Y(0.2))
		p.cubeTo(X(0.53), Y(0.1), X(0.6), Y(0.03), X(0.72), Y(0.03))
		p.cubeTo(X(0.85), Y(0.03), X(0.98), Y(0.12), X(0.98), Y(0.3))
		p.cubeTo(X(0.98), Y(0.52), X(0.78), Y(0.72), X(0.5), Y(0.97))
		p.close()
	case cards.Spades:
		p.moveTo(X(0.5), Y(0.02))
		p.cubeTo(X(0.72), Y(0.26), X(0.98), Y(0.42), X(0.98), Y(0.62))
		p.cubeTo(X(0.98), Y(0.78), X(0.86), Y(0.86), X(0.74), Y(0.86))
		p.cubeTo(X(0.64), Y(0.86), X(0.57), Y(0.81), X(0.53), Y(0.75))
		p.quadTo(X(0.55), Y(0.9), X(0.68), Y(0.99))
		p.lineTo(X(0.32), Y(0.99))
		p.quadTo(X(0.45), Y(0.9), X(0.47), Y(0.75))
		p.cubeTo(X(0.43), Y(0.81), X(0.36), Y(0.86), X(0.26), Y(0.86))
		p.cubeTo(X(0.14), Y(0.86), X(0.02), Y(0.78), X(0.02), Y(0.62))
		p.cubeTo(X(0.02), Y(0.42), X(0.28), Y(0.26), X(0.5), Y(0.02))
		p.close()
	default: // clubs
		r := 0.215 * size
		p.circle(X(0.5), Y(0.26), r)
		p.circle(X(0.265), Y(0.6), r)
		p.circle(X(0.735), Y(0.6), r)
		p.circle(X(0.5), Y(0.52), 0.13*size)
		p.moveTo(X(0.46), Y(0.58))
		p.quadTo(X(0.45), Y(0.86), X(0.31), Y(0.99))
		p.lineTo(X(0.69), Y(0.99))
		p.quadTo(X(0.55), Y(0.86), X(0.54), Y(0.58))
		p.close()
	}
}

// painter is what the drawing code draws with; the SVG writer and the image
// renderer implement it, so both draw the same picture.
type painter interface {
	// fill fills the path with c (nonzero rule).
	fill(p *path, c color.NRGBA)
	// ring strokes the rounded rectangle's outline with a band of the given
	// width centred on it.
	ring(x, y, w, h, r, width float64, c color.NRGBA)
	// text writes s with its baseline at y, starting at x (AlignLeft),
	// centred on x or ending at x.
	text(x, y, size float64, s string, c color.NRGBA, align env.Align, bold bool)
	// card draws a card (face or back) with its shadow, top left at (x, y).
	card(x, y float64, c cards.Card, peek env.Peek)
}

// suitColor returns the ink of a suit.
func suitColor(s cards.Suit) color.NRGBA {
	if s.Red() {
		return suitRed
	}
	return suitBlack
}

// drawCardArt draws the card c (a face or cards.FaceDown) with its top left
// at (x, y) on p, at the size of g. The sprite and the SVG symbol of a card
// are both drawn by it.
func drawCardArt(p painter, sc *path, g *geom, x, y float64, c cards.Card, peek env.Peek) {
	w, h, r := g.cardW, g.cardH, g.radius
	sc.reset()
	sc.roundRect(x+0.6*g.s, y+1.3*g.s, w, h, r, false)
	p.fill(sc, cardShadow)
	if c == cards.FaceDown {
		sc.reset()
		sc.roundRect(x, y, w, h, r, false)
		p.fill(sc, backRim)
		in := 3 * g.s
		sc.reset()
		sc.roundRect(x+in, y+in, w-2*in, h-2*in, r*0.6, false)
		p.fill(sc, backBlue)
		// A lattice of small diamonds inside the blue panel.
		sc.reset()
		d := 5.0 * g.s
		for cy := y + in + d*0.75; cy+d*0.5 <= y+h-in-d*0.2; cy += d {
			for cx := x + in + d*0.7; cx+d*0.5 <= x+w-in-d*0.15; cx += d {
				sc.moveTo(cx, cy-d*0.4)
				sc.lineTo(cx+d*0.4, cy)
				sc.lineTo(cx, cy+d*0.4)
				sc.lineTo(cx-d*0.4, cy)
				sc.close()
			}
		}
		p.fill(sc, backLattice)
		p.ring(x+0.5, y+0.5, w-1, h-1, r, 1, cardEdge)
		return
	}
	sc.reset()
	sc.roundRect(x, y, w, h, r, false)
	p.fill(sc, cardFace)
	p.ring(x+0.5, y+0.5, w-1, h-1, r, 1, cardEdge)
	ink := suitColor(c.Suit())
	rank := c.Rank().String()
	fs := g.indexSize
	pip := g.pipSize
	switch peek {
	case env.PeekTop:
		// One line at the top left: rank then suit, readable in a strip.
		tx := x + 3*g.s
		base := y + 2*g.s + fs*0.78
		p.text(tx, base, fs, rank, ink, env.AlignLeft, true)
		adv := g.rankWidth(rank, fs)
		sc.reset()
		sc.suit(c.Suit(), tx+adv+1*g.s, base-pip*0.92, pip)
		p.fill(sc, ink)
	default:
		// Rank over suit in one corner, readable in a narrow strip.
		cx := x + 3*g.s + g.rankWidth("10", fs)/2
		if peek == env.PeekRight {
			cx = x + w - 3*g.s - g.rankWidth("10", fs)/2
		}
		base := y + 2*g.s + fs*0.78
		p.text(cx, base, fs, rank, ink, env.AlignCenter, true)
		sc.reset()
		sc.suit(c.Suit(), cx-pip/2, base+2*g.s, pip)
		p.fill(sc, ink)
	}
	// The big pip in the lower middle; court cards get a frame.
	big := g.bigPip
	bx, by := x+(w-big)/2, y+h*0.58-big/2
	if peek == env.PeekTop {
		by = y + h*0.6 - big/2
	}
	if c.Rank() >= cards.Jack {
		p.ring(bx-3*g.s, by-3*g.s, big+6*g.s, big+6*g.s, 2*g.s, 1.2*g.s, courtFrame)
	}
	sc.reset()
	sc.suit(c.Suit(), bx, by, big)
	p.fill(sc, ink)
}
