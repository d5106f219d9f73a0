// Command bestfirst measures what a best-first pass (solver.Pass.BestFirst)
// in front of a game's passes decides that its depth-first passes alone do
// not, at the same node budget: it takes the training deals that the
// shipped verdict table leaves open (tuning deals, below 1,000,000), -skip
// of them first left out, and searches each -n of them twice, with the
// game's passes and with a best-first pass that may use 1/-share of the
// budget before them. One line per deal (its verdicts and nodes), and on
// standard error how many each search won, and how many only one of them.
//
//	go run ./round21/bestfirst -game limited -n 80 -nodes 2000000 -share 10
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
)

func main() {
	d := opendeals.Flags{Game: "limited", N: 80, Workers: 2}
	d.Register(flag.CommandLine, "search")
	nodes := flag.Int64("nodes", 2000000, "the node budget of each search")
	share := flag.Int("share", 10, "the best-first pass may use 1/share of the budget")
	flag.Parse()
	if d.N < 1 || d.Skip < 0 || *nodes < 1 || *share < 1 || *share > 1000 {
		cli.Usage("bestfirst", "-n, -nodes and -share (up to 1000) must be 1 or more, -skip 0 or more")
	}
	cli.Exit("bestfirst", run(d.Game, d.Skip, d.N, *nodes, *share, d.Workers))
}

// ways are the two searches of a deal: the game's passes, then a
// best-first pass with 1/share of the budget in front of them
// (solver.Options.BestFirst).
func ways(nodes int64, share int) [2]solver.Options {
	return [2]solver.Options{{Nodes: nodes}, {Nodes: nodes, BestFirst: share}}
}

func run(game string, skip, n int, nodes int64, share, workers int) error {
	seeds, err := opendeals.Training(game, skip, n)
	if err != nil {
		return err
	}
	c, err := opendeals.Versus(game, seeds, workers, ways(nodes, share), [2]string{"passes", "best-first"})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s, %d open training deals after %d, %d nodes: the game's passes won %d, with a best-first pass (1/%d) %d; %d won by the passes alone, %d with the best-first pass alone\n",
		game, n, skip, nodes, c.Won[0], share, c.Won[1], c.Only[0], c.Only[1])
	return nil
}
