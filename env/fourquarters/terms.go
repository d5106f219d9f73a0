package fourquarters

import "github.com/patience-gym/patience/env"

// The terms of the evaluation (Spec.Terms), in order. The first five are
// Evaluate's, by its weights; the others it weighs 0, for a learner to
// weigh (a policy file's eval_terms).
const (
	TermRemoved = iota
	TermPairNow
	TermPairLater
	TermNear
	TermLonelyEnd
	TermLonely
	TermEmptyCells
	NumTerms
)

// terms are the Spec's Terms, by the constants above.
var terms = []env.Term{
	TermRemoved:    {Name: "removed", Weight: 1, Doc: "cards removed"},
	TermPairNow:    {Name: "pair_now", Weight: 0.75, Doc: "cards that can pair now"},
	TermPairLater:  {Name: "pair_later", Weight: 0.25, Doc: "other cards that would touch a card of their rank once the files slid toward the hub"},
	TermNear:       {Name: "near", Weight: 0.1, Doc: "cards with a card of their rank two steps away in their arm"},
	TermLonelyEnd:  {Name: "lonely_end", Weight: -0.5, Doc: "once the stock is empty, cards with no card of their rank left in their arm (else 0)"},
	TermLonely:     {Name: "lonely", Doc: "cards with no card of their rank in their arm, stock or not"},
	TermEmptyCells: {Name: "empty_cells", Doc: "empty cells of the cross"},
}

// Terms writes the position's terms (Spec.Terms) into dst[:NumTerms]:
// Evaluate is their sum weighted by the Spec's weights.
func (g *Game) Terms(dst []float64) {
	dst = dst[:NumTerms]
	now, later, near, lonely := g.tally()
	empty := 0
	for _, c := range g.cells {
		if rankOf[c] == 0 {
			empty++
		}
	}
	dst[TermRemoved] = float64(g.removed)
	dst[TermPairNow] = float64(now)
	dst[TermPairLater] = float64(later)
	dst[TermNear] = float64(near)
	dst[TermLonelyEnd] = 0
	if g.next == StockSize {
		dst[TermLonelyEnd] = float64(lonely)
	}
	dst[TermLonely] = float64(lonely)
	dst[TermEmptyCells] = float64(empty)
}
