// Package labelcsv runs the research commands' work on a range of deals in
// parallel, writes the header and rows of their CSV files of move labels,
// and finds where a game was lost.
package labelcsv

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/patience-gym/patience/env"
)

// Each calls one for the deals start to start+n-1 on workers goroutines,
// and each, on the calling goroutine, with every result in the order they
// finish. The first error of one or each stops the work: no deal is
// started after it, each is not called again, and Each returns it once
// every goroutine is done.
func Each[T any](start uint64, n, workers int, one func(seed uint64) (T, error), each func(T) error) error {
	jobs := make(chan uint64)
	out := make(chan T)
	stop := make(chan struct{})
	var first error
	var once sync.Once
	fail := func(err error) { once.Do(func() { first = err; close(stop) }) }
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range jobs {
				r, err := one(seed)
				if err != nil {
					fail(err)
					return
				}
				select {
				case out <- r:
				case <-stop:
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case jobs <- start + uint64(i):
			case <-stop:
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	for r := range out {
		select {
		case <-stop:
			continue // drain: the workers are stopping
		default:
		}
		if err := each(r); err != nil {
			fail(err)
		}
	}
	return first
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
