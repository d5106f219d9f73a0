package labelcsv

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
)

// TestEachVisitsEveryDeal: every deal of the range is done once, on any
// number of workers.
func TestEachVisitsEveryDeal(t *testing.T) {
	for _, workers := range []int{0, 1, 3} {
		var got []uint64
		err := Each(100, 50, workers, func(seed uint64) (uint64, error) { return seed, nil },
			func(s uint64) error { got = append(got, s); return nil })
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		for i, s := range got {
			if s != 100+uint64(i) {
				t.Fatalf("%d workers: deals %v, want 100 to 149 once each", workers, got)
			}
		}
		if len(got) != 50 {
			t.Fatalf("%d workers: %d deals, want 50", workers, len(got))
		}
	}
}

// TestEachStopsAtTheFirstError: an error of a deal, even one that stops
// every worker, or of the caller's each, is returned and ends the work
// (it does not hang).
func TestEachStopsAtTheFirstError(t *testing.T) {
	bad := errors.New("bad deal")
	err := Each(0, 1000, 2, func(seed uint64) (int, error) { return 0, bad }, func(int) error { return nil })
	if !errors.Is(err, bad) {
		t.Fatalf("every deal failing: %v, want %v", err, bad)
	}
	calls := 0
	full := errors.New("disk full")
	err = Each(0, 1000, 2, func(seed uint64) (int, error) { return 1, nil },
		func(int) error { calls++; return full })
	if !errors.Is(err, full) || calls != 1 {
		t.Fatalf("each failing: %v after %d calls, want %v after 1", err, calls, full)
	}
}

// TestHeader: the columns asked for, then the game's terms.
func TestHeader(t *testing.T) {
	spec, err := env.Lookup("fifteen")
	if err != nil {
		t.Fatal(err)
	}
	h := Header(spec, "seed", "move")
	if !strings.HasPrefix(h, "seed,move,home,lanes,") || !strings.HasSuffix(h, ",run_wrong\n") {
		t.Fatalf("header %q", h)
	}
}

// TestRow: the columns, booleans as 1 and 0, then the terms as Go prints
// the shortest float that reads back.
func TestRow(t *testing.T) {
	if got, want := Row([]float64{3, 0.25}, 7, "a>b", true, false), "7,a>b,1,0,3,0.25\n"; got != want {
		t.Fatalf("Row: %q, want %q", got, want)
	}
}

// TestLastWon: on a game whose positions are won up to position k (and
// lost after), LastWon finds k from any lower bound known to be won, and
// asks about no position below its bound.
func TestLastWon(t *testing.T) {
	e, err := env.Make("fifteen", env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(5)
	var states []env.Game
	for !e.Done() && len(states) < 40 {
		states = append(states, e.Game().Clone())
		m := e.Mask()
		if _, _, _, err := e.Advance(m.Next(0)); err != nil {
			t.Fatal(err)
		}
	}
	index := map[uint64]int{}
	for i, g := range states {
		index[g.Hash()] = i
	}
	if len(index) != len(states) {
		t.Skip("a position repeats; the fake verdicts need distinct ones")
	}
	for _, k := range []int{0, 1, 7, len(states) - 2, len(states) - 1} {
		for _, lo := range []int{0, k / 2, k} {
			got := LastWon(states, lo, func(g env.Game) bool {
				i := index[g.Hash()]
				if i < lo {
					t.Fatalf("k %d, lo %d: asked about position %d", k, lo, i)
				}
				return i <= k
			})
			if got != k {
				t.Fatalf("k %d, lo %d: LastWon %d", k, lo, got)
			}
		}
	}
}
