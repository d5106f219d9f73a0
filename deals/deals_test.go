package deals

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	_ "github.com/patience-gym/patience/solver/all" // the search knowledge the solver uses
)

// sameDeals reports whether two deal lists are equal, NaN scores equal.
func sameDeals(a, b []Deal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if math.IsNaN(x.Score) && math.IsNaN(y.Score) {
			x.Score, y.Score = 0, 0
		}
		if x != y {
			return false
		}
	}
	return true
}

// sample is a small table with every kind of deal.
func sample() *Table {
	t := &Table{Meta: Meta{
		Format: FormatVersion, Game: "limited", Title: "Limited", RulesVersion: 1, Clairvoyant: true, Cards: 104,
		Blocks:   []Block{{Name: "train", First: 0, Count: 4}, {Name: "eval", First: 1_000_000, Count: 2, MC: true}},
		Settings: Settings{Nodes: 300_000, Worlds: 8, WorldNodes: 10_000, Heuristic: "heuristic", MC: "mc"},
		Command:  "patience deals build limited",
	}}
	h := func(won bool, p int) Play { return Play{Played: true, Won: won, Progress: p} }
	t.Deals = []Deal{
		{Seed: 0, Block: "train", Verdict: Won, Nodes: 210, LineLength: 200, BestProgress: 104, Heuristic: h(true, 104), Worlds: Worlds{8, 6, 0}},
		{Seed: 1, Block: "train", Verdict: Lost, Nodes: 1, BestProgress: 20, DeadAtStart: true, Heuristic: h(false, 12), Worlds: Worlds{8, 0, 8}},
		{Seed: 2, Block: "train", Verdict: Unknown, Nodes: 300_000, BestProgress: 88, Heuristic: h(false, 40), Worlds: Worlds{8, 1, 0}},
		{Seed: 3, Block: "train", Verdict: Won, Nodes: 150_000, LineLength: 230, BestProgress: 104, Heuristic: h(false, 30), Worlds: Worlds{8, 2, 1}},
		{Seed: 1_000_000, Block: "eval", Verdict: Won, Nodes: 5000, LineLength: 215, BestProgress: 104, Heuristic: h(false, 60), MC: h(true, 104), Worlds: Worlds{8, 5, 0}},
		{Seed: 1_000_001, Block: "eval", Verdict: Unknown, Nodes: 300_000, BestProgress: 70, Heuristic: h(false, 33), MC: h(false, 50), Worlds: Worlds{8, 0, 0}},
	}
	Score(t)
	t.Meta.Counts = map[string]Counts{"all": t.Count(""), "train": t.Count("train"), "eval": t.Count("eval")}
	return t
}

func TestTableRoundTrips(t *testing.T) {
	tab := sample()
	var a, b bytes.Buffer
	if err := Write(&a, tab); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, tab); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same table written twice gives different bytes")
	}
	got, err := Decode(a.Bytes(), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if !sameDeals(got.Deals, tab.Deals) {
		t.Errorf("deals differ after a round trip:\n got %+v\nwant %+v", got.Deals, tab.Deals)
	}
	if got.Meta.Command != tab.Meta.Command || got.Meta.Cuts != tab.Meta.Cuts || got.Meta.Counts["eval"] != tab.Meta.Counts["eval"] {
		t.Errorf("metadata differs after a round trip: %+v", got.Meta)
	}
	// The scored deals have classes; the others none.
	for _, d := range got.Deals {
		if (d.Verdict == Won) != (d.Difficulty != Unrated) || (d.Verdict == Won) == math.IsNaN(d.Score) {
			t.Errorf("deal %d (%s): score %v, class %q", d.Seed, d.Verdict, d.Score, d.Difficulty)
		}
	}
}

func TestReaderRefusesOtherFormatsAndDamage(t *testing.T) {
	tab := sample()
	tab.Meta.Format = FormatVersion + 1
	var buf bytes.Buffer
	if err := Write(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(buf.Bytes(), "x"); !errors.Is(err, ErrFormat) {
		t.Errorf("a table of format %d: %v, want ErrFormat", tab.Meta.Format, err)
	}
	tab = sample()
	tab.Meta.Blocks[0].Count = 3 // the rows no longer match the blocks
	buf.Reset()
	if err := Write(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(buf.Bytes(), "x"); !errors.Is(err, ErrNotTable) {
		t.Errorf("rows that do not match the blocks: %v, want ErrNotTable", err)
	}
	if _, err := Decode(buf.Bytes()[:buf.Len()/2], "x"); !errors.Is(err, ErrNotTable) {
		t.Errorf("half a file: %v, want ErrNotTable", err)
	}
}

func TestATableOfOtherRulesIsRefused(t *testing.T) {
	tab := sample()
	spec, err := env.Lookup("limited")
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(tab, spec); err != nil {
		t.Fatalf("a table of the game's rules: %v", err)
	}
	other := *spec
	other.RulesVersion = spec.RulesVersion + 1
	err = Check(tab, &other)
	if !errors.Is(err, ErrRules) {
		t.Fatalf("a table of rules version %d for rules %d: %v, want ErrRules", tab.Meta.RulesVersion, other.RulesVersion, err)
	}
	for _, want := range []string{"rules version 1", "rules version 2", "patience deals build limited"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if err := Check(tab, mustSpec(t, "cromwell")); err == nil {
		t.Error("a limited table passed as cromwell's")
	}
}

func mustSpec(t *testing.T, name string) *env.Spec {
	t.Helper()
	s, err := env.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSelectAndPick(t *testing.T) {
	tab := sample()
	won := Seeds(tab.Select(Filter{Verdicts: []Verdict{Won}}))
	if want := []uint64{0, 3, 1_000_000}; !equalSeeds(won, want) {
		t.Errorf("won deals %v, want %v", won, want)
	}
	if got := Seeds(tab.Select(Filter{Verdicts: []Verdict{Lost, Unknown}, Block: "train"})); !equalSeeds(got, []uint64{1, 2}) {
		t.Errorf("lost or unknown training deals: %v", got)
	}
	if got := Seeds(tab.Select(Filter{From: 3, Count: 2})); !equalSeeds(got, []uint64{3, 1_000_000}) {
		t.Errorf("two deals from 3: %v", got)
	}
	for _, d := range tab.Select(Filter{Difficulty: Hard}) {
		if d.Verdict != Won || d.Difficulty != Hard {
			t.Errorf("--difficulty hard selected deal %d (%s, %s)", d.Seed, d.Verdict, d.Difficulty)
		}
	}
	seen := map[uint64]bool{}
	for s := range uint64(50) {
		d, ok := tab.Pick("train", s)
		if !ok || d.Verdict != Won || d.Block != "train" {
			t.Fatalf("Pick(train, %d) = %+v, %v", s, d, ok)
		}
		if again, _ := tab.Pick("train", s); again.Seed != d.Seed {
			t.Fatalf("Pick(train, %d) is not reproducible", s)
		}
		seen[d.Seed] = true
	}
	if len(seen) != 2 {
		t.Errorf("50 seeds picked %d of the 2 won training deals", len(seen))
	}
	if _, ok := (&Table{Meta: tab.Meta, Deals: tab.Deals[1:3]}).Pick("", 0); ok {
		t.Error("Pick found a won deal in a table without one")
	}
}

func equalSeeds(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestScoreRanksAndCutsInThirds(t *testing.T) {
	tab := &Table{Meta: Meta{Cards: 104, Settings: Settings{Nodes: 1_000_000}}}
	for i := range 30 {
		tab.Deals = append(tab.Deals, Deal{Seed: uint64(i), Verdict: Won, Nodes: int64(10 * (i + 1) * (i + 1)),
			LineLength: 150 + i, Heuristic: Play{Played: true, Progress: 104 - 3*i, Won: i == 0}})
	}
	tab.Deals = append(tab.Deals, Deal{Seed: 30, Verdict: Lost, Nodes: 5})
	Score(tab)
	n := map[Difficulty]int{}
	for i, d := range tab.Deals[:30] {
		n[d.Difficulty]++
		if i > 0 && d.Score <= tab.Deals[i-1].Score {
			t.Errorf("deal %d (more nodes, a longer line, less heuristic progress) scores %v, not above deal %d's %v", i, d.Score, i-1, tab.Deals[i-1].Score)
		}
		if d.Score < 0 || d.Score > 1 {
			t.Errorf("deal %d scores %v, outside 0..1", i, d.Score)
		}
	}
	if n[Easy] != 10 || n[Medium] != 10 || n[Hard] != 10 {
		t.Errorf("classes of 30 won deals: %v, want 10 each", n)
	}
	if last := tab.Deals[30]; !math.IsNaN(last.Score) || last.Difficulty != Unrated {
		t.Errorf("a lost deal is scored %v, %s", last.Score, last.Difficulty)
	}
}

// TestScoreLeavesOutAnUnknownLine: a deal won in play has no line
// (LineLength 0); its score is the mean of the other parts, and its
// missing line does not count as the shortest against the others.
func TestScoreLeavesOutAnUnknownLine(t *testing.T) {
	tab := &Table{Meta: Meta{Cards: 104, Settings: Settings{Nodes: 1_000_000}}}
	for i, n := range []int{100, 200} {
		tab.Deals = append(tab.Deals, Deal{Seed: uint64(i), Verdict: Won, Nodes: 1_000_000, LineLength: n, Heuristic: Play{Played: true, Progress: 52}})
	}
	tab.Deals = append(tab.Deals, Deal{Seed: 2, Verdict: Won, Nodes: 1_000_000, Heuristic: Play{Played: true, Won: true, Progress: 104}})
	Score(tab)
	// effort 1 for every deal; play 1/2, 1/2 and 0; length 1/4 and 3/4 of
	// the two known lines.
	want := []float64{(1 + 0.5 + 0.25) / 3, (1 + 0.5 + 0.75) / 3, (1.0 + 0) / 2}
	for i, d := range tab.Deals {
		if math.Abs(d.Score-want[i]) > 1e-6 {
			t.Errorf("deal %d scores %v, want %v", i, d.Score, want[i])
		}
	}
}

// tinyConfig is a small, cheap table of a game with hidden cards: every
// part of a build (solver, worlds, heuristic, mc) runs.
func tinyConfig(work string) Config {
	return Config{
		Game:     "limited",
		Blocks:   []Block{{Name: "train", First: 0, Count: 7}, {Name: "eval", First: 1_000_000, Count: 3, MC: true}},
		Settings: Settings{Nodes: 20_000, TableBits: 16, Worlds: 3, WorldNodes: 2_000, Heuristic: "heuristic", MC: "mc:rollouts=2,width=2"},
		Work:     work, Out: work, Command: "patience deals build limited (test)",
	}
}

func readTable(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBuildResumesAndShardsToTheSameTable(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	chunkSize = 2
	ctx := context.Background()

	// One run, uninterrupted.
	one := t.TempDir()
	sum, err := Build(ctx, tinyConfig(one))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Path == "" || sum.Worked != 10 {
		t.Fatalf("an uninterrupted build worked on %d deals and wrote %q", sum.Worked, sum.Path)
	}
	want := readTable(t, sum.Path)
	if c := sum.Table.Meta.Counts["all"]; c.Won == 0 || c.Won+c.Lost+c.Unknown != 10 {
		t.Errorf("counts %+v", c)
	}
	for _, d := range sum.Table.Deals {
		if d.Block == "eval" && !d.MC.Played || d.Block == "train" && d.MC.Played {
			t.Errorf("deal %d of block %s: mc played %v", d.Seed, d.Block, d.MC.Played)
		}
		if d.Worlds.Tried != 3 {
			t.Errorf("deal %d: %d worlds tried, want 3", d.Seed, d.Worlds.Tried)
		}
	}

	// Interrupted after four deals, then a crash cuts a line short.
	two := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	cfg := tinyConfig(two)
	n := 0
	cfg.OnDeal = func(Record) {
		if n++; n == 4 {
			cancel()
		}
	}
	sum, err = Build(cctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("an interrupted build returned %v", err)
	}
	if sum.Worked != 4 {
		t.Fatalf("the interrupted build recorded %d deals, want 4", sum.Worked)
	}
	if _, err := os.Stat(filepath.Join(two, "limited.parquet")); err == nil {
		t.Fatal("an interrupted build wrote a table")
	}
	j := filepath.Join(two, journalName("limited", 0, 1))
	f, err := os.OpenFile(j, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seed":6,"verdict":"wo`) // a crash in the middle of a line
	f.Close()
	cfg.OnDeal = nil
	sum, err = Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Done != 4 || sum.Worked != 6 {
		t.Errorf("the resumed build found %d deals done and worked on %d, want 4 and 6", sum.Done, sum.Worked)
	}
	if got := readTable(t, sum.Path); !bytes.Equal(got, want) {
		t.Error("the interrupted and resumed build wrote another table than the uninterrupted one")
	}
	// A rerun of a finished build works on nothing and writes the same.
	if sum, err = Build(ctx, cfg); err != nil || sum.Worked != 0 || !bytes.Equal(readTable(t, sum.Path), want) {
		t.Errorf("a rerun: %v, worked on %d", err, sum.Worked)
	}

	// Three shards: the table comes with the last.
	three := t.TempDir()
	var seen []uint64
	for i := range 3 {
		cfg := tinyConfig(three)
		cfg.Shard, cfg.Shards = i, 3
		cfg.OnDeal = func(r Record) { seen = append(seen, r.Deal.Seed) }
		sum, err := Build(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 && (sum.Path != "" || sum.Missing == 0) {
			t.Errorf("shard %d of 3 wrote a table (%q) with %d deals missing", i, sum.Path, sum.Missing)
		}
		if i == 2 {
			if sum.Path == "" {
				t.Fatal("the last shard wrote no table")
			}
			if !bytes.Equal(readTable(t, sum.Path), want) {
				t.Error("the sharded build wrote another table than the single one")
			}
		}
	}
	if len(seen) != 10 {
		t.Errorf("the shards worked on %d deals in all, want 10 (each once): %v", len(seen), seen)
	}

	// A journal of other settings is refused, not mixed in.
	cfg = tinyConfig(two)
	cfg.Settings.Nodes++
	if _, err := Build(ctx, cfg); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("a build over a journal of other settings: %v", err)
	}
}

func TestBuildChecksItsConfig(t *testing.T) {
	for name, edit := range map[string]func(*Config){
		"unknown game":       func(c *Config) { c.Game = "solitaire" },
		"no budget":          func(c *Config) { c.Settings.Nodes = 0 },
		"worlds, no budget":  func(c *Config) { c.Settings.WorldNodes = 0 },
		"overlapping blocks": func(c *Config) { c.Blocks[1].First = 5 },
		"bad shard":          func(c *Config) { c.Shard, c.Shards = 3, 3 },
		"bad agent":          func(c *Config) { c.Settings.MC = "mc:rollouts=x" },
		"no work directory":  func(c *Config) { c.Work = "" },
		"worlds, no hidden cards": func(c *Config) {
			c.Game = "cromwell"
		},
	} {
		cfg := tinyConfig(t.TempDir())
		edit(&cfg)
		if _, err := Build(context.Background(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestChallengeTriesTheUnknownDealsAndResumes(t *testing.T) {
	ctx := context.Background()
	cfg := tinyConfig(t.TempDir())
	cfg.Settings.Worlds = 0
	cfg.Settings.Nodes = 3_000 // small enough that Limited's search leaves deals open
	cfg.Blocks = []Block{{Name: "train", First: 0, Count: 6}}
	sum, err := Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	unknown := Seeds(sum.Table.Select(Filter{Verdicts: []Verdict{Unknown}}))
	if len(unknown) < 2 {
		t.Fatalf("the tiny table leaves %d deals unknown; the test needs 2", len(unknown))
	}
	work := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	ch := ChallengeConfig{Table: sum.Table, Nodes: 40_000, Work: work, OnDeal: func(Attempt) { cancel() }}
	if _, err := RunChallenge(cctx, ch); !errors.Is(err, context.Canceled) {
		t.Fatalf("an interrupted challenge: %v", err)
	}
	tried := 0
	ch.OnDeal = func(Attempt) { tried++ }
	c, err := RunChallenge(ctx, ch)
	if err != nil {
		t.Fatal(err)
	}
	if tried != len(unknown)-1 {
		t.Errorf("the resumed challenge tried %d deals, want %d (one was in the journal)", tried, len(unknown)-1)
	}
	got := make([]uint64, len(c.Deals))
	for i, a := range c.Deals {
		got[i] = a.Seed
		if a.Nodes == 0 || a.TableNodes != cfg.Settings.Nodes || a.Best < a.TableBest && a.Verdict != "lost" {
			t.Errorf("attempt %+v", a)
		}
	}
	if !equalSeeds(got, unknown) {
		t.Errorf("the challenge lists %v, the table's unknown deals are %v", got, unknown)
	}
	if _, err := RunChallenge(ctx, ChallengeConfig{Table: sum.Table, Nodes: cfg.Settings.Nodes, Work: work}); err == nil {
		t.Error("a challenge budget no larger than the table's was accepted")
	}
}

func TestPickFromFollowsTheDocumentedRule(t *testing.T) {
	// The finalizer is SplitMix64's: its first output from state 0 is
	// pinned, so that another language's copy of the rule can be checked.
	if got := mix(0); got != 0xe220a8397b1dcdaf {
		t.Fatalf("mix(0) = %#x, want SplitMix64's 0xe220a8397b1dcdaf", got)
	}
	tab := sample()
	f := Filter{Verdicts: []Verdict{Won, Lost, Unknown}}
	all := tab.Select(f)
	for s := range uint64(40) {
		d, ok := tab.PickFrom(f, s)
		if want := all[mix(s)%uint64(len(all))]; !ok || d.Seed != want.Seed {
			t.Fatalf("PickFrom(%d) = %d, %v; want deal %d (index mix(seed) mod %d)", s, d.Seed, ok, want.Seed, len(all))
		}
	}
	for _, class := range []Difficulty{Easy, Medium, Hard} {
		f := Filter{Verdicts: []Verdict{Won}, Difficulty: class}
		if len(tab.Select(f)) == 0 {
			continue
		}
		for s := range uint64(10) {
			if d, ok := tab.PickFrom(f, s); !ok || d.Difficulty != class || d.Verdict != Won {
				t.Fatalf("PickFrom(%s, %d) = %+v, %v", class, s, d, ok)
			}
		}
	}
	if _, ok := tab.PickFrom(Filter{Block: "nothing"}, 1); ok {
		t.Error("PickFrom found a deal in an empty selection")
	}
}

func TestShippedFileIsTheShippedTable(t *testing.T) {
	for _, game := range Games() {
		data, err := ShippedFile(game)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(data, game)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Shipped(game)
		if back.Meta.Game != game || len(back.Deals) != len(want.Deals) || back.Count("") != want.Count("") {
			t.Errorf("%s: the file holds %s with %d deals, the table %d", game, back.Meta.Game, len(back.Deals), len(want.Deals))
		}
	}
	if _, err := ShippedFile("no such game"); err == nil {
		t.Error("ShippedFile of an unknown game")
	}
}

func TestBuildKeepsTheVerdictsOfTheTableBefore(t *testing.T) {
	ctx := context.Background()
	cfg := tinyConfig(t.TempDir())
	cfg.Settings.Worlds = 0
	cfg.Settings.Nodes = 8_000 // wins some deals, leaves some open
	cfg.Blocks = []Block{{Name: "train", First: 0, Count: 6}}
	sum, err := Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain := sum.Table
	unknown := Seeds(plain.Select(Filter{Verdicts: []Verdict{Unknown}}))
	won := Seeds(plain.Select(Filter{Verdicts: []Verdict{Won}}))
	if len(unknown) < 2 || len(won) < 1 {
		t.Fatalf("the tiny table has %d unknown and %d won deals; the test needs 2 and 1", len(unknown), len(won))
	}
	// The table before: one open deal won (in 1,234 nodes and 200
	// moves), another lost, the rest as this search found them.
	prev := &Table{Meta: plain.Meta, Deals: slices.Clone(plain.Deals)}
	set := func(seed uint64, v Verdict) {
		for i := range prev.Deals {
			if d := &prev.Deals[i]; d.Seed == seed {
				d.Verdict, d.Nodes, d.LineLength = v, 1_234, 0
				if v == Won {
					d.LineLength = 200
				}
			}
		}
	}
	set(unknown[0], Won)
	set(unknown[1], Lost)
	cfg.Keep, cfg.Out = prev, t.TempDir()
	sum, err = Build(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Worked != 0 {
		t.Errorf("keeping verdicts searched %d deals again; the journals hold them", sum.Worked)
	}
	got := sum.Table
	if !equalSeeds(got.Meta.Kept, []uint64{unknown[0], unknown[1]}) {
		t.Errorf("kept %v, want %v", got.Meta.Kept, unknown[:2])
	}
	if d, _ := got.Deal(unknown[0]); d.Verdict != Won || d.Nodes != 1_234 || d.LineLength != 200 || d.Difficulty == Unrated {
		t.Errorf("the kept win reads %+v", d)
	}
	if d, _ := got.Deal(unknown[1]); d.Verdict != Lost {
		t.Errorf("the kept loss reads %s", d.Verdict)
	}
	c, want := got.Count(""), plain.Count("")
	if c.Won != want.Won+1 || c.Lost != want.Lost+1 || c.Unknown != want.Unknown-2 {
		t.Errorf("counts %+v, want %+v moved by one win and one loss", c, want)
	}
	back, err := ReadFile(sum.Path)
	if err != nil || !equalSeeds(back.Meta.Kept, got.Meta.Kept) {
		t.Errorf("the table read back keeps %v (%v)", back.Meta.Kept, err)
	}

	// A verdict the table before took from a solver run stays the run's.
	prev.Meta.Folded = []FoldedRun{{RunSearch: RunSearch{Command: "patience solve limited --budget 9M --best-first 10", Nodes: 9_000_000, BestFirst: 10, Knowledge: "all"}, Deals: []uint64{unknown[0]}}}
	cfg.Out = t.TempDir()
	if sum, err = Build(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if f := sum.Table.Meta.Folded; len(f) != 1 || f[0].Nodes != 9_000_000 || f[0].BestFirst != 10 || f[0].Knowledge != "all" || !equalSeeds(f[0].Deals, []uint64{unknown[0]}) {
		t.Errorf("a kept folded verdict: Folded %+v", f)
	}
	if !equalSeeds(sum.Table.Meta.Kept, []uint64{unknown[1]}) {
		t.Errorf("a kept folded verdict: Kept %v, want %v", sum.Table.Meta.Kept, unknown[1:2])
	}
	// An open deal that a folded run searched further than the new search
	// keeps the run's nodes and progress, under that run.
	set(unknown[0], Unknown)
	for i := range prev.Deals {
		if d := &prev.Deals[i]; d.Seed == unknown[0] {
			d.Nodes, d.BestProgress = 9_000_000, 103
		}
	}
	prev.Meta.Folded[0].Deals, prev.Meta.Folded[0].Searched = nil, []uint64{unknown[0]}
	cfg.Out = t.TempDir()
	if sum, err = Build(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if f := sum.Table.Meta.Folded; len(f) != 1 || len(f[0].Deals) != 0 || !equalSeeds(f[0].Searched, []uint64{unknown[0]}) {
		t.Errorf("a kept search of an open deal: Folded %+v", f)
	}
	if d, _ := sum.Table.Deal(unknown[0]); d.Verdict != Unknown || d.Nodes != 9_000_000 || d.BestProgress != 103 {
		t.Errorf("a kept search of an open deal reads %+v", d)
	}
	prev.Meta.Folded = nil

	// A deal the new search won that the table before says lost is a
	// contradiction: no table.
	set(won[0], Lost)
	cfg.Out = t.TempDir()
	if _, err := Build(ctx, cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("deal %d is won, lost before", won[0])) {
		t.Errorf("a contradiction: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, "limited.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a table was written despite the contradiction (%v)", err)
	}

	// A table of other rules is refused.
	prev.Meta.RulesVersion++
	if _, err := Build(ctx, cfg); !errors.Is(err, ErrRules) {
		t.Errorf("keeping a table of other rules: %v", err)
	}
}
