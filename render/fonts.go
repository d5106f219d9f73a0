package render

import (
	"fmt"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/patience-gym/patience/env"
)

// The Go fonts (BSD licensed, shipped with golang.org/x/image) give the
// letters and digits of the pictures. Glyphs are drawn as outlines, so the
// image renderer and the SVG writer draw exactly the same shapes, and the
// pictures depend on no font installed on the machine.

// glyph is one character's outline in em units (1 = the font size), the y
// axis pointing down from the baseline, and its advance.
type glyph struct {
	ops []op
	adv float64
}

// face is one parsed font with the outlines of the characters used so far.
type face struct {
	once sync.Once
	ttf  []byte
	font *sfnt.Font
	err  error
	mu   sync.Mutex
	buf  sfnt.Buffer
	gl   map[rune]*glyph
}

var (
	regularFace = &face{ttf: goregular.TTF}
	boldFace    = &face{ttf: gobold.TTF}
)

func fontFace(bold bool) *face {
	if bold {
		return boldFace
	}
	return regularFace
}

// glyph returns the outline of r (the font's missing-glyph box when it has
// none).
func (f *face) glyph(r rune) *glyph {
	f.once.Do(func() {
		f.font, f.err = sfnt.Parse(f.ttf)
		if f.err != nil {
			f.err = fmt.Errorf("render: parse the Go font: %w", f.err)
		}
		f.gl = map[rune]*glyph{}
	})
	f.mu.Lock()
	defer f.mu.Unlock()
	if g, ok := f.gl[r]; ok {
		return g
	}
	g := &glyph{}
	f.gl[r] = g
	if f.err != nil {
		g.adv = 0.6
		return g
	}
	upem := int(f.font.UnitsPerEm())
	ppem := fixed.I(upem) // coordinates in font units, as 26.6 numbers
	scale := 1 / float64(ppem)
	idx, err := f.font.GlyphIndex(&f.buf, r)
	if err != nil {
		return g
	}
	adv, err := f.font.GlyphAdvance(&f.buf, idx, ppem, 0)
	if err == nil {
		g.adv = float64(adv) * scale
	}
	segs, err := f.font.LoadGlyph(&f.buf, idx, ppem, nil)
	if err != nil {
		return g
	}
	pt := func(p fixed.Point26_6) (float64, float64) { return float64(p.X) * scale, float64(p.Y) * scale }
	for _, s := range segs {
		var o op
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			o.kind = 'M'
			o.p[0], o.p[1] = pt(s.Args[0])
		case sfnt.SegmentOpLineTo:
			o.kind = 'L'
			o.p[0], o.p[1] = pt(s.Args[0])
		case sfnt.SegmentOpQuadTo:
			o.kind = 'Q'
			o.p[0], o.p[1] = pt(s.Args[0])
			o.p[2], o.p[3] = pt(s.Args[1])
		case sfnt.SegmentOpCubeTo:
			o.kind = 'C'
			o.p[0], o.p[1] = pt(s.Args[0])
			o.p[2], o.p[3] = pt(s.Args[1])
			o.p[4], o.p[5] = pt(s.Args[2])
		}
		g.ops = append(g.ops, o)
	}
	return g
}

// textWidth returns the advance of s at the given size.
func textWidth(s string, size float64, bold bool) float64 {
	f := fontFace(bold)
	w := 0.0
	for _, r := range s {
		w += f.glyph(r).adv
	}
	return w * size
}

// textOutline makes p the outlines of s, the baseline at y, aligned on x
// as align says (starting there, centred on it, or ending there).
func textOutline(p *path, s string, x, y, size float64, align env.Align, bold bool) {
	switch align {
	case env.AlignCenter:
		x -= textWidth(s, size, bold) / 2
	case env.AlignRight:
		x -= textWidth(s, size, bold)
	}
	p.reset()
	addText(p, s, x, y, size, bold)
}

// addText adds the outlines of s to p, the baseline at y, starting at x.
func addText(p *path, s string, x, y, size float64, bold bool) {
	f := fontFace(bold)
	for _, r := range s {
		g := f.glyph(r)
		for _, o := range g.ops {
			n := nargs(o.kind)
			q := op{kind: o.kind}
			for i := 0; i < n; i += 2 {
				q.p[i], q.p[i+1] = x+o.p[i]*size, y+o.p[i+1]*size
			}
			if o.kind == 'M' && len(p.ops) > 0 && p.ops[len(p.ops)-1].kind != 'Z' {
				p.close()
			}
			p.ops = append(p.ops, q)
		}
		if len(g.ops) > 0 {
			p.close()
		}
		x += g.adv * size
	}
}
