package royalparade

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// The terms of the evaluation (Spec.Terms), in order. The first eight are
// Evaluate's, by its weights; the others it weighs 0, for a learner to
// weigh (a policy file's eval_terms).
const (
	TermProgress = iota
	TermPileCards
	TermWaiting
	TermBlocking
	TermBuried
	TermChainLock
	TermPlayable
	TermDealsLeft
	TermEmptyCells
	TermLoose
	TermEmptyAux
	NumTerms
)

// terms are the Spec's Terms, by the constants above.
var terms = []env.Term{
	TermProgress:   {Name: "progress", Weight: 1, Doc: "cards placed (complete piles' cards and the aces out)"},
	TermPileCards:  {Name: "pile_cards", Weight: evalPileCard, Doc: "cards of the base piles not yet complete"},
	TermWaiting:    {Name: "waiting", Weight: evalWaiting, Doc: "2s, 3s and 4s lying loose (in another row)"},
	TermBlocking:   {Name: "blocking", Weight: -evalBlocking, Doc: "loose cards holding cells their row's bases will need"},
	TermBuried:     {Name: "buried", Weight: -evalBuried, Doc: "cards of the auxiliary piles lying on a card that could be played now, once per such card below"},
	TermChainLock:  {Name: "chain_lock", Weight: -evalChainLock, Doc: "auxiliary cards lying on a lower card of their own chain (suit and row)"},
	TermPlayable:   {Name: "playable", Weight: evalPlayable, Doc: "available cards that build now (or start a base)"},
	TermDealsLeft:  {Name: "deals_left", Weight: evalDealLeft, Doc: "deals still to come"},
	TermEmptyCells: {Name: "empty_cells", Doc: "empty cells of the rectangle"},
	TermLoose:      {Name: "loose", Doc: "loose cards in the rectangle"},
	TermEmptyAux:   {Name: "empty_aux", Doc: "empty auxiliary piles"},
}

// Terms writes the position's terms (Spec.Terms) into dst[:NumTerms]:
// Evaluate is their sum weighted by the Spec's weights (up to rounding).
// It repeats Evaluate's walk over the position rather than sharing it:
// Evaluate adds its weights item by item, and summing counts instead would
// change its scores in the last bits, and with them the heuristic's
// recorded games. The property checker holds the two together.
func (g *Game) Terms(dst []float64) {
	dst = dst[:NumTerms]
	var want [cards.NumCodes]bool
	var room [Rows]int
	pileCards, waiting, blocking, looseAll := 0, 0, 0, 0
	for r := range Rows {
		bases, loose := 0, 0
		for i := r * Cols; i < (r+1)*Cols; i++ {
			c, h := g.cell[i], g.high[i]
			switch {
			case c == cards.None:
				room[r]++
			case h == 0:
				loose++
				if IsBase(c.Rank()) {
					waiting++
				}
			default:
				bases++
				if h < PileCards {
					pileCards += int(h)
					want[NextOnPile(c)] = true
				}
			}
		}
		if short := Cols - bases - room[r]; short > 0 {
			blocking += min(short, loose)
		}
		looseAll += loose
	}
	for s := range cards.NumSuits {
		for r := range Rows {
			if room[r] > 0 {
				want[cards.New(cards.Suit(s), baseRank(r))] = true
			}
		}
	}
	playable, buried, chainLock, emptyAux := 0, 0, 0, 0
	for i, c := range g.cell {
		if c != cards.None && g.high[i] == 0 && want[c] {
			playable++
		}
	}
	for p := range NumAux {
		n := int(g.an[p])
		if n == 0 {
			emptyAux++
			continue
		}
		if want[g.aux[p][n-1]] {
			playable++
		}
		var low [cards.NumSuits * Rows]cards.Rank
		for k, c := range g.aux[p][:n] {
			if k < n-1 && want[c] {
				buried += n - 1 - k
			}
			ch := int(c.Suit())*Rows + RowOf(c.Rank())
			if low[ch] != 0 && low[ch] < c.Rank() {
				chainLock++
			}
			if low[ch] == 0 || c.Rank() < low[ch] {
				low[ch] = c.Rank()
			}
		}
	}
	dst[TermProgress] = float64(g.Progress())
	dst[TermPileCards] = float64(pileCards)
	dst[TermWaiting] = float64(waiting)
	dst[TermBlocking] = float64(blocking)
	dst[TermBuried] = float64(buried)
	dst[TermChainLock] = float64(chainLock)
	dst[TermPlayable] = float64(playable)
	dst[TermDealsLeft] = float64(g.StockLen() / NumAux)
	dst[TermEmptyCells] = float64(room[0] + room[1] + room[2])
	dst[TermLoose] = float64(looseAll)
	dst[TermEmptyAux] = float64(emptyAux)
}
