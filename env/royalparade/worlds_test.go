package royalparade

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// TestWorlds: Determinize samples the worlds a player cannot tell apart
// (the stock not yet dealt is reshuffled, everything dealt stays), and the
// stock's order is uniform (see envtest.CheckWorlds).
func TestWorlds(t *testing.T) {
	envtest.CheckWorlds(t, "royalparade", envtest.Worlds[*Game]{
		Unseen: func(x *Game, dst []cards.Card) []cards.Card {
			return append(dst, x.stock[x.dealt:]...)
		},
		Rewind: func(s, w *Game) {
			copy(s.stock[w.dealt:], w.stock[w.dealt:])
			s.hash = s.fullHash()
		},
	})
}
