package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/deals"
)

// foldDeal is a Limited evaluation deal that the search wins at 1M nodes
// in 127,314 nodes but not at the table's 300k (its passes share the
// budget out differently).
const foldDeal = 1000993

// tableLeavingOpen writes the shipped Limited table with foldDeal made
// unknown and no run folded in, and returns its path.
func tableLeavingOpen(t *testing.T) string {
	t.Helper()
	tab, err := deals.Shipped("limited")
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Deals {
		if d := &tab.Deals[i]; d.Seed == foldDeal {
			d.Verdict, d.LineLength, d.Nodes = deals.Unknown, 0, 300_000
		}
	}
	tab.Meta.Folded = nil
	deals.Score(tab)
	path := filepath.Join(t.TempDir(), "limited.parquet")
	if err := deals.WriteFile(path, tab); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDealsFoldTakesARunsVerdicts: a solver run that wins a deal the table
// leaves unknown gives the table written its verdict and figures, and the
// table records the run; a run whose line does not replay, of another
// game, of a time budget or that contradicts the table is refused.
func TestDealsFoldTakesARunsVerdicts(t *testing.T) {
	in, dir := tableLeavingOpen(t), t.TempDir()
	run := filepath.Join(dir, "run.json")
	if code, _, errOut := runCLI(t, "solve", "limited", "--seed-start", "1000993", "--deals", "1", "--budget", "1M", "--json", run); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, errOut)
	}
	out := filepath.Join(dir, "tables")
	code, stdout, errOut := runCLI(t, "deals", "fold", "limited", run, "--table", in, "--out", out)
	if code != 0 || !strings.Contains(stdout, "1 deal folded in") {
		t.Fatalf("fold: exit %d:\n%s%s", code, stdout, errOut)
	}
	got, err := deals.ReadFile(filepath.Join(out, "limited.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := got.Deal(foldDeal)
	if d.Verdict != deals.Won || d.Nodes != 127_314 || d.LineLength == 0 || d.Difficulty == deals.Unrated {
		t.Errorf("the folded deal reads %+v", d)
	}
	if n := len(got.Meta.Folded); n != 1 || !strings.Contains(got.Meta.Folded[0].Command, "--budget 1M") ||
		got.Meta.Folded[0].Nodes != 1_000_000 || !slices.Equal(got.Meta.Folded[0].Deals, []uint64{foldDeal}) {
		t.Errorf("the table records the runs %+v", got.Meta.Folded)
	}
	before, _ := deals.ReadFile(in)
	if w, b := got.Count("eval").Won, before.Count("eval").Won; w != b+1 {
		t.Errorf("%d evaluation deals won, %d before", w, b)
	}

	// A run with a best-first pass: the table records it, so that a search
	// can decide its deals again as it did.
	bfRun := filepath.Join(dir, "bf.json")
	if code, _, errOut := runCLI(t, "solve", "limited", "--seed-start", "1000993", "--deals", "1", "--budget", "1M", "--best-first", "10", "--json", bfRun); code != 0 {
		t.Fatalf("solve --best-first: exit %d: %s", code, errOut)
	}
	bfOut := filepath.Join(dir, "bf-tables")
	if code, stdout, errOut := runCLI(t, "deals", "fold", "limited", bfRun, "--table", in, "--out", bfOut); code != 0 {
		t.Fatalf("fold of a best-first run: exit %d:\n%s%s", code, stdout, errOut)
	}
	bf, err := deals.ReadFile(filepath.Join(bfOut, "limited.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(bf.Meta.Folded) != 1 || bf.Meta.Folded[0].BestFirst != 10 {
		t.Errorf("a best-first run folded in: the table records %+v", bf.Meta.Folded)
	}

	// Runs refused: each made from the good one by one change.
	var good map[string]any
	data, err := os.ReadFile(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(f map[string]any)
		want   string
	}{
		{"a line that does not win", func(f map[string]any) {
			r := f["results"].([]any)[0].(map[string]any)
			line := r["line"].([]any)
			r["line"] = line[:len(line)-1]
		}, "does not end won"},
		{"another game", func(f map[string]any) { f["game"] = "fifteen" }, "not of limited's default rules"},
		{"a time budget", func(f map[string]any) { f["budget"] = "10s" }, "only runs with a node budget"},
		{"search knowledge the game lacks", func(f map[string]any) { f["knowledge"] = "all" }, `limited has no search knowledge "all"`},
		{"a deal the table has won, lost", func(f map[string]any) {
			r := f["results"].([]any)[0].(map[string]any)
			r["seed"], r["verdict"], r["line"] = 1000000, "unsolvable", nil
		}, "contradict"},
	} {
		good = nil
		if err := json.Unmarshal(data, &good); err != nil {
			t.Fatal(err)
		}
		c.change(good)
		bad, _ := json.Marshal(good)
		path := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "deals", "fold", "limited", path, "--table", in, "--out", filepath.Join(dir, "none"))
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want an error saying %q", c.name, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("a refused fold wrote something: %v", err)
	}
}
