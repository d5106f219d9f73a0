package labels

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// row is a part file's row in these tests.
type row struct {
	Deal int64  `parquet:"deal"`
	Obs  []byte `parquet:"obs"`
}

// meta is a part file's metadata in these tests.
type meta struct {
	Run  string `json:"run"`
	Part int    `json:"part"`
}

// fileWorker writes part p with p+1 deals of two rows each.
type fileWorker struct {
	dir, run string
	parts    []int // the parts this worker wrote or skipped
}

func (w *fileWorker) Part(ctx context.Context, p int) (int64, bool, error) {
	w.parts = append(w.parts, p)
	m := meta{Run: w.run, Part: p}
	f := PartFile{Path: PartPath(w.dir, p), Version: 1, ByteColumns: []string{"obs"}, Meta: &m,
		Same: SameRun(func(old meta) string {
			if old == m {
				return ""
			}
			return fmt.Sprintf("run %q", old.Run)
		})}
	return WritePart(ctx, f, int64(p+1), func(i int64) ([]row, error) {
		return []row{{Deal: i, Obs: []byte{byte(p)}}, {Deal: i, Obs: []byte{byte(i)}}}, nil
	}, nil)
}

// TestRunWritesEveryPartOnce checks that the parts are shared among the
// workers, each written once, and that a second run skips them all.
func TestRunWritesEveryPartOnce(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	var workers []*fileWorker
	newWorker := func() (*fileWorker, error) {
		w := &fileWorker{dir: dir, run: "a"}
		mu.Lock()
		workers = append(workers, w)
		mu.Unlock()
		return w, nil
	}
	done := 0
	tot, err := RunParts(context.Background(), 9, 0, 1, 3, newWorker, func(*fileWorker) { done++ })
	if err != nil {
		t.Fatal(err)
	}
	if want := (Totals{Parts: 9, Rows: 2 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9)}); tot != want {
		t.Errorf("totals %+v, want %+v", tot, want)
	}
	if done != 3 || len(workers) != 3 {
		t.Errorf("%d workers made, done called %d times; want 3 and 3", len(workers), done)
	}
	seen := map[int]int{}
	for _, w := range workers {
		for _, p := range w.parts {
			seen[p]++
		}
	}
	for p := range 9 {
		if seen[p] != 1 {
			t.Errorf("part %d handed out %d times", p, seen[p])
		}
		var m meta
		if err := ReadPartMeta(PartPath(dir, p), &m); err != nil || m != (meta{Run: "a", Part: p}) {
			t.Errorf("part %d: metadata %+v, %v", p, m, err)
		}
	}
	tot, err = RunParts(context.Background(), 9, 0, 1, 2, newWorker, nil)
	if err != nil || tot != (Totals{Skipped: 9}) {
		t.Errorf("second run: %+v, %v; want every part skipped", tot, err)
	}
}

// TestRunRefusesAnotherRunsParts checks that a part written by another
// run stops the run with an error naming the file.
func TestRunRefusesAnotherRunsParts(t *testing.T) {
	dir := t.TempDir()
	if _, err := RunParts(context.Background(), 2, 0, 1, 1, func() (*fileWorker, error) { return &fileWorker{dir: dir, run: "a"}, nil }, nil); err != nil {
		t.Fatal(err)
	}
	_, err := RunParts(context.Background(), 4, 0, 1, 2, func() (*fileWorker, error) { return &fileWorker{dir: dir, run: "b"}, nil }, nil)
	if err == nil || !strings.Contains(err.Error(), ".parquet was written by another run (run \"a\"); use another directory") {
		t.Fatalf("a directory of another run's parts: %v", err)
	}
}

// TestPartSpan: the parts of a run hold partDeals deals each, the last one
// what is left, and together every deal once.
func TestPartSpan(t *testing.T) {
	next := int64(0)
	for p := range 4 {
		first, n := PartSpan(p, 3, 10)
		if first != next || n != min(3, 10-first) || n <= 0 {
			t.Fatalf("part %d: first %d, %d deals; want first %d", p, first, n, next)
		}
		next += n
	}
	if next != 10 {
		t.Fatalf("the parts hold %d deals, want 10", next)
	}
}

// failWorker fails on part 3 and counts the parts it was handed.
type failWorker struct{ handed *int }

func (w failWorker) Part(ctx context.Context, p int) (int64, bool, error) {
	*w.handed++
	if p == 3 {
		return 0, false, errors.New("part 3 failed")
	}
	return 1, false, nil
}

// TestRunStopsAtTheFirstError checks that an error ends the run and is
// returned, and that a worker that cannot be made is an error too.
func TestRunStopsAtTheFirstError(t *testing.T) {
	handed := 0
	tot, err := RunParts(context.Background(), 100, 0, 1, 1, func() (failWorker, error) { return failWorker{&handed}, nil }, nil)
	if err == nil || err.Error() != "part 3 failed" || handed != 4 || tot.Parts != 3 {
		t.Errorf("got %+v, %v after %d parts; want the error after 4 parts, 3 written", tot, err, handed)
	}
	done := false
	_, err = RunParts(context.Background(), 5, 0, 1, 2, func() (failWorker, error) { return failWorker{}, errors.New("no solver") },
		func(failWorker) { done = true })
	if err == nil || err.Error() != "no solver" || done {
		t.Errorf("a worker that cannot be made: %v (done called: %v)", err, done)
	}
}

// TestWriteCancelledLeavesNoFile checks that a part cancelled before its
// end leaves no file, not even a temporary one.
func TestWriteCancelledLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	f := PartFile{Path: PartPath(dir, 0), Version: 1, Meta: &meta{Run: "a"}, Same: func(string) error { return nil }}
	_, _, err := WritePart(ctx, f, 10, func(i int64) ([]row, error) {
		if i == 4 {
			cancel()
		}
		return []row{{Deal: i}}, nil
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled part: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("a cancelled part left %v", left)
	}
}

// TestReadMetaNotAPart checks the error for a file that is not a part.
func TestReadMetaNotAPart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	if err := os.WriteFile(path, []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	var m meta
	if err := ReadPartMeta(path, &m); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a file that is not Parquet: %v", err)
	}
}
