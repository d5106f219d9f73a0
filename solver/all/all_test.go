package all_test

import (
	"reflect"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// TestEveryGameWrapped: with solver/all imported, the solver wraps each
// game that has a search package in a position of that package's own
// type, a copy of the game (the same position, the same Spec), does not
// wrap such a position again, and searches Limited, which has none, as it
// is.
func TestEveryGameWrapped(t *testing.T) {
	for _, name := range env.Names() {
		g, err := env.NewGame(name)
		if err != nil {
			t.Fatal(err)
		}
		g.Deal(3)
		w := solver.Wrap(g)
		if name == "limited" {
			if w != g {
				t.Errorf("limited wrapped in a %T", w)
			}
			continue
		}
		if reflect.TypeOf(w) == reflect.TypeOf(g) || w.Spec() != g.Spec() || w.Hash() != g.Hash() {
			t.Errorf("%s: wrapped in a %T, spec %s, hash %x; the game: %T, %s, %x", name, w, w.Spec().ID(), w.Hash(), g, g.Spec().ID(), g.Hash())
		}
		if _, ok := w.(solver.SafeMover); !ok {
			if _, ok := w.(solver.DeadTester); !ok {
				t.Errorf("%s: its search position %T has neither safe moves nor a dead test", name, w)
			}
		}
		if again := solver.Wrap(w); again != w {
			t.Errorf("%s: its position %T wrapped again, in a %T", name, w, again)
		}
		if c := w.Clone(); reflect.TypeOf(c) != reflect.TypeOf(w) {
			t.Errorf("%s: a clone of %T is a %T", name, w, c)
		}
	}
}
