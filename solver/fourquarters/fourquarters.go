// Package fourquarters is the solver's knowledge of Four Quarters
// (package env/fourquarters holds the rules): a position type that wraps
// the rules' game and adds a dead test (Dead). Importing it registers it
// with package solver, which then searches every game of Four Quarters
// through it. The solver sees the stock: its verdicts are upper bounds on
// what a player can do.
package fourquarters

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
	"github.com/patience-gym/patience/solver"
)

func init() { solver.Register(rules.Spec().Name, solver.WrapperOf(New)) }

var _ solver.DeadTester = (*Position)(nil)

// Position is a game of Four Quarters as the solver searches it: the
// rules' game, with its dead test.
type Position struct{ rules.Game }

// New returns g's position (a copy of g) for a search.
func New(g *rules.Game) *Position { return &Position{*g} }

// Clone returns an independent copy.
func (g *Position) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Position).
func (g *Position) CopyFrom(src env.Game) { *g = *src.(*Position) }

// Dead reports a position from which no first-class win (every card
// removed) is possible: for some rank, more arms hold an odd number of
// cards of that rank than there are cards of that rank left in the stock. A
// pair is two cards of one rank in one arm, and a card never leaves its arm
// except in a pair, so an arm with an odd number of cards of a rank keeps
// one of them unless a card of that rank comes from the stock into it; each
// stock card comes into one arm. It reads the stock (the test serves
// clairvoyant search). In the variant hub, where cards next to the hub pair
// across quarters, it proves nothing.
func (g *Position) Dead() bool {
	if g.Spec().Variant == rules.VariantHub {
		return false // cards next to the hub pair across quarters
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
