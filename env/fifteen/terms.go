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
	TermSingles
	TermDoubles
	TermStuck
	TermMarried
	TermCornered
	TermTopRun
	TermMinHeight
	TermSecondBuried
	TermUnderStuck
	TermUnderFits
	TermUnder2Stuck
	TermUnder2Fits
	TermTriples
	TermHomeRun
	TermRunWrong
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
	TermSingles:      {Name: "singles", Doc: "columns holding one card (a lane one move away)"},
	TermDoubles:      {Name: "doubles", Doc: "columns holding two cards"},
	TermStuck:        {Name: "stuck", Doc: "available cards with no move but into a lane: no pile takes them and no other available card marries them"},
	TermMarried:      {Name: "married", Doc: "cards lying directly on a card of their suit one rank away (marriages made, or dealt so)"},
	TermCornered:     {Name: "cornered", Doc: "1 when no lane is empty and at most one available card can move (a game about to be lost), else 0"},
	TermTopRun:       {Name: "top_run", Doc: "cards married in order under the available card of their column (the run a lane could take reversed)"},
	TermMinHeight:    {Name: "min_height", Doc: "cards in the shortest column that holds any (0 when none does)"},
	TermSecondBuried: {Name: "second_buried", Doc: "cards lying on the cards the piles need after the next ones (counted as next_buried counts)"},
	TermUnderStuck:   {Name: "under_stuck", Doc: "cards directly under an available card that would be stuck once uncovered: no pile takes them and no other available card marries them"},
	TermUnderFits:    {Name: "under_fits", Doc: "cards directly under an available card that a pile takes"},
	TermUnder2Stuck:  {Name: "under2_stuck", Doc: "cards two under an available card that would be stuck once uncovered (as under_stuck counts)"},
	TermUnder2Fits:   {Name: "under2_fits", Doc: "cards two under an available card that a pile takes"},
	TermTriples:      {Name: "triples", Doc: "columns holding three cards"},
	TermHomeRun:      {Name: "home_run", Doc: "cards that could go home one after another from the foot of their column, the piles as they stand, summed over the columns"},
	TermRunWrong:     {Name: "run_wrong", Doc: "cards in runs of one suit climbing or descending by one to the available card (two cards or more) laid the wrong way for the pile nearer to taking them: that pile would take the available card last"},
}

// underTerms are, for the cards one and then two under an available card,
// the terms that count those a pile takes and those that would be stuck.
var underTerms = [...]struct{ fits, stuck int }{
	{TermUnderFits, TermUnderStuck},
	{TermUnder2Fits, TermUnder2Stuck},
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
	var onTop [cards.NumCodes + 1]uint8 // the available cards, by code
	lanes, fits, marriages := g.tally(&onTop)
	var cover cover
	cover.Reset()
	partner, married := 0, 0
	for c := range NumCols {
		n := int(g.n[c])
		switch n {
		case 0:
			continue
		case 1:
			dst[TermSingles]++
		case 2:
			dst[TermDoubles]++
		case 3:
			dst[TermTriples]++
		}
		if dst[TermMinHeight] == 0 || float64(n) < dst[TermMinHeight] {
			dst[TermMinHeight] = float64(n)
		}
		for k := n - 1; k > 0 && married1(g.cols[c][k-1], g.cols[c][k]); k-- {
			dst[TermTopRun]++
		}
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
			if k > 0 && married1(g.cols[c][k-1], y) {
				married++
			}
			if once>>y&1 == 0 {
				once |= 1 << y
			} else {
				twice |= 1 << y
			}
		}
	}
	buried := cover.needs(g, 0)
	dst[TermSecondBuried] = float64(cover.needs(g, 1))
	stuck := 0
	for c := range NumCols {
		n := g.n[c]
		if n == 0 {
			continue
		}
		x := g.cols[c][n-1]
		if fits, partners := g.fate(x, &onTop, x); !fits && partners == 0 {
			stuck++
		}
		dst[TermHomeRun] += float64(g.homeRun(c))
		if n < 2 {
			continue
		}
		dst[TermRunWrong] += float64(g.runWrong(c))
		// The cards one and two under x, as they would be once the cards
		// above them have moved.
		for d, t := range underTerms {
			k := int(n) - 2 - d
			if k < 0 {
				break
			}
			switch fits, partners := g.fate(g.cols[c][k], &onTop, x); {
			case fits:
				dst[t.fits]++
			case partners == 0:
				dst[t.stuck]++
			}
		}
	}
	if lanes == 0 && NumCols-stuck <= 1 {
		dst[TermCornered] = 1
	}
	dst[TermStuck] = float64(stuck)
	dst[TermMarried] = float64(married)
	dst[TermLanes] = float64(lanes)
	dst[TermFits] = float64(fits)
	dst[TermMarriages] = float64(marriages)
	dst[TermNextBuried] = float64(buried)
	dst[TermPartnerBelow] = float64(partner)
}

// fate says what card z could do if it were available: whether a pile
// takes it, and how many available cards (onTop counts them by code) it
// could marry, the available card above apart (above, which moves before
// z is uncovered; z itself when z is the available card).
func (g *Game) fate(z cards.Card, onTop *[cards.NumCodes + 1]uint8, above cards.Card) (fits bool, partners int) {
	s, r := z.Suit(), uint8(z.Rank())
	if r == upNext(g.up[s]) || r == downNext(g.down[s]) {
		return true, 0
	}
	if z.Rank() < cards.King {
		partners += int(onTop[z+1])
	}
	if z.Rank() > cards.Ace {
		partners += int(onTop[z-1])
	}
	if married1(above, z) {
		partners--
	}
	return false, partners
}

// homeRun returns how many cards of column c could go home one after
// another from its foot, the piles as they stand and nothing else moved.
func (g *Game) homeRun(c int) int {
	up, down := g.up, g.down
	n := int(g.n[c])
	for k := n - 1; k >= 0; k-- {
		y := g.cols[c][k]
		s, r := y.Suit(), uint8(y.Rank())
		switch r {
		case upNext(up[s]):
			up[s] = r
		case downNext(down[s]):
			down[s] = r
		default:
			return n - 1 - k
		}
	}
	return n
}

// runWrong returns the length of the run at the foot of column c (two
// cards or more of one suit, each one rank from the next, climbing or
// descending all the way) when it lies the wrong way for the pile nearer
// to taking it: that pile would take the available card last, so the run
// must be laid out again first. It returns 0 for a run the nearer pile
// takes from the foot, for a tie, and when no pile can take the run.
func (g *Game) runWrong(c int) int {
	n := int(g.n[c])
	x, y := g.cols[c][n-1], g.cols[c][n-2]
	if !married1(x, y) {
		return 0
	}
	step := int(x.Rank()) - int(y.Rank()) // +1: climbing to the foot
	k := n - 2
	for k > 0 && married1(g.cols[c][k-1], g.cols[c][k]) &&
		int(g.cols[c][k].Rank())-int(g.cols[c][k-1].Rank()) == step {
		k--
	}
	lo, hi := int(g.cols[c][k].Rank()), int(x.Rank())
	if step < 0 {
		lo, hi = hi, lo
	}
	s := x.Suit()
	const far = 99
	dUp, dDown := far, far
	if need := int(upNext(g.up[s])); need <= lo {
		dUp = lo - need
	}
	if need := int(downNext(g.down[s])); need >= hi {
		dDown = need - hi
	}
	// The up pile takes the run's low end first, the down pile its high end.
	switch {
	case dUp < dDown && step > 0, dDown < dUp && step < 0:
		return n - k
	}
	return 0
}

// married1 reports whether x and y are of one suit and one rank apart.
func married1(x, y cards.Card) bool {
	d := int(x.Rank()) - int(y.Rank())
	return x.Suit() == y.Suit() && (d == 1 || d == -1)
}

// cover is cards.Cover with the piles' needs of The Fifteen.
type cover struct{ cards.Cover }

// needs returns the cards lying on the cards the piles take after the
// next ahead ones (ahead 0: the next cards themselves): the nearer copy for
// each pile, both copies when a suit's two piles need the same card.
func (v *cover) needs(g *Game, ahead int) int {
	n := 0
	for s := range cards.Suit(cards.NumSuits) {
		up, down := int(upNext(g.up[s])), int(downNext(g.down[s]))
		okUp, okDown := up >= 1 && up <= int(cards.King), down >= 1
		// The card after the next is one rank on, while it stays within
		// the ranks the pile can still take.
		if up += ahead; up > int(cards.King) {
			okUp = false
		}
		if down -= ahead; down < 1 {
			okDown = false
		}
		switch {
		case okUp && okDown && up == down:
			n += v.Both(cards.New(s, cards.Rank(up)))
		default:
			if okUp {
				n += v.Nearest(cards.New(s, cards.Rank(up)))
			}
			if okDown {
				n += v.Nearest(cards.New(s, cards.Rank(down)))
			}
		}
	}
	return n
}
