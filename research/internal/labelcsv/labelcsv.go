// Package labelcsv runs the research commands' work on a range of deals
// (on the product's runner), writes the header and rows of their CSV files
// of move labels (File) and reads them back, makes what a deal is played and
// judged with, and finds where a game was lost.
package labelcsv

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/runner"
)

// Each calls one for the deals start to start+n-1 on workers goroutines
// (the product's runner, internal/runner), and each, on the calling
// goroutine, with every result in deal order. The first error of one or
// each stops the work and is returned.
func Each[T any](start uint64, n, workers int, one func(seed uint64) (T, error), each func(T) error) error {
	return runner.Run(context.Background(), runner.Task[struct{}, T]{
		Units: runner.Span(0, n), Workers: max(workers, 1),
		Do:   func(_ context.Context, _ struct{}, i int) (T, error) { return one(start + uint64(i)) },
		Emit: func(_ int, r T, _ bool) error { return each(r) },
	})
}

// Header is the header line (with its newline) of a CSV file of moves of
// spec's game: the columns cols, then the names of the game's evaluation
// terms (env.Spec.Terms).
func Header(spec *env.Spec, cols ...string) string {
	for _, t := range spec.Terms {
		cols = append(cols, t.Name)
	}
	return strings.Join(cols, ",") + "\n"
}

// File is a CSV file of moves being written: Header's line, then Row's.
// Its errors say "csv: ".
type File struct{ f *os.File }

// Create creates the file path and writes its header, Header(spec,
// cols...).
func Create(path string, spec *env.Spec, cols ...string) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	w := &File{f}
	if err := w.Write(Header(spec, cols...)); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Write writes rows, lines that Row made.
func (w *File) Write(rows string) error {
	if _, err := w.f.WriteString(rows); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

// Close closes the file. A second Close (deferred, in case of an error
// before the first) does nothing but return an error.
func (w *File) Close() error {
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

// Row is one line (with its newline) of such a file: the values of the
// columns cols (as fmt prints them, true and false as 1 and 0), then the
// terms.
func Row(terms []float64, cols ...any) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		switch v := c.(type) {
		case bool:
			if v {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		default:
			fmt.Fprint(&b, v)
		}
	}
	for _, v := range terms {
		b.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
	}
	b.WriteByte('\n')
	return b.String()
}

// LastWon returns the index of the last position of a game that won says
// is won, found by halving between lo (a position known to be won) and the
// end of states (the position after the last move being lost): the
// position where the game's next move lost it. A verdict that is not a win
// counts as lost, so with a search's budget the halving may stop before a
// position the search could not decide.
func LastWon(states []env.Game, lo int, won func(env.Game) bool) int {
	hi := len(states)
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; won(states[mid]) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Read reads a CSV file that Header and Row wrote: its header's columns,
// and each row's values.
func Read(path string) (header []string, rows [][]string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, ","))
	}
	return strings.Split(lines[0], ","), rows, nil
}
