package render

import (
	"math"

	"github.com/patience-gym/patience/env"
)

// Options tune a picture. The zero value gives the default size.
type Options struct {
	// Scale multiplies every length: 1 (the default, also for 0) draws
	// cards of 44×62 pixels.
	Scale float64
}

// The lengths at scale 1, in pixels.
const (
	unitW  = 50 // a table unit across: a card and its gap
	unitH  = 70 // a table unit down
	margin = 12 // around the table
	// Sizes are rounded up to a multiple of this, as video encoders want.
	sizeQuantum = 16
)

// geom turns table units into pixels for one table size and scale.
type geom struct {
	s            float64
	uw, uh       float64 // a unit in pixels
	cardW, cardH float64
	radius       float64
	ox, oy       float64 // where unit (0, 0) lies
	w, h         int     // the picture's size
	indexSize    float64 // font size of a card's index
	pipSize      float64 // size of the index's suit pip
	bigPip       float64 // size of the big pip
	labelSize    float64 // font size of a slot label
	badgeSize    float64 // font size of a pile's count
}

// newGeom lays a table of width × height units out at the given scale.
func newGeom(width, height float64, o Options) *geom {
	s := o.Scale
	if s <= 0 {
		s = 1
	}
	g := &geom{s: s, uw: unitW * s, uh: unitH * s}
	g.cardW = math.Round(env.CardWidth * g.uw)
	g.cardH = math.Round(env.CardHeight * g.uh)
	g.radius = 4 * s
	cw := 2*margin*s + width*g.uw - (g.uw - g.cardW)
	ch := 2*margin*s + height*g.uh - (g.uh - g.cardH)
	g.w = quantum(cw)
	g.h = quantum(ch)
	g.ox = math.Round(margin*s + (float64(g.w)-cw)/2)
	g.oy = math.Round(margin*s + (float64(g.h)-ch)/2)
	g.indexSize = 13.5 * s
	g.pipSize = 9.5 * s
	g.bigPip = 19 * s
	g.labelSize = 11 * s
	g.badgeSize = 10 * s
	return g
}

// quantum rounds a length up to a whole multiple of sizeQuantum pixels.
func quantum(v float64) int {
	n := int(math.Ceil(v - 1e-9))
	return (n + sizeQuantum - 1) / sizeQuantum * sizeQuantum
}

// x and y return the pixel position of a table coordinate, rounded so that
// cards sit on whole pixels.
func (g *geom) x(u float64) float64 { return math.Round(g.ox + u*g.uw) }
func (g *geom) y(v float64) float64 { return math.Round(g.oy + v*g.uh) }

// rankWidth returns the advance of a card's rank at font size fs.
func (g *geom) rankWidth(rank string, fs float64) float64 { return textWidth(rank, fs, true) }

// Size returns the size in pixels of the pictures of a table: the same for
// every state of a game.
func Size(t *env.Table, o Options) (width, height int) {
	g := newGeom(t.Width, t.Height, o)
	return g.w, g.h
}
