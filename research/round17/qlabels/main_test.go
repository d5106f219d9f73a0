package main

import (
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/research/internal/labelcsv"
)

// rows reads a CSV written by run: its header and its rows split.
func rows(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	h, rs, err := labelcsv.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return h, rs
}

// TestReseedsAndObs: with -reseeds 3 -obs every move of a kept position has
// three rows, numbered 0 to 2, with the same observation after the move
// (the observation's cells, in hex), and different moves of a position lead
// to different observations; some moves' continuations end differently
// (the heuristic's tie-breaks were reseeded); the rows of a plain run are the same as its
// continuations number 0, for every position both keep.
func TestReseedsAndObs(t *testing.T) {
	dir := t.TempDir()
	plain, both := filepath.Join(dir, "plain.csv"), filepath.Join(dir, "both.csv")
	if err := run("fifteen", "heuristic", 7000, 6, options{perGame: 4, steps: 30, reseeds: 1}, 2, plain); err != nil {
		t.Fatal(err)
	}
	if err := run("fifteen", "heuristic", 7000, 6, options{perGame: 4, steps: 30, reseeds: 3, obs: true}, 2, both); err != nil {
		t.Fatal(err)
	}
	spec, _ := env.Lookup("fifteen")
	h, rs := rows(t, both)
	if h[7] != "rep" || h[8] != "obs" || h[9] != spec.Terms[0].Name {
		t.Fatalf("header %v", h[:10])
	}
	if len(rs) == 0 {
		t.Fatal("no rows")
	}
	type key struct{ seed, step, move string }
	reps := map[key][]string{}
	obs := map[key]string{}
	zero := map[string]bool{}
	ends := map[key]map[string]bool{} // the progress each move's continuations reach
	for _, r := range rs {
		k := key{r[0], r[2], r[3]}
		reps[k] = append(reps[k], r[7])
		if ends[k] == nil {
			ends[k] = map[string]bool{}
		}
		ends[k][r[6]] = true
		if o, ok := obs[k]; ok && o != r[8] {
			t.Fatalf("%v: the observation differs between continuations", k)
		}
		obs[k] = r[8]
		if b, err := hex.DecodeString(r[8]); err != nil || len(b) != spec.ObsLen {
			t.Fatalf("%v: obs %d bytes (%v), want %d", k, len(b), err, spec.ObsLen)
		}
		if r[7] == "0" {
			zero[strings.Join(append(r[:7:7], r[9:]...), ",")] = true
		}
	}
	differ := 0
	for _, e := range ends {
		if len(e) > 1 {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("no move's continuations differ: the agent's generator was not reseeded")
	}
	seen := map[string]key{}
	for k, v := range reps {
		if strings.Join(v, "") != "012" {
			t.Fatalf("%v: continuations %v", k, v)
		}
		at := k.seed + "/" + k.step + "/" + obs[k]
		if o, ok := seen[at]; ok {
			t.Fatalf("%v and %v lead to the same observation", k, o)
		}
		seen[at] = k
	}
	_, ps := rows(t, plain)
	kept := map[string]bool{}
	for _, r := range rs {
		kept[r[0]+"/"+r[2]] = true
	}
	matched := 0
	for _, r := range ps {
		if !kept[r[0]+"/"+r[2]] {
			continue
		}
		if !zero[strings.Join(r, ",")] {
			t.Fatalf("plain row %v is not a continuation 0", r[:7])
		}
		matched++
	}
	if matched == 0 {
		t.Fatal("no position kept by both runs")
	}
}

// TestRollout: with -rollout the continuations are another agent's, from
// the position after the move. Labelled by a search that keeps its best
// line, the heuristic's moves win far more often than by the heuristic's
// own play; an agent that does not exist is an error that names the flag.
func TestRollout(t *testing.T) {
	dir := t.TempDir()
	own, search := filepath.Join(dir, "own.csv"), filepath.Join(dir, "search.csv")
	o := options{perGame: 4, steps: 30, reseeds: 1}
	if err := run("fifteen", "heuristic", 7100, 8, o, 2, own); err != nil {
		t.Fatal(err)
	}
	o.rollout = "mc:rollouts=1,width=4,rollout-steps=2000,margin=0,line=best"
	if err := run("fifteen", "heuristic", 7100, 8, o, 2, search); err != nil {
		t.Fatal(err)
	}
	share := func(path string) (float64, int) {
		_, rs := rows(t, path)
		won := 0
		for _, r := range rs {
			if r[5] == "1" {
				won++
			}
		}
		return float64(won) / float64(len(rs)), len(rs)
	}
	a, na := share(own)
	b, nb := share(search)
	t.Logf("moves that win: %.3f of %d by the heuristic's play, %.3f of %d by the search's", a, na, b, nb)
	if na == 0 || nb == 0 || b < a+0.2 {
		t.Fatalf("the search's continuations win %.3f of the moves, the heuristic's %.3f; want 0.2 more", b, a)
	}
	o.rollout = "nobody"
	if err := run("fifteen", "heuristic", 7100, 1, o, 1, filepath.Join(dir, "x.csv")); err == nil || !strings.Contains(err.Error(), "-rollout") {
		t.Fatalf("an unknown rollout agent: %v", err)
	}
}
