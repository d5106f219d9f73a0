// Command lost finds where an agent's lost games were lost: for each deal
// the agent lost that the solver wins from the start (in a game with
// hidden cards, clairvoyantly: the solver reads the deal's true cards, the
// agent does not), the last position of the game the solver
// still wins (found by halving, a verdict other than won counting as lost),
// the move the agent played there, and the moves that keep the win. One
// line per deal, in the order the deals finish, and a count of the kinds
// of losing move on standard error.
//
// With -csv FILE it also writes, for that position, one row per legal move:
// the deal, the kind of position (critical), the step, the move, whether
// the agent played it, whether it keeps the win, and the evaluation's
// terms (Spec.Terms) of the position the move leads to; a ranking of the
// moves by a weighing of the terms can then be checked against the
// solver's. With -sample K it adds the rows of up to K other won positions
// of every game, drawn at random, where some moves keep the win and some
// lose it (kind sample): the decisions the agent met, whether it took them
// well or not.
//
//	bin/lost -game fifteen -agent policy:model=FILE -start 930000 -n 60
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/research/internal/cli"
	"github.com/patience-gym/patience/research/internal/labelcsv"
	_ "github.com/patience-gym/patience/solver/all"
)

// namer is what a game's action names come from.
type namer interface{ ActionString(int) string }

func main() {
	d := cli.OpenDeals(930000, 60)
	agent := flag.String("agent", "policy", "the agent")
	nodes := flag.Int64("nodes", 300000, "the solver's node budget a search")
	csvPath := flag.String("csv", "", "write every legal move's terms at the last won position to this CSV file")
	perGame := flag.Int("sample", 0, "with -csv, also solve the moves of this many won positions of each game drawn at random, and write those that have both moves that keep the win and moves that lose it (kind sample)")
	flag.Parse()
	if *perGame > 0 && *csvPath == "" {
		cli.Usage("lost", "-sample needs -csv")
	}
	cli.Exit("lost", run(d.Game, *agent, d.Start, d.N, *nodes, d.Workers, *csvPath, *perGame))
}

func run(game, agent string, start uint64, n int, nodes int64, workers int, csvPath string, perGame int) error {
	if _, err := agents.New(agent); err != nil {
		return err
	}
	var rowsOut *labelcsv.File
	if csvPath != "" {
		e, err := env.Make(game, env.Options{})
		if err != nil {
			return err
		}
		if rowsOut, err = labelcsv.Create(csvPath, e.Spec(), "seed", "kind", "step", "move", "played", "keep"); err != nil {
			return err
		}
		defer rowsOut.Close() // a second close, after the one below, does nothing
	}
	counts := map[string]int{}
	err := labelcsv.Each(start, n, workers, func(seed uint64) (result, error) {
		return one(game, agent, seed, nodes, rowsOut != nil, perGame)
	}, func(l result) error {
		counts[l.kind]++
		fmt.Println(l.line)
		if rowsOut != nil && l.rows != "" {
			return rowsOut.Write(l.rows)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if rowsOut != nil {
		if err := rowsOut.Close(); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "won %d, not won from the start %d, lost from a winnable start %d: marriage the wrong way round %d, card sent home %d, other %d\n",
		counts["won"], counts["not-won"], counts["wrong-way"]+counts["home"]+counts["other"], counts["wrong-way"], counts["home"], counts["other"])
	return nil
}

// result is one deal's line, its kind (won, not-won, or what the losing
// move was: wrong-way, home or other; see lossKind) and, when asked for,
// its CSV rows.
type result struct{ line, kind, rows string }

// one plays deal seed and says where the game was lost; withRows, it
// also makes the CSV rows of the last won position's moves, and those of
// perGame positions drawn at random (see sample).
func one(game, agent string, seed uint64, nodes int64, withRows bool, perGame int) (result, error) {
	p, err := labelcsv.NewPlayer(game, agent, nodes)
	if err != nil {
		return result{}, err
	}
	won := p.Won
	var states []env.Game
	var acts []int
	r, err := agents.Play(p.Env, p.Agent, seed, seed, func(e *env.Env, act int) bool {
		states = append(states, e.Game().Clone())
		acts = append(acts, act)
		return true
	})
	if err != nil {
		return result{}, err
	}
	if r.Outcome == env.Won {
		return result{line: fmt.Sprintf("%d won steps=%d", seed, r.Steps), kind: "won",
			rows: sample(states, acts, len(states), perGame, seed, won)}, nil
	}
	if !won(states[0]) {
		return result{line: fmt.Sprintf("%d lost progress=%d start=not-won", seed, r.Progress), kind: "not-won"}, nil
	}
	lo := labelcsv.LastWon(states, 0, won)
	sampled := sample(states, acts, lo, perGame, seed, won)
	keep, legal, rows := moves(states[lo], seed, lo, acts[lo], "critical", won, withRows)
	line := fmt.Sprintf("%d lost progress=%d last-won step=%d/%d home=%d move=%s legal=%d keep=[%s]",
		seed, r.Progress, lo, len(states), states[lo].Progress(), actionName(states[lo], acts[lo]), legal, strings.Join(keep, " "))
	return result{line: line, kind: lossKind(actionName(states[lo], acts[lo]), keep), rows: sampled + rows}, nil
}

// lossKind sorts a losing move by its name (The Fifteen's "from>to"):
// home when it sent a card to a pile (to U or D), wrong-way when it laid
// one available card on another and the other way round kept the win,
// else other.
func lossKind(move string, keep []string) string {
	from, to, ok := strings.Cut(move, ">")
	switch {
	case !ok:
		return "other"
	case to == "U" || to == "D":
		return "home"
	case slices.Contains(keep, to+">"+from):
		return "wrong-way"
	}
	return "other"
}

// sample returns the CSV rows of k positions of a game drawn at random
// (seeded by the deal) among its first n, those the solver wins, that
// have moves that keep the win and moves that lose it.
func sample(states []env.Game, acts []int, n, k int, seed uint64, won func(env.Game) bool) string {
	// All positions of a won game are won, and in a lost game those before
	// the last won one.
	if n <= 0 || k <= 0 {
		return ""
	}
	rng := rand.New(rand.NewPCG(seed, 16))
	var out strings.Builder
	for _, i := range rng.Perm(n)[:min(k, n)] {
		keep, legal, rows := moves(states[i], seed, i, acts[i], "sample", won, true)
		if len(keep) > 0 && len(keep) < legal {
			out.WriteString(rows)
		}
	}
	return out.String()
}

// moves solves every legal move of position g (step of its game, where the
// agent played act): the names of the moves that keep the win, how many
// moves are legal, and, with withRows, one CSV row per move.
func moves(g env.Game, seed uint64, step, act int, kind string, won func(env.Game) bool, withRows bool) (keep []string, legal int, rows string) {
	m := env.NewMask(g.Spec().Actions)
	g.Legal(&m)
	var out strings.Builder
	terms := make([]float64, len(g.Spec().Terms))
	for a := range g.Spec().Actions {
		if !m.Has(a) {
			continue
		}
		legal++
		c := g.Clone()
		c.Apply(a)
		kept := won(c)
		if kept {
			keep = append(keep, actionName(g, a))
		}
		if t, ok := c.(env.Termer); withRows && ok {
			t.Terms(terms)
			out.WriteString(labelcsv.Row(terms, seed, kind, step, actionName(g, a), a == act, kept))
		}
	}
	return keep, legal, out.String()
}

// actionName names action a of game g.
func actionName(g env.Game, a int) string {
	if nm, ok := g.(namer); ok {
		return nm.ActionString(a)
	}
	return fmt.Sprint(a)
}
