package labels

// The label commands' jobs (this package's and labels/solverlabels'): a
// run of deals split into numbered Parquet part files (part-00000.parquet,
// ...) in one directory, written by several workers at once on the
// project's runner (internal/runner). Each part is written whole under a
// temporary name and renamed; a part whose file exists is checked against
// the run's metadata and skipped, so that a run that stopped goes on where
// it was, and a directory of another run's parts is refused rather than
// mixed with this one's. The labelling packages hold what a deal's rows
// are; this file holds how parts are handed out, written, resumed and read
// back.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/internal/runner"
)

// PartPath returns the file of part p in dir.
func PartPath(dir string, p int) string {
	return filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", p))
}

// Totals counts what a run wrote.
type Totals struct {
	// Parts written by this run, and parts skipped because their file
	// was already there.
	Parts, Skipped int
	// Rows written by this run.
	Rows int64
}

// A PartWorker writes parts, one at a time, in one goroutine.
type PartWorker interface {
	// Part writes part p, or skips it (skipped) when its file exists.
	Part(ctx context.Context, p int) (rows int64, skipped bool, err error)
}

// RunParts writes this shard's parts of parts 0 to n-1 (shard of shards:
// the contiguous span [shard*n/shards, (shard+1)*n/shards); shards 0 or 1
// is every part) with the given number of worker goroutines, each with its own PartWorker from newWorker. It stops at the
// first error (cancelling the others) or when ctx is cancelled; the parts
// finished by then stay. Once the workers are done, done (if not nil) is
// called with each worker made, one at a time, so that it can add up what
// the worker counted.
func RunParts[W PartWorker](ctx context.Context, n, shard, shards, workers int, newWorker func() (W, error), done func(W)) (Totals, error) {
	sh := runner.Shard{Index: shard, Count: shards}
	if err := sh.Check(); err != nil {
		return Totals{}, fmt.Errorf("labels: %w", err)
	}
	lo, hi := sh.Span(n)
	type part struct {
		rows    int64
		skipped bool
	}
	var (
		tot  Totals
		mu   sync.Mutex
		made []W
	)
	err := runner.Run(ctx, runner.Task[W, part]{
		Units: runner.Span(lo, hi-lo), Workers: max(workers, 1),
		NewWorker: func() (W, error) {
			w, err := newWorker()
			if err == nil {
				mu.Lock()
				made = append(made, w)
				mu.Unlock()
			}
			return w, err
		},
		Do: func(ctx context.Context, w W, p int) (part, error) {
			rows, skipped, err := w.Part(ctx, p)
			return part{rows, skipped}, err
		},
		Keep: func(_ int, r part) error {
			if r.skipped {
				tot.Skipped++
			} else {
				tot.Parts++
				tot.Rows += r.rows
			}
			return nil
		},
	})
	if done != nil {
		for _, w := range made {
			done(w)
		}
	}
	return tot, err
}

// A PartFile is one part file to write: where it goes, what its metadata
// is, and how a file already there is judged.
type PartFile struct {
	// Path is the part's file.
	Path string
	// Version is the file format's version (the Parquet writer's
	// created-by field); ByteColumns are the columns of raw bytes, whose
	// page statistics are not kept (see datasets.NewParquetWriter).
	Version     int
	ByteColumns []string
	// Meta is the part's metadata, stored as JSON under datasets.MetaKey.
	Meta any
	// Same reads the metadata of the file already at Path and returns an
	// error if another run wrote it.
	Same func(path string) error
}

// PartSpan returns the deals of part p of a run of deals deals, partDeals a
// part (the last part may hold fewer): the index in the run of its first
// deal, and how many it holds.
func PartSpan(p, partDeals int, deals int64) (first, n int64) {
	first = int64(p) * int64(partDeals)
	return first, min(int64(partDeals), deals-first)
}

// SameRun returns a PartFile's Same for a labelling package's metadata M:
// it reads the metadata of the file at path, and another says how that
// run differs from this one (what the error names of it), "" when it is
// this run.
func SameRun[M any](another func(old M) string) func(path string) error {
	return func(path string) error {
		var old M
		if err := ReadPartMeta(path, &old); err != nil {
			return err
		}
		if what := another(old); what != "" {
			return fmt.Errorf("%s was written by another run (%s); use another directory", path, what)
		}
		return nil
	}
}

// WritePart writes the part file f from its deals: deal(i) returns deal i's
// rows (i from 0 to deals-1), which stay the caller's. The file is
// written under a temporary name and appears only once every deal is in
// it; ctx is checked before each deal and once more at the end, so a run
// cancelled mid-part leaves no file. onDeal, when not nil, is called
// after each deal. If the file exists and f.Same accepts it, nothing is
// written and skipped is true.
func WritePart[R any](ctx context.Context, f PartFile, deals int64, deal func(i int64) ([]R, error), onDeal func()) (rows int64, skipped bool, err error) {
	if _, err := os.Stat(f.Path); err == nil {
		if err := f.Same(f.Path); err != nil {
			return 0, false, err
		}
		return 0, true, nil
	}
	out, err := atomicfile.Create(f.Path)
	if err != nil {
		return 0, false, err
	}
	defer out.Abort()
	pw := datasets.NewParquetWriter[R](out, f.Version, f.ByteColumns...)
	for i := range deals {
		if err := ctx.Err(); err != nil {
			return 0, false, err
		}
		rs, err := deal(i)
		if err != nil {
			return 0, false, err
		}
		if _, err := pw.Write(rs); err != nil {
			return 0, false, fmt.Errorf("write %s: %w", f.Path, err)
		}
		rows += int64(len(rs))
		if onDeal != nil {
			onDeal()
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	js, err := json.Marshal(f.Meta)
	if err != nil {
		return 0, false, fmt.Errorf("encode the metadata: %w", err)
	}
	pw.SetKeyValueMetadata(datasets.MetaKey, string(js))
	if err := pw.Close(); err != nil {
		return 0, false, fmt.Errorf("write %s: %w", f.Path, err)
	}
	if err := out.Commit(); err != nil {
		return 0, false, err
	}
	return rows, false, nil
}

// ReadPartMeta reads the metadata of the part file at path into m (a
// pointer to the labelling package's Meta).
func ReadPartMeta(path string, m any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	js, ok := pf.Lookup(datasets.MetaKey)
	if !ok {
		return fmt.Errorf("%s has no patience metadata: not a label file", path)
	}
	if err := json.Unmarshal([]byte(js), m); err != nil {
		return fmt.Errorf("%s: the metadata: %w", path, err)
	}
	return nil
}
