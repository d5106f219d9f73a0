// Package opendeals holds what the research commands that set two searches
// against each other on a game's open deals share: the deals (the
// training deals a shipped verdict table leaves open, tuning deals below
// 1,000,000) and the count of the deals each search won.
package opendeals

import (
	"fmt"

	"github.com/patience-gym/patience/deals"
)

// Training returns n of the training deals that game's shipped verdict
// table leaves open, after the first skip of them, in order. It is an
// error when the table leaves fewer open.
func Training(game string, skip, n int) ([]uint64, error) {
	tab, err := deals.Shipped(game)
	if err != nil {
		return nil, err
	}
	var seeds []uint64
	for _, d := range tab.Deals {
		if d.Block == "train" && d.Verdict == deals.Unknown {
			seeds = append(seeds, d.Seed)
		}
	}
	if skip < 0 || n < 0 || skip+n > len(seeds) {
		return nil, fmt.Errorf("the %s table leaves %d training deals open, fewer than -skip %d and -n %d", game, len(seeds), skip, n)
	}
	return seeds[skip : skip+n], nil
}

// Tally counts the deals each of two searches won (Won[0] the first,
// Won[1] the second) and those only one of them won (Only[0], Only[1]).
type Tally struct {
	Won, Only [2]int
}

// Add counts one deal: a and b report whether the first and the second
// search won it.
func (t *Tally) Add(a, b bool) {
	if a {
		t.Won[0]++
	}
	if b {
		t.Won[1]++
	}
	switch {
	case a && !b:
		t.Only[0]++
	case b && !a:
		t.Only[1]++
	}
}
