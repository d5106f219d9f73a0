package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// runCtx runs the CLI under ctx with stdin in.
func runCtx(ctx context.Context, in io.Reader, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(ctx, args, in, &out, &errb)
	return code, out.String(), errb.String()
}

// TestInterruptStopsLongCommandsPromptly cancels long commands as Ctrl-C
// does: each returns within a second with exit code 130, generate of 10^12
// episodes in small memory.
func TestInterruptStopsLongCommandsPromptly(t *testing.T) {
	never, _ := io.Pipe() // a terminal nobody types into
	for _, args := range [][]string{
		{"generate", "limited", "--episodes", "1000000000000", "--out", filepath.Join(t.TempDir(), "huge")},
		{"check", "all", "--games", "100000"},
		{"bench", "--deals", "100000", "--agents", "mc"},
		{"speed", "all", "--duration", "10s"},
		{"run", "ladder", "--agent", "uct:iterations=30000"},
		{"play", "cromwell"},
	} {
		t.Run(args[0], func(t *testing.T) {
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			ctx, cancel := context.WithCancel(context.Background())
			var cancelled time.Time
			time.AfterFunc(300*time.Millisecond, func() { cancelled = time.Now(); cancel() })
			code, _, errs := runCtx(ctx, never, args...)
			took := time.Since(cancelled)
			if code != exitInterrupted || !strings.Contains(errs, "interrupted") {
				t.Errorf("exit %d, stderr %q; want %d and a word that it was interrupted", code, errs, exitInterrupted)
			}
			// A second is the promise; the race detector makes every step
			// many times slower.
			limit := time.Second
			if raceEnabled {
				limit = 5 * time.Second
			}
			if took > limit {
				t.Errorf("returned %v after the interrupt", took)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 256<<20 {
				t.Errorf("the heap grew by %d MiB", grown>>20)
			}
		})
	}
}

func TestMessagesSayWhatTheyMean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	gen := []string{"generate", "--episodes", "6", "--max-steps", "20", "--part-size", "2", "--out", dir}
	if code, out, errs := runCLI(t, gen...); code != 0 || !strings.Contains(out, "wrote 3 of 3 parts") || strings.Contains(out, "shard") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	// Sharded runs speak of the shard.
	sharded := filepath.Join(t.TempDir(), "sh")
	if _, out, _ := runCLI(t, "generate", "--episodes", "6", "--max-steps", "20", "--part-size", "2", "--shard", "0/2", "--out", sharded); !strings.Contains(out, "wrote 1 of this shard's 1 parts") {
		t.Errorf("sharded: %s", out)
	}
	// Another --episodes names the flag.
	code, _, errs := runCLI(t, "generate", "--episodes", "8", "--max-steps", "20", "--part-size", "2", "--out", dir)
	if code != exitUsage || !strings.Contains(errs, "made with --episodes 6, not 8") {
		t.Errorf("exit %d: %s", code, errs)
	}
	// replay without --episode says which one it plays.
	code, out, errs := runCLI(t, "replay", dir, "--quiet")
	if code != 0 || !strings.Contains(errs, "no --episode given: replaying episode 0") || !strings.Contains(out, "episode 0 (deal 0)") {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "replay", filepath.Join(dir, "steps", "part-00002.parquet"), "--quiet"); code != 0 || !strings.Contains(errs, "replaying episode 4") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "replay", dir, "--episode", "6"); code != exitUsage || !strings.Contains(errs, "no such episode 6") {
		t.Errorf("exit %d: %s", code, errs)
	}
	// A damaged dataset: inspect fails and says how to repair it.
	os.WriteFile(filepath.Join(dir, "steps", "part-00001.parquet"), []byte("PAR1 cut"), 0o644)
	code, _, errs = runCLI(t, "inspect", dir)
	repair := "patience generate --game cromwell --agent random --episodes 6 --max-steps 20 --part-size 2 --out " + dir
	if code != exitFailure || !strings.Contains(errs, "not a complete Parquet file") || !strings.Contains(errs, repair) {
		t.Errorf("exit %d: %s", code, errs)
	}
	// ... and the command it gives repairs it.
	if code, out, errs := runCLI(t, strings.Fields(repair)[1:]...); code != 0 || !strings.Contains(out, "wrote 1 of 3 parts") {
		t.Fatalf("repair: exit %d: %s %s", code, out, errs)
	}
	if code, out, _ := runCLI(t, "inspect", dir); code != 0 || !strings.Contains(out, "3 of 3 present: complete") || strings.Contains(out, "To finish") {
		t.Errorf("after the repair: exit %d: %s", code, out)
	}
	// An unfinished one says how to finish it.
	os.Remove(filepath.Join(dir, "episodes", "part-00000.parquet"))
	if code, out, _ := runCLI(t, "inspect", dir); code != 0 || !strings.Contains(out, "To finish the dataset") || !strings.Contains(out, repair) {
		t.Errorf("unfinished: exit %d: %s", code, out)
	}
}

func TestRulesAndAgentsCommands(t *testing.T) {
	code, out, _ := runCLI(t, "rules", "royal parade")
	if code != 0 || !strings.Contains(out, "# Royal Parade") || !strings.Contains(out, "## Choices we made") {
		t.Errorf("rules: exit %d: %.200s", code, out)
	}
	if code, _, errs := runCLI(t, "rules", "solitaire"); code != exitUsage || !strings.Contains(errs, "cromwell") {
		t.Errorf("rules solitaire: exit %d: %s", code, errs)
	}
	code, out, _ = runCLI(t, "agents")
	for _, want := range []string{"mc\n", "rollouts=16", "uct\n", "iterations=200"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("agents lacks %q: %s", want, out)
		}
	}
	if code, out, _ := runCLI(t, "help", "generate"); code != 0 && !strings.Contains(out, "Usage: patience generate") {
		t.Errorf("help generate: %d %s", code, out)
	}
}
