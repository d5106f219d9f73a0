package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/datasets"
)

// call runs a command and returns its output and error.
func call(c *command, args ...string) (string, string, error) {
	return callCtx(context.Background(), c, args...)
}

// callCtx runs a command under ctx.
func callCtx(ctx context.Context, c *command, args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	err := c.run(ctx, &invocation{cmd: c, stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, args)
	return out.String(), errb.String(), err
}

var (
	cmdG = generateCmd
	cmdI = inspectCmd
	cmdR = replayCmd
)

func TestGenerateDefaultsInspectReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("the default dataset takes about a second")
	}
	t.Chdir(t.TempDir())
	out, errs, err := call(cmdG)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if !strings.Contains(out, "wrote 8 of 8 parts (200 episodes") || !strings.Contains(out, "data/cromwell-random: 8/8 parts, 200 episodes") {
		t.Errorf("generate said:\n%s", out)
	}
	for _, p := range []string{"data/cromwell-random/meta/info.json", "data/cromwell-random/steps/part-00007.parquet", "data/cromwell-random/episodes/part-00000.parquet"} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	out, _, err = call(cmdI, "data/cromwell-random")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"8 of 8 present: complete", "legal_mask", "obs", "win rate", "median", "return", "0..199 (200 episodes), 8 parts of 25", "bitpacked-lsb-first"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect lacks %q:\n%s", want, out)
		}
	}
	out, _, err = call(cmdR, "data/cromwell-random", "--episode", "42", "--quiet")
	if err != nil || !strings.Contains(out, "Cromwell episode 42 (deal 42): ") || !strings.Contains(out, "every recorded row matches") {
		t.Errorf("replay: %v\n%s", err, out)
	}
}

func TestGenerateSmallInspectFilesReplayRenders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	out, errs, err := call(cmdG, "cromwell", "--episodes", "12", "--max-steps", "30", "--part-size", "5", "--out", dir, "--seed-start", "1_000", "--workers", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if !strings.Contains(out, "wrote 3 of 3 parts (12 episodes") {
		t.Errorf("generate said:\n%s", out)
	}
	// A rerun skips everything.
	out, _, err = call(cmdG, "--game", "cromwell", "--episodes", "12", "--max-steps", "30", "--part-size", "5", "--out", dir, "--seed-start", "1000")
	if err != nil || !strings.Contains(out, "wrote 0 of 3 parts") || !strings.Contains(out, "skipped 3 parts already finished") {
		t.Errorf("rerun: %v\n%s", err, out)
	}
	steps := filepath.Join(dir, "steps", "part-00001.parquet")
	eps := filepath.Join(dir, "episodes", "part-00002.parquet")
	out, _, err = call(cmdI, steps)
	if err != nil || !strings.Contains(out, "table  steps") || !strings.Contains(out, "episodes 5..9 (deal seeds 1005..1009)") || !strings.Contains(out, "Parquet schema") {
		t.Errorf("inspect steps file: %v\n%s", err, out)
	}
	out, _, err = call(cmdI, eps)
	if err != nil || !strings.Contains(out, "read 2 episodes") || !strings.Contains(out, "win rate") {
		t.Errorf("inspect episodes file: %v\n%s", err, out)
	}
	// Replay from either file renders every step.
	out, _, err = call(cmdR, steps, "--episode", "6")
	if err != nil || strings.Count(out, "\nstep ") != 30 || !strings.Contains(out, "every recorded row matches") {
		t.Errorf("replay: %v\n%s", err, out)
	}
	_, _, err = call(cmdR, eps, "--episode", "11", "--quiet")
	if err != nil {
		t.Error(err)
	}
	_, _, err = call(cmdR, eps, "--episode", "3")
	if !errors.As(err, new(usageError)) {
		t.Errorf("episode 3 is not in part 2: %v", err)
	}
}

func TestReplayReportsACorruptedRow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	if _, errs, err := call(cmdG, "--episodes", "4", "--max-steps", "20", "--part-size", "4", "--out", dir); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	// Rewrite the steps file with one observation byte changed in episode 2.
	path := filepath.Join(dir, "steps", "part-00000.parquet")
	f, err := datasets.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []datasets.Step
	f.ReadSteps(func(r []datasets.Step) error {
		for _, s := range r {
			s.Obs, s.LegalMask = bytes.Clone(s.Obs), bytes.Clone(s.LegalMask)
			rows = append(rows, s)
		}
		return nil
	})
	js, _ := parquetMeta(path)
	f.Close()
	for i := range rows {
		if rows[i].EpisodeIndex == 2 && rows[i].Step == 7 {
			rows[i].Obs[100] ^= 0x10
		}
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[datasets.Step](&buf, parquet.KeyValueMetadata(datasets.MetaKey, js))
	w.Write(rows)
	w.Close()
	os.WriteFile(path, buf.Bytes(), 0o644)

	out, _, err := call(cmdR, dir, "--episode", "2", "--quiet")
	if !errors.Is(err, errFailed) || !strings.Contains(out, "DIFFERENCE step 7: obs: 1 cells differ: cell 100 (fans[100])") || !strings.Contains(out, "replay: 1 differences") {
		t.Errorf("replay of the corrupted episode: %v\n%s", err, out)
	}
	if _, _, err := call(cmdR, dir, "--episode", "1", "--quiet"); err != nil {
		t.Errorf("episode 1 is intact: %v", err)
	}
}

func parquetMeta(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return "", err
	}
	v, _ := pf.Lookup(datasets.MetaKey)
	return v, nil
}

func TestInspectAndReplayRefuseBadFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	if _, errs, err := call(cmdG, "--episodes", "3", "--max-steps", "20", "--out", dir); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "steps", "part-00000.parquet"))
	bad := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(bad, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	var foreign bytes.Buffer
	parquet.Write(&foreign, []struct {
		X int64 `parquet:"x"`
	}{{1}})
	js, _ := parquetMeta(filepath.Join(dir, "steps", "part-00000.parquet"))
	var v9 bytes.Buffer
	w := parquet.NewGenericWriter[datasets.Step](&v9, parquet.KeyValueMetadata(datasets.MetaKey, strings.Replace(js, `"schema_version":2`, `"schema_version":9`, 1)))
	w.Close()
	cases := []struct{ path, want string }{
		{write("cut.parquet", good[:len(good)-50]), "not a complete Parquet file"},
		{write("foreign.parquet", foreign.Bytes()), "not a patience dataset file"},
		{write("v9.parquet", v9.Bytes()), "schema version 9, this build of patience reads versions 1 to 2"},
		{filepath.Join(bad, "missing.parquet"), "no such file"},
	}
	for _, c := range cases {
		_, _, err := call(cmdI, c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("inspect %s: %v, want %q", filepath.Base(c.path), err, c.want)
		}
		_, _, err = call(cmdR, c.path, "--episode", "0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("replay %s: %v, want %q", filepath.Base(c.path), err, c.want)
		}
	}
	// A damaged file inside a dataset directory.
	os.WriteFile(filepath.Join(dir, "episodes", "part-00000.parquet"), good[:100], 0o644)
	if _, _, err := call(cmdI, dir); err == nil || !strings.Contains(err.Error(), "not a complete Parquet file") {
		t.Errorf("inspect of a damaged dataset: %v", err)
	}
}

func TestGenerateUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "2/2"}, "invalid shard \"2/2\""},
		{[]string{"--shard", "x"}, "invalid shard"},
		{[]string{"--seed-start", "9223372036854775808"}, "deal numbers run from 0 to 2^63-1"},
		{[]string{"--seed-start", "9223372036854775800", "--episodes", "10"}, "deals 9223372036854775800 to 9223372036854775809: deal numbers run from 0 to 2^63-1"},
		{[]string{"--game", "solitaire"}, "unknown game"},
		{[]string{"--agent", "wizard"}, "unknown agent"},
		{[]string{"--episodes", "0"}, "must be positive"},
		{[]string{"--workers", "0"}, "--workers must be positive"},
		{[]string{"--reward", "dense"}, "unknown reward mode"},
		{[]string{"cromwell", "limited"}, "unexpected arguments"},
	} {
		args := append([]string{"--out", t.TempDir()}, c.args...)
		_, _, err := call(cmdG, args...)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

func TestGenerateInterruptedLeavesNoPartialFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	// Cancel once the first part is finished.
	go func() {
		for n.Load() == 0 {
			if m, _ := filepath.Glob(filepath.Join(dir, "episodes", "part-*.parquet")); len(m) > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, _, err := callCtx(ctx, cmdG, "--episodes", "60", "--max-steps", "200", "--part-size", "3", "--workers", "2", "--out", dir)
	n.Store(1)
	switch {
	case err == nil:
		t.Log("the run finished before the cancel")
	case !strings.Contains(err.Error(), "interrupted") || !errors.Is(err, context.Canceled):
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	for _, e := range entries {
		if strings.HasSuffix(e, ".tmp") {
			t.Errorf("temporary file left: %s", e)
		}
		if strings.HasSuffix(e, ".parquet") {
			f, err := datasets.OpenFile(e)
			if err != nil {
				t.Errorf("partial file under a final name: %v", err)
				continue
			}
			f.Close()
		}
	}
	if _, _, err := call(cmdG, "--episodes", "60", "--max-steps", "200", "--part-size", "3", "--out", dir); err != nil {
		t.Fatal(err)
	}
	if out, _, err := call(cmdI, dir); err != nil || !strings.Contains(out, "20 of 20 present: complete") {
		t.Errorf("after the rerun: %v\n%s", err, out)
	}
}
