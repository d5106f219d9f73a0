package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/bench"
	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
)

func runBenchCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return call(benchCmd, args...)
}

func TestBenchWritesTablesAndFiles(t *testing.T) {
	game := env.Names()[0]
	dir := t.TempDir()
	csvPath, jsonPath, plotPath := filepath.Join(dir, "b.csv"), filepath.Join(dir, "b.json"), filepath.Join(dir, "b.png")
	out, errs, err := runBenchCmd(t, "--games", game, "--agents", "random", "--deals", "5", "--seed-start", "700",
		"--workers", "2", "--csv", csvPath, "--json", jsonPath, "--plot", plotPath)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	spec, _ := env.Lookup(game)
	for _, want := range []string{
		"Command: `patience bench --games " + game + " --agents random --deals 5 --seed-start 700",
		"Deals 700 to 704", "### " + spec.Title, "| random | 5 |", "Elapsed: ", "Wrote " + plotPath,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 2 || recs[1][0] != game || recs[1][3] != "5" {
		t.Errorf("CSV %v: %v", recs, err)
	}
	jf, err := os.Open(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	res, err := bench.ReadJSON(jf)
	jf.Close()
	if err != nil || len(res.Episodes) != 5 || res.SeedStart != 700 {
		t.Errorf("JSON: %v", err)
	}
	pf, err := os.Open(plotPath)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if _, err := png.DecodeConfig(pf); err != nil {
		t.Errorf("the chart is not a PNG: %v", err)
	}
}

func TestBenchComparesWithRandom(t *testing.T) {
	if _, err := agents.New("heuristic"); err != nil {
		t.Skip("no heuristic agent yet")
	}
	out, errs, err := runBenchCmd(t, "--games", env.Names()[0], "--agents", "random,heuristic", "--deals", "3", "--seed-start", "700")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	for _, want := range []string{"vs random: won/lost", "McNemar p", "| heuristic | 3 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchHelpShowsDefaults(t *testing.T) {
	_, errs, err := runBenchCmd(t, "--help")
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	for _, want := range []string{"-deals", "(default 100)", "(default 1000000)", "random,heuristic,mc", "mc:rollouts=8,mc:rollouts=32", "-plot", "McNemar"} {
		if !strings.Contains(errs, want) {
			t.Errorf("help lacks %q:\n%s", want, errs)
		}
	}
}

func TestBenchUsageErrors(t *testing.T) {
	game := env.Names()[0]
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--deals", "0"}, "--deals must be positive"},
		{[]string{"--games", "solitaire"}, `unknown game "solitaire"`},
		{[]string{"--games", ","}, "the list of games is empty"},
		{[]string{"--agents", "oracle"}, `unknown agent "oracle"`},
		{[]string{"--agents", "random,random"}, "listed twice"},
		{[]string{"--games", game + "," + game}, "listed twice"},
		{[]string{"--workers", "0"}, "--workers must be positive"},
		{[]string{"--confidence", "95"}, "0.95 means 95 %"},
		{[]string{"--baseline", "oracle"}, "--baseline"},
		{[]string{"--plot", "chart.gif"}, "png"},
		{[]string{"--csv", filepath.Join(t.TempDir(), "no", "such", "x.csv")}, "does not exist"},
		{[]string{"--seed-start", "18446744073709551615", "--deals", "2"}, "deal numbers run from 0 to 2^63-1"},
		{[]string{"--seed-start", "9223372036854775807", "--deals", "2"}, "deal numbers run from 0 to 2^63-1"},
		{[]string{"--agents", "mc:rollouts=8,mc:rollouts=8"}, "agent mc:rollouts=8 is listed twice"},
		{[]string{"--agents", "width=3,mc"}, "comes before any agent"},
		{[]string{"--agents", "mc:rollout=3"}, `unknown setting "rollout"`},
		{[]string{"extra"}, "unexpected arguments"},
		{[]string{"--deals", "ten"}, "invalid value"},
	}
	for _, tt := range tests {
		_, _, err := runBenchCmd(t, tt.args...)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want a usage error containing %q", tt.args, err, tt.want)
		}
	}
}

func TestCommandLineQuotes(t *testing.T) {
	got := commandLine([]string{"patience", "bench", "--plot", "my chart.png", "--games", "it's"})
	want := `patience bench --plot 'my chart.png' --games 'it'\''s'`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestBenchProtocolRefusesWhatItFixes(t *testing.T) {
	for _, args := range [][]string{
		{"--deals", "10"}, {"--seed-start", "5"}, {"--max-steps", "100"}, {"--confidence", "0.9"},
		{"--baseline", "heuristic"}, {"--csv", "x.csv"},
	} {
		_, _, err := runBenchCmd(t, append([]string{"--protocol", "v1", "--games", "limited", "--agents", "random"}, args...)...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), args[0]+" cannot be used with --protocol v1") {
			t.Errorf("bench --protocol v1 %v: %v", args, err)
		}
	}
	if _, _, err := runBenchCmd(t, "--protocol", "v7"); err == nil || !strings.Contains(err.Error(), "the protocols are: v1") {
		t.Errorf("bench --protocol v7: %v", err)
	}
	for _, spec := range env.Specs() {
		if slices.Contains(deals.Games(), spec.Name) {
			continue
		}
		_, _, err := runBenchCmd(t, "--protocol", "v1", "--games", spec.Name, "--agents", "random")
		if err == nil || !strings.Contains(err.Error(), "needs the verdict table of "+spec.Name) {
			t.Errorf("bench --protocol v1 --games %s (no table): %v", spec.Name, err)
		}
	}
}

// A protocol run writes its result file, and a run interrupted after some
// episodes goes on from the journal the same command left.
func TestBenchProtocolWritesAndResumes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "limited-random.json")
	args := []string{"--protocol", "v1", "--games", "limited", "--agents", "random", "--workers", "1", "--json", path}
	out, errs, err := runBenchCmd(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	for _, want := range []string{"### Limited (`limited`), protocol v1", "Deals 1000000 to 1000999", "| random | 0 |", "Wrote " + path} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	whole := readProtocol(t, path)
	if _, err := os.Stat(path + ".journal.jsonl"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the finished run left its journal: %v", err)
	}
	row := whole.Results[0]
	if whole.Protocol != "v1" || whole.Runner != "patience bench" || !strings.HasPrefix(whole.Command, "patience bench --protocol v1") ||
		row.Games != 1000 || len(row.Outcomes) != 1000 || len(row.Progress) != 1000 || row.Agent != "random" {
		t.Fatalf("result %+v", whole)
	}

	// A journal of the first 400 episodes, as an interrupted run leaves
	// it: the rerun plays only the 600 others and ends with the same figures.
	lines := []string{`{"patience_protocol_journal":1,"protocol":"v1"}`}
	for i := range 400 {
		o := map[byte]string{'W': "won", 'L': "lost", 'T': "truncated"}[row.Outcomes[i]]
		lines = append(lines, fmt.Sprintf(`{"game":"limited","agent":"random","seed":%d,"won":%v,"outcome":%q,"progress":%d,"cards":104,"steps":1,"truncated":%v,"wall_ns":1000,"rules_version":%d,"settings":""}`,
			1_000_000+i, o == "won", o, row.Progress[i], o == "truncated", row.RulesVersion))
	}
	if err := os.WriteFile(path+".journal.jsonl", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, err := runBenchCmd(t, args...); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	again := readProtocol(t, path).Results[0]
	if again.Outcomes != row.Outcomes || fmt.Sprint(again.Progress) != fmt.Sprint(row.Progress) || again.Wins != row.Wins {
		t.Errorf("the resumed run differs")
	}
	// The journal's 400 episodes (written with one step each) were taken
	// as they are, not played again.
	if float64(again.MeanSteps) >= 0.7*float64(row.MeanSteps) {
		t.Errorf("mean steps %v after resuming from one-step episodes, %v before", again.MeanSteps, row.MeanSteps)
	}
}

// TestReverdictRewritesTheColumns: --reverdict takes a committed result's
// verdict columns again from this build's tables (the same tables: the
// same rows) and rewrites the file and its markdown; without --protocol
// or files it is a usage error.
func TestReverdictRewritesTheColumns(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "results", "protocol-v1", "limited-heuristic.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "limited-heuristic.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "bench", "--protocol", "v1", "--reverdict", path)
	if code != 0 || !strings.Contains(out, "0 of 1 rows changed") {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := bench.ReadProtocolJSON(f)
	if err != nil || res.Reverdicted == "" || res.Results[0].Wins != 108 || res.Results[0].WinsWinnable != 108 {
		t.Errorf("the rewritten file: %+v, %v", res, err)
	}
	tab, err := deals.Shipped("limited")
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "limited-heuristic.md"))
	if err != nil || !strings.Contains(string(md), fmt.Sprintf("108/%d", tab.Meta.Counts["eval"].Won)) || !strings.Contains(string(md), "Reverdicted: ") {
		t.Errorf("the markdown: %v\n%s", err, md)
	}
	for _, args := range [][]string{{"bench", "--reverdict", path}, {"bench", "--protocol", "v1", "--reverdict"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
