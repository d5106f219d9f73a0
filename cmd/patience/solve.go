package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all" // every game's search knowledge
	"github.com/patience-gym/patience/stats"
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
		game: name, variant: *variant, spec: spec, seedStart: start.v, deals: *deals,
		workers: min(*workers, *deals), opts: opts, budget: b.String(),
	}
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
		n, errs := verifyLines(name, *variant, results)
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

// solveRun is one run of the solve command.
type solveRun struct {
	game, variant string
	spec          *env.Spec
	seedStart     uint64
	deals         int
	workers       int
	opts          solver.Options
	budget        string
	// journal, when set, records each decided deal; kept holds the deals
	// an earlier run recorded there, by seed, which are not solved again.
	journal *solveJournal
	kept    map[uint64]journalDeal
}

// keptInRange counts the kept deals among the run's.
func (r *solveRun) keptInRange() int {
	n := 0
	for seed := range r.kept {
		if seed >= r.seedStart && seed-r.seedStart < uint64(r.deals) {
			n++
		}
	}
	return n
}

// dealResult is one deal's outcome.
type dealResult struct {
	Seed      uint64   `json:"seed"`
	Verdict   string   `json:"verdict"`
	Stop      string   `json:"stop,omitempty"`
	Moves     int      `json:"moves,omitempty"`
	Line      []string `json:"line,omitempty"`
	Nodes     int64    `json:"nodes"`
	Best      int      `json:"best_progress"`
	Passes    int      `json:"passes"`
	Seconds   float64  `json:"seconds"`
	Error     string   `json:"error,omitempty"`
	ids       []int
	done      bool
	cancelled bool
}

// solve runs the deals on the workers, printing each result in deal order,
// and returns the results of the deals that finished (a cancelled deal is
// left out) and the wall time.
func (r *solveRun) solve(ctx context.Context, stdout, stderr io.Writer, show bool) ([]dealResult, time.Duration, error) {
	results := make([]dealResult, r.deals)
	solvers := make([]*solver.Solver, r.workers)
	games := make([]env.Game, r.workers)
	for w := range solvers {
		s, err := solver.New(r.opts)
		if err != nil {
			return nil, 0, err
		}
		solvers[w] = s
		if games[w], err = env.NewGameOf(r.game, r.variant); err != nil {
			return nil, 0, err
		}
	}
	bar := newProgress(stderr, "solve "+r.spec.ID(), int64(r.deals))
	var mu sync.Mutex
	var solved, unsolvable, unknown int
	tally := func(d *dealResult) {
		switch d.Verdict {
		case "solved":
			solved++
		case "unsolvable":
			unsolvable++
		default:
			unknown++
		}
	}
	bar.extra = func() string {
		return fmt.Sprintf("solved %d  unsolvable %d  unknown %d", solved, unsolvable, unknown)
	}
	next, printed := 0, 0
	for i := range results {
		if d, ok := r.kept[r.seedStart+uint64(i)]; ok {
			results[i] = d.dealResult
			tally(&results[i])
			bar.add(1)
		}
	}
	for printed < r.deals && results[printed].done {
		writeDeal(stdout, &results[printed], r.spec, show)
		printed++
	}
	var journalErr error
	began := time.Now()
	var wg sync.WaitGroup
	for w := range r.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				for next < r.deals && results[next].done {
					next++ // taken from the journal
				}
				i := next
				next++
				failed := journalErr != nil
				mu.Unlock()
				if i >= r.deals || ctx.Err() != nil || failed {
					return
				}
				res := r.one(ctx, solvers[w], games[w], r.seedStart+uint64(i))
				mu.Lock()
				results[i] = res
				if !res.cancelled && r.journal != nil && journalErr == nil {
					journalErr = r.journal.add(res)
				}
				if !res.cancelled {
					tally(&res)
				}
				// Print the finished deals in order.
				for printed < r.deals && results[printed].done {
					if !results[printed].cancelled {
						writeDeal(stdout, &results[printed], r.spec, show)
					}
					printed++
				}
				bar.add(1) // under mu: the bar's extra text reads the counts
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	bar.done()
	elapsed := time.Since(began)
	if journalErr != nil {
		return nil, elapsed, journalErr
	}
	var out []dealResult
	for _, res := range results {
		if res.done && !res.cancelled {
			out = append(out, res)
		}
	}
	// Deals finished after one that was cancelled were not printed yet.
	for i := printed; i < r.deals; i++ {
		if results[i].done && !results[i].cancelled {
			writeDeal(stdout, &results[i], r.spec, show)
		}
	}
	return out, elapsed, nil
}

// one solves one deal.
func (r *solveRun) one(ctx context.Context, s *solver.Solver, g env.Game, seed uint64) dealResult {
	g.Deal(seed)
	res := s.Solve(ctx, g)
	d := dealResult{
		Seed: seed, Verdict: res.Verdict.String(), Stop: res.Stop.String(), Nodes: res.Nodes,
		Best: res.Best, Passes: res.Passes, Seconds: res.Elapsed.Seconds(), Error: res.Err, done: true,
		cancelled: res.Stop == solver.Cancelled,
	}
	if res.Verdict == solver.Solved {
		d.Moves = len(res.Line)
		d.ids = res.Line
		d.Line = make([]string, len(res.Line))
		for i, a := range res.Line {
			d.Line[i] = g.ActionString(a)
		}
	}
	return d
}

// writeDeal prints one deal's verdict line (and its winning line with show).
func writeDeal(w io.Writer, d *dealResult, spec *env.Spec, show bool) {
	took := fmt.Sprintf("%s nodes, %.2f s", formatThousands(d.Nodes), d.Seconds)
	switch d.Verdict {
	case "solved":
		note := ""
		if d.Moves > spec.MaxSteps {
			note = fmt.Sprintf("; longer than the step limit %d (play it with --max-steps %d)", spec.MaxSteps, d.Moves)
		}
		fmt.Fprintf(w, "deal %d: solved in %d moves (%s%s)\n", d.Seed, d.Moves, took, note)
		if show {
			for _, m := range d.Line {
				fmt.Fprintf(w, "    %s\n", m)
			}
		}
	case "unsolvable":
		how := "every reachable position searched"
		if d.Passes == 0 {
			how = "proved lost at the start by the game's dead test"
		}
		fmt.Fprintf(w, "deal %d: unsolvable (%s; %s)\n", d.Seed, how, took)
	default:
		why := d.Stop + " budget"
		if d.Stop == "unverified" {
			why = "a line that did not verify: " + d.Error
		}
		fmt.Fprintf(w, "deal %d: unknown (%s; at best %d of %d cards placed; %s)\n", d.Seed, why, d.Best, spec.Cards, took)
	}
}

// formatThousands writes n with thousands separators.
func formatThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var sb strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(c)
	}
	return sb.String()
}

// solveSummaryStats sums up a run.
type solveSummaryStats struct {
	Deals      int     `json:"deals"`
	Solved     int     `json:"solved"`
	Unsolvable int     `json:"unsolvable"`
	Unknown    int     `json:"unknown"`
	Winnable   float64 `json:"winnable"`
	// Low and High are the ends of the 95 % interval of the winnable share
	// counting the unknown deals as lost (Low) and as won (High).
	Low            float64 `json:"winnable_low"`
	High           float64 `json:"winnable_high"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	MedianSeconds  float64 `json:"median_seconds"`
	P95Seconds     float64 `json:"p95_seconds"`
	MeanNodes      float64 `json:"mean_nodes"`
	SolveSeconds   float64 `json:"solve_seconds"`
	WallSeconds    float64 `json:"wall_seconds"`
	MeanMoves      float64 `json:"mean_moves"`
}

func summarize(results []dealResult, wall time.Duration) solveSummaryStats {
	s := solveSummaryStats{Deals: len(results), WallSeconds: wall.Seconds()}
	var nodes int64
	var secs []float64
	moves := 0
	for _, d := range results {
		switch d.Verdict {
		case "solved":
			s.Solved++
			moves += d.Moves
		case "unsolvable":
			s.Unsolvable++
		default:
			s.Unknown++
		}
		nodes += d.Nodes
		secs = append(secs, d.Seconds)
		s.SolveSeconds += d.Seconds
	}
	if s.Deals == 0 {
		return s
	}
	s.Winnable = float64(s.Solved) / float64(s.Deals)
	s.Low = stats.Wilson(s.Solved, s.Deals, 0.95).CI.Lo
	s.High = stats.Wilson(s.Solved+s.Unknown, s.Deals, 0.95).CI.Hi
	if s.SolveSeconds > 0 {
		s.NodesPerSecond = float64(nodes) / s.SolveSeconds
	}
	slices.Sort(secs)
	s.MedianSeconds = quantile(secs, 0.5)
	s.P95Seconds = quantile(secs, 0.95)
	s.MeanNodes = float64(nodes) / float64(s.Deals)
	if s.Solved > 0 {
		s.MeanMoves = float64(moves) / float64(s.Solved)
	}
	return s
}

// quantile returns the q-quantile of sorted xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

func (s solveSummaryStats) write(w io.Writer, spec *env.Spec) {
	if s.Deals == 0 {
		fmt.Fprintln(w, "\nNo deal finished.")
		return
	}
	pct := func(k int) string { return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(s.Deals)) }
	fmt.Fprintf(w, "\n%s: %d deals: solved %d (%s), unsolvable %d (%s), unknown %d (%s)\n",
		spec.ID(), s.Deals, s.Solved, pct(s.Solved), s.Unsolvable, pct(s.Unsolvable), s.Unknown, pct(s.Unknown))
	bound := ""
	if spec.Hidden {
		bound = " (clairvoyant: an upper bound)"
	}
	fmt.Fprintf(w, "Winnable: %.1f %%, 95 %% interval [%.1f %%, %.1f %%] counting the unknown deals as lost and as won%s\n",
		100*s.Winnable, 100*s.Low, 100*s.High, bound)
	fmt.Fprintf(w, "Speed: %s nodes/s; time per deal: median %.2f s, 95th percentile %.2f s; %s nodes a deal on average",
		formatThousands(int64(s.NodesPerSecond)), s.MedianSeconds, s.P95Seconds, formatThousands(int64(s.MeanNodes)))
	if s.Solved > 0 {
		fmt.Fprintf(w, "; winning lines of %.1f moves on average", s.MeanMoves)
	}
	fmt.Fprintf(w, "\nElapsed: %s\n", (time.Duration(s.WallSeconds * float64(time.Second))).Round(100*time.Millisecond))
}

// verifyLines replays every winning line through a fresh environment of the
// game, dealt as the deal was, with a step limit long enough for the line.
// It returns the number of lines replayed and an error for each failure.
func verifyLines(game, variant string, results []dealResult) (int, []error) {
	n := 0
	var errs []error
	for _, d := range results {
		if d.Verdict != "solved" {
			continue
		}
		n++
		e, err := env.Make(game, env.Options{Variant: variant, MaxSteps: len(d.ids) + 1})
		if err != nil {
			return n, []error{err}
		}
		e.Reset(d.Seed)
		for i, a := range d.ids {
			if _, _, _, err = e.Advance(a); err != nil {
				err = fmt.Errorf("deal %d: move %d (%s): %w", d.Seed, i+1, d.Line[i], err)
				break
			}
		}
		if err == nil && e.Outcome() != env.Won {
			err = fmt.Errorf("deal %d: the line ends %s with %d cards placed, not won", d.Seed, e.Outcome(), e.Progress())
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errs
}

// solveJSON is what --json writes.
type solveJSON struct {
	Command     string            `json:"command"`
	Game        string            `json:"game"`
	Variant     string            `json:"variant,omitempty"`
	Rules       string            `json:"rules"`
	Clairvoyant bool              `json:"clairvoyant"`
	SeedStart   uint64            `json:"seed_start"`
	Deals       int               `json:"deals_asked"`
	Budget      string            `json:"budget"`
	Workers     int               `json:"workers"`
	Interrupted bool              `json:"interrupted,omitempty"`
	GoVersion   string            `json:"go_version"`
	CPUs        int               `json:"cpus"`
	Summary     solveSummaryStats `json:"summary"`
	Results     []dealResult      `json:"results"`
}

// marshalSolveJSON lays the document out for people and diffs: the fields
// indented, each deal's result on one line.
func marshalSolveJSON(doc solveJSON) ([]byte, error) {
	results := doc.Results
	doc.Results = nil
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false) // move names hold ">"
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	// Replace the empty results with one line per deal.
	h := bytes.TrimSuffix(head.Bytes(), []byte("\n}\n"))
	h = bytes.TrimSuffix(h, []byte(",\n  \"results\": null"))
	var b bytes.Buffer
	b.Write(h)
	b.WriteString(",\n  \"results\": [")
	line := json.NewEncoder(&b)
	line.SetEscapeHTML(false)
	for i, r := range results {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		if err := line.Encode(r); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode ends with a newline
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes(), nil
}

// saveJSON writes the run to path atomically.
func (r *solveRun) saveJSON(path string, results []dealResult, sum solveSummaryStats, interrupted bool, cmd string) error {
	doc := solveJSON{
		Command: cmd, Game: r.spec.Name, Variant: r.spec.Variant, Rules: r.spec.Rules(), Clairvoyant: r.spec.Hidden,
		SeedStart: r.seedStart, Deals: r.deals, Budget: r.budget, Workers: r.workers, Interrupted: interrupted,
		GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Summary: sum, Results: results,
	}
	data, err := marshalSolveJSON(doc)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	return nil
}
