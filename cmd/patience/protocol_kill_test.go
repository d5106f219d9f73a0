package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/patience-gym/patience/bench"
)

// TestMain runs the command itself when PATIENCE_TEST_RUN holds its
// arguments, so that a test can start it as a process and kill it.
func TestMain(m *testing.M) {
	if args := os.Getenv("PATIENCE_TEST_RUN"); args != "" {
		os.Exit(run(context.Background(), strings.Fields(args), strings.NewReader(""), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// A protocol run killed (SIGKILL) after some deals and run again goes on
// from its journal and gives the result of an uninterrupted run.
func TestProtocolRunKilledGoesOnFromItsJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 2,000 games")
	}
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"bench", "--protocol", "v1", "--games", "limited", "--agents", "mc:rollouts=1,rollout-steps=5",
			"--workers", "1", "--json", out}
	}
	out := filepath.Join(dir, "r.json")
	journal := out + ".journal.jsonl"
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PATIENCE_TEST_RUN="+strings.Join(args(out), " "))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	held := 0
	for deadline := time.Now().Add(time.Minute); held < 100 && time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		data, _ := os.ReadFile(journal)
		held = bytes.Count(data, []byte("\n")) - 1
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || cmd.ProcessState.Success() {
		t.Fatalf("the run ended before it was killed (%d episodes journalled)", held)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a killed run left a result file")
	}
	if held < 100 || held >= 1000 {
		t.Fatalf("the journal holds %d episodes", held)
	}

	if code, _, errs := runCLI(t, args(out)...); code != 0 {
		t.Fatalf("the rerun: exit %d: %s", code, errs)
	}
	whole := filepath.Join(dir, "whole.json")
	if code, _, errs := runCLI(t, args(whole)...); code != 0 {
		t.Fatalf("the uninterrupted run: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("the finished run's journal is still there: %v", err)
	}
	a, b := readRow(t, out), readRow(t, whole)
	a.MsPerGame, b.MsPerGame = 0, 0
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("resumed after %d episodes:\n%s\nuninterrupted:\n%s", held, ja, jb)
	}
}

// readProtocol reads the protocol result file at path.
func readProtocol(t *testing.T, path string) *bench.ProtocolResult {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := bench.ReadProtocolJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readRow reads the one row of the protocol result file at path.
func readRow(t *testing.T, path string) bench.ProtocolRow {
	t.Helper()
	r := readProtocol(t, path)
	if len(r.Results) != 1 {
		t.Fatalf("%s: %d rows", path, len(r.Results))
	}
	return r.Results[0]
}
