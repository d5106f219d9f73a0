// Package labelstest holds the test helpers that the tests of both label
// packages (labels and labels/solverlabels) share.
package labelstest

import (
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
)

// Rows reads the rows of every part file in dir (part-NNNNN.parquet), in
// part order, failing t on an error.
func Rows[R any](t testing.TB, dir string) []R {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
	var rows []R
	for _, f := range files {
		r, err := parquet.ReadFile[R](f)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	return rows
}

// Heuristic returns the named game and the heuristic agent, which the label
// tests play it with, failing t when either is unknown.
func Heuristic(t testing.TB, game string) (*env.Spec, *agents.Factory) {
	t.Helper()
	f, err := agents.Parse("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	return spec, f
}
