package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunAndReplayWriteHTML(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "run.html")
	code, out, errs := runCLI(t, "run", "fourquarters", "--agent", "heuristic", "--seed", "4", "--html", page)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "wrote "+page) {
		t.Errorf("run does not say it wrote the page:\n%s", out)
	}
	data := filepath.Join(dir, "data")
	if code, _, errs := runCLI(t, "generate", "--game", "limited", "--episodes", "2", "--out", data); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	replayed := filepath.Join(dir, "replay.html")
	if code, _, errs := runCLI(t, "replay", data, "--episode", "1", "--quiet", "--html", replayed); code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	for _, p := range []string{page, replayed} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "<!doctype html>") || !strings.Contains(string(b), "const DATA =") {
			t.Errorf("%s is not the viewer page", p)
		}
	}
}
