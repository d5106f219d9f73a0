package cromwell

import (
	"context"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// TestStubbornNeverLosesAWin: on random small positions with the swap
// spent, a search that keeps only the moves of stubborn sets (and nothing
// else of the game's knowledge) decides every position as an exhaustive
// search of every move does, and proves the lost ones in under half the
// nodes.
func TestStubbornNeverLosesAWin(t *testing.T) {
	n := solvertest.N(4000, 1000)
	rng := cards.NewRand(28)
	s, err := solver.New(solver.Options{NoSafeMoves: true, NoDeadTest: true, Passes: []solver.Pass{}, Nodes: 300000, TableBits: 18})
	if err != nil {
		t.Fatal(err)
	}
	full, err := solver.New(solver.Options{NoSafeMoves: true, NoDeadTest: true, NoPrune: true, Passes: []solver.Pass{}, Nodes: 300000, TableBits: 18})
	if err != nil {
		t.Fatal(err)
	}
	won, lost := 0, 0
	var nodes, nodesFull int64
	for range n {
		g := kingTiny(rng, true)
		want := full.Solve(context.Background(), g)
		got := s.Solve(context.Background(), g)
		if want.Verdict == solver.Unknown || got.Verdict == solver.Unknown {
			continue
		}
		if got.Verdict != want.Verdict {
			t.Fatalf("every move: %v, stubborn sets: %v\n%s", want.Verdict, got.Verdict, g.Render())
		}
		if want.Verdict == solver.Solved {
			won++
		} else {
			lost++
			nodes += got.Nodes
			nodesFull += want.Nodes
		}
	}
	t.Logf("%d positions: %d won and %d lost by both; the lost ones took %d nodes with stubborn sets, %d with every move", n, won, lost, nodes, nodesFull)
	if won < n/10 || lost < n/10 || 2*nodes > nodesFull {
		t.Errorf("too few positions decided, or too little pruned")
	}
}

// TestStubbornOnADeal: on tuning deal 501,543 the kings allow one swap, the
// 9♠ at the bottom of fan 1 with the K♦ on top of fan 7. The game after
// that swap is lost, and the search proves it with stubborn sets in under
// 250,000 nodes; trying every move, it has not finished at 500,000 (it
// needs about 1.6 million). Pruning allocates nothing. (The pin test of
// DeadAtStart proves that game lost at once: the search here starts from a
// copy, which skips it.)
func TestStubbornOnADeal(t *testing.T) {
	g := newPos()
	g.Deal(501543)
	g.Apply(rules.ActSwapBegin)
	g.Apply(rules.ActSwap + 0*rules.SwapDepth + 0)
	g.Apply(rules.ActSwap + 6*rules.SwapDepth + 3)
	g.lockMemo = new(lockMemo)
	solve := func(nodes int64, noPrune bool) solver.Result {
		s, err := solver.New(solver.Options{Nodes: nodes, NoPrune: noPrune, Passes: []solver.Pass{}})
		if err != nil {
			t.Fatal(err)
		}
		return s.Solve(context.Background(), g)
	}
	if r := solve(250000, false); r.Verdict != solver.Unsolvable {
		t.Errorf("with stubborn sets: %v after %d nodes", r.Verdict, r.Nodes)
	} else {
		t.Logf("with stubborn sets: unsolvable in %d nodes", r.Nodes)
	}
	if testing.Short() {
		return
	}
	if r := solve(500000, true); r.Verdict != solver.Unknown {
		t.Errorf("every move: %v after %d nodes; the deal no longer shows the pruning's use", r.Verdict, r.Nodes)
	}
	m := env.NewMask(rules.NumActions)
	g.Legal(&m)
	if n := testing.AllocsPerRun(100, func() { g.Prune(nil, &m) }); n != 0 {
		t.Errorf("Prune allocates %v times", n)
	}
}

// TestStubbornBeforeTheSwap: on random small positions with the swap
// unused whose allowed swaps all exchange two intact places, a search
// that knows the allowed swaps and prunes with stubborn sets before the
// swap too (without the dead test), and the full search, decide every
// position as an exhaustive search of every move and every swap does; the
// stubborn sets leave out moves at the start of some, and pairsDead calls
// only lost positions lost.
func TestStubbornBeforeTheSwap(t *testing.T) {
	n := solvertest.N(12000, 3000)
	rng := cards.NewRand(29)
	ss := threeSearches(t)
	pairs, won, lost, cut, dead := 0, 0, 0, 0, 0
	m, kept := env.NewMask(rules.NumActions), env.NewMask(rules.NumActions)
	for range n {
		g := tinyPosition(rng, 12, 4, false)
		c := g.Clone().(*Position)
		if c.DeadAtStart() || c.allow == nil || !c.allow.pairsOnly {
			continue
		}
		pairs++
		res, _, _ := ss.decide(t, g, c, "stubborn sets before the swap") // c holds the allowed swaps
		want := res.Verdict
		if want == solver.Solved {
			won++
		} else {
			lost++
		}
		if c.pairsDead() {
			dead++
			if want != solver.Unsolvable {
				t.Fatalf("pairsDead, but the exhaustive search says %v\n%s", want, g.Render())
			}
		}
		c.Legal(&m)
		c.Legal(&kept)
		c.Prune(nil, &kept)
		if kept.Count() < m.Count() {
			cut++
		}
	}
	t.Logf("%d positions, %d with pairs only: %d won, %d lost; moves cut at the start in %d; pairsDead at the start in %d", n, pairs, won, lost, cut, dead)
	if won < pairs/10 || lost < pairs/10 || cut < pairs/4 || dead == 0 {
		t.Error("too few positions decided, pruned or found dead")
	}
}
