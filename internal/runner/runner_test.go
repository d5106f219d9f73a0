package runner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/patience-gym/patience/internal/journal"
)

// square is the work of the tests: a unit's square, after a pause that
// makes the workers finish out of order.
func square(ctx context.Context, _ struct{}, u int) (int, error) {
	d := time.Duration(rand.IntN(300)) * time.Microsecond
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return u * u, nil
}

func TestResultsComeInUnitOrder(t *testing.T) {
	units := Span(10, 200)
	for _, workers := range []int{1, 2, 4, 7} {
		var got []string
		progress := 0
		err := Run(context.Background(), Task[struct{}, int]{
			Units: units, Workers: workers, Do: square,
			Emit:     func(u, r int, _ bool) error { got = append(got, fmt.Sprint(u, r)); return nil },
			Progress: func(done, total int) { progress = done },
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != units.Len() || progress != units.Len() {
			t.Fatalf("%d workers: %d results, progress %d, want %d", workers, len(got), progress, units.Len())
		}
		for i := range units.Len() {
			u := units.At(i)
			if want := fmt.Sprint(u, u*u); got[i] != want {
				t.Fatalf("%d workers: result %d is %q, want %q", workers, i, got[i], want)
			}
		}
	}
}

func TestHeldUnitsAreNotDoneAgain(t *testing.T) {
	var did, kept atomic.Int64
	held := map[int]int{3: 9, 4: 16, 7: 49}
	var got []int
	var first []int // Progress's first call
	err := Run(context.Background(), Task[struct{}, int]{
		Units: Span(0, 10), Workers: 3,
		Do: func(ctx context.Context, w struct{}, u int) (int, error) {
			if _, ok := held[u]; ok {
				t.Errorf("unit %d was held but done again", u)
			}
			did.Add(1)
			return u * u, nil
		},
		Held:     func(u int) (int, bool) { r, ok := held[u]; return r, ok },
		Keep:     func(u, r int) error { kept.Add(1); return nil },
		Emit:     func(u, r int, _ bool) error { got = append(got, r); return nil },
		Progress: func(done, total int) { first = append(first, done) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if did.Load() != 7 || kept.Load() != 7 {
		t.Errorf("did %d, kept %d; want 7 each", did.Load(), kept.Load())
	}
	if !slices.Equal(got, []int{0, 1, 4, 9, 16, 25, 36, 49, 64, 81}) {
		t.Errorf("emitted %v", got)
	}
	if first[len(first)-1] != 10 || len(first) < 7 {
		t.Errorf("progress %v: want a call after each of the 7 units done, ending at 10", first)
	}
}

// TestInterruptedRunResumesToTheSameOutput: a run cancelled part way keeps
// what it finished in a journal; the same run again, holding those,
// writes exactly what one uninterrupted run writes.
func TestInterruptedRunResumesToTheSameOutput(t *testing.T) {
	dir := t.TempDir()
	type line struct {
		Unit, Value int
	}
	head := map[string]string{"run": "squares"}
	key := func(l line) (int, bool) { return l.Unit, true }
	run := func(ctx context.Context, path string, stopAfter int) (string, error) {
		jr, err := OpenJournal(filepath.Join(dir, path), head, "", key)
		if err != nil {
			t.Fatal(err)
		}
		defer jr.Close()
		var out strings.Builder
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		n := 0
		err = Run(ctx, Task[struct{}, int]{
			Units: Span(0, 120), Workers: 3, Do: square,
			Held: func(u int) (int, bool) { l, ok := jr.Held(u); return l.Value, ok },
			Keep: func(u, r int) error {
				n++
				if n == stopAfter {
					cancel()
				}
				return jr.Add(line{u, r})
			},
			Emit: func(u, r int, _ bool) error { fmt.Fprintf(&out, "%d %d\n", u, r); return nil },
		})
		return out.String(), err
	}
	whole, err := run(context.Background(), "whole.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(context.Background(), "cut.jsonl", 40); !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted run returned %v, want context.Canceled", err)
	}
	lines, err := journal.Read(filepath.Join(dir, "cut.jsonl"), head)
	if err != nil || len(lines) < 40 || len(lines) >= 120 {
		t.Fatalf("the interrupted run's journal holds %d lines (%v); want 40 or a few more, fewer than 120", len(lines), err)
	}
	again, err := run(context.Background(), "cut.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	if again != whole {
		t.Error("the resumed run's output differs from an uninterrupted run's")
	}
}

// TestShardsMerge: the shards of a run, each with its journal, then a run
// of the whole reading their journals, does nothing itself and emits what
// a run of the whole alone emits; a shard journal of other settings is
// refused.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	type line struct{ Unit, Value int }
	head := map[string]int{"budget": 5}
	key := func(l line) (int, bool) { return l.Unit, true }
	stem := filepath.Join(dir, "run")
	units := Span(1000, 90)
	emitRun := func(s Shard, withOthers bool) (string, int64) {
		others := ""
		if withOthers {
			others = ShardGlob(stem, ".jsonl")
		}
		jr, err := OpenJournal(ShardPath(stem, ".jsonl", s), head, others, key)
		if err != nil {
			t.Fatal(err)
		}
		defer jr.Close()
		var out strings.Builder
		var did atomic.Int64
		err = Run(context.Background(), Task[struct{}, int]{
			Units: s.Interleaved(units, 7), Workers: 2,
			Do: func(ctx context.Context, w struct{}, u int) (int, error) {
				did.Add(1)
				return square(ctx, w, u)
			},
			Held: func(u int) (int, bool) { l, ok := jr.Held(u); return l.Value, ok },
			Keep: func(u, r int) error { return jr.Add(line{u, r}) },
			Emit: func(u, r int, _ bool) error { fmt.Fprintf(&out, "%d %d\n", u, r); return nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), did.Load()
	}
	for i := range 3 {
		emitRun(Shard{i, 3}, false)
	}
	merged, did := emitRun(Shard{}, true)
	if did != 0 {
		t.Errorf("the merge did %d units itself; the shards had done them all", did)
	}
	var want strings.Builder
	for i := range units.Len() {
		u := units.At(i)
		fmt.Fprintf(&want, "%d %d\n", u, u*u)
	}
	if merged != want.String() {
		t.Error("the merged output differs from a whole run's")
	}
	// A shard of other settings is refused, never mixed in.
	if _, _, err := journal.Open(ShardPath(stem, ".jsonl", Shard{0, 2}), map[string]int{"budget": 6}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenJournal(filepath.Join(dir, "other.jsonl"), head, ShardGlob(stem, ".jsonl"), key); !errors.Is(err, journal.ErrOtherRun) {
		t.Errorf("a shard journal of another budget: %v, want ErrOtherRun", err)
	}
}

func TestShardsSplitTheUnits(t *testing.T) {
	units := Span(0, 1003)
	for _, n := range []int{1, 2, 3, 8} {
		seen := map[int]int{}
		for i := range n {
			mine := (Shard{i, n}).Interleaved(units, 50)
			for k := range mine.Len() {
				seen[mine.At(k)]++
			}
			lo, hi := Shard{i, n}.Span(1003)
			if hi < lo {
				t.Errorf("span %d/%d is [%d, %d)", i, n, lo, hi)
			}
		}
		for u := range 1003 {
			if seen[u] != 1 {
				t.Fatalf("%d shards: unit %d taken %d times", n, u, seen[u])
			}
		}
	}
	if lo, hi := (Shard{}).Span(10); lo != 0 || hi != 10 {
		t.Errorf("the whole run's span is [%d, %d)", lo, hi)
	}
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) || s.String() != "2/5" {
		t.Errorf("ParseShard(2/5) = %v, %v", s, err)
	}
	if got := ShardPath("/x/out.json", ".journal.jsonl", Shard{1, 4}); got != "/x/out.json.shard-1-of-4.journal.jsonl" {
		t.Errorf("ShardPath = %s", got)
	}
}

func TestErrorsStopTheRun(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int64
	err := Run(context.Background(), Task[struct{}, int]{
		Units: Span(0, 1000), Workers: 4,
		Do: func(ctx context.Context, _ struct{}, u int) (int, error) {
			started.Add(1)
			if u == 20 {
				return 0, boom
			}
			return square(ctx, struct{}{}, u)
		},
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Run returned %v, want the unit's error", err)
	}
	if started.Load() > 200 {
		t.Errorf("%d units were started after a failure at unit 20", started.Load())
	}
	err = Run(context.Background(), Task[int, int]{
		Units: Span(0, 10), NewWorker: func() (int, error) { return 0, boom },
		Do: func(context.Context, int, int) (int, error) { return 0, nil },
	})
	if !errors.Is(err, boom) {
		t.Errorf("a worker that cannot be made: %v", err)
	}
	err = Run(context.Background(), Task[struct{}, int]{
		Units: Span(0, 50), Workers: 2, Do: square,
		Emit: func(u, r int, _ bool) error {
			if u == 5 {
				return boom
			}
			return nil
		},
	})
	if !errors.Is(err, boom) {
		t.Errorf("Emit's error: %v", err)
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Run(ctx, Task[struct{}, int]{Units: Span(0, 10), Do: square})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run on a cancelled context: %v", err)
	}
}

// TestHugeSpanCostsNothing: a span of a billion units, cancelled after a
// few, is handed out lazily: Run neither lists the units nor waits for
// them.
func TestHugeSpanCostsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var did atomic.Int64
	began := time.Now()
	err := Run(ctx, Task[struct{}, int]{
		Units: Span(0, 1_000_000_000), Workers: 2,
		Do: func(ctx context.Context, _ struct{}, u int) (int, error) {
			if did.Add(1) == 100 {
				cancel()
			}
			return u, nil
		},
		Held: func(u int) (int, bool) { return 0, u%2 == 1 },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("a cancelled run of a billion units took %v", d)
	}
}
