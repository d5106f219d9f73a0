package cromwell

import (
	"strings"
	"testing"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

func TestVariantNoSwap(t *testing.T) {
	e, err := env.Make("cromwell", env.Options{Variant: "noswap"})
	if err != nil {
		t.Fatal(err)
	}
	spec := e.Spec()
	if spec.ID() != "cromwell:noswap" || spec.Rules() != "v1+noswap" || spec.Actions != NumActions || Spec().Variant != "" {
		t.Fatalf("spec %s %s", spec.ID(), spec.Rules())
	}
	def, _ := env.Make("cromwell", env.Options{})
	for seed := uint64(0); seed < 20; seed++ {
		e.Reset(seed)
		def.Reset(seed)
		if e.Mask().Has(ActSwapBegin) {
			t.Fatalf("deal %d: the swap is offered", seed)
		}
		obs := e.Observation()
		if SwapStage(obs[ObsSwap]) != SwapDone {
			t.Errorf("deal %d: swap stage %d, want %d", seed, obs[ObsSwap], SwapDone)
		}
		// The same cards in the same places as the default deal.
		if string(obs[:ObsSwap]) != string(def.Observation()[:ObsSwap]) {
			t.Errorf("deal %d: the variant deals differently", seed)
		}
	}
	_, _, _, _, _, err = e.Step(ActSwapBegin)
	if err == nil || !strings.Contains(err.Error(), "cromwell:noswap") || !strings.Contains(err.Error(), "has no swap") {
		t.Errorf("the swap in the variant: %v", err)
	}
	g := New()
	if err := g.SetVariant("wide"); err == nil {
		t.Error("unknown variant accepted")
	}
}

func TestVariantNoSwapChecks(t *testing.T) { envtest.Check(t, "cromwell:noswap") }

func TestSafeMove(t *testing.T) {
	g := New()
	g.SetVariant("noswap")
	// 7♠ fits (foundations 6 and 6); both sixes home: safe.
	g.SetFans(cards.MustParseList("KD 7S"))
	g.SetFoundation(cards.Spades, 6, 6)
	if a := g.SafeMove(); a != ActFoundation+0 {
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
	if a := g.SafeMove(); a != ActFoundation+0 {
		t.Errorf("an ace: safe move %d", a)
	}
	// Never while the swap may still be made.
	d := New()
	d.SetFans(cards.MustParseList("KD AS"))
	if a := d.SafeMove(); a != -1 {
		t.Errorf("swap unused: safe move %s", d.ActionString(a))
	}
}

func TestDead(t *testing.T) {
	g := New()
	g.SetVariant("noswap")
	set := func(fans ...string) {
		var fs [][]cards.Card
		for _, f := range fans {
			fs = append(fs, cards.MustParseList(f))
		}
		g.SetFans(fs...)
		for s := range cards.NumSuits {
			g.SetFoundation(cards.Suit(s), cards.King, cards.King)
		}
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
	d := New()
	d.SetFans(cards.MustParseList("QS KS"), cards.MustParseList("QS KS"))
	if d.Dead() {
		t.Error("the swap could save it: dead")
	}
}

func TestPruneSwaps(t *testing.T) {
	g := New()
	g.Deal(3)
	m := env.NewMask(NumActions)
	g.Legal(&m)
	if !m.Has(ActSwapBegin) {
		t.Fatal("no swap at the start")
	}
	g.Prune(nil, &m)
	if !m.Has(ActSwapBegin) {
		t.Error("the swap pruned at the start of a search")
	}
	// After a move home, no swap.
	g.Legal(&m)
	g.Prune([]int{ActFoundation + 3}, &m)
	if m.Has(ActSwapBegin) {
		t.Error("the swap offered after a move home")
	}
	// After a move from fan to fan, the first pick is a card moved or the
	// card built on, not the 6♠ lower in the target's top run: the swap
	// with it commutes with the move.
	h := New()
	h.SetFans(cards.MustParseList("2C 9H"), cards.MustParseList("3D 6S 5S"), cards.MustParseList("KC 4S"))
	move := ActMove + 2*NumFans + 1 // 4♠ onto 5♠
	h.Apply(move)
	h.Apply(ActSwapBegin)
	h.Legal(&m)
	h.Prune([]int{move, ActSwapBegin}, &m)
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
	d := New()
	d.SetFans(cards.MustParseList("KD AS"))
	if a := d.LateSafeMove(); a != ActFoundation+0 {
		t.Errorf("swap unused, an ace on top: late safe move %d", a)
	}
	d.SetFans(cards.MustParseList("QS KS"), cards.MustParseList("QS KS"))
	for s := range cards.NumSuits {
		d.SetFoundation(cards.Suit(s), cards.King, cards.King)
	}
	d.SetFoundation(cards.Spades, cards.Jack, cards.Jack)
	if d.Dead() || !d.LateDead() {
		t.Errorf("queens under their kings, swap unused: Dead %v (want false), LateDead %v (want true)", d.Dead(), d.LateDead())
	}
	m := env.NewMask(NumActions)
	d.Legal(&m)
	if !m.Has(ActSwapBegin) {
		t.Fatal("the swap is not legal")
	}
	d.LateMask(&m, false)
	if m.Has(ActSwapBegin) {
		t.Error("LateMask(now=false) kept the swap")
	}
	d.Legal(&m)
	d.LateMask(&m, true)
	if m.Count() != 1 || !m.Has(ActSwapBegin) {
		t.Errorf("LateMask(now=true) kept %d actions", m.Count())
	}
	d.Apply(ActSwapBegin)
	if d.LateDead() || d.LateSafeMove() != -1 {
		t.Error("a swap under way: LateDead or LateSafeMove answered")
	}
	// With the swap spent, LateSafeMove is SafeMove, and LateDead is Dead
	// but for the positions only the king-lock test proves lost, on
	// positions of random play.
	g := New()
	g.SetVariant(VariantNoSwap)
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
	d := New()
	d.SetFans(cards.MustParseList("QS KS"), cards.MustParseList("QS KS"), cards.MustParseList("JS"))
	for s := range cards.NumSuits {
		d.SetFoundation(cards.Suit(s), cards.King, cards.King)
	}
	d.SetFoundation(cards.Spades, cards.Jack, cards.Jack-1)
	if !d.LateDead() {
		t.Fatal("queens under their kings: not dead without the swap")
	}
	m := env.NewMask(NumActions)
	d.Legal(&m)
	d.LatePick(&m) // not under way: nothing changes
	if !m.Has(ActSwapBegin) {
		t.Error("LatePick changed the moves of a position without a swap under way")
	}
	d.Apply(ActSwapBegin)
	d.Legal(&m)
	if m.Count() != 5 {
		t.Fatalf("%d first picks, want 5", m.Count())
	}
	d.LatePick(&m)
	if m.Count() != 4 || m.Has(ActSwap+2*SwapDepth) {
		t.Errorf("LatePick kept %d picks (want the 4 cards of the two fans, not the jack)", m.Count())
	}
}
