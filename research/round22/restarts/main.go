// Command restarts measures whether several short searches, each ranking
// moves in its own jittered order (solver.Options.Jitter and Seed), win
// more of a game's open deals than one search with their whole budget: it
// takes the training deals that the shipped verdict table leaves open
// (tuning deals, below 1,000,000), -skip of them first left out, and
// searches each of -n of them once with -nodes, and -k times with
// -nodes/-k, seeds 1 to k, jitter -jitter. One line per deal, and on
// standard error how many each way won, and how many only one of them.
//
//	go run ./round22/restarts -game ladder -knowledge all -n 20 -nodes 3000000 -k 10 -jitter 1
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
	d := opendeals.Flags{Game: "ladder", N: 20, Workers: 1}
	d.Register(flag.CommandLine, "search")
	knowledge := flag.String("knowledge", "", "a set of the game's search knowledge (solve --knowledge), or its default")
	nodes := flag.Int64("nodes", 3000000, "the node budget of the one search, and of the restarts in all")
	k := flag.Int("k", 10, "restarts")
	jitter := flag.Float64("jitter", 1, "the restarts' jitter (solver.Options.Jitter)")
	flag.Parse()
	if d.N < 1 || d.Skip < 0 || *nodes < 1 || *k < 1 || int64(*k) > *nodes || *jitter < 0 {
		cli.Usage("restarts", "-n, -nodes and -k must be 1 or more (-k at most -nodes), -skip and -jitter 0 or more")
	}
	p := plan{game: d.Game, knowledge: *knowledge, nodes: *nodes, k: *k, jitter: *jitter}
	cli.Exit("restarts", run(p, d.Skip, d.N, d.Workers))
}

// plan is what each deal's searches are: the game, its knowledge set, the
// budget, the restarts and their jitter.
type plan struct {
	game, knowledge string
	nodes           int64
	k               int
	jitter          float64
}

// result is one deal's searches: the one search, and the first restart
// that won (0: none) with the nodes all restarts used.
type result struct {
	seed      uint64
	one       solver.Result
	wonBy     int
	restartsN int64
}

func run(p plan, skip, n, workers int) error {
	if err := solver.CheckKnowledge(p.game, p.knowledge); err != nil {
		return err
	}
	seeds, err := opendeals.Training(p.game, skip, n)
	if err != nil {
		return err
	}
	var c opendeals.Tally
	err = runner.Run(context.Background(), runner.Task[struct{}, result]{
		Units: runner.Span(0, n), Workers: max(workers, 1),
		Do: func(ctx context.Context, _ struct{}, i int) (result, error) {
			return one(ctx, p, seeds[i])
		},
		Emit: func(_ int, r result, _ bool) error {
			a, b := r.one.Verdict == solver.Solved, r.wonBy > 0
			c.Add(a, b)
			fmt.Printf("%d one=%s/%d restarts=won-by-%d/%d\n", r.seed, r.one.Verdict, r.one.Nodes, r.wonBy, r.restartsN)
			return nil
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s, %d open training deals after %d, %d nodes: one search won %d, %d restarts (jitter %g) %d; %d won by the one search alone, %d by the restarts alone\n",
		p.game, n, skip, p.nodes, c.Won[0], p.k, p.jitter, c.Won[1], c.Only[0], c.Only[1])
	return nil
}

// one searches deal seed once with the whole budget, then in restarts
// until one wins.
func one(ctx context.Context, p plan, seed uint64) (result, error) {
	g, err := env.NewGame(p.game)
	if err != nil {
		return result{}, err
	}
	g.Deal(seed)
	r := result{seed: seed}
	s, err := solver.New(solver.Options{Nodes: p.nodes, Knowledge: p.knowledge})
	if err != nil {
		return result{}, err
	}
	r.one = s.Solve(ctx, g)
	for i := 1; i <= p.k; i++ {
		s, err := solver.New(solver.Options{Nodes: p.nodes / int64(p.k), Knowledge: p.knowledge, Jitter: p.jitter, Seed: uint64(i)})
		if err != nil {
			return result{}, err
		}
		res := s.Solve(ctx, g)
		r.restartsN += res.Nodes
		if res.Verdict == solver.Solved {
			r.wonBy = i
			break
		}
	}
	return r, nil
}
