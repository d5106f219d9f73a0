package limited

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// TestWorlds: DeterminizeUnseen samples the worlds a player who remembers
// every turned card cannot tell apart (the stock alone is reshuffled; the
// waste and the pile of the second deal keep the order the player saw),
// and the stock's order is uniform (see envtest.CheckWorlds). Determinize,
// which reshuffles the waste below its top as well, fails this test: a
// world it makes can hold in its stock a card the player saw turned.
func TestWorlds(t *testing.T) {
	envtest.CheckWorlds(t, "limited", envtest.Worlds[*Game]{
		Unseen: func(x *Game, dst []cards.Card) []cards.Card {
			if x.second {
				return dst
			}
			return append(dst, x.pack[:x.np]...)
		},
		Rewind: func(s, w *Game) {
			if !w.second {
				copy(s.pack[:w.np], w.pack[:w.np])
				s.hash = s.fullHash()
			}
		},
	})
}
