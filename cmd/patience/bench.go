package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/bench"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/stats"
)

const benchSummary = `Plays every game with every agent on the same deals, on all cores, and prints a markdown
table per game: wins with a Wilson interval, mean final progress with a Student t interval,
mean steps, truncated games, time per game, and each agent against the baseline (random)
on the same deals: wins only it / only the baseline won, the exact McNemar p-value on the
paired wins, and the mean progress difference with its paired t interval.
Deals from 1000000 up are the measuring range; tune agents on lower deals.`

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "[options]", benchSummary, stderr)
	gamesFlag := fs.String("games", "all", "the games, comma-separated, or all")
	agentsFlag := fs.String("agents", strings.Join(bench.DefaultAgents, ","), "the agents, comma-separated, or all: "+joinNames(agents.Names()))
	deals := fs.Int("deals", 100, "deals per game (every agent plays the same ones)")
	start := seedFlag{v: bench.DefaultSeedStart}
	fs.Var(&start, "seed-start", "first deal number; agents are seeded with the deal number")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "episodes played at once")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = each game's default)")
	conf := fs.Float64("confidence", bench.DefaultConfidence, "confidence level of the intervals")
	baseline := fs.String("baseline", "random", "the agent the others are compared with")
	csvPath := fs.String("csv", "", "also write the summary table to this CSV file")
	jsonPath := fs.String("json", "", "also write the summaries and every episode to this JSON file")
	plotPath := fs.String("plot", "", "also draw win % and mean progress with their intervals to this chart (.png, .svg or .pdf)")
	opts := agentOptionFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q (bench takes options only)", pos)
	}
	cfg := bench.Config{
		Deals: *deals, SeedStart: start.v, Workers: *workers, MaxSteps: *maxSteps,
		Confidence: *conf, Baseline: *baseline, Options: *opts,
	}
	if cfg.Games, err = gameList(*gamesFlag); err != nil {
		return err
	}
	if cfg.Agents, err = benchAgents(*agentsFlag, *opts); err != nil {
		return err
	}
	if err := checkBenchConfig(cfg, *csvPath, *jsonPath, *plotPath); err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	total := len(cfg.Games) * len(cfg.Agents) * cfg.Deals
	bar := newProgress(stderr, "bench", total)
	last := 0
	cfg.Progress = func(done, _ int) {
		bar.add(done - last)
		last = done
	}
	began := time.Now()
	res, err := bench.Run(ctx, cfg)
	bar.done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted after %s (%d of %d games played); nothing written", time.Since(began).Round(time.Second), last, total)
		}
		return err
	}

	fmt.Fprintf(stdout, "Command: `%s`\n\n", commandLine(append([]string{"patience", "bench"}, args...)))
	if err := res.WriteMarkdown(stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nElapsed: %s for %d games with %d workers (%s/%s, %d CPUs).\n",
		res.Elapsed.Round(100*time.Millisecond), total, res.Workers, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	for _, out := range []struct {
		path string
		save func(string) error
	}{{*csvPath, res.SaveCSV}, {*jsonPath, res.SaveJSON}, {*plotPath, res.SavePlot}} {
		if out.path == "" {
			continue
		}
		if err := out.save(out.path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Wrote %s.\n", out.path)
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// gameList reads a list of games: "all" or names, comma-separated.
func gameList(s string) ([]string, error) {
	list := splitList(s)
	if len(list) == 1 && strings.EqualFold(list[0], "all") {
		names := env.Names()
		if len(names) == 0 {
			return nil, errors.New("no games are registered")
		}
		return names, nil
	}
	if len(list) == 0 {
		return nil, usagef("--games is empty (name games, comma-separated, or all)")
	}
	var out []string
	for _, g := range list {
		spec, err := env.Lookup(g)
		if err != nil {
			return nil, usageError{err}
		}
		out = append(out, spec.ID())
	}
	return out, nil
}

// benchAgents reads --agents: "all" or agent names.
func benchAgents(s string, opts agents.Options) ([]string, error) {
	list := splitList(s)
	if len(list) == 1 && strings.EqualFold(list[0], "all") {
		return agents.Names(), nil
	}
	if len(list) == 0 {
		return nil, usagef("--agents is empty (name agents, comma-separated, or all)")
	}
	var out []string
	for _, n := range list {
		a, err := agents.New(n, opts)
		if err != nil {
			return nil, usageError{err}
		}
		out = append(out, a.Name())
	}
	return out, nil
}

// checkBenchConfig finds command-line mistakes before any game is played,
// so that a long run does not end in an error it could have reported first.
func checkBenchConfig(cfg bench.Config, csvPath, jsonPath, plotPath string) error {
	if cfg.Deals <= 0 {
		return usagef("--deals must be positive, not %d", cfg.Deals)
	}
	if cfg.Workers <= 0 {
		return usagef("--workers must be positive, not %d", cfg.Workers)
	}
	if cfg.MaxSteps < 0 {
		return usagef("--max-steps must not be negative, not %d", cfg.MaxSteps)
	}
	if err := stats.CheckConfidence(cfg.Confidence); err != nil {
		return usagef("--confidence: %v (0.95 means 95 %%)", err)
	}
	if cfg.SeedStart > ^uint64(0)-uint64(cfg.Deals-1) {
		return usagef("--seed-start %d with --deals %d runs past the last deal number", cfg.SeedStart, cfg.Deals)
	}
	for i, a := range cfg.Agents {
		for _, b := range cfg.Agents[:i] {
			if a == b {
				return usagef("agent %s is listed twice in --agents", a)
			}
		}
	}
	for i, g := range cfg.Games {
		for _, h := range cfg.Games[:i] {
			if g == h {
				return usagef("game %s is listed twice in --games", g)
			}
		}
	}
	if _, err := agents.New(cfg.Baseline, cfg.Options); err != nil {
		return usagef("--baseline: %v", err)
	}
	if plotPath != "" {
		if _, err := bench.PlotFormat(plotPath); err != nil {
			return usagef("--plot: %v", err)
		}
	}
	for _, f := range []struct{ flag, path string }{{"csv", csvPath}, {"json", jsonPath}, {"plot", plotPath}} {
		if f.path == "" {
			continue
		}
		dir := filepath.Dir(f.path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return usagef("--%s %s: the directory %s does not exist", f.flag, f.path, dir)
		}
	}
	return nil
}

// commandLine joins args as a POSIX shell reads them back, single-quoting
// the ones that need it.
func commandLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
