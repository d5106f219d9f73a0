package cromwell

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

// TestPinLockedNeverLosesAWin: on random small positions with the swap
// spent, every position the pin test calls lost is unsolvable by an
// exhaustive search. The test proves lost many positions that Dead (the
// relaxed game and the king-lock test) lets through, and some of them only
// with its pins: the king-order game alone lets them through too.
func TestPinLockedNeverLosesAWin(t *testing.T) {
	n := solvertest.N(20000, 4000)
	beyond, pinned := 0, 0
	for _, left := range []int{14, 20, 26} {
		rng := cards.NewRand(uint64(left)*7901 + 3)
		for range n {
			g := tinyPosition(rng, left, 4, true)
			if g.Dead() || !g.pinLocked() {
				continue
			}
			beyond++
			if !g.pinTest(false) {
				pinned++
			}
			if v := exhaustive(t, g); v != solver.Unsolvable {
				t.Fatalf("the pin test calls a position lost; an exhaustive search: %v\n%s", v, g.Render())
			}
		}
	}
	t.Logf("%d positions proved lost beyond Dead, %d of them only with the pins", beyond, pinned)
	if beyond < 10*n/1000 || pinned < 2*n/1000 {
		t.Errorf("the test proved too little: %d beyond Dead, %d with the pins", beyond, pinned)
	}
}

// TestPinLockedOnHookedGames: on random small positions whose allowed swaps
// are all hooked, the game after each swap (the hook on) is unsolvable by
// an exhaustive search wherever the pin test calls it lost.
func TestPinLockedOnHookedGames(t *testing.T) {
	n := solvertest.N(1000, 200)
	rng := cards.NewRand(4242)
	beyond, roots := 0, 0
	for range n {
		// The swaps the king-lock test allows, before DeadAtStart takes
		// out those the pin test proves lost.
		var c *Position
		for {
			c = tinyPosition(rng, 12, 4, false)
			c.lockMemo = new(lockMemo)
			if a, empty := c.buildAllow(); !empty && a != nil && a.hooked {
				c.allow, c.hook.arm = a, true
				break
			}
		}
		for _, pq := range c.allow.pairList {
			h := c.Clone().(*Position)
			h.Apply(rules.ActSwapBegin)
			h.Apply(rules.ActSwap + pq[0].f*rules.SwapDepth + pq[0].k)
			h.Apply(rules.ActSwap + pq[1].f*rules.SwapDepth + pq[1].k)
			if !h.hook.on {
				t.Fatalf("the swap %v did not hook", pq)
			}
			roots++
			if h.Dead() || !h.pinLocked() {
				continue
			}
			beyond++
			if v := exhaustive(t, h); v != solver.Unsolvable {
				t.Fatalf("the pin test calls a hooked game lost; an exhaustive search: %v\n%s", v, h.Render())
			}
		}
	}
	t.Logf("%d hooked games, %d proved lost beyond Dead", roots, beyond)
	if beyond < roots/50 {
		t.Errorf("only %d of %d hooked games proved lost beyond Dead", beyond, roots)
	}
}

// TestPinLockedOnDeals: tuning deal 500,036 without the swap is lost, as
// the pin test shows at the start (the search does not finish at 300,000
// positions without it): the first foundation of hearts must reach its
// king before the K♣ over a 2♥ can leave, and the second 6♥, with the
// other 7♥ under that king, has nowhere to go but onto the 7♥ the first
// foundation needs. Tuning deals 500,408 and 501,543 are lost with the
// swap: each swap the king-lock test allows leads to a hooked game the pin
// test proves lost.
func TestPinLockedOnDeals(t *testing.T) {
	g := newPos()
	if err := g.SetVariant(rules.VariantNoSwap); err != nil {
		t.Fatal(err)
	}
	g.Deal(500036)
	if g.Dead() || g.pinTest(false) {
		t.Fatal("deal 500,036 (no swap) is proved lost without the pins")
	}
	if !g.pinLocked() || !g.Clone().(*Position).DeadAtStart() {
		t.Error("deal 500,036 (no swap) is not proved lost at the start")
	}

	g = newPos()
	g.Deal(500408)
	c := g.Clone().(*Position)
	a, empty := c.buildAllow()
	if empty || a == nil || !a.hooked || len(a.pairList) != 2 {
		t.Fatalf("deal 500,408: want two hooked swaps from the king-lock test")
	}
	if !g.Clone().(*Position).DeadAtStart() {
		t.Error("deal 500,408 is not proved lost at the start")
	}
	// Deal 501,543's one allowed swap leads to a game the exhaustive pass
	// needed 865,239 positions to prove lost.
	g = newPos()
	g.Deal(501543)
	if !g.DeadAtStart() {
		t.Error("deal 501,543 is not proved lost at the start")
	}
}
