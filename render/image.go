package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// rgbaPainter fills shapes into an RGBA image with an anti-aliasing
// rasterizer.
type rgbaPainter struct {
	img     *image.RGBA
	z       *vector.Rasterizer
	uni     map[color.NRGBA]*image.Uniform
	tp      path
	sprites func(c cards.Card, peek env.Peek) *image.RGBA
}

func (p *rgbaPainter) uniform(c color.NRGBA) *image.Uniform {
	u := p.uni[c]
	if u == nil {
		u = image.NewUniform(c)
		p.uni[c] = u
	}
	return u
}

func (p *rgbaPainter) fill(pa *path, c color.NRGBA) {
	if len(pa.ops) == 0 {
		return
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, o := range pa.ops {
		for k := 0; k < nargs(o.kind); k += 2 {
			minX, maxX = min(minX, o.p[k]), max(maxX, o.p[k])
			minY, maxY = min(minY, o.p[k+1]), max(maxY, o.p[k+1])
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
	r = r.Intersect(p.img.Rect)
	if r.Empty() {
		return
	}
	// The rasterizer covers r only; shapes reaching past the picture are
	// cut at its edge.
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	p.z.Reset(r.Dx(), r.Dy())
	f := func(v, o float64) float32 { return float32(v - o) }
	open := false
	for _, o := range pa.ops {
		switch o.kind {
		case 'M':
			if open {
				p.z.ClosePath()
			}
			p.z.MoveTo(f(o.p[0], ox), f(o.p[1], oy))
			open = true
		case 'L':
			p.z.LineTo(f(o.p[0], ox), f(o.p[1], oy))
		case 'Q':
			p.z.QuadTo(f(o.p[0], ox), f(o.p[1], oy), f(o.p[2], ox), f(o.p[3], oy))
		case 'C':
			p.z.CubeTo(f(o.p[0], ox), f(o.p[1], oy), f(o.p[2], ox), f(o.p[3], oy), f(o.p[4], ox), f(o.p[5], oy))
		case 'Z':
			p.z.ClosePath()
			open = false
		}
	}
	if open {
		p.z.ClosePath()
	}
	p.z.Draw(p.img, r, p.uniform(c), image.Point{})
}

func (p *rgbaPainter) ring(x, y, w, h, r, width float64, c color.NRGBA) {
	p.tp.reset()
	d := width / 2
	p.tp.roundRect(x-d, y-d, w+width, h+width, r+d, false)
	if w > width && h > width {
		p.tp.roundRect(x+d, y+d, w-width, h-width, max(r-d, 0), true)
	}
	p.fill(&p.tp, c)
}

func (p *rgbaPainter) text(x, y, size float64, s string, c color.NRGBA, align env.Align, bold bool) {
	if s == "" {
		return
	}
	textOutline(&p.tp, s, x, y, size, align, bold)
	p.fill(&p.tp, c)
}

func (p *rgbaPainter) card(x, y float64, c cards.Card, peek env.Peek) {
	sp := p.sprites(c, peek)
	at := image.Pt(int(math.Round(x)), int(math.Round(y)))
	draw.Draw(p.img, sp.Rect.Add(at), sp, image.Point{}, draw.Over)
}

// Canvas draws pictures of one table size into one image, reusing its
// memory: after the first pictures (which draw each card face once), a
// picture allocates nothing. A Canvas is not safe for concurrent use.
type Canvas struct {
	g       *geom
	o       Options
	width   float64
	height  float64
	img     *image.RGBA
	felt    []uint8
	p       rgbaPainter
	sc      path
	sprites [numSymbols]*image.RGBA
	table   env.Table
	bits    []uint8
}

// NewCanvas returns a canvas for tables of width × height units drawn with
// o.
func NewCanvas(width, height float64, o Options) *Canvas {
	g := newGeom(width, height, o)
	c := &Canvas{g: g, o: o, width: width, height: height}
	c.img = image.NewRGBA(image.Rect(0, 0, g.w, g.h))
	c.felt = make([]uint8, len(c.img.Pix))
	for y := range g.h {
		for x := range g.w {
			f := feltAt(float64(x)+0.5, float64(y)+0.5, float64(g.w), float64(g.h))
			i := c.img.PixOffset(x, y)
			c.felt[i], c.felt[i+1], c.felt[i+2], c.felt[i+3] = f.R, f.G, f.B, 0xff
		}
	}
	c.p = rgbaPainter{img: c.img, z: &vector.Rasterizer{}, uni: map[color.NRGBA]*image.Uniform{}, sprites: c.sprite}
	return c
}

// NewGameCanvas returns a canvas for the tables of the named game (which
// must implement Layouter), with the game's fixed picture size.
func NewGameCanvas(game string, o Options) (*Canvas, error) {
	g, err := env.NewGame(game)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	l, ok := LayoutOf(g)
	if !ok {
		return nil, fmt.Errorf("render: %s cannot describe its table (no Layouter)", g.Spec().Name)
	}
	g.Deal(0)
	var t env.Table
	l.Layout(&t)
	return NewCanvas(t.Width, t.Height, o), nil
}

// GameSize returns the size in pixels of the named game's pictures drawn
// with o: the shape of its rgb_array frames is height × width × 3.
func GameSize(game string, o Options) (width, height int, err error) {
	g, err := env.NewGame(game)
	if err != nil {
		return 0, 0, fmt.Errorf("render: %w", err)
	}
	l, ok := LayoutOf(g)
	if !ok {
		return 0, 0, fmt.Errorf("render: %s cannot describe its table (no Layouter)", g.Spec().Name)
	}
	g.Deal(0)
	var t env.Table
	l.Layout(&t)
	w, h := Size(&t, o)
	return w, h, nil
}

// Size returns the canvas's picture size in pixels.
func (c *Canvas) Size() (width, height int) { return c.g.w, c.g.h }

// sprite returns the drawn card c with its index edge, drawing it the first
// time.
func (c *Canvas) sprite(k cards.Card, peek env.Peek) *image.RGBA {
	i := symbolIndex(k, peek)
	if sp := c.sprites[i]; sp != nil {
		return sp
	}
	g := c.g
	w := int(math.Ceil(g.cardW + 2*g.s))
	h := int(math.Ceil(g.cardH + 3*g.s))
	sp := image.NewRGBA(image.Rect(0, 0, w, h))
	p := &rgbaPainter{img: sp, z: c.p.z, uni: c.p.uni}
	var sc path
	drawCardArt(p, &sc, g, 0, 0, k, peek)
	c.sprites[i] = sp
	return sp
}

// Draw draws t with the highlights hl (nil for none) and returns the
// picture. The image is the canvas's own: the next Draw overwrites it. A
// table of another size than the canvas's is drawn cut or with margins.
func (c *Canvas) Draw(t *env.Table, hl *Highlight) *image.RGBA {
	copy(c.img.Pix, c.felt)
	c.bits = highlightBits(c.bits, len(t.Cards), hl)
	drawTable(&c.p, c.g, t, c.bits, &c.sc)
	return c.img
}

// DrawGame lays out g's table and draws it (see Draw).
func (c *Canvas) DrawGame(g env.Game, hl *Highlight) (*image.RGBA, error) {
	l, ok := LayoutOf(g)
	if !ok {
		return nil, fmt.Errorf("render: %s cannot describe its table (no Layouter)", g.Spec().Name)
	}
	l.Layout(&c.table)
	return c.Draw(&c.table, hl), nil
}

// RGB draws g's table and writes it into dst as rows of RGB bytes: dst must
// hold height × width × 3 bytes (see Size), the layout of a Gymnasium
// rgb_array frame. It allocates nothing once the canvas has drawn every
// card it shows.
func (c *Canvas) RGB(g env.Game, dst []byte) error {
	w, h := c.Size()
	if len(dst) != w*h*3 {
		return fmt.Errorf("render: an RGB frame of %s is %d×%d×3 = %d bytes, the buffer has %d", g.Spec().Name, h, w, w*h*3, len(dst))
	}
	img, err := c.DrawGame(g, nil)
	if err != nil {
		return err
	}
	pix := img.Pix
	for i, j := 0, 0; i < len(pix); i, j = i+4, j+3 {
		dst[j], dst[j+1], dst[j+2] = pix[i], pix[i+1], pix[i+2]
	}
	return nil
}

// EnvRGB writes the picture of e's current state into dst (see RGB): what
// a Gymnasium environment's render() returns in render_mode "rgb_array".
func (c *Canvas) EnvRGB(e *env.Env, dst []byte) error { return c.RGB(e.Game(), dst) }
