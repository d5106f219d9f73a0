// Package runner does a piece of work once for each unit of a range (a
// deal, or a numbered part of a dataset) on a pool of workers, and is the
// one place where the project's batch commands (the benchmark and
// protocol v1, the verdict tables, dataset generation, the label datasets,
// the solver's batch runs) get what such work needs:
//
//   - workers, each with state of its own made once (NewWorker), so that a
//     unit's work allocates only what it must;
//   - results handed back in the order of the units, whatever order the
//     workers finish them in (Emit), so that output does not depend on the
//     number of workers;
//   - what is finished kept as it finishes (Keep: a line of a Journal, or a
//     file the work itself wrote), and taken back instead of done again
//     (Held), so that a run stopped by a crash, Ctrl-C or a killed job goes
//     on where it stopped and gives what an uninterrupted run gives;
//   - cancellation: a cancelled context stops the workers within one unit
//     (the work checks it), and Run returns the context's error;
//   - progress (Progress), counting the units held from before;
//   - a shard of the units for one machine of many (Shard), whose
//     journals a run of the whole merges (Journal's others).
//
// Keep, Emit and Progress are called from one goroutine, the one that
// called Run, one call at a time: they need no locks.
package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Units are the units of a task, in order: a span of consecutive numbers
// (Span, which costs nothing however long it is) or a list (List).
type Units struct {
	list     []int
	first, n int
	listed   bool
}

// Span returns the units first, first+1, ..., first+count-1.
func Span(first, count int) Units { return Units{first: first, n: max(count, 0)} }

// List returns the units of list, in its order.
func List(list []int) Units { return Units{list: list, n: len(list), listed: true} }

// Len returns the number of units.
func (u Units) Len() int { return u.n }

// At returns unit i (0 ≤ i < Len()).
func (u Units) At(i int) int {
	if u.listed {
		return u.list[i]
	}
	return u.first + i
}

// Task is a piece of work over units, and what to do with its results.
type Task[W, R any] struct {
	// Units are the units to work on, in the order Emit sees them. They
	// are the caller's numbers (a deal, a part, an index): Run only hands
	// them back. Run keeps no state per unit beyond the units in flight
	// and the results waiting for an earlier unit, so a span of a billion
	// units costs no memory.
	Units Units
	// Workers is the number of units worked on at once (0 means
	// runtime.GOMAXPROCS(0)).
	Workers int
	// NewWorker makes one worker's state; nil gives every worker the zero
	// W. A worker is made when it is first needed.
	NewWorker func() (W, error)
	// Do works on one unit with a worker's state. It returns ctx's error
	// when ctx is cancelled before it is done.
	Do func(ctx context.Context, w W, unit int) (R, error)
	// Held, if set, returns the result of a unit finished by an earlier
	// run (in a journal, or a file it wrote); such a unit is not done
	// again.
	Held func(unit int) (R, bool)
	// Keep, if set, is called with each unit as it finishes (not the held
	// ones), in the order they finish: it records the result (a journal
	// line), so that a later run holds it. An error stops the run.
	Keep func(unit int, r R) error
	// Emit, if set, is called with every unit's result, held or done, in
	// the order of Units: a unit's result is emitted once every unit
	// before it has been. An error stops the run. When a run stops early,
	// only the results before the first unit not finished are emitted.
	Emit func(unit int, r R, held bool) error
	// Progress, if set, is called with the number of units finished (held
	// ones included) and the total, after each unit done and after each
	// stretch of held ones.
	Progress func(done, total int)
}

// finished is one unit a worker ended: its index in Units, and its result
// or error.
type finished[R any] struct {
	i   int
	r   R
	err error
}

// waiting is a result waiting to be emitted.
type waiting[R any] struct {
	r    R
	held bool
}

// Run works on every unit of t not held, and returns nil when all are
// finished. It returns the first error Do, NewWorker, Keep or Emit
// returned (the workers stop at once), or ctx's error when ctx was
// cancelled first. Held, Keep, Emit and Progress are called from the
// goroutine that called Run, one at a time.
func Run[W, R any](ctx context.Context, t Task[W, R]) error {
	n := t.Units.Len()
	workers := t.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// At most workers units are in flight, so neither channel is ever
	// full when it is sent on.
	jobs := make(chan int, workers)
	out := make(chan finished[R], workers)
	var wg sync.WaitGroup
	defer func() {
		close(jobs)
		wg.Wait()
	}()
	started := 0
	start := func() {
		started++
		wg.Go(func() {
			var w W
			var err error
			if t.NewWorker != nil {
				w, err = t.NewWorker()
			}
			for i := range jobs {
				if err != nil {
					out <- finished[R]{i: i, err: err}
					continue
				}
				r, derr := t.Do(ctx, w, t.Units.At(i))
				out <- finished[R]{i: i, r: r, err: derr}
			}
		})
	}

	var (
		wait     = map[int]waiting[R]{} // finished and not yet emitted, by index
		emitted  int                    // the units before it are emitted
		next     int                    // the next unit to hand out or take as held
		inflight int
		done     int
		failed   error // the first error: a unit's, NewWorker's, Keep's or Emit's
	)
	fail := func(err error) {
		if failed == nil {
			failed = err
		}
		cancel()
	}
	emit := func() {
		for failed == nil {
			r, ok := wait[emitted]
			if !ok {
				return
			}
			delete(wait, emitted)
			if t.Emit != nil {
				if err := t.Emit(t.Units.At(emitted), r.r, r.held); err != nil {
					fail(err)
					return
				}
			}
			emitted++
		}
	}
	for {
		// Hand out units while a worker is free, taking the held ones as
		// they come.
		held := false
		for failed == nil && ctx.Err() == nil && next < n && inflight < workers {
			if t.Held != nil {
				if r, ok := t.Held(t.Units.At(next)); ok {
					wait[next] = waiting[R]{r, true}
					next++
					done++
					held = true
					emit()
					continue
				}
			}
			if started < workers {
				start()
			}
			jobs <- next
			next++
			inflight++
		}
		if held && t.Progress != nil {
			t.Progress(done, n)
		}
		if inflight == 0 {
			break
		}
		f := <-out
		inflight--
		if f.err != nil {
			if ctx.Err() == nil || !errors.Is(f.err, ctx.Err()) {
				fail(f.err)
			}
			continue
		}
		if failed != nil {
			continue // stopping after an error: the unit is dropped
		}
		if t.Keep != nil {
			if err := t.Keep(t.Units.At(f.i), f.r); err != nil {
				fail(err)
				continue
			}
		}
		wait[f.i] = waiting[R]{f.r, false}
		done++
		if t.Progress != nil {
			t.Progress(done, n)
		}
		emit()
	}
	if failed != nil {
		return failed
	}
	if emitted < n {
		if err := context.Cause(ctx); err != nil {
			return err
		}
		return errors.New("runner: stopped before every unit was done")
	}
	return nil
}

// Shard is one machine's share of a run that several machines split with
// no coordination: shard Index of Count (0 ≤ Index < Count). The zero
// value is the whole run. Each shard keeps its own journal; a run of the
// whole (no shard) afterwards takes every shard's results from their
// journals and does only what none of them did, which merges them.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n" (shard i of n, 0 ≤ i < n); "" is the whole run.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want i/n, shard i of n (0/4 is the first of four)", s)
	}
	sh := Shard{Index: i, Count: n}
	if n < 1 {
		return Shard{}, fmt.Errorf("shard %q: the number of shards must be at least 1", s)
	}
	return sh, sh.Check()
}

// Check reports a shard out of range.
func (s Shard) Check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want i/n with n ≥ 1 and 0 ≤ i < n", s.Index, s.Count)
	}
	return nil
}

// Whole reports whether s is the whole run (no shard, or 0/1).
func (s Shard) Whole() bool { return s.Count <= 1 }

// String returns "i/n", or "" for the whole run.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Interleaved returns the shard's units of units when each shard takes
// chunks of chunk consecutive units in turn: shard i takes chunks i, i+n,
// i+2n, ... So every shard gets a share of every stretch of the units,
// which matters when some stretches cost more than others.
func (s Shard) Interleaved(units Units, chunk int) Units {
	if s.Whole() {
		return units
	}
	chunk = max(chunk, 1)
	var out []int
	for k := range units.Len() {
		if (k/chunk)%s.Count == s.Index {
			out = append(out, units.At(k))
		}
	}
	return List(out)
}

// Span returns the shard's part [lo, hi) of n units split into Count
// contiguous spans of nearly equal size.
func (s Shard) Span(n int) (lo, hi int) {
	if s.Whole() {
		return 0, n
	}
	return s.Index * n / s.Count, (s.Index + 1) * n / s.Count
}
