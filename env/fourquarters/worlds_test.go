package fourquarters

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/envtest"
)

// TestWorlds: Determinize samples the worlds a player cannot tell apart
// (the stock not yet drawn is reshuffled, the cross stays), and the
// stock's order is uniform (see envtest.CheckWorlds), in both variants.
func TestWorlds(t *testing.T) {
	for _, game := range []string{"fourquarters", "fourquarters:hub"} {
		t.Run(game, func(t *testing.T) {
			envtest.CheckWorlds(t, game, envtest.Worlds[*Game]{
				Unseen: func(x *Game, dst []cards.Card) []cards.Card {
					return append(dst, x.stock[x.next:]...)
				},
				Rewind: func(s, w *Game) {
					copy(s.stock[w.next:], w.stock[w.next:])
					s.hash = s.fullHash()
				},
			})
		})
	}
}
