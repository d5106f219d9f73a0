package fifteen

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The terms of the evaluation (Spec.Terms), in order. The first four are
// Evaluate's, by its weights; the others it weighs 0, for a learner to
// weigh (a policy file's eval_terms).
const (
	TermHome = iota
	TermLanes
	TermFits
	TermMarriages
	TermNextBuried
	TermPartnerBelow
	NumTerms
)

// terms are the Spec's Terms, by the constants above.
var terms = []env.Term{
	TermHome:         {Name: "home", Weight: 1, Doc: "cards on the foundations"},
	TermLanes:        {Name: "lanes", Weight: 1.5, Doc: "empty columns (lanes)"},
	TermFits:         {Name: "fits", Weight: 0.5, Doc: "available cards that fit a pile now"},
	TermMarriages:    {Name: "marriages", Weight: 0.5, Doc: "pairs of available cards that can marry (either way)"},
	TermNextBuried:   {Name: "next_buried", Doc: "cards lying on the cards the piles need next (the nearer copy for each pile; both copies when a suit's two piles need the same card)"},
	TermPartnerBelow: {Name: "partner_below", Doc: "cards lying above a card of their suit one rank away in the same column (a marriage they hide)"},
}

// Terms writes the position's terms (Spec.Terms) into dst[:NumTerms]:
// Evaluate is their sum weighted by the Spec's weights. A won game's terms
// are its cards home and 0 for the rest, as Evaluate scores it.
func (g *Game) Terms(dst []float64) {
	dst = dst[:NumTerms]
	clear(dst)
	dst[TermHome] = float64(g.home)
	if g.home == cards.DeckSize {
		return
	}
	lanes, fits, marriages := g.tally()
	var cover cards.Cover
	cover.Reset()
	partner := 0
	for c := range NumCols {
		n := int(g.n[c])
		// once and twice hold the card codes lying below, seen once and
		// twice, as bits.
		var once, twice uint64
		for k := range n {
			y := g.cols[c][k]
			cover.Add(y, n-1-k)
			if y.Rank() < cards.King {
				partner += int(once>>(y+1)&1 + twice>>(y+1)&1)
			}
			if y.Rank() > cards.Ace {
				partner += int(once>>(y-1)&1 + twice>>(y-1)&1)
			}
			if once>>y&1 == 0 {
				once |= 1 << y
			} else {
				twice |= 1 << y
			}
		}
	}
	buried := 0
	for s := range cards.Suit(cards.NumSuits) {
		up, down := upNext(g.up[s]), downNext(g.down[s])
		okUp, okDown := up >= 1 && up <= uint8(cards.King), down >= 1
		switch {
		case okUp && okDown && up == down:
			buried += cover.Both(cards.New(s, cards.Rank(up)))
		default:
			if okUp {
				buried += cover.Nearest(cards.New(s, cards.Rank(up)))
			}
			if okDown {
				buried += cover.Nearest(cards.New(s, cards.Rank(down)))
			}
		}
	}
	dst[TermLanes] = float64(lanes)
	dst[TermFits] = float64(fits)
	dst[TermMarriages] = float64(marriages)
	dst[TermNextBuried] = float64(buried)
	dst[TermPartnerBelow] = float64(partner)
}
