// Command fvi fits the weights of a game's evaluation terms by fitted value
// iteration: the policy agent plays a value file on training deals, every
// position of its games is a row (the position's terms, and the cards the
// game had placed when it ended), and a ridge regression of the final
// progress on the terms gives new weights. The file it writes scores a
// position by those weights (eval_weight = the game's cards, eval_terms =
// the fitted weights less the evaluation's own), and looks ahead on
// -samples determinized copies (lookahead_samples) in a game with hidden
// cards. With -iterations N the next round plays the file the last one
// wrote.
//
// Without -init, the first round plays the evaluation's own weights (the
// heuristic's ranking, looked ahead on -samples copies). The files also
// hold the corrections as cem_parameters (term.NAME), so that
// `python -m patience_gym.train cem --features terms --init FILE` can go on
// from one.
//
//	bin/fvi -game fourquarters -samples 16 -start 320000 -n 16000 -out runs/fvi-fq.safetensors
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/policy"
	"github.com/patience-gym/patience/research/internal/cli"
	"github.com/patience-gym/patience/research/internal/labelcsv"
)

func main() {
	d := cli.Deals{Game: "fourquarters", Start: 320000, N: 16000, Workers: 2}
	d.Register("the game (one with evaluation terms)", "first training deal", "training deals a round")
	initFile := flag.String("init", "", "the value file to play first (default: the evaluation's weights)")
	samples := flag.Int("samples", 16, "lookahead_samples of the files written (1 in a game without hidden cards)")
	iterations := flag.Int("iterations", 1, "rounds; round i plays deals start+i*n ... on the file round i-1 wrote")
	lambda := flag.Float64("lambda", 1e-6, "ridge penalty per row")
	out := flag.String("out", "", "the value file to write (required); round i < last also writes OUT.roundI")
	cli.Parse("fvi", "out")
	cfg := config{Deals: d, init: *initFile, samples: *samples, iterations: *iterations,
		lambda: *lambda, out: *out, command: "bin/fvi " + strings.Join(os.Args[1:], " ")}
	cli.Exit("fvi", cfg.run())
}

// config is a run's: the game, the first training deal, the deals a
// round (N) and the workers (cli.Deals), and the rest of its flags.
type config struct {
	cli.Deals
	init, out, command  string
	samples, iterations int
	lambda              float64
}

func (c *config) run() error {
	spec, err := env.Lookup(c.Game)
	if err != nil {
		return err
	}
	if len(spec.Terms) == 0 {
		return fmt.Errorf("%s's evaluation has no named terms to weigh", c.Game)
	}
	if c.N < 1 || c.iterations < 1 || c.samples < 1 || c.samples > policy.MaxLookaheadSamples {
		return fmt.Errorf("want -n and -iterations of at least 1 and -samples from 1 to %d", policy.MaxLookaheadSamples)
	}
	if !spec.Hidden && c.samples != 1 {
		return fmt.Errorf("%s has no hidden cards: -samples must be 1", c.Game)
	}
	play := c.init
	if play == "" {
		play = c.out + ".round0"
		w := make([]float64, len(spec.Terms)+1)
		for i, t := range spec.Terms {
			w[i] = t.Weight
		}
		if err := c.write(spec, play, w, 0, 0); err != nil {
			return err
		}
	}
	for it := range c.iterations {
		first := c.Start + uint64(it*c.N)
		w, rows, mean, err := c.fit(spec, play, first)
		if err != nil {
			return err
		}
		path := c.out
		if it < c.iterations-1 {
			path = fmt.Sprintf("%s.round%d", c.out, it+1)
		}
		if err := c.write(spec, path, w, first, rows); err != nil {
			return err
		}
		fmt.Printf("round %d: %s played deals %d..%d, %.2f cards placed a game, %d positions; wrote %s\n",
			it+1, play, first, first+uint64(c.N)-1, mean, rows, path)
		for i, t := range spec.Terms {
			fmt.Printf("  %s %.4f (evaluation %g)\n", t.Name, w[i], t.Weight)
		}
		play = path
	}
	return nil
}

// game is one played game's rows: the terms of every position, and the
// final progress.
type game struct {
	terms    [][]float64
	progress int
}

// fit plays the file at path on c.N deals from first and returns the
// ridge regression's weights of the terms (and the intercept last), the
// rows and the mean final progress.
func (c *config) fit(spec *env.Spec, path string, first uint64) ([]float64, int, float64, error) {
	f, err := agents.Parse("policy:model=" + path)
	if err != nil {
		return nil, 0, 0, err
	}
	nf := len(spec.Terms) + 1
	xtx := mat.NewSymDense(nf, nil)
	xty := mat.NewVecDense(nf, nil)
	rows, total := 0, 0
	err = labelcsv.Each(first, c.N, c.Workers, func(seed uint64) (game, error) {
		e, err := env.Make(c.Game, env.Options{})
		if err != nil {
			return game{}, err
		}
		var g game
		row := func(e *env.Env) {
			t := make([]float64, nf)
			e.Terms(t)
			t[nf-1] = 1
			g.terms = append(g.terms, t)
		}
		r, err := agents.Play(e, f.New(), seed, seed, func(e *env.Env, _ int) bool { row(e); return true })
		if err != nil {
			return game{}, err
		}
		row(e)
		g.progress = r.Progress
		return g, nil
	}, func(g game) error {
		y := float64(g.progress)
		for _, t := range g.terms {
			v := mat.NewVecDense(nf, t)
			xtx.SymRankOne(xtx, 1, v)
			xty.AddScaledVec(xty, y, v)
		}
		rows += len(g.terms)
		total += g.progress
		return nil
	})
	if err != nil {
		return nil, 0, 0, err
	}
	for i := range nf {
		xtx.SetSym(i, i, xtx.At(i, i)+c.lambda*float64(rows))
	}
	var w mat.VecDense
	if err := w.SolveVec(xtx, xty); err != nil {
		return nil, 0, 0, fmt.Errorf("regression: %w", err)
	}
	return w.RawVector().Data, rows, float64(total) / float64(c.N), nil
}

// write writes the value file that scores a position by the weights w of
// spec's terms (w's last entry, the intercept, changes no ranking).
func (c *config) write(spec *env.Spec, path string, w []float64, first uint64, rows int) error {
	corr := map[string]float64{}
	for i, t := range spec.Terms {
		corr[t.Name] = math.Round((w[i]-t.Weight)*1e6) / 1e6
	}
	meta := policy.Meta{
		Game: spec.Name, RulesVersion: spec.RulesVersion, ObsLen: spec.ObsLen, OneHotLen: spec.OneHotLen(),
		Actions: spec.Actions, Head: policy.HeadValue, EvalWeight: float64(spec.Cards), EvalTerms: corr,
		Command: c.command,
		Notes:   "fitted value iteration: the evaluation's terms weighed by a ridge regression of the final progress on them, over the positions of the policy agent's games",
	}
	if spec.Hidden {
		meta.LookaheadSamples = c.samples
	}
	// The corrections as a cem run's parameters too, so that
	// `train cem --features terms --init FILE` can go on from the file.
	params := map[string]float64{}
	for name, x := range corr {
		params["term."+name] = x
	}
	b, _ := json.Marshal(params) // finite numbers by name: cannot fail
	meta.Extra = map[string]string{"cem_parameters": string(b), "cem_features": "terms"}
	if rows > 0 {
		b, _ := json.Marshal(map[string]any{"first": first, "deals": c.N, "positions": rows})
		meta.Extra["training_deals"] = string(b)
	}
	m, err := policy.NewModel(meta, [][]float32{make([]float32, spec.OneHotLen())}, [][]float32{{0}})
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := m.WriteTo(w)
		return err
	})
}
