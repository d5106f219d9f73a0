package render_test

import (
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/render"
)

// screenshots is the directory TestScreenshots writes to; "" skips it.
var screenshots = flag.String("screenshots", "", "write the documentation's pictures of the six tables to this directory")

// TestScreenshots writes the documentation's pictures of the six tables
// when asked to, with the test flag -screenshots naming a directory (it
// reads nothing):
//
//	go test ./render -run Screenshots -screenshots ../docs/img
//
// Each is deal 7 after the heuristic agent's first moves (a few, so that
// the table shows play under way).
func TestScreenshots(t *testing.T) {
	dir := *screenshots
	if dir == "" {
		t.Skip("give -screenshots DIR to write the screenshots")
	}
	moves := map[string]int{"cromwell": 30, "fifteen": 12, "fourquarters": 6, "ladder": 25, "limited": 30, "royalparade": 22}
	for _, name := range env.Names() {
		e, err := env.Make(name, env.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := agents.New("heuristic")
		if err != nil {
			t.Fatal(err)
		}
		n := moves[name]
		if _, err := agents.Play(e, a, 7, 7, func(e *env.Env, _ int) bool { return e.Steps() < n }); err != nil {
			t.Fatal(err)
		}
		c, err := render.NewGameCanvas(name, render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		img, err := c.DrawGame(e.Game(), nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
