// Command bfplain measures whether a second best-first pass, ranked by the
// game's plain evaluation (solver.Pass.Plain), in front of the one that
// `patience solve --best-first 10` runs (ranked by the search evaluation),
// wins more of a game's open deals: it takes the training deals that the
// shipped verdict table leaves open (tuning deals, below 1,000,000), -skip
// of them first left out, and searches each of -n of them twice with
// -nodes: with the best-first pass (a tenth of the budget) and the game's
// passes, and with the plain-ranked pass (a tenth), the other (a ninth of
// what is left) and the same passes. One line per deal, and on standard
// error how many each way won, and how many only one of them.
//
//	go run ./round23/bfplain -game limited -n 40 -nodes 2000000
package main

import (
	"flag"
	"fmt"
	"os"

	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/research/internal/cli"
	"github.com/patience-gym/patience/research/internal/opendeals"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
	"github.com/patience-gym/patience/solver/limited"
)

func main() {
	d := opendeals.Flags{Game: "limited", N: 40, Workers: 1}
	d.Register(flag.CommandLine, "search")
	nodes := flag.Int64("nodes", 2000000, "the node budget of each search")
	flag.Parse()
	if d.N < 1 || d.Skip < 0 || *nodes < 1 {
		cli.Usage("bfplain", "-n and -nodes must be 1 or more, -skip 0 or more")
	}
	cli.Exit("bfplain", run(d, *nodes))
}

// twoWays is Limited's plan (solver/limited's Planner: the game's passes,
// each ranked plainly, then by the search evaluation), behind one
// best-first pass or two.
func twoWays(plainToo bool) []solver.Pass {
	out := []solver.Pass{{BestFirst: true, Share: 10}}
	if plainToo {
		out = []solver.Pass{{BestFirst: true, Share: 10, Plain: true}, {BestFirst: true, Share: 9}}
	}
	return append(out, new(limited.Position).Passes()...)
}

func run(d opendeals.Flags, nodes int64) error {
	seeds, err := opendeals.Training(d.Game, d.Skip, d.N)
	if err != nil {
		return err
	}
	c, err := opendeals.Versus(d.Game, seeds, d.Workers, ways(nodes), [2]string{"one", "plain-too"})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s, %d open training deals after %d, %d nodes: one best-first pass won %d, a plain-ranked one too %d; %d won by the first alone, %d by the second alone\n",
		d.Game, d.N, d.Skip, nodes, c.Won[0], c.Won[1], c.Only[0], c.Only[1])
	return nil
}

// ways are the two searches of a deal, one best-first pass in front of
// the plan, and two.
func ways(nodes int64) [2]solver.Options {
	return [2]solver.Options{{Nodes: nodes, Passes: twoWays(false)}, {Nodes: nodes, Passes: twoWays(true)}}
}
