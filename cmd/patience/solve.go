package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/patience-gym/patience/deals"
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/batch"
)

var solveCmd = &command{
	name:    "solve",
	args:    "GAME [--deals N] [--seed-start S] [--budget 10s|5M] [--workers W] [--best-first N] [--beam W] [--knowledge SET] [--unknown] [--json F] [--show] [--verify]",
	summary: "how many deals can be won: the solver's verdict per deal and the winnable share",
	long:    solveLong,
	run:     runSolve,
}

const solveLong = `Decides deals with the solver: for each deal, solved (with a winning line), unsolvable
(every position reachable searched) or unknown (the budget ran out). Then the share of
deals that can be won, with a Wilson interval that counts the unknown deals both ways
(the low end as lost, the high end as won), the search speed and the time per deal.
Games with hidden cards are solved clairvoyantly, seeing the hidden cards: their figure is
an upper bound on what a player can win.
A node budget (--budget 5M) gives the same result on every machine; a time budget
(--budget 10s) depends on the machine. Deals from 1000000 up are the measuring range.`

// solveDefaultBudget is the budget of a deal when --budget is not given.
const solveDefaultBudget = "1M"

func runSolve(ctx context.Context, inv *invocation, args []string) error {
	stdout, stderr := inv.stdout, inv.stderr
	fs := inv.flags()
	deals := fs.Int("deals", 1, "number of deals")
	var start seedFlag
	fs.Var(&start, "seed-start", "first deal number ("+seedRange+")")
	budgetFlag := fs.String("budget", solveDefaultBudget, "per deal: a node count (5M, 500k, 200000) or a time (10s, 2m)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "deals solved at once")
	variant := fs.String("variant", "", "a variant of the game's rules (cromwell: noswap)")
	memory := fs.Int("memory", 64, "transposition table size per worker, in MiB (8 to 16384); cromwell adds 7 MiB per worker (its opening pass's table, and score caches)")
	jsonPath := fs.String("json", "", "also write every deal's result and the summary to this JSON file (F.partial keeps the deals decided so far: the same command run again after a crash or Ctrl-C goes on from there)")
	show := fs.Bool("show", false, "print each winning line, one move per line, as `patience play` reads moves")
	bestFirst := fs.Int("best-first", 0, "run a best-first pass with 1/N of the budget before the game's passes (1 to 1000; 0: none): it finds wins the depth-first passes miss, and misses some of theirs; it holds what it lists in memory, beside --memory (about 50 bytes for each position it lists, and 300 more for each not yet expanded)")
	beam := fs.Int("beam", 0, "run a beam pass of this width first, with up to a quarter of the budget (1 to 1000000; 0: none): layer by layer it keeps the W best positions a move ahead of the last; it finds wins the other passes miss and proves nothing (Limited: 3000); it holds about 2W positions in memory, beside --memory (some 300 bytes each)")
	knowledge := fs.String("knowledge", "", "search with this set of the game's search knowledge instead of its default (ladder: all, every technique, the two its default leaves out too; limited: prove, the exhaustive pass alone, for proofs of loss)")
	onlyUnknown := fs.Bool("unknown", false, "decide only the deals of the range that the game's verdict table leaves unknown (its open deals searched again with a larger budget; the result file lists them, and patience deals fold takes what it decides)")
	verify := fs.Bool("verify", false, "replay every winning line through a fresh environment; exit 1 if one fails")
	shard := shardFlag{0, 1}
	fs.Var(&shard, "shard", "with --json F: decide only share i of n of the deals (0-based: 0/4 .. 3/4), into F.shard-I-of-N.partial; the same command without --shard, with those journals beside F, merges them")
	name, err := parseOne(fs, args, "GAME")
	if err != nil {
		return err
	}
	g, err := env.NewGameOf(name, *variant)
	if err != nil {
		return usageError{err}
	}
	spec := g.Spec()
	b, err := parseBudget(*budgetFlag)
	if err != nil {
		return usageError{err}
	}
	switch {
	case *deals <= 0:
		return usagef("--deals must be positive, not %d", *deals)
	case *workers <= 0:
		return usagef("--workers must be positive, not %d", *workers)
	case *memory < 8 || *memory > 16384:
		return usagef("--memory %d is out of range (8 to 16384 MiB)", *memory)
	}
	if err := checkSeeds(start.v, int64(*deals)); err != nil {
		return err
	}
	if *jsonPath != "" {
		if st, err := os.Stat(filepath.Dir(*jsonPath)); err != nil || !st.IsDir() {
			return usagef("--json %s: the directory %s does not exist", *jsonPath, filepath.Dir(*jsonPath))
		}
	}
	opts := solver.Options{Nodes: b.nodes, Time: b.time, TableBits: tableBits(*memory), BestFirst: *bestFirst, Beam: *beam, Knowledge: *knowledge}
	if err := opts.Check(); err != nil {
		return usageError{err}
	}
	if err := solver.CheckKnowledge(spec.Name, opts.Knowledge); err != nil {
		return usageError{fmt.Errorf("--knowledge: %w", err)}
	}

	cfg := batch.Config{
		Game: g, SeedStart: start.v, Deals: *deals, Workers: min(*workers, *deals), Options: opts,
		Budget: b.String(), Shard: shard.i, Shards: shard.n,
	}
	which := ""
	if *onlyUnknown {
		if cfg.Seeds, err = tableUnknown(spec, start.v, *deals); err != nil {
			return err
		}
		cfg.Deals, cfg.Workers = len(cfg.Seeds), min(*workers, len(cfg.Seeds))
		which = fmt.Sprintf(" (the %s the verdict table leaves unknown)", count(len(cfg.Seeds), "deal"))
	}
	// The workers' tables and caches together, as limitMemory bounds them.
	if err := memlimit.Check(fmt.Sprintf("%d workers × (--memory %d + 8) MiB", cfg.Workers, *memory),
		memlimit.Add(memlimit.Mul(uint64(cfg.Workers), uint64(*memory+8)<<20), solveOverheadMiB<<20)); err != nil {
		return err
	}
	if *jsonPath != "" {
		cfg.Journal = *jsonPath + ".partial"
	} else if shard.n > 1 {
		return usagef("--shard needs --json F: a shard's deals go to its journal beside F, for the run without --shard to merge")
	}
	limitMemory(cfg.Workers, *memory)
	command := commandLine(append([]string{"patience", "solve"}, args...))
	fmt.Fprintf(stdout, "Command: `%s`\n", command)
	bf := ""
	if opts.BestFirst > 0 {
		bf = fmt.Sprintf(" (a best-first pass first, with 1/%d of it)", opts.BestFirst)
	}
	if opts.Beam > 0 {
		bf += fmt.Sprintf(" (a beam of %d first, with up to a quarter of it)", opts.Beam)
	}
	if opts.Knowledge != "" {
		bf += fmt.Sprintf(", search knowledge %q", opts.Knowledge)
	}
	fmt.Fprintf(stdout, "%s (%s, rules %s), deals %d to %d%s, budget %s a deal%s, %s\n",
		spec.Title, spec.ID(), spec.Rules(), start.v, start.v+uint64(*deals-1), which, b, bf, count(cfg.Workers, "worker"))
	if shard.n > 1 {
		fmt.Fprintf(stdout, "Shard %d/%d: every %s chunk of %d deals, into %s.\n", shard.i, shard.n, ordinal(shard.n), batch.ShardChunk, batch.ShardJournal(cfg.Journal, shard.i, shard.n))
	}
	if spec.Hidden {
		fmt.Fprintln(stdout, "Clairvoyant: the solver sees the hidden cards, so every figure is an upper bound on what a player can win.")
	}
	bar := newProgress(stderr, "solve "+spec.ID(), int64(cfg.Deals))
	var solved, unsolvable, unknown, held int
	bar.extra = func() string {
		return fmt.Sprintf("solved %d  unsolvable %d  unknown %d", solved, unsolvable, unknown)
	}
	last := 0
	cfg.Progress = func(done, total int) {
		bar.total = int64(total)
		bar.add(done - last)
		last = done
	}
	cfg.OnDeal = func(d batch.Deal, fromJournal bool) {
		switch d.Verdict {
		case "solved":
			solved++
		case "unsolvable":
			unsolvable++
		default:
			unknown++
		}
		if fromJournal {
			held++
			bar.resume(1)
			if held == 1 {
				fmt.Fprintf(stdout, "Resuming: deals decided by an earlier run of this command are taken from its journal (%s).\n", cfg.Journal)
			}
		}
		writeDeal(stdout, &d, spec, *show)
	}
	res, err := batch.Run(ctx, cfg)
	bar.done()
	interrupted := errors.Is(err, context.Canceled) && ctx.Err() != nil
	if err != nil && !interrupted {
		return err
	}
	if held > 0 {
		fmt.Fprintf(stdout, "Resumed: %s taken from the journals.\n", count(held, "deal"))
	}
	sum := batch.Summarize(res.Deals, res.Elapsed)
	if interrupted {
		fmt.Fprintf(stdout, "\nInterrupted: %d of %d deals decided or run out of budget; the summary covers them.\n", sum.Deals, cfg.Deals)
	}
	writeSummary(stdout, sum, spec)
	failed := false
	if *verify {
		n, errs := batch.Verify(g, res.Deals)
		for _, e := range errs {
			fmt.Fprintln(stdout, e)
		}
		if len(errs) > 0 {
			failed = true
			fmt.Fprintf(stdout, "Verify: %d of %d winning lines FAILED to replay to a win.\n", len(errs), n)
		} else {
			fmt.Fprintf(stdout, "Verify: all %d winning lines replay to a win through a fresh environment.\n", n)
		}
	}
	switch {
	case *jsonPath == "":
	case shard.n > 1:
		fmt.Fprintf(stdout, "Shard %d/%d: its deals are in %s. When every shard is done, put their journals beside %s and run the command without --shard: it merges them into %s.\n",
			shard.i, shard.n, batch.ShardJournal(cfg.Journal, shard.i, shard.n), *jsonPath, *jsonPath)
	default:
		if err := batch.NewFile(cfg, res, sum, interrupted, command).Save(*jsonPath); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
		fmt.Fprintf(stdout, "Wrote %s.\n", *jsonPath)
		if interrupted {
			fmt.Fprintf(stdout, "%s keeps the %s decided so far: run the same command again to go on from there.\n", cfg.Journal, count(len(res.Deals), "deal"))
		} else if err := batch.RemoveJournals(cfg.Journal); err != nil {
			return err
		}
	}
	if interrupted {
		return err
	}
	if failed {
		return errFailed
	}
	return nil
}

// tableUnknown returns the deals from first, n of them, that the verdict
// table of spec's game leaves unknown (solve --unknown). Every deal must
// lie in the table, and the game be of its default rules.
func tableUnknown(spec *env.Spec, first uint64, n int) ([]uint64, error) {
	if spec.Variant != "" {
		return nil, usagef("--unknown: the verdict tables are of the games' default rules, not of the variant %s", spec.ID())
	}
	t, err := deals.Shipped(spec.Name)
	if err != nil {
		return nil, fmt.Errorf("--unknown: %w", err)
	}
	var seeds []uint64
	for i := range uint64(n) {
		d, ok := t.Deal(first + i)
		if !ok {
			return nil, usagef("--unknown: deal %d is not in the %s verdict table (its blocks: %s)", first+i, spec.Name, blockRanges(t))
		}
		if d.Verdict == deals.Unknown {
			seeds = append(seeds, d.Seed)
		}
	}
	if len(seeds) == 0 {
		return nil, usagef("--unknown: the %s verdict table decides every deal from %d to %d", spec.Name, first, first+uint64(n-1))
	}
	return seeds, nil
}

// ordinal returns "n-th" for n (2nd, 3rd, 4th, ...).
func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// budget is a per-deal budget: nodes or time.
type budget struct {
	nodes int64
	time  time.Duration
}

func (b budget) String() string {
	if b.time > 0 {
		return b.time.String()
	}
	return formatCount(b.nodes) + " nodes"
}

// parseNodes reads the value v of the flag name, which takes a node
// budget only (not a time); example shows the form in the usage error.
func parseNodes(name, v, example string) (int64, error) {
	b, err := parseBudget(v)
	if err != nil || b.nodes == 0 {
		return 0, usagef("--%s %q: want a node count (%s)", name, v, example)
	}
	return b.nodes, nil
}

// parseBudget reads a node count (5M, 500k, 2.5M, 200000, 1_000_000) or a
// duration (10s, 2m, 1h30m).
func parseBudget(s string) (budget, error) {
	t := strings.TrimSpace(s)
	bad := fmt.Errorf("invalid budget %q: want a node count (5M, 500k, 200000) or a time (10s, 2m)", s)
	if t == "" {
		return budget{}, bad
	}
	if d, err := time.ParseDuration(t); err == nil && strings.ContainsAny(t, "hmsuµn") {
		if d <= 0 {
			return budget{}, fmt.Errorf("invalid budget %q: the time must be positive", s)
		}
		return budget{time: d}, nil
	}
	mult := 1.0
	num := strings.ReplaceAll(t, "_", "")
	switch num[len(num)-1] {
	case 'k', 'K':
		mult, num = 1e3, num[:len(num)-1]
	case 'm', 'M':
		mult, num = 1e6, num[:len(num)-1]
	case 'g', 'G':
		mult, num = 1e9, num[:len(num)-1]
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return budget{}, bad
	}
	n := v * mult
	if n < 1 || n > 1e15 || n != math.Trunc(n) {
		return budget{}, fmt.Errorf("invalid budget %q: the node count must be a whole number from 1 to 10^15", s)
	}
	return budget{nodes: int64(n)}, nil
}

// formatCount writes n with a k/M suffix when it is round.
func formatCount(n int64) string {
	switch {
	case n >= 1e6 && n%1e5 == 0:
		return strconv.FormatFloat(float64(n)/1e6, 'f', -1, 64) + "M"
	case n >= 1e3 && n%100 == 0:
		return strconv.FormatFloat(float64(n)/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// tableBits converts a table size in MiB to the solver's 2^bits entries of
// 16 bytes.
func tableBits(mib int) int {
	bits := 10
	for (int64(16)<<(bits+1)) <= int64(mib)<<20 && bits < 30 {
		bits++
	}
	return bits
}

// solveOverheadMiB is the memory solve allows itself beyond the tables
// (--memory per worker, plus 8 MiB per worker for an opening pass's table
// and score caches): the runtime, the program, the games, the results.
const solveOverheadMiB = 64

// solveProgramMiB is the part of solveOverheadMiB left outside the Go
// runtime's memory limit: the program's own code and data, which the
// resident set counts and the limit does not.
const solveProgramMiB = 8

// limitMemory sets the Go runtime's soft memory limit so that the resident
// set stays within what --memory promises, workers × (memory + 8) MiB plus
// solveOverheadMiB, unless the GOMEMLIMIT environment variable sets a limit
// of its own. Without a limit the collector lets the heap grow to twice the
// live tables before it runs, so garbage from deal after deal piles up
// beside them (measured with 2 workers and --memory 64 in Cromwell: a peak
// of 241 MiB after 400 deals without the limit).
func limitMemory(workers, memoryMiB int) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(int64(workers*(memoryMiB+8)+solveOverheadMiB-solveProgramMiB) << 20)
}
