package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all" // every game's search knowledge
)

var solveCmd = &command{
	name:    "solve",
	args:    "GAME [--deals N] [--seed-start S] [--budget 10s|5M] [--workers W] [--json F] [--show] [--verify]",
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
	verify := fs.Bool("verify", false, "replay every winning line through a fresh environment; exit 1 if one fails")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	name, err := oneArg(pos, "GAME")
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
	opts := solver.Options{Nodes: b.nodes, Time: b.time, TableBits: tableBits(*memory)}
	if err := opts.Check(); err != nil {
		return usageError{err}
	}

	run := solveRun{
		game: g, spec: spec, seedStart: start.v, deals: *deals,
		workers: min(*workers, *deals), opts: opts, budget: b.String(),
	}
	// The workers' tables and caches together, as limitMemory bounds them.
	if err := memlimit.Check(fmt.Sprintf("%d workers × (--memory %d + 8) MiB", run.workers, *memory),
		memlimit.Add(memlimit.Mul(uint64(run.workers), uint64(*memory+8)<<20), solveOverheadMiB<<20)); err != nil {
		return err
	}
	limitMemory(run.workers, *memory)
	if *jsonPath != "" {
		head := journalHead{Game: spec.ID(), Rules: spec.Rules(), Budget: b.String(), TableBits: opts.TableBits}
		j, kept, err := openJournal(journalPath(*jsonPath), head)
		if err != nil {
			return err
		}
		run.journal, run.kept = j, kept
	}
	fmt.Fprintf(stdout, "Command: `%s`\n", commandLine(append([]string{"patience", "solve"}, args...)))
	fmt.Fprintf(stdout, "%s (%s, rules %s), deals %d to %d, budget %s a deal, %s\n",
		spec.Title, spec.ID(), spec.Rules(), start.v, start.v+uint64(*deals-1), b, count(run.workers, "worker"))
	if spec.Hidden {
		fmt.Fprintln(stdout, "Clairvoyant: the solver sees the hidden cards, so every figure is an upper bound on what a player can win.")
	}
	if n := run.keptInRange(); n > 0 {
		fmt.Fprintf(stdout, "Resuming: %s decided by an earlier run of this command, taken from %s.\n", count(n, "deal"), run.journal.path)
	}
	results, elapsed, err := run.solve(ctx, stdout, stderr, *show)
	interrupted := ctx.Err() != nil
	if run.journal != nil {
		if cerr := run.journal.close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	sum := summarize(results, elapsed)
	if interrupted {
		fmt.Fprintf(stdout, "\nInterrupted: %d of %d deals decided or run out of budget; the summary covers them.\n", sum.Deals, *deals)
	}
	sum.write(stdout, spec)
	failed := false
	if *verify {
		n, errs := verifyLines(g, results)
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
	if *jsonPath != "" {
		if err := run.saveJSON(*jsonPath, results, sum, interrupted, commandLine(append([]string{"patience", "solve"}, args...))); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Wrote %s.\n", *jsonPath)
		if interrupted {
			fmt.Fprintf(stdout, "%s keeps the %s decided so far: run the same command again to go on from there.\n", run.journal.path, count(run.journal.deals, "deal"))
		} else if err := os.Remove(run.journal.path); err != nil {
			return fmt.Errorf("solve journal: %w", err)
		}
	}
	if failed {
		return errFailed
	}
	return nil
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
