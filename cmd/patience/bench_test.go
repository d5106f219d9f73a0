package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/strength"
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
	res, err := strength.ReadJSON(jf)
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
