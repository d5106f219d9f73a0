package fourquarters

import (
	"testing"

	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/fourquarters"
)

// TestDeadByParity: a position is dead when more quarters hold an odd
// number of cards of a rank than the stock has cards of it, and never in
// the variant hub.
func TestDeadByParity(t *testing.T) {
	var cells [rules.NumCells]cards.Card
	cells[0], cells[1], cells[2] = cards.MustParse("5S"), cards.MustParse("5H"), cards.MustParse("5D")
	g := New(rules.New())
	g.Setup(cells, nil)
	if !g.Dead() {
		t.Error("an odd number of fives in one quarter, none to come: not dead")
	}
	g.Setup(cells, []cards.Card{cards.MustParse("5C")})
	if g.Dead() {
		t.Error("the stock's five can still even it out: dead")
	}
	cells[13] = cards.MustParse("5C") // E2: a second odd quarter
	g.Setup(cells, []cards.Card{cards.MustParse("5C")})
	if !g.Dead() {
		t.Error("two odd quarters, one five to come: not dead")
	}
	h := New(rules.New())
	h.SetVariant("hub")
	h.Setup(cells, nil)
	if h.Dead() {
		t.Error("the hub variant pairs across quarters: parity proves nothing")
	}
}
