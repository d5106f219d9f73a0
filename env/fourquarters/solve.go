package fourquarters

import "github.com/patience-gym/patience/env"

var _ env.DeadTester = (*Game)(nil)

// Dead reports a position from which no first-class win (every card
// removed) is possible: for some rank, more arms hold an odd number of
// cards of that rank than there are cards of that rank left in the stock. A
// pair is two cards of one rank in one arm, and a card never leaves its arm
// except in a pair, so an arm with an odd number of cards of a rank keeps
// one of them unless a card of that rank comes from the stock into it; each
// stock card comes into one arm. It reads the stock (the test serves
// clairvoyant search).
func (g *Game) Dead() bool {
	var stock [14]uint8
	for _, c := range g.stock[g.next:] {
		stock[rankOf[c]]++
	}
	var odd [14]uint8 // bit a: arm a holds an odd number of the rank
	for i, c := range g.cells {
		if c != 0 {
			odd[rankOf[c]] ^= 1 << (i / ArmCells)
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
