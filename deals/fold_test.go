package deals

import (
	"reflect"
	"strings"
	"testing"
)

// TestFoldTakesTheVerdictsTheTableLacks: a run that wins an evaluation
// deal and proves a training deal lost, both unknown in the table, gives
// the table those verdicts with its figures, a difficulty class for the
// win, new counts and a record of the run that the file keeps; what the
// table decided already, deals outside it and the run's unknown deals
// change nothing.
func TestFoldTakesTheVerdictsTheTableLacks(t *testing.T) {
	tab := sample()
	run := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 12_000_000, BestFirst: 3, Command: "patience solve limited --budget 12M --best-first 3"}, Deals: []RunDeal{
		{Seed: 0, Verdict: Won, Nodes: 99, LineLength: 150, BestProgress: 104}, // won in the table already
		{Seed: 1_000_001, Verdict: Won, Nodes: 2_000_000, LineLength: 220, BestProgress: 104},
		{Seed: 2, Verdict: Lost, Nodes: 7_000_000, BestProgress: 90},
		{Seed: 3, Verdict: Unknown, Nodes: 12_000_000, BestProgress: 50}, // won in the table
		{Seed: 5_000_000, Verdict: Lost, Nodes: 1, DeadAtStart: true},    // not in the table
	}}
	n, err := Fold(tab, run)
	if err != nil || n != 2 {
		t.Fatalf("folded %d deals (%v), want 2", n, err)
	}
	if d, _ := tab.Deal(1_000_001); d.Verdict != Won || d.Nodes != 2_000_000 || d.LineLength != 220 || d.Difficulty == Unrated {
		t.Errorf("the folded win reads %+v", d)
	}
	if d, _ := tab.Deal(2); d.Verdict != Lost || d.Nodes != 7_000_000 || d.BestProgress != 90 {
		t.Errorf("the folded loss reads %+v", d)
	}
	if d, _ := tab.Deal(0); d.Nodes != 210 || d.LineLength != 200 {
		t.Errorf("a deal the table had won took the run's figures: %+v", d)
	}
	if c := tab.Meta.Counts["eval"]; c != (Counts{Won: 2}) {
		t.Errorf("evaluation counts %+v, want 2 won", c)
	}
	if c := tab.Meta.Counts["all"]; c != (Counts{Won: 4, Lost: 2}) {
		t.Errorf("counts %+v, want 4 won and 2 lost", c)
	}
	want := []FoldedRun{{RunSearch: RunSearch{Command: run.Command, Nodes: 12_000_000, BestFirst: 3}, Deals: []uint64{2, 1_000_001}}}
	if !reflect.DeepEqual(tab.Meta.Folded, want) {
		t.Errorf("Folded %+v, want %+v", tab.Meta.Folded, want)
	}
	back := readBack(t, tab, "folded")
	if !reflect.DeepEqual(back.Meta.Folded, want) || !sameDeals(back.Deals, tab.Deals) {
		t.Errorf("read back: Folded %+v", back.Meta.Folded)
	}
	if got := back.Meta.DecidedElsewhere(); !equalSeeds(got, []uint64{2, 1_000_001}) {
		t.Errorf("DecidedElsewhere %v", got)
	}
}

// TestFoldRecordsTheRunThatGaveEachVerdict: of two runs that decide the
// same deal alike, the first gives it; a run that gives nothing is not
// recorded.
func TestFoldRecordsTheRunThatGaveEachVerdict(t *testing.T) {
	tab := sample()
	a := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 1_000_000, Command: "a"}, Deals: []RunDeal{{Seed: 2, Verdict: Won, Nodes: 500_000, LineLength: 210}}}
	b := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 5_000_000, BestFirst: 10, Knowledge: "all", Command: "b"}, Deals: []RunDeal{
		{Seed: 2, Verdict: Won, Nodes: 400_000, LineLength: 205}, {Seed: 1_000_001, Verdict: Lost, Nodes: 3_000_000}}}
	c := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 300_000, Command: "c"}, Deals: []RunDeal{{Seed: 0, Verdict: Won}}}
	n, err := Fold(tab, a, b, c)
	if err != nil || n != 2 {
		t.Fatalf("folded %d (%v), want 2", n, err)
	}
	want := []FoldedRun{{RunSearch: RunSearch{Command: "a", Nodes: 1_000_000}, Deals: []uint64{2}}, {RunSearch: RunSearch{Command: "b", Nodes: 5_000_000, BestFirst: 10, Knowledge: "all"}, Deals: []uint64{1_000_001}}}
	if !reflect.DeepEqual(tab.Meta.Folded, want) {
		t.Errorf("Folded %+v, want %+v", tab.Meta.Folded, want)
	}
	if d, _ := tab.Deal(2); d.Nodes != 500_000 {
		t.Errorf("deal 2 took %d nodes, want the first run's 500,000", d.Nodes)
	}
}

// TestFoldRefusesContradictions: a run that says won where the table
// proved lost, two runs that disagree, or a run of another game or rules
// version leave the table as it was and say why.
func TestFoldRefusesContradictions(t *testing.T) {
	for _, c := range []struct {
		name string
		runs []Run
		want string
	}{
		{"against the table", []Run{{Game: "limited", RulesVersion: 1, Deals: []RunDeal{{Seed: 1, Verdict: Won}, {Seed: 2, Verdict: Won}}}},
			"deal 1 is lost in the table, won in run 1"},
		{"against another run", []Run{
			{Game: "limited", RulesVersion: 1, Deals: []RunDeal{{Seed: 2, Verdict: Won}}},
			{Game: "limited", RulesVersion: 1, Deals: []RunDeal{{Seed: 2, Verdict: Lost}}}},
			"deal 2 is won in run 1, lost in run 2"},
		{"another game", []Run{{Game: "ladder", RulesVersion: 1}}, "a run of ladder (rules v1) cannot be folded"},
		{"other rules", []Run{{Game: "limited", RulesVersion: 2}}, "rules v2"},
	} {
		tab, before := sample(), sample()
		n, err := Fold(tab, c.runs...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: folded %d, error %v; want one saying %q", c.name, n, err, c.want)
		}
		if !sameDeals(tab.Deals, before.Deals) || !reflect.DeepEqual(tab.Meta, before.Meta) {
			t.Errorf("%s: the table changed", c.name)
		}
	}
}

// TestFoldRecordsHowFarAnOpenDealWasSearched: a deal a run leaves unknown
// takes the nodes of the largest search that left it so, and the most
// cards any of them placed, so that `patience deals GAME --long` says how
// far each open deal has been searched; the run is recorded for it, once
// however often it is folded, and a later, larger search takes it over.
// A smaller search than the table's changes nothing.
func TestFoldRecordsHowFarAnOpenDealWasSearched(t *testing.T) {
	tab := sample()
	small := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 100_000, Command: "small"}, Deals: []RunDeal{{Seed: 2, Verdict: Unknown, Nodes: 100_000, BestProgress: 99}}}
	a := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 20_000_000, Knowledge: "prove", Command: "a"}, Deals: []RunDeal{
		{Seed: 2, Verdict: Unknown, Nodes: 20_000_000, BestProgress: 60},
		{Seed: 1_000_001, Verdict: Unknown, Nodes: 20_000_000, BestProgress: 75},
	}}
	n, err := Fold(tab, small, a)
	if err != nil || n != 0 {
		t.Fatalf("folded %d (%v), want no verdict", n, err)
	}
	if d, _ := tab.Deal(2); d.Verdict != Unknown || d.Nodes != 20_000_000 || d.BestProgress != 99 {
		t.Errorf("deal 2 reads %+v: want unknown, 20M nodes, 99 cards (the small run's best)", d)
	}
	if d, _ := tab.Deal(1_000_001); d.Nodes != 20_000_000 || d.BestProgress != 75 {
		t.Errorf("deal 1,000,001 reads %+v: want 20M nodes, 75 cards", d)
	}
	want := []FoldedRun{{RunSearch: a.RunSearch, Searched: []uint64{2, 1_000_001}}}
	if !reflect.DeepEqual(tab.Meta.Folded, want) {
		t.Errorf("Folded %+v, want %+v", tab.Meta.Folded, want)
	}
	if c := tab.Meta.Counts["all"]; c != (Counts{Won: 3, Lost: 1, Unknown: 2}) {
		t.Errorf("counts %+v changed", c)
	}
	// The same run again: one record, the same figures.
	if _, err := Fold(tab, a); err != nil || !reflect.DeepEqual(tab.Meta.Folded, want) {
		t.Errorf("folded again (%v): Folded %+v", err, tab.Meta.Folded)
	}
	// A larger search of deal 2 that wins 1,000,001 takes both over.
	b := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 40_000_000, Command: "b"}, Deals: []RunDeal{
		{Seed: 2, Verdict: Unknown, Nodes: 40_000_000, BestProgress: 70},
		{Seed: 1_000_001, Verdict: Won, Nodes: 30_000_000, LineLength: 230, BestProgress: 104},
	}}
	if n, err := Fold(tab, b); err != nil || n != 1 {
		t.Fatalf("folded %d (%v), want 1", n, err)
	}
	if d, _ := tab.Deal(2); d.Nodes != 40_000_000 || d.BestProgress != 99 {
		t.Errorf("deal 2 reads %+v after the larger search", d)
	}
	want = []FoldedRun{{RunSearch: a.RunSearch, Searched: []uint64{1_000_001}}, {RunSearch: b.RunSearch, Deals: []uint64{1_000_001}, Searched: []uint64{2}}}
	if !reflect.DeepEqual(tab.Meta.Folded, want) {
		t.Errorf("Folded %+v, want %+v", tab.Meta.Folded, want)
	}
	back := readBack(t, tab, "searched")
	if !reflect.DeepEqual(back.Meta.Folded, want) || !sameDeals(back.Deals, tab.Deals) {
		t.Errorf("read back: Folded %+v", back.Meta.Folded)
	}
}
