// Package solvertest holds what the tests of package solver and of the
// game search packages beside it share: the sizes of their samples, the
// positions along the solver's winning lines, the check that a search with
// a game's knowledge decides as a reference search does, and the harness
// of the measurements (measure.go) that decide deals with a package's
// techniques added one at a time.
package solvertest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/solver"
)

// N returns long, the size of a test's sample, or short when the tests
// run with -short.
func N(long, short int) int {
	if testing.Short() {
		return short
	}
	return long
}

// New returns a solver with the options o, failing t if they are wrong.
func New(t testing.TB, o solver.Options) *solver.Solver {
	t.Helper()
	s, err := solver.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Searches returns a solver for each of the named options, each with the
// node budget nodes and a table of 2^tableBits entries.
func Searches(t testing.TB, opts map[string]solver.Options, nodes int64, tableBits int) map[string]*solver.Solver {
	t.Helper()
	out := make(map[string]*solver.Solver, len(opts))
	for name, o := range opts {
		o.Nodes, o.TableBits = nodes, tableBits
		out[name] = New(t, o)
	}
	return out
}

// Agree decides g with each of the named searches and fails t where one
// of them gives a verdict other than want, the reference search's (an open
// verdict agrees with any), or finds a line that does not win; what names
// g in the messages.
func Agree(t testing.TB, what string, g env.Game, want solver.Verdict, searches map[string]*solver.Solver) {
	t.Helper()
	for name, s := range searches {
		got := s.Solve(context.Background(), g)
		if got.Verdict != solver.Unknown && got.Verdict != want {
			t.Fatalf("%s: %s says %v, the reference %v\n%s", what, name, got.Verdict, want, g.Render())
		}
		if got.Verdict == solver.Solved {
			if err := solver.VerifyEnv(g, 0, got.Line); err != nil {
				t.Fatalf("%s: %s: %v", what, name, err)
			}
		}
	}
}

// Before returns the positions that line, played from g, reaches k moves
// before its end, for each k of ks shorter than the line (copies: g is
// left as it is).
func Before(g env.Game, line []int, ks ...int) []env.Game {
	var out []env.Game
	for _, k := range ks {
		if k < len(line) {
			p := g.Clone()
			for _, a := range line[:len(line)-k] {
				p.Apply(a)
			}
			out = append(out, p)
		}
	}
	return out
}

// WinningLines returns positions along the winning lines that a search of
// 30,000 nodes finds for deals seed·1000 up to seed·1000+n−1 of the games
// newGame makes, k moves before their ends for each k of ks (Before):
// positions that can be won.
func WinningLines(n int, seed uint64, newGame func() env.Game, ks ...int) []env.Game {
	s, _ := solver.New(solver.Options{Nodes: 30000, TableBits: 18})
	var out []env.Game
	for d := range n {
		g := newGame()
		g.Deal(seed*1000 + uint64(d))
		if r := s.Solve(context.Background(), g); r.Verdict == solver.Solved {
			out = append(out, Before(g, r.Line, ks...)...)
		}
	}
	return out
}

// Plain returns the options of the plain search, the reference of the
// verdict tests: the transposition table alone, none of a game's
// knowledge, which decides exactly which positions can reach a win. Its
// budget is nodes, its table 2^tableBits entries.
func Plain(nodes int64, tableBits int) solver.Options {
	return solver.Options{NoSafeMoves: true, NoDeadTest: true, NoPrune: true, NoKey: true, Passes: []solver.Pass{}, Nodes: nodes, TableBits: tableBits}
}

// Verdicts compares, position by position, the verdicts of searches with
// those of the plain search (Plain), and counts the positions the plain
// search decides.
type Verdicts struct {
	plain    *solver.Solver
	searches map[string]*solver.Solver
	// Count counts the positions checked by the plain search's verdict.
	Count [3]int
}

// NewVerdicts returns a comparison of the plain search with the searches
// of the named options, all with the node budget nodes and a table of
// 2^18 entries.
func NewVerdicts(t testing.TB, opts map[string]solver.Options, nodes int64) *Verdicts {
	t.Helper()
	return &Verdicts{plain: New(t, Plain(nodes, 18)), searches: Searches(t, opts, nodes, 18)}
}

// Check decides g with the plain search and, where it decides, with the
// searches, and fails t where they disagree (Agree); what names g in the
// messages. It returns the plain search's verdict.
func (v *Verdicts) Check(t testing.TB, what string, g env.Game) solver.Verdict {
	t.Helper()
	want := v.plain.Solve(context.Background(), g).Verdict
	v.Count[want]++
	if want != solver.Unknown {
		Agree(t, what, g, want, v.searches)
	}
	return want
}

// Decided returns the number of positions the plain search decided.
func (v *Verdicts) Decided() int { return v.Count[solver.Solved] + v.Count[solver.Unsolvable] }

// Playouts returns positions of random games: deals seed·1000 up to
// seed·1000+n−1 of the games newGame makes, each played for at most steps
// moves chosen at random (a math/rand/v2 PCG of seed and stream), and the
// positions along the way that keep accepts (a copy of each). Where
// redraw accepts the move first drawn and other moves are legal, the move
// is drawn again among all the legal ones but the last: this is how a
// test plays an action (a deal, a turn) less often than the others.
func Playouts(n int, seed, stream uint64, steps int, newGame func() env.Game, redraw func(a int, rng *rand.Rand) bool, keep func(g env.Game, rng *rand.Rand) bool) []env.Game {
	rng := rand.New(rand.NewPCG(seed, stream))
	var out []env.Game
	m := env.NewMask(newGame().Spec().Actions)
	for d := range n {
		g := newGame()
		g.Deal(seed*1000 + uint64(d))
		for range steps {
			g.Legal(&m)
			acts := m.AppendActions(nil)
			if len(acts) == 0 {
				break
			}
			a := acts[rng.IntN(len(acts))]
			if len(acts) > 1 && redraw(a, rng) {
				a = acts[rng.IntN(len(acts)-1)]
			}
			g.Apply(a)
			if keep(g, rng) {
				out = append(out, g.Clone())
			}
		}
	}
	return out
}

// Foundations is a game whose foundations a test sets: two a suit, each
// given the rank of its top card.
type Foundations interface {
	SetFoundation(s cards.Suit, a, b cards.Rank)
}

// SetFoundations sets both foundations of every suit of g to a and b: with
// cards.King for both, every card of a game of the foundations' kind is
// home but those a test puts in play again.
func SetFoundations(g Foundations, a, b cards.Rank) {
	for s := range cards.NumSuits {
		g.SetFoundation(cards.Suit(s), a, b)
	}
}
