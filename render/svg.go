package render

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The SVG pictures draw each card face once, as a definition that every
// placement of that card uses: a definition per card and index edge
// ("pc12t": card 12, index at the top; "l" left, "r" right), "pcb" for the
// back, and "pfelt" for the felt's gradient.

// numSymbols counts the card definitions: 53 card codes (1..52 and the
// back) times three index edges.
const numSymbols = cards.NumCodes * 3

func symbolIndex(c cards.Card, peek env.Peek) int {
	if c == cards.FaceDown {
		return int(c) * 3 // the back has no index: one definition
	}
	return int(c)*3 + int(peek)
}

func symbolID(i int) string {
	c := cards.Card(i / 3)
	if c == cards.FaceDown {
		return "pcb"
	}
	return "pc" + strconv.Itoa(int(c)) + string("tlr"[i%3])
}

// svgFontFamily is the font of the labels (card indices are outlines).
const svgFontFamily = `Go, 'DejaVu Sans', Verdana, Arial, sans-serif`

// svgPainter writes SVG elements.
type svgPainter struct {
	b           *bytes.Buffer
	g           *geom
	used        *[numSymbols]bool
	outline     bool // text as outlines (inside card definitions)
	interactive bool
	cur         [4]float64 // the placement being drawn: x, y, w, h
	tp          path
}

func (p *svgPainter) num(v float64) {
	b := strconv.AppendFloat(p.b.AvailableBuffer(), v, 'f', 2, 64)
	// Trim "12.50" to "12.5" and "12.00" to "12".
	if i := bytes.IndexByte(b, '.'); i >= 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	if len(b) == 2 && b[0] == '-' && b[1] == '0' {
		b = b[1:]
	}
	p.b.Write(b)
}

func (p *svgPainter) attr(name string, v float64) {
	p.b.WriteByte(' ')
	p.b.WriteString(name)
	p.b.WriteString(`="`)
	p.num(v)
	p.b.WriteByte('"')
}

// paint writes fill or stroke colour attributes.
func (p *svgPainter) paint(kind string, c color.NRGBA) {
	fmt.Fprintf(p.b, ` %s="#%02x%02x%02x"`, kind, c.R, c.G, c.B)
	if c.A != 0xff {
		p.b.WriteString(" " + kind + `-opacity="`)
		p.num(float64(c.A) / 255)
		p.b.WriteByte('"')
	}
}

func (p *svgPainter) pathData(pa *path) {
	for i, o := range pa.ops {
		if i > 0 {
			p.b.WriteByte(' ')
		}
		p.b.WriteByte(o.kind)
		for k := range nargs(o.kind) {
			if k > 0 {
				p.b.WriteByte(' ')
			}
			p.num(o.p[k])
		}
	}
}

func (p *svgPainter) fill(pa *path, c color.NRGBA) {
	if len(pa.ops) == 0 {
		return
	}
	p.b.WriteString(`<path d="`)
	p.pathData(pa)
	p.b.WriteByte('"')
	p.paint("fill", c)
	p.b.WriteString("/>")
}

func (p *svgPainter) ring(x, y, w, h, r, width float64, c color.NRGBA) {
	p.b.WriteString("<rect")
	p.attr("x", x)
	p.attr("y", y)
	p.attr("width", w)
	p.attr("height", h)
	p.attr("rx", r)
	p.b.WriteString(` fill="none"`)
	p.paint("stroke", c)
	p.attr("stroke-width", width)
	p.b.WriteString("/>")
}

func (p *svgPainter) text(x, y, size float64, s string, c color.NRGBA, align env.Align, bold bool) {
	if s == "" {
		return
	}
	if p.outline {
		textOutline(&p.tp, s, x, y, size, align, bold)
		p.fill(&p.tp, c)
		return
	}
	p.b.WriteString("<text")
	p.attr("x", x)
	p.attr("y", y)
	p.attr("font-size", size)
	p.paint("fill", c)
	if bold {
		p.b.WriteString(` font-weight="bold"`)
	}
	switch align {
	case env.AlignCenter:
		p.b.WriteString(` text-anchor="middle"`)
	case env.AlignRight:
		p.b.WriteString(` text-anchor="end"`)
	}
	p.b.WriteByte('>')
	xmlEscape(p.b, s)
	p.b.WriteString("</text>")
}

func (p *svgPainter) card(x, y float64, c cards.Card, peek env.Peek) {
	i := symbolIndex(c, peek)
	p.used[i] = true
	p.b.WriteString(`<use xlink:href="#`)
	p.b.WriteString(symbolID(i))
	p.b.WriteByte('"')
	p.attr("x", x)
	p.attr("y", y)
	p.b.WriteString("/>")
}

func (p *svgPainter) begin(i int, pl *env.Placement, x, y, w, h float64) {
	if !p.interactive {
		return
	}
	p.cur = [4]float64{x, y, w, h}
	fmt.Fprintf(p.b, `<g class="pl" data-i="%d" data-place="`, i)
	xmlEscape(p.b, pl.Place)
	fmt.Fprintf(p.b, `" data-pos="%d">`, pl.Pos)
}

func (p *svgPainter) end() {
	if !p.interactive {
		return
	}
	// A ring the page's style sheet lights up (class "hl").
	o := 2 * p.g.s
	x, y, w, h := p.cur[0], p.cur[1], p.cur[2], p.cur[3]
	p.b.WriteString(`<rect class="hl"`)
	p.attr("x", x-o)
	p.attr("y", y-o)
	p.attr("width", w+2*o)
	p.attr("height", h+2*o)
	p.attr("rx", p.g.radius+o)
	p.b.WriteString(`/></g>`)
}

func xmlEscape(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteRune(r)
		}
	}
}

// Defs writes SVG pictures of one table size whose card faces are defined
// once, for pages that show many pictures (the HTML viewer, the browser
// game): Frame writes a picture that uses the definitions, and WriteTo
// writes the definitions the frames used. It is not safe for concurrent
// use.
type Defs struct {
	o    Options
	used [numSymbols]bool
	sc   path
}

// NewDefs returns an empty set of definitions drawn with o.
func NewDefs(o Options) *Defs { return &Defs{o: o} }

// UseAll marks every card face and the back as used, for a page where any
// card may appear later.
func (d *Defs) UseAll() {
	for c := cards.Card(1); c <= cards.FaceDown; c++ {
		for _, pk := range []env.Peek{env.PeekTop, env.PeekLeft, env.PeekRight} {
			d.used[symbolIndex(c, pk)] = true
		}
	}
}

// Frame writes the picture of t with the highlights hl as an <svg> element
// that refers to the definitions (write them once on the same page with
// WriteTo). With interactive set, each placement is a <g class="pl"> with
// data-i, data-place and data-pos attributes and a ring of class "hl" for
// the page to light up.
func (d *Defs) Frame(w io.Writer, t *env.Table, hl *Highlight, interactive bool) error {
	var b bytes.Buffer
	g := newGeom(t.Width, t.Height, d.o)
	p := &svgPainter{b: &b, g: g, used: &d.used, interactive: interactive}
	svgOpen(&b, g, false)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="url(#pfelt)"/>`, g.w, g.h)
	drawTable(p, g, t, highlightBits(nil, len(t.Cards), hl), &d.sc)
	b.WriteString("</svg>")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteTo writes a hidden <svg> holding the felt and the card faces used so
// far by Frame (or all, after UseAll), at the given table size's scale.
func (d *Defs) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="0" height="0" style="position:absolute" aria-hidden="true">`)
	writeDefs(&b, newGeom(1, 1, d.o), &d.used, &d.sc)
	b.WriteString("</svg>")
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// writeDefs writes <defs> with the felt gradient and the used card faces.
func writeDefs(b *bytes.Buffer, g *geom, used *[numSymbols]bool, sc *path) {
	b.WriteString(`<defs><radialGradient id="pfelt" cx="50%" cy="45%" r="75%">`)
	fmt.Fprintf(b, `<stop offset="0" stop-color="#%02x%02x%02x"/><stop offset="1" stop-color="#%02x%02x%02x"/></radialGradient>`,
		feltInner.R, feltInner.G, feltInner.B, feltOuter.R, feltOuter.G, feltOuter.B)
	sp := &svgPainter{b: b, g: g, used: new([numSymbols]bool), outline: true}
	for i, u := range used {
		if !u {
			continue
		}
		b.WriteString(`<g id="`)
		b.WriteString(symbolID(i))
		b.WriteString(`">`)
		drawCardArt(sp, sc, g, 0, 0, cards.Card(i/3), env.Peek(i%3))
		b.WriteString("</g>")
	}
	b.WriteString("</defs>")
}

// svgOpen writes the opening <svg> tag of a picture.
func svgOpen(b *bytes.Buffer, g *geom, standalone bool) {
	if standalone {
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s">`,
		g.w, g.h, g.w, g.h, strings.ReplaceAll(svgFontFamily, `"`, `'`))
}

// WriteSVG writes the picture of t with the highlights hl (nil for none) as
// a standalone SVG document holding the card faces it uses.
func WriteSVG(w io.Writer, t *env.Table, hl *Highlight, o Options) error {
	var body, b bytes.Buffer
	g := newGeom(t.Width, t.Height, o)
	var used [numSymbols]bool
	var sc path
	p := &svgPainter{b: &body, g: g, used: &used}
	drawTable(p, g, t, highlightBits(nil, len(t.Cards), hl), &sc)
	svgOpen(&b, g, true)
	writeDefs(&b, g, &used, &sc)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="url(#pfelt)"/>`, g.w, g.h)
	b.Write(body.Bytes())
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// GameSVG writes the picture of game g's table as a standalone SVG
// document; the game must implement Layouter.
func GameSVG(w io.Writer, g env.Game, o Options) error {
	l, ok := LayoutOf(g)
	if !ok {
		return fmt.Errorf("render: %s cannot describe its table (no Layouter)", g.Spec().Name)
	}
	var t env.Table
	l.Layout(&t)
	return WriteSVG(w, &t, nil, o)
}
