package cromwell

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The terms of the evaluation (Spec.Terms), in order. The first five are
// Evaluate's; the others it weighs 0, for a learner to weigh (a policy
// file's eval_terms).
const (
	TermHome = iota
	TermFits
	TermKingDepth
	TermPairs
	TermSwapUnused
	TermNextBuried
	TermBuilds
	TermEmpty
	TermRunCards
	NumTerms
)

// terms are the Spec's Terms, by the constants above.
var terms = []env.Term{
	TermHome:       {Name: "home", Weight: 1, Doc: "cards on the foundations"},
	TermFits:       {Name: "fits", Weight: 0.5, Doc: "fans whose top card fits a foundation now"},
	TermKingDepth:  {Name: "king_depth", Weight: -0.5, Doc: "cards lying under a king in its fan (they wait for the king to go home)"},
	TermPairs:      {Name: "pairs", Weight: -0.25, Doc: "pairs of cards of one suit in one fan with the higher above the lower"},
	TermSwapUnused: {Name: "swap_unused", Weight: 2, Doc: "1 while the swap is unused, else 0"},
	TermNextBuried: {Name: "next_buried", Doc: "cards lying on the cards the foundations need next (the nearer copy for each foundation; both copies when a suit's two foundations need the same card)"},
	TermBuilds:     {Name: "builds", Doc: "fans whose top run, in whole or in part, fits another fan's top card"},
	TermEmpty:      {Name: "empty", Doc: "empty fans"},
	TermRunCards:   {Name: "run_cards", Doc: "cards lying in order under the top card of their fan (the top runs' lengths less one)"},
}

// Terms writes the position's terms (Spec.Terms) into dst[:NumTerms]:
// Evaluate is their sum weighted by the Spec's weights.
func (g *Game) Terms(dst []float64) {
	dst = dst[:NumTerms]
	builds, empty, runCards := 0, 0, 0
	// onTop counts the fans whose top card is each card code; cover how
	// many cards lie on each copy of each card.
	var onTop [cards.FaceDown + 1]uint8
	var cover cards.Cover
	cover.Reset()
	for f := range NumFans {
		n := int(g.n[f])
		if n == 0 {
			empty++
			continue
		}
		onTop[g.fans[f][n-1]]++
		runCards += int(g.run[f]) - 1
		for k := range n {
			cover.Add(g.fans[f][k], n-1-k)
		}
	}
	for f := range NumFans {
		n := int(g.n[f])
		for k := n - int(g.run[f]); k < n && n > 0; k++ {
			if c := g.fans[f][k]; c.Rank() < cards.King && onTop[c+1] > 0 {
				builds++
				break
			}
		}
	}
	buried := 0
	for s := range cards.Suit(4) {
		hi, lo := cards.Rank(g.found[2*s]), cards.Rank(g.found[2*s+1])
		if hi == lo {
			if hi < cards.King {
				buried += cover.Both(cards.New(s, hi+1))
			}
			continue
		}
		if hi < cards.King {
			buried += cover.Nearest(cards.New(s, hi+1))
		}
		buried += cover.Nearest(cards.New(s, lo+1))
	}
	dst[TermHome] = float64(g.home)
	dst[TermFits] = float64(g.fitting())
	dst[TermKingDepth] = float64(g.kings)
	dst[TermPairs] = float64(g.pairs)
	dst[TermSwapUnused] = 0
	if g.swap == SwapUnused {
		dst[TermSwapUnused] = 1
	}
	dst[TermNextBuried] = float64(buried)
	dst[TermBuilds] = float64(builds)
	dst[TermEmpty] = float64(empty)
	dst[TermRunCards] = float64(runCards)
}
