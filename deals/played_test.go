package deals

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

// TestFoldTakesTheAgentsWins: a deal the search left unknown and an agent
// of the table won is won (an agent's game is a line that wins), listed
// in Meta.WonInPlay, rated, and kept by a round trip; a run's line is
// taken over the agent's win; a run or a table that holds as lost a deal
// an agent won is refused, and the table is left as it was.
func TestFoldTakesTheAgentsWins(t *testing.T) {
	played := func() *Table {
		tab := sample()
		tab.Deals[2].Heuristic.Won = true // deal 2, unknown
		tab.Deals[5].MC.Won = true        // deal 1,000,001, unknown
		return tab
	}
	tab := played()
	n, err := Fold(tab)
	if err != nil || n != 2 {
		t.Fatalf("Fold without runs took %d deals (%v), want the 2 an agent won", n, err)
	}
	if !slices.Equal(tab.Meta.WonInPlay, []uint64{2, 1_000_001}) {
		t.Errorf("WonInPlay %v", tab.Meta.WonInPlay)
	}
	for _, seed := range []uint64{2, 1_000_001} {
		if d, _ := tab.Deal(seed); d.Verdict != Won || d.LineLength != 0 || d.BestProgress != 104 || d.Nodes != 300_000 || d.Difficulty == Unrated {
			t.Errorf("deal %d, won in play, reads %+v", seed, d)
		}
	}
	if c := tab.Meta.Counts["all"]; c != (Counts{Won: 5, Lost: 1}) {
		t.Errorf("counts %+v", c)
	}
	back := readBack(t, tab, "played")
	if !slices.Equal(back.Meta.WonInPlay, tab.Meta.WonInPlay) || !slices.Equal(back.Meta.DecidedElsewhere(), []uint64{2, 1_000_001}) {
		t.Errorf("read back: WonInPlay %v, decided elsewhere %v", back.Meta.WonInPlay, back.Meta.DecidedElsewhere())
	}
	if n, err := Fold(back); err != nil || n != 0 {
		t.Errorf("a second fold took %d deals (%v)", n, err)
	}

	// A run that wins deal 2 gives its line; the agent's win of the other
	// stays.
	tab = played()
	run := Run{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 1_000_000, Command: "r"}, Deals: []RunDeal{{Seed: 2, Verdict: Won, Nodes: 800_000, LineLength: 190, BestProgress: 104}}}
	if n, err := Fold(tab, run); err != nil || n != 2 {
		t.Fatalf("folded %d (%v), want 2", n, err)
	}
	if d, _ := tab.Deal(2); d.LineLength != 190 || !slices.Equal(tab.Meta.WonInPlay, []uint64{1_000_001}) || len(tab.Meta.Folded) != 1 {
		t.Errorf("deal 2 %+v, WonInPlay %v, Folded %+v", d, tab.Meta.WonInPlay, tab.Meta.Folded)
	}

	// Contradictions.
	for _, c := range []struct {
		name   string
		change func(tab *Table) []Run
		want   string
	}{
		{"a run proves lost a deal an agent won", func(*Table) []Run {
			return []Run{{Game: "limited", RulesVersion: 1, RunSearch: RunSearch{Nodes: 1, Command: "r"}, Deals: []RunDeal{{Seed: 1_000_001, Verdict: Lost}}}}
		}, "deal 1000001 is won in the table, lost in run 1"},
		{"an agent won a deal the table holds as lost", func(tab *Table) []Run {
			tab.Deals[1].MC.Won = true
			return nil
		}, "deal 1 is lost in the table and mc won it"},
	} {
		tab := played()
		runs := c.change(tab)
		_, err := Fold(tab, runs...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		if tab.Deals[2].Verdict != Unknown || tab.Deals[5].Verdict != Unknown || len(tab.Meta.WonInPlay) != 0 {
			t.Errorf("%s: the refused fold changed the table", c.name)
		}
	}
}

// TestBuildTakesTheAgentsWins: a build whose search decides nothing (a
// budget of one node) lists as won the deals its heuristic agent won, and
// a rebuild that keeps it lists them again.
func TestBuildTakesTheAgentsWins(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		Game:     "fifteen",
		Blocks:   []Block{{Name: "train", First: 0, Count: 8}},
		Settings: Settings{Nodes: 1, TableBits: 12, Heuristic: "heuristic", MC: "random"},
		Work:     dir, Command: "patience deals build fifteen (test)",
	}
	sum, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var won []uint64
	for _, d := range sum.Table.Deals {
		if d.Heuristic.Won {
			won = append(won, d.Seed)
			if d.Verdict != Won || d.LineLength != 0 {
				t.Errorf("deal %d, won by the heuristic agent: %+v", d.Seed, d)
			}
		} else if d.Verdict == Won {
			t.Errorf("deal %d won by the search at one node: %+v", d.Seed, d)
		}
	}
	if len(won) == 0 {
		t.Fatal("the heuristic agent won none of the deals: choose others")
	}
	if !slices.Equal(sum.Table.Meta.WonInPlay, won) {
		t.Errorf("WonInPlay %v, want %v", sum.Table.Meta.WonInPlay, won)
	}
	t.Logf("won in play: %v", won)

	// Rebuilt with agents that win nothing, keeping the table: the same
	// deals are won in play, not kept as a search's verdicts.
	cfg.Work, cfg.Keep = t.TempDir(), sum.Table
	cfg.Settings.Heuristic = "random"
	again, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m := again.Table.Meta; !slices.Equal(m.WonInPlay, won) || len(m.Kept) != 0 {
		t.Errorf("rebuilt keeping the table: WonInPlay %v, Kept %v", m.WonInPlay, m.Kept)
	}
}

// readBack writes tab and reads it back, as a file named name.
func readBack(t *testing.T, tab *Table, name string) *Table {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, tab); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b.Bytes(), name)
	if err != nil {
		t.Fatal(err)
	}
	return back
}
