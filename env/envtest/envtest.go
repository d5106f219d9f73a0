// Package envtest holds the test helpers every game package shares: the
// property checker run at the size the tests use, and the Step benchmark.
package envtest

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/check"
)

// Games is the number of random games Check plays (ShortGames under
// `go test -short`); `patience check --games N` plays more.
const (
	Games      = 300
	ShortGames = 40
)

// Check runs the property checker on the named game and fails t on any
// failure. It returns the report for further assertions.
func Check(t testing.TB, game string) *check.Report {
	t.Helper()
	games := Games
	if testing.Short() {
		games = ShortGames
	}
	rep, err := check.Run(game, check.Options{Games: games})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	t.Log(rep)
	return rep
}

// BenchmarkStep measures one Step of the named game with a uniformly random
// legal action, the mask and the observation produced, dealing the next
// deal whenever an episode ends (or a deal offers no move at all).
func BenchmarkStep(b *testing.B, game string) {
	e, err := env.Make(game, env.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rng := cards.NewRand(1)
	seed := uint64(0)
	e.Reset(seed)
	b.ReportAllocs()
	for b.Loop() {
		for e.Done() {
			seed++
			e.Reset(seed)
		}
		m := e.Mask()
		if _, _, _, _, _, err := e.Step(m.Nth(rng.IntN(m.Count()))); err != nil {
			b.Fatal(err)
		}
	}
}
