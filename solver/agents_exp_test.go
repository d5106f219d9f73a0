//go:build solverexp

package solver_test

import (
	"flag"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
)

var agGame = flag.String("ag.game", "", "")
var agName = flag.String("ag.agent", "heuristic", "")
var agN = flag.Int("ag.n", 100, "")
var agStart = flag.Uint64("ag.start", 5000, "")

func TestExpAgents(t *testing.T) {
	if *agGame == "" {
		t.Skip()
	}
	e, err := env.Make(*agGame, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := agents.New(*agName, agents.Options{})
	wins, prog, second := 0, 0, 0
	for i := 0; i < *agN; i++ {
		r, err := agents.Play(e, a, *agStart+uint64(i), *agStart+uint64(i), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome == env.Won {
			wins++
		}
		if r.Class == "second-class" {
			second++
		}
		prog += r.Progress
	}
	t.Logf("%s %s: %d deals, %d wins, %d second-class, mean progress %.1f", *agGame, *agName, *agN, wins, second, float64(prog)/float64(*agN))
}
