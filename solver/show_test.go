//go:build solverexp

package solver

import (
	"context"
	"flag"
	"testing"

	"github.com/patience-gym/patience/env"
)

var showSeed = flag.Int64("show.seed", -1, "")

func TestShow(t *testing.T) {
	if *showSeed < 0 {
		t.Skip()
	}
	g, _ := env.NewGame(*expGame)
	g.Deal(uint64(*showSeed))
	t.Log("\n" + g.Render())
}

func TestShowBest(t *testing.T) {
	if *showSeed < 0 {
		t.Skip()
	}
	g, _ := env.NewGame(*expGame)
	g.Deal(uint64(*showSeed))
	var best string
	debugBest = func(g env.Game) { best = g.Render() }
	s, _ := New(Options{Nodes: *expNodes})
	r := s.Solve(context.Background(), g)
	t.Log(r.Verdict, r.Best, "\n"+best)
}
