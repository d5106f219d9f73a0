// Package fourquarters implements Four Quarters («Четыре четверти», Charles
// Jewell), a two-deck pairing patience with a hidden stock (docs/rules/fourquarters.md), as an
// env.Game registered as "fourquarters".
//
// # Geometry
//
// The cross lies on a 14×14 grid of rows r and columns c (0–13, row 0 at the
// top). Four arms of 2×6 cells surround an empty 2×2 hub (r 6–7, c 6–7):
//
//	N arm: r 0–5,  c 6–7      S arm: r 8–13, c 6–7
//	W arm: r 6–7,  c 0–5      E arm: r 6–7,  c 8–13
//
// Each arm is one quarter of 12 cells in two files of 6 running along the arm;
// a cell's distance from the hub is d = 0…5. The lower file (file 0) is the
// one with the smaller column index in the N and S arms (column 6, the left
// file on the screen) and the one with the smaller row index in the E and W
// arms (row 6, the upper file on the screen); file 1 is the other. Cell (d, f)
// of an arm sits at
//
//	N: r = 5−d, c = 6+f     E: r = 6+f, c = 8+d
//	S: r = 8+d, c = 6+f     W: r = 6+f, c = 5−d
//
// Cells are numbered in the deal order of rule 1: arms N, E, S, W; within an
// arm by d = 0…5; within a d, file 0 first. Cell i of arm a (0-based) is
// global cell 12a+i with d = i/2 and f = i%2, and a person names it by the arm
// letter and i+1: N1 (d 0, file 0), N2 (d 0, file 1), N3 (d 1, file 0), …,
// N12 (d 5, file 1). Odd names lie in file 0, even names in file 1. The arms
// touch one another only diagonally at the four inner corners of the cross:
// N1–W1, N2–E1, S1–W2 and S2–E2; those cells touch but never pair, since a
// pair belongs to one quarter.
//
// # Deal
//
// Cards 0…47 of cards.Deal(seed) fill cells 0…47 in the order above. Cards
// 48…103 are the stock, face down, drawn from deal index 48 upwards: the next
// card drawn is always the lowest-indexed card of the deal still in the stock.
//
// # Actions (105)
//
//	ids        meaning                                      name
//	0..103     remove a pair: id = 26*arm + k, arm in       "N3-N4"
//	           N, E, S, W order, k one of the arm's 26
//	           pairs of touching cells (below)
//	104        close up (rule 3)                            "close"
//
// The 26 pairs of an arm (10 along the files, 6 across, 10 diagonal) are
// listed in increasing order of (first cell, second cell): for d = 0…4, the
// five pairs k = 5d … 5d+4 are (2d+1, 2d+2), (2d+1, 2d+3), (2d+1, 2d+4),
// (2d+2, 2d+3), (2d+2, 2d+4) in 1-based cell numbers, and k = 25 is (11, 12).
// So N's pairs are N1-N2, N1-N3, N1-N4, N2-N3, N2-N4, N3-N4, N3-N5, …,
// N11-N12. A person may type a pair in either order and with a space, a dash
// or a comma ("N3 N4", "n4-n3", "N3-4"); "close" closes up.
//
// # Observation (101 cells)
//
//	cells     48  card codes of the 48 cells in cell order (N1…N12, E1…E12,
//	              S1…S12, W1…W12), 0 = empty; every card on the cross is face
//	              up
//	stock      1  cards left in the stock, 0…56 (their order is hidden)
//	removed   52  copies of each card (codes 1…52 in order) removed so far,
//	              0…2: the discarded pairs are seen by everyone
//
// # Result
//
// Won() is true only for the first-class win (all 104 cards removed), so that
// a win returns exactly 1. When no move is left with 2 or 4 cards still on the
// cross the game ends as a second-class win: the Env reports the episode as
// lost (it is not Won) and Class() returns "second-class". Class() returns
// "first-class" after the first-class win and "" otherwise: while the game
// runs and at an ordinary loss (the Env's outcome already says lost).
//
// # Variant
//
// The variant "hub" (env.Options{Variant: "hub"}, or the game name
// "fourquarters:hub") adds a fifth group to rule 2: any two cards of equal
// rank in the eight cells next to the hub (N1, N2, E1, E2, S1, S2, W1, W2)
// pair, across quarters. Its action space is the default's 104 pairs, the
// 24 new pairs (ids 104..127) and closing up (128); everything else is as in
// the default rules. Its Spec has Variant "hub" and rules "v1+hub"; the
// default game is unchanged. See SetVariant.
//
// # Search
//
// What a search knows of Four Quarters beyond these rules (a dead test)
// lives beside the solver, in package solver/fourquarters. No move is
// safe to play without trying the others: removing a pair changes how the
// next close-up slides the files.
package fourquarters

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/zobrist"
)

// Layout constants.
const (
	NumArms    = 4                   // N, E, S, W
	ArmLen     = 6                   // cells along a file, d = 0…5
	ArmCells   = 2 * ArmLen          // cells of one arm (a quarter)
	NumCells   = NumArms * ArmCells  // cells of the cross
	StockSize  = cards.DeckSize - 48 // cards in the stock after the deal
	ArmPairs   = 26                  // touching cell pairs in one arm
	NumPairs   = NumArms * ArmPairs  // pair actions
	ActPair    = 0                   // first pair action
	ActClose   = ActPair + NumPairs  // the close-up action
	NumActions = ActClose + 1        // size of the action space
	ObsCells   = 0                   // offset of the cells segment
	ObsStock   = ObsCells + NumCells // offset of the stock counter
	ObsRemoved = ObsStock + 1        // offset of the removed counters
	ObsLen     = ObsRemoved + 52     // observation length
	GridSize   = 14                  // rows and columns of the picture
)

const (
	fullCells   = uint64(1)<<NumCells - 1 // occupancy of a full cross
	armLetters  = "NESW"                  // arm letters in arm order
	numFiles    = NumArms * 2             // files of the cross
	nibbleLow   = 0x1111_1111_1111        // bit 0 of each of 12 nibbles
	maxStepsDef = 128                     // default step limit (see spec)
)

// RulesVersion is the version of the rules this package implements.
const RulesVersion = 1

var spec = &env.Spec{
	Name:         "fourquarters",
	Title:        "Four Quarters",
	Summary:      "48 cards in a cross of four 2x6 arms; remove touching pairs of equal rank within an arm, close up toward the hub and refill from the stock",
	RulesVersion: RulesVersion,
	Actions:      NumActions,
	ActionRanges: []env.ActionRange{
		{First: ActPair, Last: ActClose - 1, Meaning: "remove the pair of touching cells k (0..25, ordered by first then second cell) of arm a (N, E, S, W): id = 26*a + k"},
		{First: ActClose, Last: ActClose, Meaning: "close up: every file slides toward the hub, then empty cells are refilled from the stock in cell order"},
	},
	ObsLen: ObsLen,
	Segments: []env.Segment{
		{Name: "cells", Offset: ObsCells, Len: NumCells, Card: true, Max: 53, Doc: "card codes of the 48 cells N1..N12, E1..E12, S1..S12, W1..W12 (cell i of an arm: d = i/2 from the hub, file i%2), 0 = empty"},
		{Name: "stock", Offset: ObsStock, Len: 1, Max: StockSize, Doc: "cards left in the stock (0..56)"},
		{Name: "removed", Offset: ObsRemoved, Len: 52, Max: 2, Doc: "copies of each card code 1..52 removed so far (0..2)"},
	},
	// Every close-up leaves nothing for another close-up to change until a
	// pair is removed, and the deal starts with a full cross, so a game has
	// at most 52 pairs and 52 close-ups: 104 steps. The limit is never
	// reached by a dealt game.
	MaxSteps: maxStepsDef,
	Hidden:   true,
	Cards:    cards.DeckSize,
	Terms:    terms,
}

func init() { env.RegisterGame(spec, New) }

// Spec returns the game's description.
func Spec() *env.Spec { return spec }

// Geometry tables, built once in init.
var (
	// pairCells[p] holds the two global cells of pair action p, the lower
	// first.
	pairCells [NumPairs][2]uint8
	// armPairs[k] holds the two cells (0…11 within the arm) of an arm's
	// pair k; the same for every arm.
	armPairs [ArmPairs][2]uint8
	// offsetPair[s][k] is the arm pair of cells k and k+s (s = 1, 2, 3);
	// offsetCells[s] has bit 4k set for every k where that pair exists.
	offsetPair  [4][ArmCells]uint8
	offsetCells [4]uint64
	// pairIndex[i][j] is the pair action of global cells i < j, or -1.
	pairIndex [NumCells][NumCells]int8
	// cellRow and cellCol place each cell on the 14×14 grid.
	cellRow, cellCol [NumCells]uint8
	// rankOf maps a card code to its rank (0 for no card).
	rankOf [cards.NumCodes]uint8
)

func init() {
	for i := range NumCells {
		a, k := i/ArmCells, i%ArmCells
		d, f := k/2, k%2
		var r, c int
		switch a {
		case 0:
			r, c = 5-d, 6+f
		case 1:
			r, c = 6+f, 8+d
		case 2:
			r, c = 8+d, 6+f
		default:
			r, c = 6+f, 5-d
		}
		cellRow[i], cellCol[i] = uint8(r), uint8(c)
	}
	for i := range pairIndex {
		for j := range pairIndex[i] {
			pairIndex[i][j] = -1
		}
	}
	p := 0
	for a := range NumArms {
		for i := a * ArmCells; i < (a+1)*ArmCells; i++ {
			for j := i + 1; j < (a+1)*ArmCells; j++ {
				if touch(i, j) {
					pairCells[p] = [2]uint8{uint8(i), uint8(j)}
					pairIndex[i][j] = int8(p)
					p++
				}
			}
		}
	}
	if p != NumPairs {
		panic("fourquarters: wrong number of pairs")
	}
	for k := range armPairs {
		armPairs[k] = pairCells[k] // arm N's cells are 0…11
		i, j := armPairs[k][0], armPairs[k][1]
		s := j - i
		if s < 1 || s > 3 {
			panic("fourquarters: a pair more than three cells apart")
		}
		offsetPair[s][i] = uint8(k)
		offsetCells[s] |= 1 << (4 * i)
	}
	for c := 1; c <= 52; c++ {
		rankOf[c] = uint8(cards.Card(c).Rank())
	}
}

// touch reports whether two distinct cells touch by a side or a corner on the
// grid.
func touch(i, j int) bool {
	dr := int(cellRow[i]) - int(cellRow[j])
	dc := int(cellCol[i]) - int(cellCol[j])
	return i != j && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1
}

// CellAt returns the global cell at grid row r and column c, or -1 for the
// hub and the empty corners of the grid.
func CellAt(r, c int) int {
	for i := range NumCells {
		if int(cellRow[i]) == r && int(cellCol[i]) == c {
			return i
		}
	}
	return -1
}

// CellPos returns the grid row and column of global cell i.
func CellPos(i int) (r, c int) { return int(cellRow[i]), int(cellCol[i]) }

// PairCells returns the two global cells of pair action p (0 ≤ p < NumPairs),
// the lower first.
func PairCells(p int) (i, j int) { return int(pairCells[p][0]), int(pairCells[p][1]) }

// Game is a Four Quarters position.
type Game struct {
	cells   [NumCells]cards.Card
	stock   [StockSize]cards.Card // stock[next:] is the stock, drawn from next up
	next    uint8
	gone    [52]uint8 // copies of each card removed, indexed by code-1
	removed uint8     // cards removed
	occ     uint64    // bit i set when cell i holds a card
	hash    uint64
	// variant is the variant of the rules (see SetVariant); "" is the
	// default. pairs is its pair table (nil for the default rules), looked
	// up once by SetVariant rather than at every move.
	variant string
	pairs   *pairTable
}

var (
	keysCell  = zobrist.NewCardKeys(0xf04a_0001, NumCells)
	keysStock = zobrist.NewCardKeys(0xf04a_0002, StockSize)
)

func cellKey(i int, c cards.Card) uint64  { return keysCell.Key(i, c) }
func stockKey(i int, c cards.Card) uint64 { return keysStock.Key(i, c) }

// New returns an empty game; call Deal before playing.
func New() *Game { return &Game{} }

// Deal sets up deal number seed: deal cards 0…47 into cells 0…47, the rest
// into the stock in deal order.
func (g *Game) Deal(seed uint64) {
	d := cards.Deal(seed)
	*g = Game{variant: g.variant, pairs: g.pairs}
	for i := range NumCells {
		g.cells[i] = d[i]
	}
	copy(g.stock[:], d[NumCells:])
	g.finish()
}

// Setup lays out a position directly (for tests and tools): cells holds the
// 48 cells in cell order (cards.None for an empty cell) and stock the stock
// cards, the next to be drawn first (at most 56). The removed cards are taken
// to be the rest of the double deck: for each card, two copies less those on
// the cross and in the stock (never below zero).
func (g *Game) Setup(cells [NumCells]cards.Card, stock []cards.Card) {
	*g = Game{variant: g.variant, pairs: g.pairs}
	g.cells = cells
	if len(stock) > StockSize {
		stock = stock[:StockSize]
	}
	g.next = uint8(StockSize - len(stock))
	copy(g.stock[g.next:], stock)
	g.finish()
}

// finish derives the occupancy, the removed cards and the hash from the cells
// and the stock.
func (g *Game) finish() {
	var have [cards.NumCodes]int
	g.occ = 0
	for i, c := range g.cells {
		if !c.Valid() {
			g.cells[i] = cards.None
			continue
		}
		g.occ |= 1 << i
		have[c]++
	}
	for _, c := range g.stock[g.next:] {
		have[c]++
	}
	on := 0
	for c := 1; c <= 52; c++ {
		g.gone[c-1] = uint8(max(0, 2-have[c]))
		on += have[c]
	}
	g.removed = uint8(max(0, cards.DeckSize-on))
	g.hash = g.fullHash()
}

// Cells returns the 48 cells in cell order (cards.None when empty). The slice
// aliases the game.
func (g *Game) Cells() []cards.Card { return g.cells[:] }

// Stock returns the cards of the stock, the next to be drawn first: hidden
// cards, for tools and a clairvoyant search. The slice aliases the game.
func (g *Game) Stock() []cards.Card { return g.stock[g.next:] }

// StockLeft returns the number of cards in the stock.
func (g *Game) StockLeft() int { return StockSize - int(g.next) }

// Removed returns the number of cards removed.
func (g *Game) Removed() int { return int(g.removed) }

// Progress returns the number of cards removed.
func (g *Game) Progress() int { return int(g.removed) }

// Won reports the first-class win: every card removed.
func (g *Game) Won() bool { return g.removed == cards.DeckSize }

// Observe writes the observation into dst.
func (g *Game) Observe(dst []uint8) {
	copy(dst[ObsCells:ObsCells+NumCells], cards.Bytes(g.cells[:]))
	dst[ObsStock] = uint8(g.StockLeft())
	copy(dst[ObsRemoved:ObsRemoved+52], g.gone[:])
}

// Inventory appends all 104 cards: the cross, the stock and the removed
// cards.
func (g *Game) Inventory(dst []cards.Card) []cards.Card {
	for _, c := range g.cells {
		if c != cards.None {
			dst = append(dst, c)
		}
	}
	dst = append(dst, g.stock[g.next:]...)
	for i, n := range g.gone {
		for range n {
			dst = append(dst, cards.Card(i+1))
		}
	}
	return dst
}

// Hash returns the state's Zobrist hash (kept up to date by every move).
func (g *Game) Hash() uint64 { return g.hash }

func (g *Game) fullHash() uint64 {
	var h uint64
	for i, c := range g.cells {
		if c != cards.None {
			h ^= cellKey(i, c)
		}
	}
	h ^= keysStock.Pile(g.stock[g.next:], int(g.next))
	return h
}

// Clone returns an independent copy.
func (g *Game) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Game).
func (g *Game) CopyFrom(src env.Game) { *g = *src.(*Game) }

// Determinize reshuffles the stock, the only hidden cards: it sorts them
// (forgetting their current order) and shuffles them with rng.
func (g *Game) Determinize(rng *cards.Rand) {
	s := g.stock[g.next:]
	rng.Reshuffle(s)
	g.hash = g.fullHash()
}
