// Package parts runs the label commands' jobs: a run of deals split into
// numbered Parquet part files (part-00000.parquet, ...) in one directory,
// written by several workers at once. Each part is written whole under a
// temporary name and renamed; a part whose file exists is checked against
// the run's metadata and skipped, so that a run that stopped goes on where
// it was, and a directory of another run's parts is refused rather than
// mixed with this one's.
//
// The packages that label positions (datasets/labels and
// datasets/solverlabels) hold what a deal's rows are; this package holds
// how parts are handed out, written, resumed and read back.
package parts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/datasets"
	"github.com/patience-gym/patience/internal/atomicfile"
)

// Path returns the file of part p in dir.
func Path(dir string, p int) string {
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

// A Worker writes parts, one at a time, in one goroutine.
type Worker interface {
	// Part writes part p, or skips it (skipped) when its file exists.
	Part(ctx context.Context, p int) (rows int64, skipped bool, err error)
}

// Run writes parts 0 to n-1 with the given number of worker goroutines,
// each with its own Worker from newWorker. It stops at the first error
// (cancelling the others) or when ctx is cancelled; the parts finished by
// then stay. When a goroutine ends, done (if not nil) is called with its
// worker, one goroutine at a time, so that it can add up what the worker
// counted; it is not called for a worker newWorker failed to make.
func Run[W Worker](ctx context.Context, n, workers int, newWorker func() (W, error), done func(W)) (Totals, error) {
	var (
		tot  Totals
		next atomic.Int64
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range max(workers, 1) {
		wg.Go(func() {
			w, err := newWorker()
			made := err == nil
			for err == nil && ctx.Err() == nil {
				p := int(next.Add(1) - 1)
				if p >= n {
					break
				}
				var rows int64
				var skipped bool
				rows, skipped, err = w.Part(ctx, p)
				mu.Lock()
				if skipped {
					tot.Skipped++
				} else if err == nil {
					tot.Parts++
					tot.Rows += rows
				}
				mu.Unlock()
			}
			mu.Lock()
			defer mu.Unlock()
			if made && done != nil {
				done(w)
			}
			if err != nil {
				errs = append(errs, err)
				cancel()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return tot, errs[0]
	}
	return tot, ctx.Err()
}

// A File is one part file to write: where it goes, what its metadata is,
// and how a file already there is judged.
type File struct {
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

// Write writes the part file f from its deals: deal(i) returns deal i's
// rows (i from 0 to deals-1), which stay the caller's. The file is
// written under a temporary name and appears only once every deal is in
// it; ctx is checked before each deal and once more at the end, so a run
// cancelled mid-part leaves no file. onDeal, when not nil, is called
// after each deal. If the file exists and f.Same accepts it, nothing is
// written and skipped is true.
func Write[R any](ctx context.Context, f File, deals int64, deal func(i int64) ([]R, error), onDeal func()) (rows int64, skipped bool, err error) {
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

// ReadMeta reads the metadata of the part file at path into m (a pointer
// to the labelling package's Meta).
func ReadMeta(path string, m any) error {
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
