package opendeals

import (
	"flag"
	"testing"

	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
)

func TestTally(t *testing.T) {
	var c Tally
	for _, d := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, true}, {false, false}} {
		c.Add(d[0], d[1])
	}
	if c.Won != [2]int{2, 3} || c.Only != [2]int{1, 2} {
		t.Errorf("won %v, only %v", c.Won, c.Only)
	}
}

// TestTraining: the deals are open training deals of the shipped table, in
// order, the skipped ones left out; more than the table has is an error.
func TestTraining(t *testing.T) {
	all, err := Training("limited", 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	some, err := Training("limited", 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range some {
		if s != all[i+2] || s >= 1_000_000 || (i > 0 && s <= some[i-1]) {
			t.Errorf("deal %d after skipping 2: %d (all: %v)", i, s, all)
		}
	}
	if _, err := Training("limited", 1<<20, 1); err == nil {
		t.Error("no error for more deals than the table leaves open")
	}
	if _, err := Training("nogame", 0, 1); err == nil {
		t.Error("no error for a game without a table")
	}
}

// TestFlagsRegister: the flags keep the defaults given and take what the
// command line says.
func TestFlagsRegister(t *testing.T) {
	d := Flags{Game: "ladder", N: 20, Workers: 1}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	d.Register(fs, "play")
	if err := fs.Parse([]string{"-game", "limited", "-skip", "3"}); err != nil {
		t.Fatal(err)
	}
	if d != (Flags{Game: "limited", N: 20, Skip: 3, Workers: 1}) {
		t.Errorf("flags %+v", d)
	}
	if u := fs.Lookup("n").Usage; u != "open training deals to play" {
		t.Errorf("-n says %q", u)
	}
}

// TestVersusCountsBothSearches: two searches with the same options win
// the same deals, each counted once a search; SearchTwice keeps the
// options' order.
func TestVersusCountsBothSearches(t *testing.T) {
	seeds, err := Training("limited", 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	same := [2]solver.Options{{Nodes: 20000}, {Nodes: 20000}}
	c, err := Versus("limited", seeds, 2, same, [2]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Won[0] != c.Won[1] || c.Only != [2]int{} {
		t.Errorf("the same search twice: %+v", c)
	}
	p, err := SearchTwice(t.Context(), "limited", seeds[0], [2]solver.Options{{Nodes: 10}, {Nodes: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Seed != seeds[0] || p.Res[0].Nodes > 10 || p.Res[1].Nodes <= 10 {
		t.Errorf("the searches out of order: %+v nodes, %+v nodes", p.Res[0].Nodes, p.Res[1].Nodes)
	}
}
