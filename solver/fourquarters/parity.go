package fourquarters

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// parityDead reports that, for some rank, more arms hold an odd number of
// cards of that rank than there are cards of that rank left in the stock.
//
// Why it is sound: a pair is two cards of one rank in one arm, and a card
// never leaves its arm except in a pair, so an arm with an odd number of
// cards of a rank keeps one of them unless a card of that rank comes from
// the stock into it; each stock card comes into one arm. In the variant
// hub, where cards next to the hub pair across arms, it proves nothing.
func (g *Position) parityDead() bool {
	if g.hub() {
		return false
	}
	var stock [14]uint8
	for _, c := range g.Stock() {
		stock[c.Rank()]++
	}
	var odd [14]uint8 // bit a: arm a holds an odd number of the rank
	for i, c := range g.Cells() {
		if c != cards.None {
			odd[c.Rank()] ^= 1 << (i / rules.ArmCells)
		}
	}
	for r := 1; r <= 13; r++ {
		n := odd[r]&1 + odd[r]>>1&1 + odd[r]>>2&1 + odd[r]>>3&1
		if n > stock[r] {
			return true
		}
	}
	return false
}
