package agents

import (
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// TestHOPTieProgress: with tie=progress, every candidate is searched in
// every world, its tie value is the sum over the worlds of the share of
// the cards its search placed at best (checked against a fresh oracle's
// searches of the same positions), and the move played is won in the
// most worlds and, among those, has the highest tie value (a win counts
// as all the cards placed).
func TestHOPTieProgress(t *testing.T) {
	const worlds, nodes = 4, 300
	e, err := env.Make("royalparade", env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(5)
	h, err := NewHOP(HOPOptions{Worlds: worlds, Nodes: nodes, Width: 4, TieProgress: true})
	if err != nil {
		t.Fatal(err)
	}
	h.Reset(5)
	a := h.Act(NewView(e))
	C := len(h.cands)
	if C < 2 {
		t.Fatalf("%d candidates, want at least 2", C)
	}
	check, err := newOracle(nodes, 18)
	if err != nil {
		t.Fatal(err)
	}
	cards := float64(e.Spec().Cards)
	differ := false
	played := -1
	for i, c := range h.cands {
		if c == a {
			played = i
		}
		want, won := 0.0, 0
		for w := range h.nw {
			child := h.worlds[w].Game().Clone()
			child.Apply(c)
			verdict, _, best := check.decideBest(child)
			if verdict == solver.Solved {
				won++
			}
			want += float64(best) / cards
		}
		if h.tie[i] != want || h.wins[i] != won {
			t.Errorf("%s: tie %v and %d worlds won, want %v and %d (the searches over %d worlds)",
				e.ActionString(c), h.tie[i], h.wins[i], want, won, h.nw)
		}
		if h.tie[i] != h.tie[0] {
			differ = true
		}
	}
	if !differ {
		t.Fatalf("every candidate has tie %v: the test does not tell them apart", h.tie[0])
	}
	if played < 0 {
		t.Fatalf("played %s, not a candidate", e.ActionString(a))
	}
	for i, c := range h.cands {
		if h.wins[i] > h.wins[played] || h.wins[i] == h.wins[played] && h.tie[i] > h.tie[played] &&
			!leadsBack(h.sample, h.scratch, c, &h.seen) {
			t.Errorf("played %s (wins %d, tie %v), but %s has wins %d, tie %v",
				e.ActionString(a), h.wins[played], h.tie[played], e.ActionString(c), h.wins[i], h.tie[i])
		}
	}
}
