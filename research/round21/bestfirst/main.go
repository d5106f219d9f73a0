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
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/internal/runner"
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

// result is one deal's two searches.
type result struct {
	seed          uint64
	plain, withBF solver.Result
}

func run(game string, skip, n int, nodes int64, share, workers int) error {
	seeds, err := opendeals.Training(game, skip, n)
	if err != nil {
		return err
	}
	var c opendeals.Tally
	err = runner.Run(context.Background(), runner.Task[struct{}, result]{
		Units: runner.Span(0, n), Workers: max(workers, 1),
		Do: func(ctx context.Context, _ struct{}, i int) (result, error) {
			return one(ctx, game, seeds[i], nodes, share)
		},
		Emit: func(_ int, r result, _ bool) error {
			a, b := r.plain.Verdict == solver.Solved, r.withBF.Verdict == solver.Solved
			c.Add(a, b)
			fmt.Printf("%d passes=%s/%d best-first=%s/%d\n", r.seed, r.plain.Verdict, r.plain.Nodes, r.withBF.Verdict, r.withBF.Nodes)
			return nil
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s, %d open training deals after %d, %d nodes: the game's passes won %d, with a best-first pass (1/%d) %d; %d won by the passes alone, %d with the best-first pass alone\n",
		game, n, skip, nodes, c.Won[0], share, c.Won[1], c.Only[0], c.Only[1])
	return nil
}

// one searches deal seed of game with the game's passes, then with a
// best-first pass in front of them (solver.Options.BestFirst).
func one(ctx context.Context, game string, seed uint64, nodes int64, share int) (result, error) {
	g, err := env.NewGame(game)
	if err != nil {
		return result{}, err
	}
	g.Deal(seed)
	r := result{seed: seed}
	for k, bf := range [2]int{0, share} {
		s, err := solver.New(solver.Options{Nodes: nodes, BestFirst: bf})
		if err != nil {
			return result{}, err
		}
		res := s.Solve(ctx, g)
		if k == 0 {
			r.plain = res
		} else {
			r.withBF = res
		}
	}
	return r, nil
}
