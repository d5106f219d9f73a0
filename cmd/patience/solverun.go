package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/solver"
)

// solveRun is one run of the solve command.
type solveRun struct {
	game      env.Game // a fresh game of the rules, which each worker copies
	spec      *env.Spec
	seedStart uint64
	deals     int
	workers   int
	opts      solver.Options
	budget    string
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
		games[w] = r.game.Clone()
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

// verifyLines replays every winning line through a fresh environment of the
// game (a copy of game, a fresh game), dealt as the deal was, with a step
// limit long enough for the line. It returns the number of lines replayed
// and an error for each failure.
func verifyLines(game env.Game, results []dealResult) (int, []error) {
	n := 0
	var errs []error
	for _, d := range results {
		if d.Verdict != "solved" {
			continue
		}
		n++
		e := env.New(game.Clone(), env.Options{MaxSteps: len(d.ids) + 1})
		e.Reset(d.Seed)
		var err error
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
