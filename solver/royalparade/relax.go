package royalparade

import (
	"github.com/patience-gym/patience/env/cards"
	rules "github.com/patience-gym/patience/env/royalparade"
)

// relaxed plays the relaxed game of the dead test from g and returns the
// number of cards it leaves unbuilt (aces excluded): 0 when the relaxed
// game is won.
//
// The relaxed game keeps the auxiliary piles exactly (only the top card of
// each may leave, and the rest of the stock is dealt onto them in its known
// order, eight cards a deal, aces thrown out) and the chains exactly (a
// card of rank 5 or more is built on a pile of its suit and row whose top
// is three ranks below it, and each chain has two piles); it drops the
// rectangle's cells: a 2, 3 or 4 becomes a base as soon as it is available,
// wherever it lies, and a loose card waits as long as it must.
//
// It plays greedily: between two deals, every card that can leave its place
// leaves it, and then the next deal is made. A card leaves its place when a
// pile takes it (built on it), or, once the relaxed game has built one copy
// of it, when it is available (then it waits off its pile for the next
// pile that takes it). The second rule stands for the choice of which of
// two copies takes a place first: a line of the real game may build the
// other copy, later, in its stead.
//
// Why no winning line of the real game is lost (so that a position the
// relaxed game cannot win is lost): every move of the real game either
// builds a card, makes a base (both of which the relaxed game makes as soon
// as the card is available and a pile takes it), moves a waiting 2, 3 or
// 4 between cells (which the relaxed game needs not, its cards are bases at
// once), or deals. Making a card leave its place sooner never hurts in the
// relaxed game: a card left on an auxiliary pile only covers the cards
// below it and those dealt later onto it, and no rule of the relaxed game
// asks for a card to stay. So by every deal the relaxed game has emptied at
// least the places the real line has, and built at least as many copies of
// every card, where a copy that waits off its pile counts as built once a
// pile takes it; the relaxed game takes each copy as soon as a pile can,
// the real line no sooner.
func relaxed(g *rules.Game) int {
	var r relaxation
	r.load(g)
	r.run(g.Stock())
	return r.left
}

// relaxation is the state of the relaxed game (see relaxed). Its tables
// are indexed by card code; the card three ranks higher in the same suit
// is code+3.
type relaxation struct {
	built [cards.NumCodes]uint8 // copies of each card on a pile
	wait  [cards.NumCodes]uint8 // copies off their places, waiting for a pile
	mine  [cards.NumCodes]uint8 // copies the relaxed game built
	aux   [rules.NumAux][rules.MaxAux]cards.Card
	an    [rules.NumAux]uint8
	left  int // cards not built, aces excluded
}

// load sets up the relaxed game from g: its piles, loose cards and
// auxiliary piles.
func (r *relaxation) load(g *rules.Game) {
	for i := range rules.NumCells {
		c, h := g.Cell(i)
		switch {
		case c == cards.None:
		case h == 0:
			r.wait[c]++
			r.left++
		default:
			for k := range h {
				r.built[c-cards.Card(3*k)]++
			}
		}
	}
	for p := range rules.NumAux {
		a := g.Aux(p)
		copy(r.aux[p][:], a)
		r.an[p] = uint8(len(a))
		r.left += len(a)
	}
	for _, c := range g.Stock() {
		if c.Rank() != cards.Ace {
			r.left++
		}
	}
	// The loose cards that can be built now.
	for c := cards.Card(1); c <= 52; c++ {
		for r.wait[c] > 0 && r.takes(c) {
			r.wait[c]--
			r.build(c)
		}
	}
}

// takes reports whether a pile takes card c now: c is a base (its chain
// has two piles, and there are two copies), or a pile of its chain shows
// the card three ranks below it.
func (r *relaxation) takes(c cards.Card) bool {
	if rules.IsBase(c.Rank()) {
		return true
	}
	return r.built[c-3] > r.built[c]
}

// build puts a copy of c on a pile, and then every waiting card that the
// piles take in turn.
func (r *relaxation) build(c cards.Card) {
	for {
		r.built[c]++
		r.mine[c]++
		r.left--
		if c.Rank()+3 > cards.King {
			return
		}
		c += 3
		if r.wait[c] == 0 || !r.takes(c) {
			return
		}
		r.wait[c]--
	}
}

// run plays the relaxed game to its end with stock, the cards still to be
// dealt in order.
func (r *relaxation) run(stock []cards.Card) {
	for {
		for moved := true; moved; {
			moved = false
			for p := range rules.NumAux {
				for r.an[p] > 0 {
					c := r.aux[p][r.an[p]-1]
					switch {
					case r.takes(c):
						r.an[p]--
						r.build(c)
					case r.mine[c] > 0:
						r.an[p]--
						r.wait[c]++
					default:
						c = cards.None
					}
					if c == cards.None {
						break
					}
					moved = true
				}
			}
		}
		if len(stock) == 0 || r.left == 0 {
			return
		}
		for p := range rules.NumAux {
			if c := stock[p]; c.Rank() != cards.Ace {
				r.aux[p][r.an[p]] = c
				r.an[p]++
			}
		}
		stock = stock[rules.NumAux:]
	}
}
