package ladder

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// TestWorlds: DeterminizeUnseen samples the worlds a player who remembers
// every turned card cannot tell apart (the face-down ladder cards and the stock
// before the redeal are reshuffled; the waste, and the stock after the
// redeal, keep the order the player saw), and their order is uniform (see
// envtest.CheckWorlds).
func TestWorlds(t *testing.T) {
	envtest.CheckWorlds(t, "ladder", envtest.Worlds[*Game]{
		Unseen: func(x *Game, dst []cards.Card) []cards.Card {
			dst = append(dst, x.ladder[:max(int(x.ln)-1, 0)]...)
			if !x.redealt {
				dst = append(dst, x.stock[:x.sn]...)
			}
			return dst
		},
		Rewind: func(s, w *Game) {
			nl := max(int(w.ln)-1, 0)
			copy(s.ladder[:nl], w.ladder[:nl])
			if !w.redealt {
				copy(s.stock[:w.sn], w.stock[:w.sn])
			}
			s.hash = s.fullHash()
		},
	})
}

// TestWorldsAfterTheRedeal: after the redeal the stock is the waste turned
// over, which the player saw card by card, and the ladder is empty:
// DeterminizeUnseen leaves nothing to reshuffle. Before it, the same cards
// in the stock are reshuffled.
func TestWorldsAfterTheRedeal(t *testing.T) {
	g := New()
	g.SetRows(cards.MustParseList("KS QH"), cards.MustParseList("KD QC"))
	g.SetStock(cards.MustParseList("2C 3D 4H 5S 6C 7D 8H 9S"))
	g.SetWaste(cards.MustParseList("2H 3S 4C"))
	moved := false
	for _, redealt := range []bool{true, false} {
		g.SetRedealUsed(redealt)
		for seed := range uint64(16) {
			x := *g
			x.DeterminizeUnseen(cards.NewRand(seed))
			if x.waste != g.waste {
				t.Fatalf("redeal made %v: DeterminizeUnseen(%d) changed the waste", redealt, seed)
			}
			switch {
			case redealt && x.Hash() != g.Hash():
				t.Fatalf("DeterminizeUnseen(%d) changed the stock of the redeal, which the player saw turned", seed)
			case !redealt && x.stock != g.stock:
				moved = true
			}
		}
	}
	if !moved {
		t.Error("the stock before the redeal was never reshuffled")
	}
}
