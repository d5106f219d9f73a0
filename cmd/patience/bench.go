package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/bench"
	"github.com/patience-gym/patience/stats"
)

var benchCmd = &command{
	name:    "bench",
	args:    "[--games G,..] [--agents A,..] [--model FILE] [--deals N] [options]",
	summary: "agents measured on the same deals: tables, CSV, JSON, chart",
	long:    benchLong,
	run:     runBench,
}

const benchLong = `Plays every game with every agent on the same deals, on all cores, and prints a markdown
table per game: wins with a Wilson interval, mean final progress with a Student t interval,
mean steps, truncated games, time per game, and each agent against the baseline (random)
on the same deals: wins only it / only the baseline won, the exact McNemar p-value on the
paired wins, and the mean progress difference with its paired t interval.
An agent may be listed with settings, and one agent with several: --agents "mc:rollouts=8,mc:rollouts=32"
(see ` + "`patience agents`" + `). Deals from 1000000 up are the measuring range; tune agents on lower deals.

--protocol v1 measures under evaluation protocol v1 (docs/protocol.md): each game's 1,000 evaluation deals
(1000000 to 1000999) with the verdicts of its shipped table, the game's step limit, each agent seeded with
the deal number, 95 % intervals; it adds the wins among the deals the table says won. The flags that would
change those (--deals, --seed-start, --max-steps, --confidence) are refused. --json FILE writes the
protocol's result file; the episodes go to FILE.journal.jsonl as they finish, and the same command run
again after an interruption goes on from there. --shard i/n splits a protocol run among machines: each
plays every n-th chunk of 50 deals into FILE.shard-I-of-N.journal.jsonl; copy the journals beside FILE
and run the command without --shard to merge them into the result file.`

func runBench(ctx context.Context, inv *invocation, args []string) error {
	stdout, stderr := inv.stdout, inv.stderr
	fs := inv.flags()
	gamesFlag := fs.String("games", "all", "the games, comma-separated, or all")
	agentsFlag := fs.String("agents", strings.Join(bench.DefaultAgents, ","), "the agents with their settings, comma-separated, or all (every agent that can play the games with its defaults): "+joinNames(agents.Names()))
	deals := fs.Int("deals", 100, "deals per game (every agent plays the same ones)")
	start := seedFlag{v: bench.DefaultSeedStart}
	fs.Var(&start, "seed-start", "first deal number; agents are seeded with the deal number ("+seedRange+")")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "episodes played at once")
	maxSteps := fs.Int("max-steps", 0, "step limit (0 = each game's default)")
	conf := fs.Float64("confidence", bench.DefaultConfidence, "confidence level of the intervals")
	baseline := fs.String("baseline", "random", "the agent the others are compared with")
	csvPath := fs.String("csv", "", "also write the summary table to this CSV file")
	jsonPath := fs.String("json", "", "also write the summaries and every episode to this JSON file")
	plotPath := fs.String("plot", "", "also draw win % and mean progress with their intervals to this chart (.png, .svg or .pdf)")
	model := fs.String("model", "", "the model file of the policy agents listed without one (policy:model=FILE); {game} stands for the game's name")
	protocol := fs.String("protocol", "", "measure under an evaluation protocol (v1): it fixes the deals, the step limits, the agents' seeds and the intervals; writes --json as the protocol's result file, and resumes from FILE.journal.jsonl")
	reverdict := fs.Bool("reverdict", false, "with --protocol: take the verdict-table columns of the result files given as arguments again from this build's tables (a stronger solver decided more deals), the episodes as they were played; rewrites each FILE.json and its FILE.md")
	shard := shardFlag{0, 1}
	fs.Var(&shard, "shard", "with --protocol and --json FILE: play only share i of n of the deals (0-based: 0/4 .. 3/4), into FILE.shard-I-of-N.journal.jsonl; the same command without --shard, with those journals beside FILE, merges them")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *reverdict {
		if *protocol == "" || len(pos) == 0 {
			return usagef("--reverdict takes --protocol VERSION and the result files to take again, as arguments")
		}
		return runReverdict(inv, *protocol, pos)
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q (bench takes options only)", pos)
	}
	if *protocol != "" {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		return runProtocol(ctx, inv, args, protocolFlags{
			protocol: *protocol, games: *gamesFlag, agents: *agentsFlag, model: *model, workers: *workers,
			json: *jsonPath, set: set, shard: shard,
		})
	}
	if shard.n > 1 {
		return usagef("--shard splits a protocol run (--protocol v1 --json FILE): a plain bench keeps no journal to merge")
	}
	base, err := agents.Parse(*baseline)
	if err != nil {
		return usagef("--baseline: %v", err)
	}
	cfg := bench.Config{
		Deals: *deals, SeedStart: start.v, Workers: *workers, MaxSteps: *maxSteps,
		Confidence: *conf, Baseline: base.Label(),
	}
	if cfg.Games, err = gameList(*gamesFlag); err != nil {
		return err
	}
	if cfg.Agents, err = agentList(*agentsFlag, cfg.Games, *model); err != nil {
		return err
	}
	if err := checkBenchConfig(cfg, *csvPath, *jsonPath, *plotPath); err != nil {
		return err
	}

	total := len(cfg.Games) * len(cfg.Agents) * cfg.Deals
	games := countGames(stderr, "bench", total)
	cfg.Progress = games.progress
	res, err := bench.Run(ctx, cfg)
	if err := games.end(err, "nothing written"); err != nil {
		return err
	}

	fmt.Fprintf(stdout, "Command: `%s`\n\n", commandLine(append([]string{"patience", "bench"}, args...)))
	if err := res.WriteMarkdown(stdout); err != nil {
		return err
	}
	games.writeElapsed(stdout, res.Elapsed, res.Workers)
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
	if err := checkSeeds(cfg.SeedStart, int64(cfg.Deals)); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return usageError{err}
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
