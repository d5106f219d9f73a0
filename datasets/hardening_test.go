package datasets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/patience-gym/patience/internal/atomicfile"
)

// stopClock makes every episode's wall time 0 for the test, so that whole
// datasets compare byte for byte.
func stopClock(t *testing.T) {
	t.Helper()
	fixed := time.Unix(0, 0)
	clock = func() time.Time { return fixed }
	t.Cleanup(func() { clock = time.Now })
}

// sameDataset checks that two dataset directories hold the same files, byte
// for byte, and no temporary file.
func sameDataset(t *testing.T, what, want, got string) {
	t.Helper()
	for _, table := range []string{TableSteps, TableEpisodes, "meta"} {
		sameFiles(t, what+" ("+table+")", files(t, want, table), files(t, got, table))
	}
	if _, temp := finalFiles(t, got); len(temp) > 0 {
		t.Fatalf("%s: temporary files left: %v", what, temp)
	}
}

// peakHeap samples the heap in use until stop is closed and returns the
// largest value seen.
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// TestHugeDatasetCancelsPromptlyInSmallMemory plans 10^12 episodes (10^9
// parts), starts, and is cancelled: planning must not grow with the episode
// count, and the cancel must stop it at once.
func TestHugeDatasetCancelsPromptlyInSmallMemory(t *testing.T) {
	runtime.GC()
	stop := make(chan struct{})
	peak := peakHeap(stop)
	cfg := Config{Game: gameSpec("limited"), Agent: agentOf("random"), Episodes: 1_000_000_000_000, Workers: 2, Out: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	cfg.OnStart = func(s Status) {
		if s.Parts != 1_000_000_000 || s.TodoEpisodes != cfg.Episodes {
			t.Errorf("status %+v", s)
		}
	}
	var episodes atomic.Int64
	cfg.OnEpisode = func(int) {
		if episodes.Add(1) == 50 {
			cancelled = time.Now()
			cancel()
		}
	}
	_, err := Generate(ctx, cfg)
	took := time.Since(cancelled)
	close(stop)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if took > time.Second {
		t.Errorf("Generate returned %v after the cancel, want well under a second", took)
	}
	if p := <-peak; p > 256<<20 {
		t.Errorf("peak heap %d MiB, want it small", p>>20)
	}
	if final, temp := finalFiles(t, cfg.Out); len(temp) > 0 || len(final) > 0 {
		t.Errorf("files left: %v %v", final, temp)
	}
}

// deadPID returns the process id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	return cmd.Process.Pid
}

// TestRerunRemovesStaleTemporariesOnly leaves temporary files as a killed
// run and a running one would, and checks that a rerun removes only the
// killed run's files of its own shard.
func TestRerunRemovesStaleTemporariesOnly(t *testing.T) {
	stopClock(t)
	ref, cfg := beside(t)
	cfg.Shard, cfg.Shards = 0, 2 // parts 0 and 1 of 0..4
	host, _ := os.Hostname()
	host = strings.ReplaceAll(host, ".", "_")
	place := func(table, final string, pid int) string {
		dir := filepath.Join(cfg.Out, table)
		os.MkdirAll(dir, 0o755)
		p := filepath.Join(dir, fmt.Sprintf(".%s.%s.%d.123.tmp", final, host, pid))
		if err := os.WriteFile(p, []byte("half a part"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dead := deadPID(t)
	stale := []string{place(TableSteps, partName(1), dead), place(TableEpisodes, partName(0), dead), place("meta", "info.json", dead)}
	running := place(TableSteps, partName(0), os.Getppid())                                   // a writer that still runs
	otherShard := place(TableSteps, partName(4), dead)                                        // shard 1's business
	otherHost := filepath.Join(cfg.Out, TableSteps, ".part-00001.parquet.elsewhere.77.1.tmp") // cannot tell
	os.WriteFile(otherHost, nil, 0o644)

	sum := generate(t, cfg)
	if len(sum.Removed) != len(stale) {
		t.Errorf("removed %v, want %v", sum.Removed, stale)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale %s is still there", p)
		}
	}
	for _, p := range []string{running, otherShard, otherHost} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	d := openDataset(t, cfg.Out)
	if len(d.Temporary) != 3 {
		t.Errorf("Open lists %d temporary files, want 3", len(d.Temporary))
	}
	for _, tf := range d.Temporary {
		if tf.Stale != (tf.Path == otherShard) {
			t.Errorf("%s: stale %v", tf.Path, tf.Stale)
		}
	}
	// The other shard's run cleans its own, and the dataset is whole.
	os.Remove(running)
	os.Remove(otherHost)
	cfg.Shard = 1
	generate(t, cfg)
	sameDataset(t, "two shards after stale files", ref.Out, cfg.Out)
}

// TestTwoWritersOnOneDirectory runs the same generation twice at once into
// one directory: neither may destroy the other's work, and the dataset is
// the one a single run writes.
func TestTwoWritersOnOneDirectory(t *testing.T) {
	stopClock(t)
	ref, cfg := beside(t)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { _, errs[i] = Generate(context.Background(), cfg) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	sameDataset(t, "two writers at once", ref.Out, cfg.Out)
}

// failingWriter fails with err once it has written limit bytes.
type failingWriter struct {
	w     io.Writer
	limit *atomic.Int64
	err   error
}

func (f failingWriter) Write(p []byte) (int, error) {
	if f.limit.Add(-int64(len(p))) < 0 {
		return 0, f.err
	}
	return f.w.Write(p)
}

// TestWriteFailureLeavesNothingAndRerunCompletes makes the disk fill up,
// and then a directory refuse a file, in the middle of a generation: the
// error says what happened, no incomplete file is left under a final name,
// and the rerun writes the dataset byte for byte as an uninterrupted run.
func TestWriteFailureLeavesNothingAndRerunCompletes(t *testing.T) {
	stopClock(t)
	root := t.TempDir()
	ref := small(filepath.Join(root, "ref"))
	generate(t, ref)

	for _, tc := range []struct {
		name   string
		inject func()
		want   string
	}{
		{"disk full", func() {
			var limit atomic.Int64
			limit.Store(40_000)
			wrapWriter = func(w io.Writer) io.Writer {
				return failingWriter{w: w, limit: &limit, err: &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}}
			}
		}, "no space left on device"},
		{"permission denied", func() {
			var calls atomic.Int64
			createFile = func(path string) (*atomicfile.File, error) {
				if calls.Add(1) == 5 {
					return nil, fmt.Errorf("create %s: %w", path, &os.PathError{Op: "open", Path: path, Err: syscall.EACCES})
				}
				return atomicfile.Create(path)
			}
		}, "permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := small(filepath.Join(root, tc.name))
			tc.inject()
			_, err := Generate(context.Background(), cfg)
			wrapWriter = func(w io.Writer) io.Writer { return w }
			createFile = atomicfile.Create
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "part-0000") {
				t.Fatalf("err %v, want one naming the part and saying %q", err, tc.want)
			}
			wholeFiles(t, cfg.Out)
			generate(t, cfg)
			sameDataset(t, "rerun after "+tc.name, ref.Out, cfg.Out)
		})
	}
}
