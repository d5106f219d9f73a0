package labelcsv

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
)

// TestReadGivesBackWhatWasWritten: a header and rows written by a File
// (Create's header, Row's rows) read back as their columns and values; a
// file that cannot be made is an error that says csv.
func TestReadGivesBackWhatWasWritten(t *testing.T) {
	spec, err := env.Lookup("fifteen")
	if err != nil {
		t.Fatal(err)
	}
	terms := make([]float64, len(spec.Terms))
	terms[0] = 0.5
	path := filepath.Join(t.TempDir(), "x.csv")
	f, err := Create(path, spec, "seed", "move")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(Row(terms, 7, "a>b") + Row(terms, 8, "c>d")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(filepath.Join(t.TempDir(), "none", "x.csv"), spec); err == nil || !strings.HasPrefix(err.Error(), "csv: ") {
		t.Fatalf("a file in a missing directory: %v", err)
	}
	h, rows, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2+len(spec.Terms) || h[0] != "seed" || h[2] != spec.Terms[0].Name {
		t.Fatalf("header %v", h)
	}
	if len(rows) != 2 || strings.Join(rows[1][:3], ",") != "8,c>d,0.5" || len(rows[0]) != len(h) {
		t.Fatalf("rows %v", rows)
	}
	if _, _, err := Read(filepath.Join(t.TempDir(), "none.csv")); err == nil {
		t.Fatal("a missing file read without an error")
	}
}
