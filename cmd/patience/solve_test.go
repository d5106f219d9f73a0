package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/batch"
)

func TestSolveReportsVerifiesAndWritesJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	code, out, errs := runCLI(t, "solve", "cromwell", "--deals", "3", "--seed-start", "0", "--budget", "20k",
		"--workers", "2", "--json", path, "--verify", "--show")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, want := range []string{
		"Command: `patience solve cromwell --deals 3", "deals 0 to 2, budget 20k nodes a deal",
		"deal 0: solved in ", "deal 1: solved in ", "    7>F\n",
		"cromwell: 3 deals: solved", "Winnable: ", "counting the unknown deals as lost and as won",
		"nodes/s", "median", "95th percentile",
		"Verify: all ", "Wrote " + path,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Clairvoyant") {
		t.Error("an open game labelled clairvoyant")
	}
	doc := readResultFile(t, path)
	if doc.Game != "cromwell" || len(doc.Results) != 3 || doc.Summary.Deals != 3 || doc.Budget != "20k nodes" || doc.Rules != "v1" {
		t.Errorf("JSON: %+v", doc)
	}
	for _, r := range doc.Results {
		if r.Verdict == "solved" && len(r.Line) != r.Moves {
			t.Errorf("deal %d: %d moves, %d names", r.Seed, r.Moves, len(r.Line))
		}
	}
	// No temporary file is left beside it.
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("the directory holds %d files", len(ents))
	}
}

// TestSolveShowPlays: the moves --show prints are moves `patience play`
// accepts, and they win.
func TestSolveShowPlays(t *testing.T) {
	code, out, _ := runCLI(t, "solve", "cromwell", "--deals", "1", "--seed-start", "5", "--budget", "20k", "--show")
	if code != 0 || !strings.Contains(out, "deal 5: solved") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var moves []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "    ") {
			moves = append(moves, line)
		}
	}
	in := strings.NewReader(strings.Join(moves, "\n") + "\nquit\n")
	code, played, errs := runCtx(context.Background(), in, "play", "cromwell", "--seed", "5")
	if code != 0 {
		t.Fatalf("play: exit %d: %s", code, errs)
	}
	if !strings.Contains(played, "You won") {
		t.Errorf("playing the line did not win:\n%s", tail(played, 800))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// TestSolveIsDeterministic: a node budget gives the same verdicts and
// node counts on every run, whatever the number of workers.
func TestSolveIsDeterministic(t *testing.T) {
	strip := regexp.MustCompile(`, [0-9.]+ s\)`)
	verdicts := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "deal ") {
				keep = append(keep, strip.ReplaceAllString(l, ")"))
			}
		}
		return strings.Join(keep, "\n")
	}
	_, a, _ := runCLI(t, "solve", "fifteen", "--deals", "4", "--budget", "5k", "--workers", "1")
	_, b, _ := runCLI(t, "solve", "fifteen", "--deals", "4", "--budget", "5k", "--workers", "3")
	if verdicts(a) == "" || verdicts(a) != verdicts(b) {
		t.Errorf("runs differ:\n%s\n---\n%s", verdicts(a), verdicts(b))
	}
}

func TestSolveHiddenGameIsClairvoyant(t *testing.T) {
	code, out, _ := runCLI(t, "solve", "limited", "--deals", "2", "--budget", "3k")
	if code != 0 || !strings.Contains(out, "Clairvoyant: the solver sees the hidden cards") || !strings.Contains(out, "(clairvoyant: an upper bound)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestSolveVariant(t *testing.T) {
	for _, args := range [][]string{{"cromwell", "--variant", "noswap"}, {"cromwell:noswap"}} {
		code, out, errs := runCLI(t, append([]string{"solve", "--deals", "2", "--budget", "2k"}, args...)...)
		if code != 0 || !strings.Contains(out, "Cromwell (no swap) (cromwell:noswap, rules v1+noswap)") || !strings.Contains(out, "cromwell:noswap: 2 deals") {
			t.Errorf("%v: exit %d %s\n%s", args, code, errs, out)
		}
	}
}

// TestSolveSaysHowALossWasProved: a deal that Cromwell's start dead test
// proves lost (tuning deal 500,194) says so, while a search that ran out of
// positions says that.
func TestSolveSaysHowALossWasProved(t *testing.T) {
	code, out, _ := runCLI(t, "solve", "cromwell", "--seed-start", "500194", "--budget", "10k")
	if code != 0 || !strings.Contains(out, "deal 500194: unsolvable (proved lost at the start by the game's dead test; 1 nodes") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestSolveErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "missing GAME"},
		{[]string{"solve", "solitaire"}, "unknown game \"solitaire\"; the known games are: cromwell"},
		{[]string{"solve", "cromwell", "--budget", "5x"}, "invalid budget \"5x\""},
		{[]string{"solve", "cromwell", "--budget", "0"}, "the node count must be a whole number"},
		{[]string{"solve", "cromwell", "--budget", "1.5"}, "the node count must be a whole number"},
		{[]string{"solve", "cromwell", "--budget", "-2s"}, "the time must be positive"},
		{[]string{"solve", "cromwell", "--seed-start", "x"}, "invalid seed \"x\""},
		{[]string{"solve", "cromwell", "--seed-start", "-1"}, "invalid seed \"-1\""},
		{[]string{"solve", "cromwell", "--deals", "0"}, "--deals must be positive"},
		{[]string{"solve", "cromwell", "--workers", "0"}, "--workers must be positive"},
		{[]string{"solve", "cromwell", "--memory", "2"}, "--memory 2 is out of range"},
		{[]string{"solve", "cromwell", "--variant", "wide"}, "unknown variant \"wide\" (the variants are: noswap)"},
		{[]string{"solve", "fifteen", "--variant", "noswap"}, "fifteen has no variants"},
		{[]string{"solve", "cromwell:noswap", "--variant", "other"}, "names variant \"noswap\", but variant \"other\" was asked for"},
		{[]string{"solve", "cromwell", "--seed-start", "18446744073709551615", "--deals", "2"}, "deal numbers run from 0 to 2^63-1"},
		{[]string{"solve", "cromwell", "--json", "/no/such/dir/x.json"}, "the directory /no/such/dir does not exist"},
	}
	for _, tc := range tests {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestParseBudget(t *testing.T) {
	for in, want := range map[string]budget{
		"10s": {time: 10 * time.Second}, "2m": {time: 2 * time.Minute}, "5M": {nodes: 5_000_000},
		"500k": {nodes: 500_000}, "2.5M": {nodes: 2_500_000}, "1_000_000": {nodes: 1_000_000}, "42": {nodes: 42},
	} {
		got, err := parseBudget(in)
		if err != nil || got != want {
			t.Errorf("parseBudget(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "ten", "1e20", "NaNk", "-5", "0s"} {
		if _, err := parseBudget(in); err == nil {
			t.Errorf("parseBudget(%q) accepted", in)
		}
	}
	if (budget{nodes: 3_000_000}).String() != "3M nodes" || (budget{nodes: 1234}).String() != "1234 nodes" {
		t.Error("budget names")
	}
	if tableBits(64) != 22 || tableBits(8) != 19 {
		t.Errorf("tableBits(64) = %d, tableBits(8) = %d", tableBits(64), tableBits(8))
	}
}

// TestSolveNoDealFinished: the summary of a run interrupted before any
// deal finished says so.
func TestSolveNoDealFinished(t *testing.T) {
	var out bytes.Buffer
	spec, _ := env.Lookup("fifteen")
	writeSummary(&out, batch.Summarize(nil, 0), spec)
	if !strings.Contains(out.String(), "No deal finished") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestSolveResumesFromItsJournal: a run stopped part way leaves its decided
// deals in F.partial (the last line perhaps cut short); the same command
// run again takes them from there, solves only the rest, verifies every
// line, writes what a run in one go writes, and removes the journal.
func TestSolveResumesFromItsJournal(t *testing.T) {
	dir := t.TempDir()
	args := func(json string) []string {
		return []string{"solve", "fifteen", "--deals", "6", "--budget", "20k", "--workers", "1", "--json", filepath.Join(dir, json), "--verify"}
	}
	if code, out, errs := runCLI(t, args("a.json")...); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.json.partial")); err == nil {
		t.Error("a finished run left its journal")
	}

	// A run stopped after three deals, with a line cut short after them.
	g, _ := env.NewGame("fifteen")
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	cfg := batch.Config{Game: g, Deals: 6, Workers: 1, Options: solver.Options{Nodes: 20000, TableBits: tableBits(64)},
		Budget: "20k nodes", Journal: filepath.Join(dir, "b.json.partial"),
		OnDeal: func(batch.Deal, bool) {
			if n++; n == 3 {
				cancel()
			}
		}}
	if _, err := batch.Run(ctx, cfg); err == nil {
		t.Fatal("the stopped run returned no error")
	}
	cut, err := os.OpenFile(cfg.Journal, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = cut.WriteString(`{"seed":4,"verd`)
		cut.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, args("b.json")...)
	if code != 0 || !strings.Contains(out, "Resumed: 3 deals taken from the journals") || !strings.Contains(out, "Verify: all ") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	read := func(name string) batch.File { return readResultFile(t, filepath.Join(dir, name)) }
	a, b := read("a.json"), read("b.json")
	if len(a.Results) != 6 || len(b.Results) != 6 || a.Summary.Solved != b.Summary.Solved {
		t.Fatalf("results: %d and %d, solved %d and %d", len(a.Results), len(b.Results), a.Summary.Solved, b.Summary.Solved)
	}
	for i := range a.Results {
		x, y := a.Results[i], b.Results[i]
		if x.Seed != y.Seed || x.Verdict != y.Verdict || x.Nodes != y.Nodes || strings.Join(x.Line, " ") != strings.Join(y.Line, " ") {
			t.Errorf("deal %d: %s in %d nodes in one go, %s in %d nodes resumed", x.Seed, x.Verdict, x.Nodes, y.Verdict, y.Nodes)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.json.partial")); err == nil {
		t.Error("the resumed run left its journal")
	}

	// A journal whose head was cut short holds nothing: the run starts afresh.
	if err := os.WriteFile(filepath.Join(dir, "d.json.partial"), []byte(`{"patience_solve_jour`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, args("d.json")...); code != 0 || strings.Contains(out, "Resumed:") {
		t.Errorf("a journal cut in its head: exit %d, %s\n%s", code, errs, out)
	}

	// Another budget does not take the journal's deals.
	cfg.Journal, cfg.OnDeal, cfg.Deals = filepath.Join(dir, "c.json.partial"), nil, 1
	if _, err := batch.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "solve", "fifteen", "--deals", "4", "--budget", "30k", "--json", filepath.Join(dir, "c.json"))
	if code == 0 || !strings.Contains(errs, "was left by another run") || !strings.Contains(errs, "budget 20k nodes") {
		t.Errorf("a journal of another budget: exit %d, %s", code, errs)
	}
	// Nor a run with a best-first pass.
	code, _, errs = runCLI(t, "solve", "fifteen", "--deals", "4", "--budget", "20k", "--best-first", "10", "--json", filepath.Join(dir, "c.json"))
	if code == 0 || !strings.Contains(errs, "was left by another run") || !strings.Contains(errs, "a best-first pass with 1/10 of the budget") {
		t.Errorf("a journal of a run without a best-first pass: exit %d, %s", code, errs)
	}
}

// TestSolveKnowledge: --knowledge picks a set of the game's search
// knowledge, which the result file and the journal record; a set the game
// lacks is refused before any search, and a journal of another set is
// not taken.
func TestSolveKnowledge(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runCLI(t, "solve", "fifteen", "--knowledge", "all")
	if code != 2 || !strings.Contains(errs, `fifteen has no search knowledge "all" (only its default)`) {
		t.Errorf("fifteen --knowledge all: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI(t, "solve", "ladder", "--knowledge", "most")
	if code != 2 || !strings.Contains(errs, `ladder has no search knowledge "most" (it has all)`) {
		t.Errorf("ladder --knowledge most: exit %d, %s", code, errs)
	}
	// Deal 1,000,042 at 20k nodes: its searches differ.
	run := func(name string, extra ...string) batch.File {
		t.Helper()
		path := filepath.Join(dir, name)
		args := append([]string{"solve", "ladder", "--seed-start", "1000042", "--budget", "20k", "--json", path}, extra...)
		if code, out, errs := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d, %s\n%s", args, code, errs, out)
		}
		return readResultFile(t, path)
	}
	def, all := run("default.json"), run("all.json", "--knowledge", "all")
	if def.Knowledge != "" || all.Knowledge != "all" {
		t.Errorf("the result files record the knowledge %q and %q", def.Knowledge, all.Knowledge)
	}
	if d, a := def.Results[0], all.Results[0]; d.Nodes == a.Nodes && d.Best == a.Best && d.Verdict == a.Verdict {
		t.Errorf("the default and every technique searched alike: %+v", d)
	}
	// A journal of the default search (a shard's, which stays for the
	// merge) is not taken by a run with every technique.
	if code, _, errs := runCLI(t, "solve", "ladder", "--seed-start", "1000042", "--budget", "20k", "--json", filepath.Join(dir, "j.json"), "--shard", "0/2"); code != 0 {
		t.Fatalf("a shard of the default search: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI(t, "solve", "ladder", "--seed-start", "1000042", "--budget", "20k", "--knowledge", "all", "--json", filepath.Join(dir, "j.json"), "--shard", "0/2")
	if code == 0 || !strings.Contains(errs, "was left by another run") || !strings.Contains(errs, `search knowledge "all"`) {
		t.Errorf("a journal of the default search, taken with every technique: exit %d, %s", code, errs)
	}
}

// TestSolveShardsMerge: two shards on the command line, then the command
// without --shard, which decides nothing itself and writes what one run
// writes.
func TestSolveShardsMerge(t *testing.T) {
	dir := t.TempDir()
	base := []string{"solve", "limited", "--deals", "120", "--seed-start", "500000", "--budget", "3k", "--workers", "2"}
	if code, out, errs := runCLI(t, append(base, "--json", filepath.Join(dir, "one.json"))...); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	merged := filepath.Join(dir, "merged.json")
	for _, sh := range []string{"0/2", "1/2"} {
		code, out, errs := runCLI(t, append(base, "--json", merged, "--shard", sh)...)
		if code != 0 || !strings.Contains(out, "Shard "+sh+": its deals are in ") {
			t.Fatalf("shard %s: exit %d: %s\n%s", sh, code, errs, out)
		}
	}
	if _, err := os.Stat(merged); err == nil {
		t.Fatal("a shard wrote the result file")
	}
	code, out, errs := runCLI(t, append(base, "--json", merged)...)
	if code != 0 || !strings.Contains(out, "Resumed: 120 deals taken from the journals") {
		t.Fatalf("the merge: exit %d: %s\n%s", code, errs, out)
	}
	var a, b batch.File
	for _, f := range []struct {
		name string
		doc  *batch.File
	}{{"one.json", &a}, {"merged.json", &b}} {
		data, err := os.ReadFile(filepath.Join(dir, f.name))
		if err == nil {
			err = json.Unmarshal(data, f.doc)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(a.Results) != 120 || len(b.Results) != 120 {
		t.Fatalf("%d and %d results", len(a.Results), len(b.Results))
	}
	for i := range a.Results {
		x, y := a.Results[i], b.Results[i]
		if x.Seed != y.Seed || x.Verdict != y.Verdict || x.Nodes != y.Nodes || strings.Join(x.Line, " ") != strings.Join(y.Line, " ") {
			t.Errorf("deal %d: %s in %d nodes in one run, %s in %d merged", x.Seed, x.Verdict, x.Nodes, y.Verdict, y.Nodes)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.partial")); len(left) != 0 {
		t.Errorf("journals left after the merge: %v", left)
	}
	if code, _, errs := runCLI(t, "solve", "limited", "--deals", "3", "--shard", "0/2"); code != 2 || !strings.Contains(errs, "--shard needs --json") {
		t.Errorf("a shard without --json: exit %d, %s", code, errs)
	}
}

// TestSolveInterruptedKeepsItsJournal: Ctrl-C writes the JSON of what
// finished and keeps the journal for the next run.
func TestSolveInterruptedKeepsItsJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	run(ctx, []string{"solve", "fifteen", "--deals", "5", "--budget", "5k", "--json", path}, strings.NewReader(""), &out, &errb)
	if _, err := os.Stat(path + ".partial"); err != nil || !strings.Contains(out.String(), "run the same command again to go on from there") {
		t.Errorf("journal: %v; output:\n%s", err, out.String())
	}
}

// TestSolveUnknown: --unknown decides only the deals of the range that the
// verdict table leaves unknown, and the result file lists them; a range
// outside the table, a variant and a range the table decides are refused.
func TestSolveUnknown(t *testing.T) {
	tab, err := deals.Shipped("limited")
	if err != nil {
		t.Fatal(err)
	}
	var want []uint64
	for s := uint64(1_000_900); s < 1_000_920; s++ {
		if d, _ := tab.Deal(s); d.Verdict == deals.Unknown {
			want = append(want, s)
		}
	}
	if len(want) == 0 || len(want) == 20 {
		t.Fatalf("the table leaves %d of deals 1000900-1000919 unknown: choose others", len(want))
	}
	path := filepath.Join(t.TempDir(), "open.json")
	code, out, errs := runCLI(t, "solve", "limited", "--seed-start", "1000900", "--deals", "20", "--budget", "2k", "--unknown", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if !strings.Contains(out, fmt.Sprintf("deals 1000900 to 1000919 (the %d deals the verdict table leaves unknown)", len(want))) {
		t.Errorf("the run does not say which deals it decides:\n%s", out)
	}
	f := readResultFile(t, path)
	var got []uint64
	for _, d := range f.Results {
		got = append(got, d.Seed)
	}
	if !slices.Equal(f.Seeds, want) || !slices.Equal(got, want) || f.Summary.Deals != len(want) {
		t.Errorf("the file lists %v and decides %v (%d summed up); the table leaves %v unknown", f.Seeds, got, f.Summary.Deals, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"limited", "--seed-start", "9999", "--deals", "2"}, "deal 10000 is not in the limited verdict table (its blocks: train 0 to 9999, eval 1000000 to 1000999)"},
		{[]string{"cromwell", "--variant", "noswap"}, "not of the variant cromwell:noswap"},
		{[]string{"fifteen", "--seed-start", "1000000", "--deals", "5"}, "the fifteen verdict table decides every deal from 1000000 to 1000004"},
	} {
		code, _, errs := runCLI(t, append(append([]string{"solve"}, c.args...), "--unknown")...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("solve %v --unknown: exit %d, %s; want %q", c.args, code, errs, c.want)
		}
	}
}

// readResultFile reads a result file of patience solve --json.
func readResultFile(t *testing.T, path string) batch.File {
	t.Helper()
	var f batch.File
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		t.Fatal(err)
	}
	return f
}
