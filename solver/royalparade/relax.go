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
// is three ranks below it, and each chain has two piles). Of the
// rectangle's cells it keeps only counts that a line of the real game
// cannot beat:
//   - a 2, 3 or 4 leaves an auxiliary pile only while the cells that hold
//     a 2, 3 or 4 at the start and the loose cards not built yet leave a
//     cell of the 24 (room);
//   - such a card, or one waiting in a wrong row at the start, becomes a
//     base (a pile that takes cards) only while the same count for its
//     row, with the waiting cards that have not gone to their rows, leaves
//     a cell of the row's 8 (rowRoom); until then it waits off its pile.
//
// The bases the relaxed game makes are not counted: a line may make
// others, and the counts stay below what any line has in its cells.
//
// It plays greedily: between two deals, every card that can leave its place
// leaves it, and then the next deal is made. A card leaves its place when a
// pile takes it (built on it), or, once the relaxed game has built one copy
// of it, when it is available (then it waits off its pile for the next
// pile that takes it). The second rule stands for the choice of which of
// two copies takes a place first: a line of the real game may build the
// other copy, later, in its stead. Where two copies of a card are loose in
// cells, or wait in wrong rows, building or placing one frees a cell for
// either.
//
// Why no winning line of the real game is lost (so that a position the
// relaxed game cannot win is lost): every move of the real game either
// builds a card, makes a base, moves a waiting 2, 3 or 4 between cells, or
// deals. The relaxed game builds every card and makes every base as soon
// as the card is available, a pile takes it and the counts allow, and a
// line of the real game can do no sooner: its cells hold at least what the
// counts count (it builds no loose card sooner, and moves no waiting card
// to its row sooner). Making a card leave its place sooner never hurts in
// the relaxed game: a card left on an auxiliary pile only covers the cards
// below it and those dealt later onto it, and no rule of the relaxed game
// asks for a card to stay. So by every deal the relaxed game has emptied
// at least the places the real line has, and built at least as many
// copies of every card, where a copy that waits off its pile counts as
// built once a pile takes it.
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
	// cell[c] counts the loose copies of non-base card c in the cells at
	// the start; occupied counts the cells that hold a 2, 3 or 4 at the
	// start (a base pile, or one waiting) and the loose cards of the start
	// the relaxed game has not built (see room).
	cell     [cards.NumCodes]uint8
	occupied int
	// The cells of each row (see rowRoom): rowOcc[r] counts those of row
	// r that hold a base at the start, a 2, 3 or 4 waiting there that has
	// not gone to its row, or a loose card of the start not built (row[r]
	// counts those loose cards by card); park[r] counts by card the 2s,
	// 3s and 4s waiting in row r at the start, and pend the copies of each
	// 2, 3 or 4 that wait, off their piles, for a cell of their row.
	rowOcc [rules.Rows]int
	row    [rules.Rows][cards.NumCodes]uint8
	park   [rules.Rows][cards.NumCodes]uint8
	pend   [cards.NumCodes]uint8
	npend  [rules.Rows]int // the copies pend counts, by row
	aux    [rules.NumAux][rules.MaxAux]cards.Card
	an     [rules.NumAux]uint8
	left   int // cards not built, aces excluded
}

// load sets up the relaxed game from g: its piles, loose cards and
// auxiliary piles.
func (r *relaxation) load(g *rules.Game) {
	for i := range rules.NumCells {
		c, h := g.Cell(i)
		switch {
		case c == cards.None:
		case h == 0:
			r.left++
			r.occupied++
			r.rowOcc[i/rules.Cols]++
			if rules.IsBase(c.Rank()) {
				r.park[i/rules.Cols][c]++
				r.pend[c]++
				r.npend[rules.RowOf(c.Rank())]++
			} else {
				r.wait[c]++
				r.cell[c]++
				r.row[i/rules.Cols][c]++
			}
		default:
			r.occupied++
			r.rowOcc[i/rules.Cols]++
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
	// The loose cards that can be built now, and the waiting 2s, 3s and
	// 4s whose rows have room.
	for c := cards.Card(1); c <= 52; c++ {
		for r.wait[c] > 0 && r.takes(c) {
			r.wait[c]--
			r.build(c)
		}
	}
	r.activate()
}

// rowRoom reports whether a base of row q may still find an empty cell
// in its row: the cells rowOcc counts do not fill the row. A line of the
// real game has at least those cells full: it builds no more loose cards
// than the relaxed game, moves no waiting card to its row sooner, and the
// cells it fills with new bases come on top.
func (r *relaxation) rowRoom(q int) bool { return r.rowOcc[q] < rules.Cols }

// activate makes a base of every 2, 3 or 4 waiting for a cell of its row
// where the row has room, until none is left to make.
func (r *relaxation) activate() {
	for again := true; again; {
		again = false
		for q := range rules.Rows {
			if r.npend[q] == 0 || !r.rowRoom(q) {
				continue
			}
			r.npend[q] = 0
			for s := range cards.NumSuits {
				c := cards.New(cards.Suit(s), cards.Rank(q+2))
				for r.pend[c] > 0 {
					r.pend[c]--
					// A copy waiting in another row leaves it: a line
					// may move that copy first. Where both copies wait,
					// in two rows, both rows get a cell.
					for q2 := range rules.Rows {
						if r.park[q2][c] > 0 {
							r.rowOcc[q2] -= int(r.park[q2][c])
							r.park[q2][c] = 0
						}
					}
					r.build(c)
					again = true
				}
			}
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

// room reports whether a cell may still be empty for a 2, 3 or 4 that
// leaves an auxiliary pile: the cells that hold a 2, 3 or 4 at the start
// (they never empty: each such card stays in a cell, a base for good or
// waiting for its row) and the loose cards the relaxed game has not built
// do not fill all 24. A line of the real game builds no more loose cards
// than the relaxed game (which builds every card as soon as a pile takes
// it), so wherever it finds an empty cell for such a card, this holds too.
// Each copy the relaxed game builds is taken as a loose one where there is
// one, as a line may build that copy instead.
func (r *relaxation) room() bool { return r.occupied < rules.NumCells }

// build puts a copy of c on a pile, and then every waiting card that the
// piles take in turn.
func (r *relaxation) build(c cards.Card) {
	for {
		r.built[c]++
		r.mine[c]++
		r.left--
		if r.mine[c] <= r.cell[c] {
			r.occupied--
			for q := range rules.Rows {
				if r.mine[c] <= r.row[q][c] {
					r.rowOcc[q]--
				}
			}
		}
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
					case rules.IsBase(c.Rank()) && !r.room():
						c = cards.None
					case rules.IsBase(c.Rank()):
						r.an[p]--
						r.pend[c]++
						r.npend[rules.RowOf(c.Rank())]++
						r.activate()
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
			r.activate()
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
