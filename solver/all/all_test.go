package all_test

import (
	"reflect"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// TestEveryGameWrapped: with solver/all imported, the solver wraps each
// game in a position of its search package's own type, a copy of the game
// (the same position, the same Spec), and does not wrap such a position
// again.
func TestEveryGameWrapped(t *testing.T) {
	for _, name := range env.Names() {
		g, err := env.NewGame(name)
		if err != nil {
			t.Fatal(err)
		}
		g.Deal(3)
		w := solver.Wrap(g)
		if reflect.TypeOf(w) == reflect.TypeOf(g) || w.Spec() != g.Spec() || w.Hash() != g.Hash() {
			t.Errorf("%s: wrapped in a %T, spec %s, hash %x; the game: %T, %s, %x", name, w, w.Spec().ID(), w.Hash(), g, g.Spec().ID(), g.Hash())
		}
		_, safe := w.(solver.SafeMover)
		_, dead := w.(solver.DeadTester)
		_, keys := w.(solver.Keyer)
		if !safe && !dead && !keys {
			t.Errorf("%s: its search position %T has no safe moves, dead test or keys", name, w)
		}
		if again := solver.Wrap(w); again != w {
			t.Errorf("%s: its position %T wrapped again, in a %T", name, w, again)
		}
		if c := w.Clone(); reflect.TypeOf(c) != reflect.TypeOf(w) {
			t.Errorf("%s: a clone of %T is a %T", name, w, c)
		}
	}
}
