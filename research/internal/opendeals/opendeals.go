// Package opendeals holds what the research commands that set two searches
// against each other on a game's open deals share: the deals (the
// training deals a shipped verdict table leaves open, tuning deals below
// 1,000,000), the two searches of each deal (Versus) and the count of the
// deals each search won.
package opendeals

import (
	"flag"
	"fmt"

	"github.com/patience-gym/patience/deals"
)

// Flags are what a command that plays a game's open training deals reads
// from its command line: the game, how many open deals (-n) after how many
// left out (-skip), and the workers.
type Flags struct {
	Game    string
	N, Skip int
	Workers int
}

// Register declares -game, -n, -skip and -workers on fs (a command's
// flag.CommandLine), with f's fields as their defaults; parsing fs then
// sets them. verb says what the command does with each deal ("search",
// "play").
func (f *Flags) Register(fs *flag.FlagSet, verb string) {
	fs.StringVar(&f.Game, "game", f.Game, "the game (a verdict table ships for it)")
	fs.IntVar(&f.N, "n", f.N, "open training deals to "+verb)
	fs.IntVar(&f.Skip, "skip", f.Skip, "open training deals left out first")
	fs.IntVar(&f.Workers, "workers", f.Workers, "deals at once")
}

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
