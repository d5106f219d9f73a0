//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/internal/atomicfile"
)

// smallDisk mounts a tmpfs of size bytes on a fresh directory and returns
// it with a function that resizes it; the test is skipped where mounting
// is not allowed (not root, or no tmpfs).
func smallDisk(t *testing.T, size int) (string, func(int)) {
	t.Helper()
	if testing.Short() {
		t.Skip("mounts a filesystem")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		t.Skipf("a small filesystem cannot be mounted here (%v): the disk-full tests need root", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	resize := func(size int) {
		t.Helper()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size="+strconv.Itoa(size)); err != nil {
			t.Fatalf("resize the filesystem: %v", err)
		}
	}
	return dir, resize
}

// finalFiles returns the files under dir that carry a final name (not a
// temporary one of atomicfile, nor a journal).
func finalFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(path, atomicfile.Suffix) || strings.HasSuffix(path, ".partial") {
			return nil
		}
		out = append(out, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wholeParquet fails the test unless every Parquet file among files reads
// to its end.
func wholeParquet(t *testing.T, files []string) {
	t.Helper()
	for _, p := range files {
		if filepath.Ext(p) != ".parquet" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err == nil {
			rows := parquet.NewGenericReader[any](pf)
			buf := make([]parquet.Row, 64)
			n := int64(0)
			for {
				k, rerr := rows.ReadRows(buf)
				n += int64(k)
				if rerr != nil {
					break
				}
			}
			if n != pf.NumRows() {
				err = errors.New("rows missing")
			}
		}
		f.Close()
		if err != nil {
			t.Errorf("%s is under its final name but incomplete: %v", p, err)
		}
	}
}

// failsForSpace runs the command args on a full disk and checks that it
// failed with a message naming the cause.
func failsForSpace(t *testing.T, args ...string) {
	t.Helper()
	code, _, errs := runCLI(t, args...)
	if code != 1 || !strings.Contains(errs, "no space left on device") {
		t.Fatalf("%s on a full disk: exit %d, stderr %q; want exit 1 and \"no space left on device\"", args[0], code, errs)
	}
}

// rerunsWithSpace gives the disk room (resize) and runs the command args
// again, which must succeed and say want; it returns its output.
func rerunsWithSpace(t *testing.T, resize func(int), want string, args ...string) string {
	t.Helper()
	resize(64 << 20)
	code, stdout, errs := runCLI(t, args...)
	if code != 0 || !strings.Contains(stdout, want) {
		t.Fatalf("%s rerun with space: exit %d\n%s\n%s", args[0], code, stdout, errs)
	}
	return stdout
}

// TestGenerateOnAFullDisk: generate stops with a clear error when the disk
// fills, leaves every file under a final name whole, and the same command
// run again with space finishes the dataset.
func TestGenerateOnAFullDisk(t *testing.T) {
	dir, resize := smallDisk(t, 1<<20)
	out := filepath.Join(dir, "ds")
	args := []string{"generate", "cromwell", "--episodes", "200", "--part-size", "25", "--workers", "1", "--out", out}
	failsForSpace(t, args...)
	if _, err := os.Stat(filepath.Join(out, "meta", "info.json")); err == nil {
		t.Error("meta/info.json written for an unfinished dataset")
	}
	files := finalFiles(t, out)
	wholeParquet(t, files)
	t.Logf("%d whole part files survived the full disk", len(files))
	if stdout := rerunsWithSpace(t, resize, "8/8 parts, 200 episodes", args...); !strings.Contains(stdout, "complete") {
		t.Fatalf("rerun with space: the dataset is not complete\n%s", stdout)
	}
	wholeParquet(t, finalFiles(t, out))
	code, stdout, _ := runCLI(t, "inspect", out)
	if code != 0 || !strings.Contains(stdout, "8 of 8 present: complete") {
		t.Errorf("inspect after the rerun: exit %d\n%s", code, stdout)
	}
}

// TestLabelOnAFullDisk: the same for patience label.
func TestLabelOnAFullDisk(t *testing.T) {
	dir, resize := smallDisk(t, 12<<10)
	out := filepath.Join(dir, "labels")
	args := []string{"label", "limited", "--deals", "6", "--per-deal", "20", "--part-deals", "2", "--rollouts", "1",
		"--rollout-steps", "5", "--out", out, "--workers", "1"}
	failsForSpace(t, args...)
	wholeParquet(t, finalFiles(t, out))
	rerunsWithSpace(t, resize, "wrote", args...)
	files := finalFiles(t, out)
	wholeParquet(t, files)
	if len(files) != 3 {
		t.Errorf("after the rerun: %d part files, want 3: %v", len(files), files)
	}
}

// TestSolveJSONOnAFullDisk: solve --json stops with a clear error when its
// journal or its result cannot be written, writes no result file, and the
// same command run again with space writes the whole result, with the
// verdicts of a run that never ran out of space.
func TestSolveJSONOnAFullDisk(t *testing.T) {
	dir, resize := smallDisk(t, 24<<10)
	path := filepath.Join(dir, "solve.json")
	args := []string{"solve", "cromwell", "--deals", "30", "--budget", "20k", "--workers", "1", "--json", path}
	failsForSpace(t, args...)
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the result file exists after a failed run")
	}
	rerunsWithSpace(t, resize, "Wrote "+path, args...)
	ref := filepath.Join(t.TempDir(), "ref.json")
	if code, _, errs := runCLI(t, "solve", "cromwell", "--deals", "30", "--budget", "20k", "--workers", "1", "--json", ref); code != 0 {
		t.Fatalf("reference run: %s", errs)
	}
	verdicts := func(p string) string {
		t.Helper()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Results []struct {
				Seed    uint64 `json:"seed"`
				Verdict string `json:"verdict"`
				Nodes   int64  `json:"nodes"`
			} `json:"results"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(r.Results) != 30 {
			t.Fatalf("%s: %d results, want 30", p, len(r.Results))
		}
		b, _ := json.Marshal(r.Results)
		return string(b)
	}
	if got, want := verdicts(path), verdicts(ref); got != want {
		t.Errorf("the resumed run's verdicts differ from an uninterrupted run's:\n%s\n%s", got, want)
	}
}
