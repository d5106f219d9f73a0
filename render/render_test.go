package render_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
	"github.com/patience-gym/patience/render"
)

// segment returns the named observation segment's cells.
func segment(t *testing.T, spec *env.Spec, obs []uint8, name string) []uint8 {
	t.Helper()
	s, ok := spec.Segment(name)
	if !ok {
		t.Fatalf("%s has no observation segment %q", spec.Name, name)
	}
	return obs[s.Offset : s.Offset+s.Len]
}

// visible returns how many copies of each card the observation shows face
// up: every card cell, and Royal Parade's dead aces (counted per suit).
func visible(t *testing.T, spec *env.Spec, obs []uint8) (n [cards.NumCodes]int) {
	for _, s := range spec.Segments {
		if !s.Card {
			continue
		}
		for _, c := range obs[s.Offset : s.Offset+s.Len] {
			if cards.Card(c).Valid() {
				n[c]++
			}
		}
	}
	if spec.Name == "royalparade" {
		for s, k := range segment(t, spec, obs, "aces") {
			n[cards.New(cards.Suit(s), cards.Ace)] += int(k)
		}
	}
	return n
}

// hidden returns how many cards the observation says are face down.
func hidden(t *testing.T, spec *env.Spec, obs []uint8) int {
	switch spec.Name {
	case "cromwell", "fifteen":
		return 0
	case "limited":
		w := int(segment(t, spec, obs, "wastecount")[0])
		return int(segment(t, spec, obs, "stock")[0]) + int(segment(t, spec, obs, "pile")[0]) + max(w-1, 0)
	case "ladder":
		p := segment(t, spec, obs, "piles")
		return int(segment(t, spec, obs, "ladder-down")[0]) + int(p[0]) + max(int(p[1])-1, 0)
	case "royalparade", "fourquarters":
		return int(segment(t, spec, obs, "stock")[0])
	}
	t.Fatalf("no hidden-card count for %s", spec.Name)
	return 0
}

// checkLayout verifies one state's table against its observation.
func checkLayout(t *testing.T, e *env.Env, tab *env.Table) {
	t.Helper()
	spec := e.Spec()
	obs := e.Observation()
	var shown [cards.NumCodes]int
	total, down := 0, 0
	for i, p := range tab.Cards {
		total += p.Count
		switch {
		case p.Card == cards.FaceDown:
			down += p.Count
		case p.Card.Valid():
			shown[p.Card]++
			if p.Count < 1 {
				t.Fatalf("%s step %d: placement %d shows %v but counts %d cards", spec.Name, e.Steps(), i, p.Card, p.Count)
			}
		case p.Card != cards.None:
			t.Fatalf("%s step %d: placement %d has card code %d", spec.Name, e.Steps(), i, p.Card)
		}
		if p.Place == "" {
			t.Fatalf("%s step %d: placement %d has no place", spec.Name, e.Steps(), i)
		}
	}
	if total != cards.DeckSize {
		t.Fatalf("%s step %d: the placements stand for %d cards, want %d\n%s", spec.Name, e.Steps(), total, cards.DeckSize, e.Render())
	}
	if want := visible(t, spec, obs); shown != want {
		for c := range shown {
			if shown[c] != want[c] {
				t.Errorf("%s step %d: %v shown face up %d times, the observation shows it %d times", spec.Name, e.Steps(), cards.Card(c), shown[c], want[c])
			}
		}
		t.Fatalf("%s:\n%s", spec.Name, e.Render())
	}
	if want := hidden(t, spec, obs); down != want {
		t.Fatalf("%s step %d: %d face-down cards drawn, the observation hides %d\n%s", spec.Name, e.Steps(), down, want, e.Render())
	}
}

// checkSpots verifies that every legal action's spots name places of the
// table, and that a click on a source and on a destination picks one legal
// action.
func checkSpots(t *testing.T, e *env.Env, l render.Layouter, tab *env.Table) {
	t.Helper()
	has := func(s env.Spot) bool {
		for i := range tab.Cards {
			if s.Matches(&tab.Cards[i]) {
				return true
			}
		}
		return false
	}
	type click struct {
		from env.Spot
		to   string
	}
	seen := map[click]int{}
	m := e.Mask()
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		from, to := l.ActionSpots(a)
		if from.Place == "" {
			continue
		}
		if !has(from) {
			t.Fatalf("%s step %d: %s takes from %+v, which the table does not show", e.Spec().Name, e.Steps(), e.ActionString(a), from)
		}
		if to.Place != "" && !has(to) {
			t.Fatalf("%s step %d: %s puts onto %+v, which the table does not show", e.Spec().Name, e.Steps(), e.ActionString(a), to)
		}
		k := click{from, to.Place}
		if b, dup := seen[k]; dup {
			t.Fatalf("%s step %d: %s and %s are the same clicks %+v", e.Spec().Name, e.Steps(), e.ActionString(b), e.ActionString(a), k)
		}
		seen[k] = a
	}
}

// wellFormed parses an SVG document with encoding/xml.
func wellFormed(svg []byte) error {
	d := xml.NewDecoder(bytes.NewReader(svg))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if s, ok := tok.(xml.StartElement); ok && root == "" {
			root = s.Name.Local
		}
	}
	if root != "svg" {
		return fmt.Errorf("root element %q, want svg", root)
	}
	return nil
}

// play runs f on every state of a few random games of the named game.
func play(t *testing.T, name string, games int, f func(e *env.Env)) {
	t.Helper()
	envtest.RandomPlay(t, name, games, 99, f)
}

func TestLayoutShowsExactlyWhatThePlayerSees(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for _, name := range env.Names() {
		t.Run(name, func(t *testing.T) {
			var tab, again env.Table
			var width, height float64
			rng := cards.NewRand(5)
			states := 0
			play(t, name, games, func(e *env.Env) {
				l, ok := render.LayoutOf(e.Game())
				if !ok {
					t.Fatalf("%s does not implement render.Layouter", name)
				}
				l.Layout(&tab)
				if states == 0 {
					width, height = tab.Width, tab.Height
				}
				states++
				if tab.Width != width || tab.Height != height {
					t.Fatalf("table size changed from %gx%g to %gx%g", width, height, tab.Width, tab.Height)
				}
				checkLayout(t, e, &tab)
				checkSpots(t, e, l, &tab)
				if !e.Spec().Hidden || states%9 != 0 {
					return
				}
				// Reshuffling the hidden cards changes nothing a picture shows.
				var svg1, svg2 bytes.Buffer
				if err := render.WriteSVG(&svg1, &tab, nil, render.Options{}); err != nil {
					t.Fatal(err)
				}
				c := e.Clone()
				c.Determinize(rng)
				lc, _ := render.LayoutOf(c.Game())
				lc.Layout(&again)
				if !reflect.DeepEqual(tab.Cards, again.Cards) || !reflect.DeepEqual(tab.Marks, again.Marks) {
					t.Fatalf("step %d: the layout changed when the hidden cards were reshuffled", e.Steps())
				}
				if err := render.WriteSVG(&svg2, &again, nil, render.Options{}); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(svg1.Bytes(), svg2.Bytes()) {
					t.Fatalf("step %d: the SVG changed when the hidden cards were reshuffled", e.Steps())
				}
			})
			t.Logf("%d states", states)
		})
	}
}

func TestSVGWellFormed(t *testing.T) {
	for _, name := range env.Names() {
		t.Run(name, func(t *testing.T) {
			n := 0
			var prev, tab env.Table
			play(t, name, 2, func(e *env.Env) {
				n++
				if n%7 != 1 {
					return
				}
				l, _ := render.LayoutOf(e.Game())
				l.Layout(&tab)
				hl := &render.Highlight{Moved: render.Moved(&prev, &tab, nil), Targets: []int{0}, Selected: []int{1}}
				var b bytes.Buffer
				if err := render.WriteSVG(&b, &tab, hl, render.Options{}); err != nil {
					t.Fatal(err)
				}
				if err := wellFormed(b.Bytes()); err != nil {
					t.Fatalf("step %d: %v", e.Steps(), err)
				}
				var f bytes.Buffer
				d := render.NewDefs(render.Options{})
				if err := d.Frame(&f, &tab, hl, true); err != nil {
					t.Fatal(err)
				}
				if err := wellFormed(f.Bytes()); err != nil {
					t.Fatalf("frame at step %d: %v", e.Steps(), err)
				}
				var defs bytes.Buffer
				if _, err := d.WriteTo(&defs); err != nil {
					t.Fatal(err)
				}
				if err := wellFormed(defs.Bytes()); err != nil {
					t.Fatalf("definitions at step %d: %v", e.Steps(), err)
				}
				prev.Reset(0, 0)
				prev.Cards = append(prev.Cards, tab.Cards...)
			})
		})
	}
}

func TestRGBFixedShapeAndDeterministic(t *testing.T) {
	for _, name := range env.Names() {
		t.Run(name, func(t *testing.T) {
			w, h, err := render.GameSize(name, render.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if w%16 != 0 || h%16 != 0 || w < 400 || h < 300 {
				t.Fatalf("size %dx%d: want multiples of 16, at least 400x300", w, h)
			}
			c1, err := render.NewGameCanvas(name, render.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c2, _ := render.NewGameCanvas(name, render.Options{})
			if cw, ch := c1.Size(); cw != w || ch != h {
				t.Fatalf("canvas %dx%d, GameSize %dx%d", cw, ch, w, h)
			}
			a := make([]byte, w*h*3)
			b := make([]byte, w*h*3)
			n, every := 0, 25
			if testing.Short() {
				every = 150
			}
			play(t, name, 1, func(e *env.Env) {
				n++
				if n%every != 1 {
					return
				}
				if err := c1.EnvRGB(e, a); err != nil {
					t.Fatal(err)
				}
				if err := c1.EnvRGB(e, b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("step %d: two pictures of one state differ", e.Steps())
				}
				if err := c2.EnvRGB(e, b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("step %d: two canvases draw one state differently", e.Steps())
				}
			})
			if err := c1.RGB(nil2(t, name), a[:10]); err == nil || !strings.Contains(err.Error(), "bytes") {
				t.Fatalf("a short buffer: got %v, want an error about its size", err)
			}
			e, _ := env.Make(name, env.Options{})
			e.Reset(3)
			if err := c1.EnvRGB(e, a); err != nil {
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(10, func() { _ = c1.EnvRGB(e, a) })
			t.Logf("%dx%d, %.0f allocations per frame", w, h, allocs)
		})
	}
}

func nil2(t *testing.T, name string) env.Game {
	g, err := env.NewGame(name)
	if err != nil {
		t.Fatal(err)
	}
	g.Deal(1)
	return g
}

func TestMoved(t *testing.T) {
	e, _ := env.Make("cromwell", env.Options{})
	e.Reset(7)
	var before, after env.Table
	l, _ := render.LayoutOf(e.Game())
	l.Layout(&before)
	if got := render.Moved(&before, &before, nil); len(got) != 0 {
		t.Fatalf("nothing moved, got %v", got)
	}
	a := e.Mask().Nth(0)
	if _, _, _, _, _, err := e.Step(a); err != nil {
		t.Fatal(err)
	}
	l.Layout(&after)
	moved := render.Moved(&before, &after, nil)
	if len(moved) == 0 {
		t.Fatalf("%s moved nothing", e.ActionString(a))
	}
	_, to := l.ActionSpots(a)
	for _, i := range moved {
		if p := after.Cards[i]; p.Place != to.Place {
			t.Errorf("%s: %+v lit up, want cards of place %q", e.ActionString(a), p, to.Place)
		}
	}
}

// BenchmarkRGB measures one rgb_array frame of each game.
func BenchmarkRGB(b *testing.B) {
	for _, name := range env.Names() {
		b.Run(name, func(b *testing.B) {
			e, _ := env.Make(name, env.Options{})
			e.Reset(3)
			c, err := render.NewGameCanvas(name, render.Options{})
			if err != nil {
				b.Fatal(err)
			}
			w, h := c.Size()
			frame := make([]byte, w*h*3)
			b.ReportAllocs()
			for b.Loop() {
				if err := c.EnvRGB(e, frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
