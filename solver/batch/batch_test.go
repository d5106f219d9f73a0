package batch

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
)

func config(t *testing.T, game string, deals int) Config {
	t.Helper()
	g, err := env.NewGame(game)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Game: g, SeedStart: 500000, Deals: deals, Workers: 2, Options: solver.Options{Nodes: 4000, TableBits: 16}, Budget: "4k nodes"}
}

// journalled returns the result of an uninterrupted run of the deals
// without a journal, and its config with a journal in a new directory, for
// a run to compare with it.
func journalled(t *testing.T, game string, deals int) (Config, *Result) {
	t.Helper()
	cfg := config(t, game, deals)
	whole, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Journal = filepath.Join(t.TempDir(), "run.json.partial")
	return cfg, whole
}

// timeless is the result file with the wall times left out: what must
// not depend on how a run was stopped, resumed or split.
func timeless(t *testing.T, cfg Config, res *Result) string {
	t.Helper()
	deals := append([]Deal(nil), res.Deals...)
	for i := range deals {
		deals[i].Seconds = 0
	}
	sum := Summarize(deals, 0)
	sum.NodesPerSecond, sum.SolveSeconds = 0, 0
	f := NewFile(cfg, &Result{Deals: deals, Workers: cfg.Workers}, sum, false, "test")
	f.GoVersion, f.CPUs = "", 0
	data, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestInterruptedRunResumesToTheSameFile: a run cancelled after some deals
// keeps them in its journal; the same run again takes them and writes the
// file an uninterrupted run writes, byte for byte (wall times aside).
func TestInterruptedRunResumesToTheSameFile(t *testing.T) {
	cfg, whole := journalled(t, "limited", 40)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	cfg.OnDeal = func(Deal, bool) {
		if n++; n == 15 {
			cancel()
		}
	}
	cut, err := Run(ctx, cfg)
	if !errors.Is(err, context.Canceled) || len(cut.Deals) < 15 || len(cut.Deals) == 40 {
		t.Fatalf("the interrupted run: %v, %d deals", err, len(cut.Deals))
	}
	cfg.OnDeal = nil
	resumed, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Held < 15 {
		t.Errorf("the resumed run took %d deals from the journal, want at least 15", resumed.Held)
	}
	if got, want := timeless(t, cfg, resumed), timeless(t, cfg, whole); got != want {
		t.Errorf("the resumed file differs from an uninterrupted run's:\n%s\nwant\n%s", got, want)
	}
	n1, errs := Verify(cfg.Game, resumed.Deals)
	if len(errs) > 0 || n1 == 0 {
		t.Errorf("verify after a resume: %d lines, %v", n1, errs)
	}
}

// TestShardsMergeToTheSameFile: three shards' journals, merged by a run of
// the whole, which decides nothing itself.
func TestShardsMergeToTheSameFile(t *testing.T) {
	cfg, whole := journalled(t, "royalparade", 130)
	total := 0
	for i := range 3 {
		c := cfg
		c.Shard, c.Shards = i, 3
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Deals {
			if k := int(d.Seed-cfg.SeedStart) / ShardChunk % 3; k != i {
				t.Fatalf("shard %d decided deal %d, of shard %d", i, d.Seed, k)
			}
		}
		total += len(res.Deals)
	}
	if total != 130 {
		t.Fatalf("the shards decided %d deals, want 130", total)
	}
	merged, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Held != 130 {
		t.Errorf("the merge took %d deals from the shards' journals, want all 130", merged.Held)
	}
	if got, want := timeless(t, cfg, merged), timeless(t, cfg, whole); got != want {
		t.Error("the merged file differs from an unsplit run's")
	}
	if err := RemoveJournals(cfg.Journal); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(cfg.Journal), "*")); len(left) != 0 {
		t.Errorf("journals left: %v", left)
	}
}

func TestVerifyFindsABrokenLine(t *testing.T) {
	cfg := config(t, "fifteen", 6)
	cfg.Options.Nodes = 20000
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var won *Deal
	for i := range res.Deals {
		if res.Deals[i].Verdict == "solved" {
			won = &res.Deals[i]
			break
		}
	}
	if won == nil {
		t.Fatal("no deal solved at 20k nodes")
	}
	won.IDs = won.IDs[:len(won.IDs)-1]
	if _, errs := Verify(cfg.Game, res.Deals); len(errs) != 1 || !strings.Contains(errs[0].Error(), "not won") {
		t.Errorf("a line one move short: %v", errs)
	}
}

// TestSeedsDecideTheDealsListed: a run of a list of deals (Config.Seeds)
// decides those, in the order listed, as a run of a range decides them; it
// takes the deals a journal of the range holds (the same settings give the
// same verdicts) and ignores the others; the result file lists the deals.
func TestSeedsDecideTheDealsListed(t *testing.T) {
	cfg, whole := journalled(t, "limited", 12)
	cfg.Journal = ""
	list := cfg
	list.Seeds = []uint64{500009, 500002, 500011}
	list.Deals = len(list.Seeds)
	res, err := Run(context.Background(), list)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Deals) != 3 {
		t.Fatalf("%d deals decided, want 3", len(res.Deals))
	}
	for i, d := range res.Deals {
		w := whole.Deals[list.Seeds[i]-cfg.SeedStart]
		if d.Seed != list.Seeds[i] || d.Verdict != w.Verdict || d.Nodes != w.Nodes || strings.Join(d.Line, " ") != strings.Join(w.Line, " ") {
			t.Errorf("deal %d of the list: %+v; in the range: %+v", i, d, w)
		}
	}
	if f := NewFile(list, res, Summarize(res.Deals, 0), false, "test"); !slices.Equal(f.Seeds, list.Seeds) || f.Summary.Deals != 3 {
		t.Errorf("the result file lists %v, sums up %d deals", f.Seeds, f.Summary.Deals)
	}

	// A journal of the range: the list takes its deals and decides none.
	ranged := cfg
	ranged.Journal = filepath.Join(t.TempDir(), "run.json.partial")
	if _, err := Run(context.Background(), ranged); err != nil {
		t.Fatal(err)
	}
	list.Journal = ranged.Journal
	again, err := Run(context.Background(), list)
	if err != nil {
		t.Fatal(err)
	}
	if again.Held != 3 || len(again.Deals) != 3 || again.Deals[0].Seed != 500009 {
		t.Errorf("from the range's journal: %d held of %d deals, first %d", again.Held, len(again.Deals), again.Deals[0].Seed)
	}
}

func TestRunRefusesABadConfig(t *testing.T) {
	cfg := config(t, "fifteen", 3)
	for _, bad := range []func(*Config){
		func(c *Config) { c.Deals = 0 },
		func(c *Config) { c.Workers = 0 },
		func(c *Config) { c.Game = nil },
		func(c *Config) { c.Shard, c.Shards = 0, 2 }, // a shard with no journal
		func(c *Config) { c.Shard, c.Shards, c.Journal = 3, 2, "x.partial" },
		func(c *Config) { c.Options.Time = -time.Second },
		func(c *Config) { c.Seeds = []uint64{4, 7} }, // 3 deals asked
	} {
		c := cfg
		bad(&c)
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
