package cromwell

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/cromwell"
	"github.com/patience-gym/patience/solver/internal/solvertest"
)

func TestSafeMove(t *testing.T) {
	g := newPos()
	g.SetVariant("noswap")
	// 7♠ fits (foundations 6 and 6); both sixes home: safe.
	g.SetFans(cards.MustParseList("KD 7S"))
	g.SetFoundation(cards.Spades, 6, 6)
	if a := g.SafeMove(); a != rules.ActFoundation+0 {
		t.Errorf("7♠ with both sixes home: safe move %d", a)
	}
	// Foundations 6 and 5: the other six may still need a place on it.
	g.SetFoundation(cards.Spades, 6, 5)
	if a := g.SafeMove(); a != -1 {
		t.Errorf("7♠ with one six in play: safe move %s", g.ActionString(a))
	}
	// An ace is always safe.
	g.SetFans(cards.MustParseList("KD AS"))
	g.SetFoundation(cards.Spades, 0, 0)
	if a := g.SafeMove(); a != rules.ActFoundation+0 {
		t.Errorf("an ace: safe move %d", a)
	}
	// Never while the swap may still be made.
	d := newPos()
	d.SetFans(cards.MustParseList("KD AS"))
	if a := d.SafeMove(); a != -1 {
		t.Errorf("swap unused: safe move %s", d.ActionString(a))
	}
}

func TestDead(t *testing.T) {
	g := newPos()
	g.SetVariant("noswap")
	set := func(fans ...string) {
		var fs [][]cards.Card
		for _, f := range fans {
			fs = append(fs, cards.MustParseList(f))
		}
		g.SetFans(fs...)
		solvertest.SetFoundations(g, cards.King, cards.King)
		g.SetFoundation(cards.Spades, cards.Jack, cards.Jack)
	}
	// Both queens of spades under kings of spades, foundations at jack.
	set("QS KS", "QS KS")
	if !g.Dead() {
		t.Error("queens under their kings: not dead")
	}
	set("KS QS", "QS KS")
	if g.Dead() {
		t.Error("one queen on top: dead")
	}
	d := newPos()
	d.SetFans(cards.MustParseList("QS KS"), cards.MustParseList("QS KS"))
	if d.Dead() {
		t.Error("the swap could save it: dead")
	}
}

func TestPruneSwaps(t *testing.T) {
	g := newPos()
	g.Deal(3)
	m := env.NewMask(rules.NumActions)
	g.Legal(&m)
	if !m.Has(rules.ActSwapBegin) {
		t.Fatal("no swap at the start")
	}
	g.Prune(nil, &m)
	if !m.Has(rules.ActSwapBegin) {
		t.Error("the swap pruned at the start of a search")
	}
	// After a move home, no swap.
	g.Legal(&m)
	g.Prune([]int{rules.ActFoundation + 3}, &m)
	if m.Has(rules.ActSwapBegin) {
		t.Error("the swap offered after a move home")
	}
	// After a move from fan to fan, the first pick is a card moved or the
	// card built on, not the 6♠ lower in the target's top run: the swap
	// with it commutes with the move.
	h := newPos()
	h.SetFans(cards.MustParseList("2C 9H"), cards.MustParseList("3D 6S 5S"), cards.MustParseList("KC 4S"))
	move := rules.ActMove + 2*rules.NumFans + 1 // 4♠ onto 5♠
	h.Apply(move)
	h.Apply(rules.ActSwapBegin)
	h.Legal(&m)
	h.Prune([]int{move, rules.ActSwapBegin}, &m)
	var picks []string
	for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
		picks = append(picks, h.ActionString(a))
	}
	if strings.Join(picks, " ") != "pick 2:3 pick 2:4" {
		t.Errorf("first picks after 3>2: %v", picks)
	}
}

// TestLateOnceMover: with the swap unused, LateSafeMove and LateDead
// answer for the game without the swap (what SafeMove and Dead answer
// once it is spent); while a swap is under way they say nothing; LateMask
// parts the swap from the other moves.
func TestLateOnceMover(t *testing.T) {
	d := newPos()
	d.SetFans(cards.MustParseList("KD AS"))
	if a := d.LateSafeMove(); a != rules.ActFoundation+0 {
		t.Errorf("swap unused, an ace on top: late safe move %d", a)
	}
	d.SetFans(cards.MustParseList("QS KS"), cards.MustParseList("QS KS"))
	solvertest.SetFoundations(d, cards.King, cards.King)
	d.SetFoundation(cards.Spades, cards.Jack, cards.Jack)
	if d.Dead() || !d.LateDead() {
		t.Errorf("queens under their kings, swap unused: Dead %v (want false), LateDead %v (want true)", d.Dead(), d.LateDead())
	}
	m := env.NewMask(rules.NumActions)
	d.Legal(&m)
	if !m.Has(rules.ActSwapBegin) {
		t.Fatal("the swap is not legal")
	}
	d.LateMask(&m, false)
	if m.Has(rules.ActSwapBegin) {
		t.Error("LateMask(now=false) kept the swap")
	}
	d.Legal(&m)
	d.LateMask(&m, true)
	if m.Count() != 1 || !m.Has(rules.ActSwapBegin) {
		t.Errorf("LateMask(now=true) kept %d actions", m.Count())
	}
	d.Apply(rules.ActSwapBegin)
	if d.LateDead() || d.LateSafeMove() != -1 {
		t.Error("a swap under way: LateDead or LateSafeMove answered")
	}
	// With the swap spent, LateSafeMove is SafeMove, and LateDead is Dead
	// but for the positions only the king-lock test proves lost, on
	// positions of random play.
	g := newPos()
	g.SetVariant(rules.VariantNoSwap)
	rng := cards.NewRand(3)
	for seed := uint64(0); seed < 40; seed++ {
		g.Deal(seed)
		for step := 0; step < 300; step++ {
			late, dead := g.LateDead(), g.Dead()
			if g.LateSafeMove() != g.SafeMove() || late && !dead || dead && !late && !g.kingLocked() {
				t.Fatalf("deal %d step %d: late answers differ from SafeMove and Dead", seed, step)
			}
			g.Legal(&m)
			if m.Count() == 0 {
				break
			}
			k := rng.IntN(m.Count())
			a := m.Next(0)
			for ; k > 0; k-- {
				a = m.Next(a + 1)
			}
			g.Apply(a)
		}
	}
}

// TestLatePick: while the first card of a swap is picked, LatePick keeps
// only the cards the relaxed game leaves in place; the jack of spades,
// which goes home in it, is left out.
func TestLatePick(t *testing.T) {
	d := newPos()
	d.SetFans(cards.MustParseList("QS KS"), cards.MustParseList("QS KS"), cards.MustParseList("JS"))
	solvertest.SetFoundations(d, cards.King, cards.King)
	d.SetFoundation(cards.Spades, cards.Jack, cards.Jack-1)
	if !d.LateDead() {
		t.Fatal("queens under their kings: not dead without the swap")
	}
	m := env.NewMask(rules.NumActions)
	d.Legal(&m)
	d.LatePick(&m) // not under way: nothing changes
	if !m.Has(rules.ActSwapBegin) {
		t.Error("LatePick changed the moves of a position without a swap under way")
	}
	d.Apply(rules.ActSwapBegin)
	d.Legal(&m)
	if m.Count() != 5 {
		t.Fatalf("%d first picks, want 5", m.Count())
	}
	d.LatePick(&m)
	if m.Count() != 4 || m.Has(rules.ActSwap+2*rules.SwapDepth) {
		t.Errorf("LatePick kept %d picks (want the 4 cards of the two fans, not the jack)", m.Count())
	}
}
