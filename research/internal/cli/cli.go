// Package cli holds what the research commands' command lines share: the
// game and the range of deals they play (-game, -start, -n) on -workers
// workers, the flags a command cannot do without, and how they stop on a
// mistake in the command line or an error.
package cli

import (
	"flag"
	"fmt"
	"os"
)

// Deals is a command's game, its deals Start to Start+N-1, and the
// workers that play them.
type Deals struct {
	Game    string
	Start   uint64
	N       int
	Workers int
}

// Register declares -game, -start, -n and -workers on the command line
// (flag.CommandLine), with d's fields as their defaults and game, start
// and n as the help of the first three; flag.Parse then sets d's fields.
func (d *Deals) Register(game, start, n string) {
	flag.StringVar(&d.Game, "game", d.Game, game)
	flag.Uint64Var(&d.Start, "start", d.Start, start)
	flag.IntVar(&d.N, "n", d.N, n)
	flag.IntVar(&d.Workers, "workers", d.Workers, "parallel workers")
}

// OpenDeals declares the deals flags of a command that plays an open game
// (The Fifteen by default), as Register does: -game, -start (start), -n
// (n) and -workers (2).
func OpenDeals(start uint64, n int) *Deals {
	d := &Deals{Game: "fifteen", Start: start, N: n, Workers: 2}
	d.Register("the game (an open one)", "first deal", "deals")
	return d
}

// Parse parses the command line (flag.Parse) and stops the command name,
// as Usage does, when one of the flags named required (without their
// dash) is left empty.
func Parse(name string, required ...string) {
	flag.Parse()
	for _, f := range required {
		if flag.Lookup(f).Value.String() == "" {
			Usage(name, "-"+f+" is required")
		}
	}
}

// Usage stops the command name on a mistake in its command line: the
// message on standard error, exit status 2.
func Usage(name, msg string) {
	fmt.Fprintf(os.Stderr, "%s: %s\n", name, msg)
	os.Exit(2)
}

// Exit stops the command name on err, when there is one: the error on
// standard error, exit status 1.
func Exit(name string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}
