// Package batch decides a range of deals with the solver: each deal on a
// worker with its own solver, the verdicts in deal order, every deal kept
// in a journal as it is decided (so that a run stopped by a crash or
// Ctrl-C goes on where it stopped, and machines can split a run into
// shards that a run of the whole merges), the winning lines replayed
// through the environment, and a summary with the winnable share's
// interval. It runs on the project's runner (internal/runner); `patience
// solve` is its command line.
package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/runner"
	"github.com/patience-gym/patience/solver"
)

// Config says which deals to decide, and how.
type Config struct {
	// Game is a fresh game of the rules (and variant) to decide, which
	// every worker copies.
	Game env.Game
	// SeedStart and Deals are the deals: SeedStart, SeedStart+1, ...
	SeedStart uint64
	Deals     int
	// Seeds, when not nil, are the deals instead, in the order given
	// (Deals must be len(Seeds)): the deals a verdict table leaves
	// unknown, say, searched again with a larger budget.
	Seeds []uint64
	// Workers is the number of deals decided at once (at least 1).
	Workers int
	// Options are the solver's options for each deal.
	Options solver.Options
	// Budget names the budget in the journal's head and the result file
	// ("1M nodes", "10s"): a journal of another budget is refused.
	Budget string
	// Journal, when not "", is the file each deal is kept in as it is
	// decided (F.partial for a result file F, by the command line); a run
	// with the same journal and settings takes the deals it holds instead
	// of deciding them again.
	Journal string
	// Shard and Shards select one machine's share of the deals (Shards 0
	// or 1: the whole run): shard i of n decides every n-th chunk of
	// ShardChunk deals, into its own journal (ShardJournal). A run of the
	// whole with the same Journal takes the deals of every shard's
	// journal beside it, decides only what none of them did, and so merges
	// them.
	Shard, Shards int
	// OnDeal, if set, is called with every deal's result (the held ones
	// too), in deal order, from the goroutine that called Run.
	OnDeal func(d Deal, held bool)
	// Progress, if set, is called with the deals done (held ones included)
	// and the total, from the goroutine that called Run.
	Progress func(done, total int)
}

// seed returns the deal of index i of the run.
func (cfg *Config) seed(i int) uint64 {
	if cfg.Seeds != nil {
		return cfg.Seeds[i]
	}
	return cfg.SeedStart + uint64(i)
}

// index returns the index in the run of deal seed, or false when the run
// does not decide it.
func (cfg *Config) index(seed uint64) (int, bool) {
	if cfg.Seeds != nil {
		i := slices.Index(cfg.Seeds, seed)
		return i, i >= 0
	}
	if seed < cfg.SeedStart || seed-cfg.SeedStart >= uint64(cfg.Deals) {
		return 0, false
	}
	return int(seed - cfg.SeedStart), true
}

// ShardChunk is the number of consecutive deals a shard takes at a time.
const ShardChunk = 50

// journalExt is the ending of a journal's name whose shards are named
// after it.
const journalExt = ".partial"

// ShardJournal returns the journal of shard i of n of a run whose whole
// journal is journal: STEM.shard-I-of-N.partial for STEM.partial (journal
// itself for the whole run, i = 0 and n ≤ 1).
func ShardJournal(journal string, i, n int) string {
	stem, ext := splitExt(journal)
	return runner.ShardPath(stem, ext, runner.Shard{Index: i, Count: n})
}

// splitExt splits off a journal's ".partial" ending, if it has one.
func splitExt(journal string) (stem, ext string) {
	if len(journal) > len(journalExt) && journal[len(journal)-len(journalExt):] == journalExt {
		return journal[:len(journal)-len(journalExt)], journalExt
	}
	return journal, ""
}

// Deal is one deal's outcome, as the journal and the result file hold it.
type Deal struct {
	Seed    uint64 `json:"seed"`
	Verdict string `json:"verdict"`
	// Stop is the budget that ended an unknown deal ("nodes", "time",
	// "unverified"), "" otherwise.
	Stop string `json:"stop,omitempty"`
	// Moves is the length of the winning line, Line its moves as a
	// person types them.
	Moves int      `json:"moves,omitempty"`
	Line  []string `json:"line,omitempty"`
	Nodes int64    `json:"nodes"`
	// Best is the most cards placed in any position searched.
	Best    int     `json:"best_progress"`
	Passes  int     `json:"passes"`
	Seconds float64 `json:"seconds"`
	// Error says why a line found did not verify (Stop "unverified").
	Error string `json:"error,omitempty"`
	// IDs is the winning line as action ids, which Verify replays. The
	// journal holds it; the result file does not.
	IDs []int `json:"-"`
}

// Result is a run's outcome.
type Result struct {
	// Deals are the deals decided (held ones included), in deal order;
	// fewer than asked when the run was interrupted.
	Deals []Deal
	// Held is the number of deals taken from journals.
	Held int
	// Workers is the number of workers the run used.
	Workers int
	// Elapsed is the wall time of the run.
	Elapsed time.Duration
}

// Run decides the deals of cfg (of its shard). A cancelled ctx stops it
// within a deal: it returns what was decided by then and ctx's error; the
// journal keeps every deal decided.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	switch {
	case cfg.Game == nil:
		return nil, errors.New("batch: no game")
	case cfg.Deals <= 0:
		return nil, fmt.Errorf("batch: the number of deals must be positive, not %d", cfg.Deals)
	case cfg.Seeds != nil && len(cfg.Seeds) != cfg.Deals:
		return nil, fmt.Errorf("batch: %d deals asked with a list of %d", cfg.Deals, len(cfg.Seeds))
	case cfg.Workers <= 0:
		return nil, fmt.Errorf("batch: the number of workers must be positive, not %d", cfg.Workers)
	}
	if err := cfg.Options.Check(); err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	shard := runner.Shard{Index: cfg.Shard, Count: cfg.Shards}
	if err := shard.Check(); err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	if !shard.Whole() && cfg.Journal == "" {
		return nil, errors.New("batch: a shard needs a journal, which the run of the whole merges")
	}
	var jr *journal
	if cfg.Journal != "" {
		var err error
		if jr, err = openJournal(cfg, shard); err != nil {
			return nil, err
		}
		defer jr.Close()
	}
	units := shard.Interleaved(runner.Span(0, cfg.Deals), ShardChunk)
	res := &Result{Workers: min(cfg.Workers, units.Len())}
	began := time.Now()
	err := runner.Run(ctx, runner.Task[*worker, Deal]{
		Units: units, Workers: res.Workers,
		NewWorker: func() (*worker, error) {
			s, err := solver.New(cfg.Options)
			if err != nil {
				return nil, err
			}
			return &worker{s: s, g: cfg.Game.Clone()}, nil
		},
		Do: func(ctx context.Context, w *worker, i int) (Deal, error) {
			d := w.decide(ctx, cfg.seed(i))
			if d.Stop == solver.Cancelled.String() {
				return d, ctx.Err()
			}
			return d, nil
		},
		Held: func(i int) (Deal, bool) {
			if jr == nil {
				return Deal{}, false
			}
			return jr.Held(i)
		},
		Keep: func(_ int, d Deal) error {
			if jr == nil {
				return nil
			}
			return jr.Add(journalLine{Deal: d, IDs: d.IDs})
		},
		Emit: func(_ int, d Deal, held bool) error {
			res.Deals = append(res.Deals, d)
			if held {
				res.Held++
			}
			if cfg.OnDeal != nil {
				cfg.OnDeal(d, held)
			}
			return nil
		},
		Progress: cfg.Progress,
	})
	res.Elapsed = time.Since(began)
	if err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	return res, err
}

// worker decides deals with its own solver and game.
type worker struct {
	s *solver.Solver
	g env.Game
}

// decide searches deal seed.
func (w *worker) decide(ctx context.Context, seed uint64) Deal {
	w.g.Deal(seed)
	res := w.s.Solve(ctx, w.g)
	d := Deal{
		Seed: seed, Verdict: res.Verdict.String(), Stop: res.Stop.String(), Nodes: res.Nodes,
		Best: res.Best, Passes: res.Passes, Seconds: res.Elapsed.Seconds(), Error: res.Err,
	}
	if res.Verdict == solver.Solved {
		d.Moves = len(res.Line)
		d.IDs = res.Line
		d.Line = make([]string, len(res.Line))
		for i, a := range res.Line {
			d.Line[i] = w.g.ActionString(a)
		}
	}
	return d
}

// Verify replays every winning line of deals through a fresh environment
// of game's rules (a copy of game), dealt as the deal was, with a step
// limit long enough for the line. It returns the number of lines replayed
// and an error for each that did not end in a win.
func Verify(game env.Game, deals []Deal) (int, []error) {
	n := 0
	var errs []error
	for _, d := range deals {
		if d.Verdict != solver.Solved.String() {
			continue
		}
		n++
		e := env.New(game.Clone(), env.Options{MaxSteps: len(d.IDs) + 1})
		e.Reset(d.Seed)
		var err error
		for i, a := range d.IDs {
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
