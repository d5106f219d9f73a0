package opendeals

import (
	"context"
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/runner"
	"github.com/patience-gym/patience/solver"
)

// Pair is one deal searched two ways.
type Pair struct {
	Seed uint64
	Res  [2]solver.Result
}

// SearchTwice searches deal seed of game once with each of the two
// options, in order.
func SearchTwice(ctx context.Context, game string, seed uint64, opts [2]solver.Options) (Pair, error) {
	g, err := env.NewGame(game)
	if err != nil {
		return Pair{}, err
	}
	g.Deal(seed)
	p := Pair{Seed: seed}
	for k, o := range opts {
		s, err := solver.New(o)
		if err != nil {
			return Pair{}, err
		}
		p.Res[k] = s.Solve(ctx, g)
	}
	return p, nil
}

// Versus searches each deal of seeds twice (SearchTwice), workers deals
// at once, prints a line per deal as it finishes ("SEED NAME=VERDICT/NODES
// NAME=VERDICT/NODES", the searches named by names) and returns the count
// of the deals each search won.
func Versus(game string, seeds []uint64, workers int, opts [2]solver.Options, names [2]string) (Tally, error) {
	var c Tally
	err := runner.Run(context.Background(), runner.Task[struct{}, Pair]{
		Units: runner.Span(0, len(seeds)), Workers: max(workers, 1),
		Do: func(ctx context.Context, _ struct{}, i int) (Pair, error) {
			return SearchTwice(ctx, game, seeds[i], opts)
		},
		Emit: func(_ int, p Pair, _ bool) error {
			c.Add(p.Res[0].Verdict == solver.Solved, p.Res[1].Verdict == solver.Solved)
			fmt.Printf("%d %s=%s/%d %s=%s/%d\n", p.Seed, names[0], p.Res[0].Verdict, p.Res[0].Nodes, names[1], p.Res[1].Verdict, p.Res[1].Nodes)
			return nil
		},
	})
	return c, err
}
