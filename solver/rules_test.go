package solver_test

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/patience-gym/patience/agents"
	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/env/envtest"
	"github.com/patience-gym/patience/env/fifteen"
	"github.com/patience-gym/patience/solver"
	_ "github.com/patience-gym/patience/solver/all"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// The game knowledge the solver uses (safe moves, dead tests, pruning) must
// never change a verdict: each test below decides many small positions with
// and without it and requires the same answer wherever both searches
// decide. The reference search uses the transposition table alone, which
// decides exactly which positions can reach a win.

// stress sets the number of positions (deals, for late positions, a tenth
// of it) for a longer run: go test ./solver -run KeepVerdicts -stress 5000.
var stress = flag.Int("stress", 0, "positions per game in the verdict tests")

// sample returns the size of a test's sample: long, short with -short, or
// stressed with -stress.
func sample(long, short, stressed int) int {
	if *stress > 0 {
		return stressed
	}
	return solvertest.N(long, short)
}

// variants of the search compared with the reference.
var variants = map[string]solver.Options{
	"all":         {},
	"safe moves":  {NoDeadTest: true, NoPrune: true, NoKey: true, Passes: []solver.Pass{}},
	"dead test":   {NoSafeMoves: true, NoPrune: true, NoKey: true, Passes: []solver.Pass{}},
	"pruning":     {NoSafeMoves: true, NoDeadTest: true, NoKey: true, Passes: []solver.Pass{}},
	"keys":        {NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Passes: []solver.Pass{}},
	"passes only": {NoSafeMoves: true, NoDeadTest: true, NoPrune: true, NoKey: true},
	// A late pass searches with the knowledge of the game without the
	// once-allowed move while it is unused, and leaves moves out: what it
	// cannot find, the unlimited pass after it must still decide.
	"late pass": {Passes: []solver.Pass{{Late: true}, {Late: true, Discrepancy: true, Limit: 1}}},
	// A best-first pass that runs out of positions proves the position
	// lost: on these small positions it mostly does, within its third of
	// the budget, before the unlimited pass begins.
	"best first":        {Passes: []solver.Pass{{BestFirst: true}}},
	"best first, plain": {NoSafeMoves: true, NoDeadTest: true, NoKey: true, Passes: []solver.Pass{{BestFirst: true, Plain: true}}},
	// A beam proves nothing: a narrow one drops most lines, and what it
	// leaves the unlimited pass after it decides.
	"beam": {Beam: 3},
}

// compare decides each position with the reference (the plain search)
// and every variant and fails on a disagreement. It returns how many
// positions the reference found solved and unsolvable.
func compare(t *testing.T, positions []env.Game, nodes int64) (solved, unsolvable int) {
	t.Helper()
	v := solvertest.NewVerdicts(t, variants, nodes)
	for i, g := range positions {
		v.Check(t, fmt.Sprint("position ", i), g)
	}
	solved, unsolvable = v.Count[solver.Solved], v.Count[solver.Unsolvable]
	t.Logf("%d positions: %d solved, %d unsolvable by the reference", len(positions), solved, unsolvable)
	return solved, unsolvable
}

// cromwellTiny returns random Cromwell positions with a few cards in play,
// the swap used or not.
func cromwellTiny(n int, swapUsed bool) []env.Game {
	rng := cards.NewRand(11)
	var out []env.Game
	for len(out) < n {
		tops, rest := envtest.TinyCards(rng, 14)
		if len(rest) < 4 || len(rest) > 12 {
			continue
		}
		fans := make([][]cards.Card, 2+rng.IntN(3))
		for _, c := range rest {
			f := rng.IntN(len(fans))
			fans[f] = append(fans[f], c)
		}
		g := cromwell.New()
		if !swapUsed {
			g.SetVariant("")
		}
		g.SetFans(fans...)
		for s, tp := range tops {
			g.SetFoundation(cards.Suit(s), tp[0], tp[1])
		}
		g.SetSwapUsed(swapUsed)
		out = append(out, g)
	}
	return out
}

// TestCromwellRulesKeepVerdicts: Cromwell's safe moves and dead test (with
// the swap used) and its pruning of swaps (with the swap unused).
func TestCromwellRulesKeepVerdicts(t *testing.T) {
	n := sample(300, 100, *stress)
	for _, used := range []bool{true, false} {
		t.Run(fmt.Sprintf("swap used %v", used), func(t *testing.T) {
			solved, unsolvable := compare(t, cromwellTiny(n, used), 200000)
			if solved < n/10 || unsolvable < n/20 {
				t.Errorf("too few positions decided both ways: %d solved, %d unsolvable", solved, unsolvable)
			}
		})
	}
}

// fifteenTiny returns random positions of The Fifteen with a few cards in
// play (foundations begun, so the emergency rule is out of play).
func fifteenTiny(n int) []env.Game {
	rng := cards.NewRand(12)
	var out []env.Game
	for len(out) < n {
		var rest []cards.Card
		g := fifteen.New()
		var ups, downs [cards.NumSuits]cards.Rank
		for s := range cards.NumSuits {
			// The up pile holds A..up, the down pile K..down; the rest of
			// the suit's two copies is in play.
			up := cards.Rank(8 + rng.IntN(6))
			down := cards.Rank(1 + rng.IntN(6))
			if rng.IntN(3) == 0 {
				up, down = 13, 1
			}
			ups[s], downs[s] = up, down
			for r := up + 1; r <= cards.King; r++ {
				rest = append(rest, cards.New(cards.Suit(s), r))
			}
			for r := cards.Rank(1); r < down; r++ {
				rest = append(rest, cards.New(cards.Suit(s), r))
			}
		}
		if len(rest) < 3 || len(rest) > 10 {
			continue
		}
		rng.Shuffle(rest)
		// Fill the columns but a few (the fewer lanes, the more dead ends).
		cols := make([][]cards.Card, fifteen.NumCols-rng.IntN(2))
		for i, c := range rest {
			f := i
			if i >= len(cols) {
				f = rng.IntN(len(cols))
			}
			cols[f] = append(cols[f], c)
		}
		g.SetColumns(cols...)
		for s := range cards.NumSuits {
			g.SetFoundation(cards.Suit(s), ups[s], downs[s])
		}
		out = append(out, g)
	}
	return out
}

// TestFifteenRulesKeepVerdicts: The Fifteen's safe moves.
func TestFifteenRulesKeepVerdicts(t *testing.T) {
	n := sample(300, 100, *stress)
	solved, _ := compare(t, fifteenTiny(n), 200000)
	if solved < n/10 {
		t.Errorf("only %d positions solved", solved)
	}
}

// latePositions plays deals with the heuristic agent and returns positions
// a few moves before each game ended, and positions a few moves before the
// end of winning lines the solver finds: small searches, some won, some
// lost.
func latePositions(t *testing.T, game string, deals int) []env.Game {
	t.Helper()
	e, err := env.Make(game, env.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := agents.New("heuristic")
	var out []env.Game
	s, _ := solver.New(solver.Options{Nodes: 50000, TableBits: 18})
	for seed := uint64(0); seed < uint64(deals); seed++ {
		var hist []env.Game
		if _, err := agents.Play(e, a, seed, seed, func(e *env.Env, _ int) bool {
			hist = append(hist, e.Game().Clone())
			return true
		}); err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{2, 5, 9, 14} {
			if k <= len(hist) {
				out = append(out, hist[len(hist)-k])
			}
		}
		g := e.Game().Clone()
		g.Deal(seed)
		if r := s.Solve(context.Background(), g); r.Verdict == solver.Solved {
			out = append(out, solvertest.Before(g, r.Line, 3, 8, 15, 25)...)
		}
	}
	return out
}

// TestLatePositionsKeepVerdicts: every game's rules, on positions near the
// end of real play.
func TestLatePositionsKeepVerdicts(t *testing.T) {
	deals := sample(12, 3, *stress/10)
	for _, game := range env.Names() {
		t.Run(game, func(t *testing.T) {
			solved, unsolvable := compare(t, latePositions(t, game, deals), 50000)
			if solved+unsolvable == 0 {
				t.Error("no position decided")
			}
		})
	}
}
