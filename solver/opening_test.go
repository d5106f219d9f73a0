package solver_test

import (
	"cmp"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver"
	search "github.com/patience-gym/patience/solver/cromwell"
)

// openingOnly is a pass list of the opening pass alone (the unlimited pass
// follows it, as after any list).
var openingOnly = []solver.Pass{{Opening: true}}

// openingSolves solves Cromwell deal seed with the opening pass (and the
// unlimited pass after it) on a budget of nodes, and fails the test
// unless it is solved.
func openingSolves(t *testing.T, seed uint64, nodes int64) (*cromwell.Game, solver.Result) {
	t.Helper()
	g := cromwell.New()
	g.Deal(seed)
	r := solve(t, newSolver(t, solver.Options{Nodes: nodes, Passes: openingOnly}), g)
	if r.Verdict != solver.Solved {
		t.Fatalf("deal %d with the opening pass: %v after %d nodes", seed, r.Verdict, r.Nodes)
	}
	return g, r
}

// TestOpeningPassFindsAStartSwap: Cromwell deal 500,069 (a tuning deal)
// is won by a swap at the start that the search by discrepancies misses:
// with the opening pass it is solved in a few thousand nodes, with a line
// that begins with the swap; the first discrepancy passes alone, on ten
// times the budget, do not find a win.
func TestOpeningPassFindsAStartSwap(t *testing.T) {
	g, r := openingSolves(t, 500069, 5000)
	if len(r.Line) < 3 || r.Line[0] != cromwell.ActSwapBegin || r.Line[1] < cromwell.ActSwap || r.Line[2] < cromwell.ActSwap {
		t.Errorf("the line does not begin with a swap: %s", names(g, r.Line[:min(3, len(r.Line))]))
	}
	disc := []solver.Pass{{Discrepancy: true, Limit: 0}, {Discrepancy: true, Limit: 1}}
	r = solve(t, newSolver(t, solver.Options{Nodes: 50000, Passes: disc}), g)
	if r.Verdict == solver.Solved {
		t.Errorf("the discrepancy passes alone solved it too (%d nodes): the deal no longer shows the opening pass's use", r.Nodes)
	}
}

// TestOpeningPassAfterOneMove: Cromwell deal 500,912 (a tuning deal) is
// won by a swap made after one ordinary move, which the opening pass finds
// among the roots after one move from the start: the line begins with
// that move, then the swap. (Without the jitter of later rounds. The
// deal's allowed swaps are all of two intact places, but one exchanges the
// K♠ with the 5♠, so its swaps are not hooked.)
func TestOpeningPassAfterOneMove(t *testing.T) {
	defer solver.SetOpeningJitter(0)()
	g, r := openingSolves(t, 500912, 20000)
	if len(r.Line) < 4 || r.Line[0] >= cromwell.ActSwapBegin || r.Line[1] != cromwell.ActSwapBegin {
		t.Errorf("the line does not begin with one move and the swap: %s", names(g, r.Line[:min(4, len(r.Line))]))
	}
}

// TestOpeningForms: at the start of a Cromwell deal the forms of the swap
// are the pairs of layout cards that differ, each once, that the game's
// pruning keeps, minus those the dead test rejects; ranked best first. On
// deal 1 the kings lock nothing that needs the swap, and every pair is a
// form (5,304 pairs of 104 cards, less the 52 pairs of twins); on deal 3
// they do, and only the swaps that get past the king-lock test are.
func TestOpeningForms(t *testing.T) {
	g := cromwell.New()
	g.Deal(1)
	s := newSolver(t, solver.Options{Nodes: 1, Passes: openingOnly})
	r := s.Solve(t.Context(), g)
	if got := int64(len(s.StartForms())) + r.Dead; got != 5304 {
		t.Errorf("deal 1: %d forms and %d dead, %d in all, want 5304", len(s.StartForms()), r.Dead, got)
	}
	g.Deal(3)
	allowed := allowedSwaps(g)
	r = s.Solve(t.Context(), g)
	forms := s.StartForms()
	if got := int64(len(forms)) + r.Dead; got != int64(allowed) || allowed == 0 || allowed > 1000 {
		t.Errorf("deal 3: %d forms and %d dead, %d in all, want the %d swaps the game allows", len(forms), r.Dead, got, allowed)
	}
	if !slices.IsSortedFunc(forms, func(a, b solver.Form) int { return cmp.Compare(b.Score, a.Score) }) {
		t.Error("the forms are not ranked best first")
	}
	c := g.Clone()
	for _, f := range forms[:50] {
		c.CopyFrom(g)
		for _, a := range f.Actions {
			c.Apply(a)
		}
		if !c.(*cromwell.Game).SwapUsed() || c.Hash() != f.Hash {
			t.Fatalf("form %v does not make the swap (%v)", f.Actions, c.(*cromwell.Game).SwapUsed())
		}
	}
}

// TestOpeningPassBudgets: with the opening pass, a node budget is used
// exactly and gives the same search twice, and a time budget stops it.
func TestOpeningPassBudgets(t *testing.T) {
	g := cromwell.New()
	g.Deal(500805) // not decided in 20 million nodes
	for _, budget := range []int64{1, 300, 5000, 40000} {
		r1 := solve(t, newSolver(t, solver.Options{Nodes: budget, Passes: openingOnly}), g)
		r2 := solve(t, newSolver(t, solver.Options{Nodes: budget, Passes: openingOnly}), g)
		if r1.Verdict != solver.Unknown || r1.Stop != solver.NodeBudget || r1.Nodes != budget {
			t.Errorf("budget %d: %v (%v) after %d nodes", budget, r1.Verdict, r1.Stop, r1.Nodes)
		}
		if r1.Nodes != r2.Nodes || r1.Best != r2.Best || r1.Dead != r2.Dead {
			t.Errorf("budget %d: two searches differ: %+v and %+v", budget, r1, r2)
		}
	}
	r := solve(t, newSolver(t, solver.Options{Time: 50 * time.Millisecond, Passes: openingOnly}), g)
	if r.Verdict != solver.Unknown || r.Stop != solver.TimeBudget {
		t.Errorf("time budget: %v (%v)", r.Verdict, r.Stop)
	}
}

// TestOpeningPassSkipped: a game without a move allowed once, or with it
// used, searches exactly as if the opening pass were not in the list.
func TestOpeningPassSkipped(t *testing.T) {
	for _, name := range []string{"fifteen", "cromwell:noswap"} {
		g, err := env.NewGame(name)
		if err != nil {
			t.Fatal(err)
		}
		g.Deal(7)
		with := append([]solver.Pass{{Opening: true}}, solver.DefaultPasses...)
		without := slices.DeleteFunc(slices.Clone(solver.DefaultPasses), func(p solver.Pass) bool { return p.Opening })
		r1 := solve(t, newSolver(t, solver.Options{Nodes: 30000, Passes: with}), g)
		r2 := solve(t, newSolver(t, solver.Options{Nodes: 30000, Passes: without}), g)
		if r1.Verdict != r2.Verdict || r1.Nodes != r2.Nodes || !slices.Equal(r1.Line, r2.Line) {
			t.Errorf("%s: %v in %d nodes with the opening pass, %v in %d without", name, r1.Verdict, r1.Nodes, r2.Verdict, r2.Nodes)
		}
	}
}

// TestLatePassFindsALateSwap: Cromwell deal 500,046 (a tuning deal) is won
// by a swap made late in the game, when the game without it is lost: the
// late pass, holding the swap back until then, finds the win in under
// 7,000 nodes (the pass may use a third of the budget), while the
// discrepancy passes and the opening pass, on 20,000 nodes, do not.
func TestLatePassFindsALateSwap(t *testing.T) {
	g := cromwell.New()
	g.Deal(500046)
	late := []solver.Pass{{Discrepancy: true, Limit: 0}, {Discrepancy: true, Limit: 1, Late: true}}
	r := solve(t, newSolver(t, solver.Options{Nodes: 100000, Passes: late}), g)
	if r.Verdict != solver.Solved {
		t.Fatalf("with the late pass: %v after %d nodes", r.Verdict, r.Nodes)
	}
	swap := slices.Index(r.Line, cromwell.ActSwapBegin)
	if swap < 50 {
		t.Errorf("the swap is move %d of the line: not a late swap", swap)
	}
	others := []solver.Pass{{Discrepancy: true, Limit: 0}, {Discrepancy: true, Limit: 1}, {Opening: true}}
	if r := solve(t, newSolver(t, solver.Options{Nodes: 20000, Passes: others}), g); r.Verdict == solver.Solved {
		t.Errorf("the other passes solved it too (%d nodes): the deal no longer shows the late pass's use", r.Nodes)
	}
}

// TestLatePassSkipped: a late pass in a game without a move allowed once,
// or once the move is spent, is skipped: the search is the same as without
// it, node for node.
func TestLatePassSkipped(t *testing.T) {
	g := cromwell.New()
	if err := g.SetVariant(cromwell.VariantNoSwap); err != nil {
		t.Fatal(err)
	}
	g.Deal(500010)
	plain := []solver.Pass{{Discrepancy: true, Limit: 0}, {Discrepancy: true, Limit: 1}}
	late := []solver.Pass{{Discrepancy: true, Limit: 0}, {Discrepancy: true, Limit: 1, Late: true}, {Discrepancy: true, Limit: 1}}
	a := solve(t, newSolver(t, solver.Options{Nodes: 30000, Passes: plain}), g)
	b := solve(t, newSolver(t, solver.Options{Nodes: 30000, Passes: late}), g)
	if a.Verdict != b.Verdict || a.Nodes != b.Nodes || a.Passes != b.Passes || !slices.Equal(a.Line, b.Line) {
		t.Errorf("without the swap the late pass changed the search: %v in %d nodes, %d passes; with it %v in %d nodes, %d passes",
			a.Verdict, a.Nodes, a.Passes, b.Verdict, b.Nodes, b.Passes)
	}
}

// allowedSwaps counts the swaps at the start of g that the game's pruning
// keeps, each pair of places once, after the game's start dead test has
// listed them.
func allowedSwaps(g *cromwell.Game) int {
	c := search.New(g)
	c.DeadAtStart()
	c.Apply(cromwell.ActSwapBegin)
	first, second := env.NewMask(cromwell.NumActions), env.NewMask(cromwell.NumActions)
	c.Legal(&first)
	c.Prune(nil, &first)
	n := 0
	for a := first.Next(0); a >= 0; a = first.Next(a + 1) {
		d := c.Clone().(*search.Position)
		d.Apply(a)
		d.Legal(&second)
		d.Prune(nil, &second)
		for b := second.Next(a + 1); b >= 0; b = second.Next(b + 1) {
			n++
		}
	}
	return n
}

// TestJitter: a search with jitter is deterministic for a seed, and
// another seed searches in another order; jitter out of range is refused.
func TestJitter(t *testing.T) {
	g := cromwell.New()
	g.Deal(500805) // not decided in 20 million nodes
	run := func(jitter float64, seed uint64) solver.Result {
		return solve(t, newSolver(t, solver.Options{Nodes: 20000, Jitter: jitter, Seed: seed}), g)
	}
	a, b, c := run(1, 7), run(1, 7), run(1, 8)
	if a.Best != b.Best || a.Dead != b.Dead || a.MaxDepth != b.MaxDepth || a.SafeMoves != b.SafeMoves {
		t.Errorf("the same seed gave two searches: %+v and %+v", a, b)
	}
	if a.Dead == c.Dead && a.SafeMoves == c.SafeMoves && a.MaxDepth == c.MaxDepth {
		t.Errorf("seeds 7 and 8 gave the same search: %+v", a)
	}
	if z := run(0, 8); z.Dead != run(0, 9).Dead {
		t.Error("without jitter the seed changed the search")
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := solver.New(solver.Options{Jitter: bad}); err == nil {
			t.Errorf("jitter %v accepted", bad)
		}
	}
}

// TestOpeningJitter: Cromwell tuning deal 501,310 is won by a swap at the
// start whose search, in the order of the evaluation alone, wanders for
// hundreds of thousands of nodes. With each round of the opening pass
// searching in a new order, the pass wins it in under 50,000 nodes; in the
// same order every round, it does not in 200,000.
func TestOpeningJitter(t *testing.T) {
	_, r := openingSolves(t, 501310, 50000)
	t.Logf("with jitter: solved in %d nodes", r.Nodes)
	defer solver.SetOpeningJitter(0)()
	g := cromwell.New()
	g.Deal(501310)
	if r := solve(t, newSolver(t, solver.Options{Nodes: 200000, Passes: openingOnly}), g); r.Verdict == solver.Solved {
		t.Errorf("without jitter the pass solved it too (%d nodes): the deal no longer shows the jitter's use", r.Nodes)
	}
}
