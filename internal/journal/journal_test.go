package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type head struct {
	Game   string `json:"game"`
	Budget int    `json:"budget"`
}

func TestJournalKeepsLinesDropsACutOneAndRefusesOtherHeads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, lines, err := Open(path, head{"cromwell", 5})
	if err != nil || len(lines) != 0 {
		t.Fatalf("a new journal: %v, %d lines", err, len(lines))
	}
	for i := range 3 {
		if err := j.Add(map[string]int{"seed": i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// A crash in the middle of the fourth line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seed":`)
	f.Close()
	if lines, err := Read(path, head{"cromwell", 5}); err != nil || len(lines) != 3 {
		t.Fatalf("Read after a crash: %v, %d lines, want 3", err, len(lines))
	}
	j, lines, err = Open(path, head{"cromwell", 5})
	if err != nil || len(lines) != 3 || string(lines[2]) != `{"seed":2}` {
		t.Fatalf("Open after a crash: %v, %q", err, lines)
	}
	if err := j.Add(map[string]int{"seed": 3}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	data, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(data), "{\"seed\":2}\n{\"seed\":3}\n") {
		t.Errorf("the cut line was not removed before the next one:\n%s", data)
	}
	if _, err := Read(path, head{"cromwell", 6}); !errors.Is(err, ErrOtherRun) {
		t.Errorf("a journal of another budget: %v, want ErrOtherRun", err)
	}
	// A damaged line inside the journal is an error, not skipped.
	os.WriteFile(path, []byte("{\"game\":\"cromwell\",\"budget\":5}\n{\"seed\n{\"seed\":1}\n"), 0o644)
	if _, err := Read(path, head{"cromwell", 5}); err == nil {
		t.Error("a damaged line inside the journal was accepted")
	}
	// A missing file, or a head cut short, holds nothing.
	if lines, err := Read(filepath.Join(t.TempDir(), "none"), head{}); err != nil || lines != nil {
		t.Errorf("a missing journal: %v, %q", err, lines)
	}
}
