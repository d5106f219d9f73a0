package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
)

// shippedGame returns a game whose shipped table has won deals, or skips
// the test.
func shippedGame(t *testing.T) (string, *deals.Table) {
	t.Helper()
	for _, g := range deals.Games() {
		tab, err := deals.Shipped(g)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Meta.Counts["train"].Won > 0 && tab.Meta.Counts["eval"].Won > 0 {
			return g, tab
		}
	}
	t.Skip("no deals table with won deals ships yet")
	return "", nil
}

func seedLines(t *testing.T, out string) []uint64 {
	t.Helper()
	var seeds []uint64
	for _, l := range strings.Fields(out) {
		s, err := strconv.ParseUint(l, 10, 64)
		if err != nil {
			t.Fatalf("not a deal number: %q", l)
		}
		seeds = append(seeds, s)
	}
	return seeds
}

func TestDealsListsTheTablesDeals(t *testing.T) {
	game, tab := shippedGame(t)
	code, out, errs := runCLI(t, "deals", game, "--winnable", "--count", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := seedLines(t, out)
	want := deals.Seeds(tab.Select(deals.Filter{Verdicts: []deals.Verdict{deals.Won}}))
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("--winnable listed %d deals, the table has %d won", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("deal %d listed is %d, want %d", i, got[i], want[i])
		}
	}
	if !strings.Contains(errs, "won "+thousands(int64(tab.Meta.Counts["all"].Won))) {
		t.Errorf("the summary on stderr lacks the won count:\n%s", errs)
	}

	// --count, --from and --block narrow it.
	_, out, _ = runCLI(t, "deals", game, "--winnable", "--block", "eval", "--from", "1000500", "--count", "5")
	for _, s := range seedLines(t, out) {
		d, ok := tab.Deal(s)
		if !ok || d.Verdict != deals.Won || s < 1_000_500 || d.Block != "eval" {
			t.Errorf("deal %d listed: %+v", s, d)
		}
	}
	if n := len(seedLines(t, out)); n != 5 {
		t.Errorf("--count 5 listed %d deals", n)
	}

	// --json holds the figures; --difficulty keeps one class.
	code, out, errs = runCLI(t, "deals", game, "--winnable", "--difficulty", "hard", "--count", "30", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []dealJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(rows) == 0 {
		t.Fatal("--json --difficulty hard listed nothing")
	}
	for _, r := range rows {
		if r.Verdict != "won" || r.Difficulty != "hard" || r.Score == nil || r.LineLength == 0 || r.Heuristic == nil {
			t.Errorf("--json row %+v", r)
		}
	}

	// --stats sums the table up by block and class.
	_, out, _ = runCLI(t, "deals", game, "--stats")
	for _, want := range []string{"train, deals 0 to 9999: won " + thousands(int64(tab.Meta.Counts["train"].Won)), "eval, deals 1000000 to 1000999", "won hard", "heuristic"} {
		if !strings.Contains(out, want) {
			t.Errorf("--stats lacks %q:\n%s", want, out)
		}
	}

	// --long has a header and a line a deal.
	_, out, _ = runCLI(t, "deals", game, "--count", "3", "--long")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[0], "deal") {
		t.Errorf("--long:\n%s", out)
	}
}

func TestDealsErrors(t *testing.T) {
	game, _ := shippedGame(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"deals", "solitaire"}, 2, "unknown game"},
		{[]string{"deals", game, "--difficulty", "tricky"}, 2, "want easy, medium or hard"},
		{[]string{"deals", game, "--lost", "--difficulty", "easy"}, 2, "rates won deals only"},
		{[]string{"deals", game, "--block", "test"}, 2, "has no block \"test\""},
		{[]string{"deals", game, "--long", "--json"}, 2, "give one"},
		{[]string{"deals"}, 2, "GAME"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

func TestPlayWinnableDealsAWonDeal(t *testing.T) {
	game, tab := shippedGame(t)
	play := func(seed string) string {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"play", game, "--winnable", "--seed", seed}, strings.NewReader("quit\n"), &out, &errb)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	out := play("7")
	first, _, _ := strings.Cut(out, "\n")
	f := strings.Fields(first)
	if len(f) < 2 || f[0] != "Deal" {
		t.Fatalf("play --winnable does not say which deal: %q", first)
	}
	seed, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := tab.Deal(seed); !ok || d.Verdict != deals.Won || d.Block != "train" {
		t.Errorf("play --winnable dealt deal %d: %+v", seed, d)
	}
	if !strings.Contains(first, "won it with a line of") || !strings.Contains(out, ", deal "+f[1]+".") {
		t.Errorf("play --winnable output:\n%s", out)
	}
	if play("7") != out {
		t.Error("the same --seed dealt another deal")
	}
}

func TestDealsBuildWritesAndResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"deals", "build", "limited", "--train", "3", "--eval", "0", "--nodes", "5k", "--worlds", "2", "--world-nodes", "1k", "--work", dir, "--out", dir}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "3 to do") || !strings.Contains(out, "limited: wrote "+filepath.Join(dir, "limited.parquet")) {
		t.Errorf("first run:\n%s", out)
	}
	tab, err := deals.ReadFile(filepath.Join(dir, "limited.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "patience deals build limited --nodes 5k --worlds 2 --world-nodes 1k --train 3 --eval 0"; tab.Meta.Command != want {
		t.Errorf("the table's command is %q, want %q", tab.Meta.Command, want)
	}
	_, out, _ = runCLI(t, args...)
	if !strings.Contains(out, "all 3 deals of this shard are in the journals") {
		t.Errorf("a rerun:\n%s", out)
	}
	// --keep reads DIR/GAME.parquet (here the table itself: nothing to
	// keep) and the table records it.
	keep := t.TempDir()
	if err := deals.WriteFile(filepath.Join(keep, "limited.parquet"), tab); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, append(args, "--keep", keep)...); code != 0 || strings.Contains(out, "kept") {
		t.Errorf("--keep: exit %d: %s\n%s", code, out, errs)
	}
	if tab, err = deals.ReadFile(filepath.Join(dir, "limited.parquet")); err != nil || !strings.HasSuffix(tab.Meta.Command, "--keep "+keep) {
		t.Errorf("the table's command after --keep: %q (%v)", tab.Meta.Command, err)
	}
	if code, _, errs := runCLI(t, append(args, "--keep", t.TempDir())...); code != 1 || !strings.Contains(errs, "--keep") {
		t.Errorf("--keep of a directory without the table: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "deals", "build", "cromwell:noswap", "--work", dir); code != 2 || !strings.Contains(errs, "default rules") {
		t.Errorf("a variant: exit %d, %s", code, errs)
	}
}

func TestPlayWinnableSaysWhenNoDealIsWinnable(t *testing.T) {
	// A table whose training block holds no won deal: a shipped one with
	// its training wins made unknown (every shipped table has won deals).
	for _, g := range deals.Games() {
		tab, err := deals.Shipped(g)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := env.Lookup(g)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Meta.Counts["train"].Won > 0 {
			if _, err := pickWinnableFrom(tab, spec, 7); err != nil {
				t.Errorf("%s: the table has won training deals, but: %v", g, err)
			}
		}
		none := *tab
		none.Deals = slices.Clone(tab.Deals)
		for i := range none.Deals {
			if none.Deals[i].Block == "train" && none.Deals[i].Verdict == deals.Won {
				none.Deals[i].Verdict = deals.Unknown
			}
		}
		_, err = pickWinnableFrom(&none, spec, 7)
		if err == nil || !strings.Contains(err.Error(), "won no deal of the "+g+" table's training block") {
			t.Errorf("%s without won training deals: %v", g, err)
		}
	}
}
