// Package royalparade implements Royal Parade (also Hussars, Financier, Three
// Up; docs/rules/royalparade.md), a two-deck patience with a hidden stock, as an env.Game
// registered as "royalparade".
//
// # Deal
//
// The first 24 cards of cards.Deal(seed) go into the rectangle row by row:
// card i goes to row i/8, column i%8. The other 80 cards (deck indices
// 24..103) are the stock, dealt from the front: deal k (k = 0..9) puts deck
// cards 24+8k .. 24+8k+7 onto auxiliary piles 1..8, left to right. The eight
// auxiliary piles start empty; the player makes the first deal.
//
// Aces are dead (rule 2) and discarded automatically: at the deal, leaving an
// empty cell in the rectangle, and whenever a deal puts an ace on an
// auxiliary pile (the pile then gets no card from that deal). Discarded aces
// count towards progress.
//
// Row 1 (cells r1c1..r1c8) is for 2s (2-5-8-J), row 2 for 3s (3-6-9-Q), row 3
// for 4s (4-7-10-K). A cell is empty, a base pile (a 2/3/4 lying in its own
// row, with the cards built on it by threes in suit: 1 to 4 cards, complete
// with its J, Q or K on top), or a loose card (any other card, including a
// 2/3/4 in a wrong row). Bases and built cards never move.
//
// A 2/3/4 waiting as a loose card in another row (rule 6) may move on to
// its own row when a cell there empties, or to an empty cell of a third
// row, but not to another empty cell of the row it waits in: the cells of
// a row are alike, so that move would change nothing (as Cromwell's rules
// do not offer a swap of two identical cards). A position whose only moves
// were such shuffles is therefore lost, not endless.
//
// # Actions (769)
//
//	ids          meaning                                      name
//	0..767       source s to cell d: id = 24*s + d, where     "a3>r1c5",
//	             s = 0..23 is a rectangle cell (row*8+col)     "r2c4>r1c1"
//	             and s = 24..31 is auxiliary pile s-23;
//	             d = 0..23 is a cell. The top of an
//	             auxiliary pile or a loose card moves. A
//	             base destination means building on it
//	             (rules 3, 5); an empty destination takes
//	             a 2/3/4 (rule 6).
//	768          deal 8 stock cards onto the auxiliary piles   "deal"
//
// Cells are named rRcC (row 1..3, column 1..8), auxiliary piles a1..a8.
//
// # Observation (133 cells)
//
//	cells     24  top card of each cell, row by row (0 = empty)
//	heights   24  cards in each base pile, 1..4 (4 = complete); 0 for an
//	              empty cell or a loose card. It tells a pile 2♠-5♠ (height 2)
//	              from a loose 5♠ (height 0).
//	aux       80  8 auxiliary piles x 10 cards, from the bottom (0 = none).
//	              All are face up. A pile gets one card per deal and never
//	              anything else, so it holds at most 10 cards.
//	stock      1  cards left in the stock (0..80, a multiple of 8)
//	aces       4  discarded aces per suit, clubs, diamonds, hearts, spades (0..2)
//
// The stock order is the only hidden information.
//
// # Search
//
// What a search knows of Royal Parade beyond these rules (its safe moves)
// lives beside the solver, in package solver/royalparade. The solver sees
// the stock: its verdicts are upper bounds on what a player can do.
package royalparade

import (
	"fmt"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/zobrist"
)

// Sizes, action ids and observation offsets.
const (
	Rows      = 3
	Cols      = 8
	NumCells  = Rows * Cols // 24
	NumAux    = 8
	Deals     = 10
	StockSize = NumAux * Deals // 80
	// MaxAux is the most cards an auxiliary pile can hold: one per deal.
	MaxAux = Deals
	// PileCards is the height of a complete pile: base + 3 built cards.
	PileCards = 4

	NumSources = NumCells + NumAux // 32
	ActMove    = 0
	ActDeal    = ActMove + NumSources*NumCells // 768
	NumActions = ActDeal + 1                   // 769

	ObsCells   = 0
	ObsHeights = ObsCells + NumCells
	ObsAux     = ObsHeights + NumCells
	ObsStock   = ObsAux + NumAux*MaxAux
	ObsAces    = ObsStock + 1
	ObsLen     = ObsAces + cards.NumSuits // 133
)

// RulesVersion is the version of the rules this package implements.
const RulesVersion = 1

// DefaultMaxSteps is the default step limit. Moves that change something for
// good are few: 10 deals, at most 72 builds, 24 moves that make a base and 24
// moves of a 2/3/4 from an auxiliary pile into a wrong row, 130 in all. But a
// loose 2/3/4 may shuttle between empty cells of wrong rows without end (rule
// 6), and a position whose only moves are such shuttles is never lost: about
// 14% of random games end in one. Random games that do end took at most 333
// steps over 20,000 deals (99.9% within 170), so 500 lets every purposeful
// game finish and cuts endless shuttling short.
const DefaultMaxSteps = 500

var spec = &env.Spec{
	Name:         "royalparade",
	Title:        "Royal Parade",
	Summary:      "3 rows of 8 for 2s, 3s and 4s built up by threes in suit, aces dead, 8 auxiliary piles fed by 10 deals",
	RulesVersion: RulesVersion,
	Actions:      NumActions,
	ActionRanges: []env.ActionRange{
		{First: ActMove, Last: ActDeal - 1, Meaning: "source s to cell d: id = 24*s + d; s 0..23 a cell (row*8+col), 24..31 auxiliary pile s-23; a base cell is built on, an empty cell takes a 2/3/4"},
		{First: ActDeal, Last: ActDeal, Meaning: "deal one stock card onto each of the 8 auxiliary piles"},
	},
	ObsLen: ObsLen,
	Segments: []env.Segment{
		{Name: "cells", Offset: ObsCells, Len: NumCells, Card: true, Max: 53, Doc: "top card of the 24 rectangle cells, row by row (row 1 for 2s, 2 for 3s, 3 for 4s), 0 = empty"},
		{Name: "heights", Offset: ObsHeights, Len: NumCells, Max: PileCards, Doc: "cards in each cell's base pile, 1..4 (4 = complete); 0 = empty cell or loose card"},
		{Name: "aux", Offset: ObsAux, Len: NumAux * MaxAux, Card: true, Max: 53, Doc: "8 auxiliary piles x 10 cards from the bottom, all face up, 0 = none; the last card of a pile is its available top"},
		{Name: "stock", Offset: ObsStock, Len: 1, Max: StockSize, Doc: "cards left in the stock (8 per deal left)"},
		{Name: "aces", Offset: ObsAces, Len: cards.NumSuits, Max: 2, Doc: "discarded (dead) aces per suit: clubs, diamonds, hearts, spades"},
	},
	MaxSteps: DefaultMaxSteps,
	Hidden:   true,
	Cards:    cards.DeckSize,
	Terms:    terms,
}

func init() { env.RegisterGame(spec, New) }

// Spec returns the game's description.
func Spec() *env.Spec { return spec }

// Game is a Royal Parade position.
type Game struct {
	cell  [NumCells]cards.Card // top card of each cell, None if empty
	high  [NumCells]uint8      // base pile height 1..4; 0 for empty or loose
	aux   [NumAux][MaxAux]cards.Card
	an    [NumAux]uint8
	stock [StockSize]cards.Card // stock[dealt:] is the stock, dealt from the front
	dealt uint8
	aces  [cards.NumSuits]uint8 // discarded aces per suit
	full  uint8                 // complete piles
	hash  uint64
}

var (
	keysCell  = zobrist.NewCardKeys(0x7e9a_0001, NumCells*(PileCards+1))
	keysAux   = zobrist.NewCardKeys(0x7e9a_0002, NumAux*MaxAux)
	keysStock = zobrist.NewCardKeys(0x7e9a_0003, StockSize)
	keysAces  = zobrist.Table(0x7e9a_0004, cards.NumSuits*3)
)

func cellKey(i int, c cards.Card, h uint8) uint64 {
	if c == cards.None {
		return 0
	}
	return keysCell.Key(i*(PileCards+1)+int(h), c)
}

func stockKey(i int, c cards.Card) uint64 { return keysStock.Key(i, c) }

// baseRank returns the rank of the base of row r (0-based): 2, 3 or 4.
func baseRank(r int) cards.Rank { return cards.Rank(r + 2) }

// RowOf returns the row (0-based) a card of rank r (2..13) is built in:
// 2-5-8-J row 0, 3-6-9-Q row 1, 4-7-10-K row 2.
func RowOf(r cards.Rank) int { return int(r-2) % 3 }

// IsBase reports whether rank r is a base rank (2, 3 or 4).
func IsBase(r cards.Rank) bool { return r >= 2 && r <= 4 }

// decode splits a move id into its source (0..31) and destination cell.
func decode(a int) (src, dst int) { return (a - ActMove) / NumCells, (a - ActMove) % NumCells }

// NextOnPile returns the card that builds on a base pile with top c (same
// suit, three ranks higher).
func NextOnPile(c cards.Card) cards.Card { return c + 3 }

// New returns an empty game (no cards anywhere, the stock empty); call Deal
// before playing.
func New() *Game { return &Game{dealt: StockSize} }

// Spec returns the game's description.
func (g *Game) Spec() *env.Spec { return spec }

// Deal sets up deal number seed (see the package doc).
func (g *Game) Deal(seed uint64) {
	d := cards.Deal(seed)
	*g = Game{}
	for i := range NumCells {
		g.place(i, d[i])
	}
	copy(g.stock[:], d[NumCells:])
	g.refresh()
}

// place puts card c into empty cell i as the rules say: an ace is discarded,
// a 2/3/4 in its own row is a base, anything else is loose. It does not keep
// the hash.
func (g *Game) place(i int, c cards.Card) {
	switch {
	case c.Rank() == cards.Ace:
		g.aces[c.Suit()]++
	case IsBase(c.Rank()) && RowOf(c.Rank()) == i/Cols:
		g.cell[i], g.high[i] = c, 1
	default:
		g.cell[i], g.high[i] = c, 0
	}
}

// refresh recomputes the complete-pile count and the hash.
func (g *Game) refresh() {
	g.full = 0
	for _, h := range g.high {
		if h == PileCards {
			g.full++
		}
	}
	g.hash = g.fullHash()
}

// Clear empties the table, the auxiliary piles and the stock and forgets the
// discarded aces (for tests and tools, to set a position up with SetCell,
// SetAux, SetStock and SetAces).
func (g *Game) Clear() { *g = Game{dealt: StockSize} }

// SetCell sets cell i (0..23, row*8+col) for tests and tools: None empties
// it; with base false, top lies there as a loose card; with base true, top is
// the top card of a base pile in its own row, whose height follows from its
// rank (5♠ in row 1 is the pile 2♠ 5♠). It refuses an ace, a base pile whose
// top does not belong to the row, and a loose 2/3/4 in its own row (that is
// a base).
func (g *Game) SetCell(i int, top cards.Card, base bool) error {
	if i < 0 || i >= NumCells {
		return fmt.Errorf("no cell %d (cells are 0..%d)", i, NumCells-1)
	}
	row := i / Cols
	switch {
	case top == cards.None:
		g.cell[i], g.high[i] = cards.None, 0
	case !top.Valid():
		return fmt.Errorf("card code %d is not a card", top)
	case top.Rank() == cards.Ace:
		return fmt.Errorf("%v is dead: aces never lie in the rectangle", top)
	case base:
		if RowOf(top.Rank()) != row {
			return fmt.Errorf("%v is not built in row %d", top, row+1)
		}
		g.cell[i], g.high[i] = top, uint8((top.Rank()-baseRank(row))/3+1)
	default:
		if IsBase(top.Rank()) && RowOf(top.Rank()) == row {
			return fmt.Errorf("%v in row %d is a base, not a loose card", top, row+1)
		}
		g.cell[i], g.high[i] = top, 0
	}
	g.refresh()
	return nil
}

// SetAux sets auxiliary pile p (0..7) to the given cards, bottom first, for
// tests and tools. It refuses aces and more than 10 cards.
func (g *Game) SetAux(p int, cs ...cards.Card) error {
	if p < 0 || p >= NumAux {
		return fmt.Errorf("no auxiliary pile %d (piles are 0..%d)", p, NumAux-1)
	}
	if len(cs) > MaxAux {
		return fmt.Errorf("an auxiliary pile holds at most %d cards, not %d", MaxAux, len(cs))
	}
	for _, c := range cs {
		if !c.Valid() || c.Rank() == cards.Ace {
			return fmt.Errorf("%v cannot lie on an auxiliary pile", c)
		}
	}
	g.aux[p] = [MaxAux]cards.Card{}
	copy(g.aux[p][:], cs)
	g.an[p] = uint8(len(cs))
	g.refresh()
	return nil
}

// SetStock sets the stock, in the order it will be dealt, for tests and
// tools. Its length must be a multiple of 8, at most 80.
func (g *Game) SetStock(cs ...cards.Card) error {
	if len(cs)%NumAux != 0 || len(cs) > StockSize {
		return fmt.Errorf("the stock holds a multiple of %d cards up to %d, not %d", NumAux, StockSize, len(cs))
	}
	for _, c := range cs {
		if !c.Valid() {
			return fmt.Errorf("card code %d is not a card", c)
		}
	}
	g.stock = [StockSize]cards.Card{}
	g.dealt = uint8(StockSize - len(cs))
	copy(g.stock[g.dealt:], cs)
	g.refresh()
	return nil
}

// SetAces sets the number of discarded aces of each suit (0..2), for tests
// and tools.
func (g *Game) SetAces(clubs, diamonds, hearts, spades int) error {
	n := [cards.NumSuits]int{clubs, diamonds, hearts, spades}
	for s, k := range n {
		if k < 0 || k > 2 {
			return fmt.Errorf("%d aces of %v: there are two", k, cards.Suit(s))
		}
		g.aces[s] = uint8(k)
	}
	g.refresh()
	return nil
}

// Cell returns the top card of cell i and the height of its base pile (0 for
// a loose card or an empty cell).
func (g *Game) Cell(i int) (top cards.Card, height int) { return g.cell[i], int(g.high[i]) }

// Aux returns auxiliary pile p, bottom first. The slice aliases the game.
func (g *Game) Aux(p int) []cards.Card { return g.aux[p][:g.an[p]] }

// StockLen returns the number of cards left in the stock.
func (g *Game) StockLen() int { return StockSize - int(g.dealt) }

// Stock returns the cards left in the stock in deal order (hidden
// information, for tests and tools). The slice aliases the game.
func (g *Game) Stock() []cards.Card { return g.stock[g.dealt:] }

// AcesOut returns the number of discarded aces.
func (g *Game) AcesOut() int {
	return int(g.aces[0]) + int(g.aces[1]) + int(g.aces[2]) + int(g.aces[3])
}

// Complete returns the number of complete piles.
func (g *Game) Complete() int { return int(g.full) }

// Progress returns the cards in complete piles plus the discarded aces. When
// all 24 piles are complete the game is won and it is 104: the stock can then
// hold nothing but the last aces, which the win removes with it.
func (g *Game) Progress() int {
	if g.full == NumCells {
		return cards.DeckSize
	}
	return PileCards*int(g.full) + g.AcesOut()
}

// Won reports whether all 24 piles are complete (rule 9).
func (g *Game) Won() bool { return g.full == NumCells }

// Observe writes the observation into dst.
func (g *Game) Observe(dst []uint8) {
	copy(dst[ObsCells:], cards.Bytes(g.cell[:]))
	copy(dst[ObsHeights:ObsHeights+NumCells], g.high[:])
	for p := range NumAux {
		copy(dst[ObsAux+p*MaxAux:], cards.Bytes(g.aux[p][:]))
	}
	dst[ObsStock] = uint8(g.StockLen())
	copy(dst[ObsAces:ObsAces+cards.NumSuits], g.aces[:])
}

// Inventory appends all 104 cards: the piles card by card, the loose cards,
// the auxiliary piles, the stock and the discarded aces.
func (g *Game) Inventory(dst []cards.Card) []cards.Card {
	for i, c := range g.cell {
		if c == cards.None {
			continue
		}
		if h := int(g.high[i]); h > 0 {
			base := baseRank(i / Cols)
			for k := range h {
				dst = append(dst, cards.New(c.Suit(), base+cards.Rank(3*k)))
			}
			continue
		}
		dst = append(dst, c)
	}
	for p := range NumAux {
		dst = append(dst, g.aux[p][:g.an[p]]...)
	}
	dst = append(dst, g.stock[g.dealt:]...)
	for s, k := range g.aces {
		for range k {
			dst = append(dst, cards.New(cards.Suit(s), cards.Ace))
		}
	}
	return dst
}

// Hash returns the state's Zobrist hash (kept up to date by every move).
func (g *Game) Hash() uint64 { return g.hash }

func (g *Game) fullHash() uint64 {
	h := g.CellsHash()
	for p := range NumAux {
		h ^= keysAux.Pile(g.aux[p][:g.an[p]], p*MaxAux)
	}
	h ^= keysStock.Pile(g.stock[g.dealt:], int(g.dealt))
	for s, k := range g.aces {
		h ^= keysAces[s*3+int(k)]
	}
	return h
}

// CellsHash returns the part of Hash that the rectangle's cells give: Hash
// is CellsHash xor the keys of the auxiliary piles, the stock and the
// discarded aces. A search that keys positions by the cells' contents
// regardless of their order in a row replaces this part (for search and
// tools).
func (g *Game) CellsHash() uint64 {
	var h uint64
	for i, c := range g.cell {
		h ^= cellKey(i, c, g.high[i])
	}
	return h
}

// Clone returns an independent copy.
func (g *Game) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Game).
func (g *Game) CopyFrom(src env.Game) { *g = *src.(*Game) }

// Determinize reshuffles the stock: its cards are sorted, then shuffled with
// rng, so the result depends only on which cards are in the stock.
func (g *Game) Determinize(rng *cards.Rand) {
	s := g.stock[g.dealt:]
	rng.Reshuffle(s)
	g.hash = g.fullHash()
}
