// Package cromwell implements Cromwell (Charles Jewell), a two-deck patience of
// perfect information (docs/rules/cromwell.md), as an env.Game registered as "cromwell".
//
// # Deal
//
// The 104 cards of cards.Deal(seed) are dealt round by round into 26 fans of 4:
// card i goes to fan i%26 at depth i/26, so the last-dealt card of each fan is
// its top, the only available card.
//
// # Actions (1119)
//
//	ids          meaning                                   name
//	0..25        fan f to a foundation (f = id)            "7>F"
//	26..701      fan s onto fan d: id = 26 + 26*s + d;     "7>12"
//	             the part of s's top run that fits d moves
//	             (s = d is never legal)
//	702          begin the swap                            "swap"
//	703..1118    swap pick: id = 703 + 16*f + k picks the  "pick 7:3"
//	             card at depth k of fan f (k = 0 is the
//	             deepest card)
//
// Fans are numbered 1..26 and depths 1..16 from the bottom in names, 0-based
// in ids. The swap of rule 7 takes three actions: "swap" begins it (one
// action, so that the 104 possible first cards do not crowd every mask), the
// first pick chooses a card, the second pick chooses the other card, which
// must differ from the first in suit or rank; the two cards then exchange
// places. While a swap is under way only its picks are legal, and the
// observation's swap segment shows its stage and the first pick. A person
// types "swap 7:3 20:4" for all three at once. The swap is made before any
// fan can grow beyond 16 cards, so 16 depths cover every pick.
//
// # Observation (739 cells)
//
//	fans         728  26 fans x 28 depths, card codes from the bottom (0 empty).
//	                  A fan can reach 28 cards only after the swap: before
//	                  it, a fan is at most 3 dealt cards under a dealt king
//	                  with Q..A built on it (16); the swap can put a king on
//	                  top of such a fan and Q..A can follow (28).
//	foundations    8  top card of each foundation, two per suit in suit order
//	                  (clubs, diamonds, hearts, spades), the higher first
//	swap           3  [stage: 0 unused, 1 choosing the first card, 2 choosing
//	                  the second, 3 used; first pick's fan 1..26 and depth
//	                  1..16 during stage 2, else 0]
//
// # Variant
//
// The variant "noswap" (env.Options{Variant: "noswap"}, or the game name
// "cromwell:noswap") is Cromwell without rule 7: the swap is never offered,
// and the observation's swap segment shows it used (stage 3) from the deal
// on. Its Spec has Variant "noswap" and rules "v1+noswap"; the default game
// is unchanged.
//
// # Search
//
// What a search knows of Cromwell beyond these rules (safe moves, dead
// tests, pruning, the hooked swap) lives beside the solver, in package
// solver/cromwell, which reads the position through the accessors of
// position.go.
package cromwell

import (
	"unsafe"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/zobrist"
)

// Layout constants.
const (
	NumFans     = 26
	MaxDepth    = 28 // the deepest a fan can ever grow
	SwapDepth   = 16 // the deepest a fan can be while the swap is unused
	Foundations = 8

	ActFoundation = 0
	ActMove       = ActFoundation + NumFans
	ActSwapBegin  = ActMove + NumFans*NumFans
	ActSwap       = ActSwapBegin + 1
	NumActions    = ActSwap + NumFans*SwapDepth

	ObsFans        = 0
	ObsFoundations = ObsFans + NumFans*MaxDepth
	ObsSwap        = ObsFoundations + Foundations
	ObsLen         = ObsSwap + 3
)

// RulesVersion is the version of the rules this package implements.
const RulesVersion = 1

var spec = &env.Spec{
	Name:         "cromwell",
	Title:        "Cromwell",
	Summary:      "26 open fans of 4, build down in suit, move runs, one swap of any two cards",
	RulesVersion: RulesVersion,
	Actions:      NumActions,
	ActionRanges: []env.ActionRange{
		{First: ActFoundation, Last: ActMove - 1, Meaning: "fan f to its foundation: id = f"},
		{First: ActMove, Last: ActSwapBegin - 1, Meaning: "fan s onto fan d: id = 26 + 26*s + d (the fitting part of s's top run moves)"},
		{First: ActSwapBegin, Last: ActSwapBegin, Meaning: "begin the swap (then two picks)"},
		{First: ActSwap, Last: NumActions - 1, Meaning: "swap pick of the card at depth k (0 = deepest) of fan f: id = 703 + 16*f + k"},
	},
	ObsLen: ObsLen,
	Segments: []env.Segment{
		{Name: "fans", Offset: ObsFans, Len: NumFans * MaxDepth, Card: true, Max: 53, Doc: "26 fans x 28 cells, card codes from the deepest card up, 0 = empty"},
		{Name: "foundations", Offset: ObsFoundations, Len: Foundations, Card: true, Max: 53, Doc: "top card of the 8 foundations, two per suit (clubs, diamonds, hearts, spades), the higher first"},
		{Name: "swap", Offset: ObsSwap, Len: 3, Max: NumFans, Doc: "swap stage (0 unused, 1 choosing the first card, 2 choosing the second, 3 used), first pick's fan 1..26 and depth 1..16 in stage 2 (else 0)"},
	},
	MaxSteps: 1000,
	Hidden:   false,
	Cards:    cards.DeckSize,
	Terms:    terms,
}

func init() { env.RegisterGame(spec, New) }

// Spec returns the game's description.
func Spec() *env.Spec { return spec }

// Game is a Cromwell position.
type Game struct {
	fans  [NumFans][MaxDepth]cards.Card
	n     [NumFans]uint8
	run   [NumFans]uint8 // length of the descending same-suit run on top of each fan
	found cards.Foundations
	home  int
	swap  SwapStage
	pick  int16 // the first pick in stage SwapSecond: 16*fan + depth, else -1
	hash  uint64
	// kings and pairs are Evaluate's tallies over all fans, kept up to
	// date by every change of a fan (push, pop, set, Setup): the depths
	// of the kings above their fan's bottom, and the cards lying above a
	// lower card of their own suit in the same fan.
	kings, pairs int
	// noswap selects the variant without the swap (see SetVariant): the
	// swap is then marked used from the deal on.
	noswap bool
}

var (
	keysCard  = zobrist.NewCardKeys(0xc401_0001, NumFans*MaxDepth)
	keysFound = zobrist.Table(0xc401_0002, Foundations*14)
	// keysSwap: [0] stage SwapFirst, [1] SwapDone, [3+pick] SwapSecond
	// with its first pick; [2] is not used (kept, so that no hash changes).
	keysSwap = zobrist.Table(0xc401_0003, 3+NumFans*SwapDepth)
)

// SwapStage is the stage of the swap of rule 7, as the observation's swap
// segment shows it.
type SwapStage uint8

// The stages of the swap.
const (
	// SwapUnused: the swap may still be made.
	SwapUnused SwapStage = iota
	// SwapFirst: the swap is begun, its first card is being picked.
	SwapFirst
	// SwapSecond: the first card is picked (FirstPick), the second is
	// being picked.
	SwapSecond
	// SwapDone: the swap is made, or, in the variant noswap, never offered.
	SwapDone
)

func cardKey(f, d int, c cards.Card) uint64 { return keysCard.Key(f*MaxDepth+d, c) }

// New returns an empty game; call Deal before playing.
func New() *Game { return &Game{pick: -1} }

// Deal sets up deal number seed.
func (g *Game) Deal(seed uint64) {
	d := cards.Deal(seed)
	g.Setup(func(f, k int) cards.Card { return d[k*NumFans+f] }, 4)
}

// Setup lays out a position directly (for tests and tools): fan f gets the
// cards card(f, 0..n-1) from the deepest up, while card returns a real card;
// the foundations are empty and the swap unused. Use SetFoundation and
// SetSwapUsed to complete the position.
func (g *Game) Setup(card func(f, k int) cards.Card, depth int) {
	*g = Game{pick: -1, noswap: g.noswap}
	if g.noswap {
		g.swap = SwapDone
	}
	for f := range NumFans {
		for k := 0; k < depth && k < MaxDepth; k++ {
			c := card(f, k)
			if !c.Valid() {
				break
			}
			g.fans[f][k] = c
			g.n[f]++
		}
		g.run[f] = uint8(g.runLen(f))
		k, p := g.tally(f)
		g.kings += k
		g.pairs += p
	}
	g.hash = g.fullHash()
}

// runLen returns the length of the descending same-suit run at the top of fan
// f (0 for an empty fan).
func (g *Game) runLen(f int) int {
	n := int(g.n[f])
	if n == 0 {
		return 0
	}
	k := 1
	for k < n && follows(g.fans[f][n-k-1], g.fans[f][n-k]) {
		k++
	}
	return k
}

// follows reports that card up, lying on card down, continues a run: the
// same suit, one rank lower.
func follows(down, up cards.Card) bool {
	return down.Suit() == up.Suit() && down.Rank() == up.Rank()+1
}

// SetFans lays out fans from lists of cards, deepest first, for tests. Fans
// not given are empty.
func (g *Game) SetFans(fans ...[]cards.Card) {
	g.Setup(func(f, k int) cards.Card {
		if f < len(fans) && k < len(fans[f]) {
			return fans[f][k]
		}
		return cards.None
	}, MaxDepth)
}

// SetFoundation sets the two foundations of suit s to the given top ranks (0
// for empty), for tests.
func (g *Game) SetFoundation(s cards.Suit, a, b cards.Rank) {
	g.found.Set(s, a, b)
	g.home = g.found.Count()
	g.hash = g.fullHash()
}

// SetSwapUsed marks the swap used (or unused), for tests. In the variant
// without the swap it stays used.
func (g *Game) SetSwapUsed(used bool) {
	g.swap = SwapUnused
	if used || g.noswap {
		g.swap = SwapDone
	}
	g.pick = -1
	g.hash = g.fullHash()
}

// Fan returns the cards of fan f (0-based), deepest first. The slice aliases
// the game.
func (g *Game) Fan(f int) []cards.Card { return g.fans[f][:g.n[f]] }

// SwapUsed reports whether the swap has been made.
func (g *Game) SwapUsed() bool { return g.swap == SwapDone }

// Progress returns the cards on foundations.
func (g *Game) Progress() int { return g.home }

// Won reports whether all cards are on foundations.
func (g *Game) Won() bool { return g.home == cards.DeckSize }

// Observe writes the observation into dst.
func (g *Game) Observe(dst []uint8) {
	// The fans array is laid out exactly like the segment: one copy.
	copy(dst[ObsFans:ObsFans+NumFans*MaxDepth], unsafe.Slice((*uint8)(unsafe.Pointer(&g.fans)), NumFans*MaxDepth))
	g.found.Observe(dst[ObsFoundations:])
	dst[ObsSwap], dst[ObsSwap+1], dst[ObsSwap+2] = uint8(g.swap), 0, 0
	if g.swap == SwapSecond {
		dst[ObsSwap+1] = uint8(g.pick/SwapDepth) + 1
		dst[ObsSwap+2] = uint8(g.pick%SwapDepth) + 1
	}
}

// Inventory appends all 104 cards.
func (g *Game) Inventory(dst []cards.Card) []cards.Card {
	for f := range NumFans {
		dst = append(dst, g.fans[f][:g.n[f]]...)
	}
	return g.found.AppendCards(dst)
}

// Hash returns the state's Zobrist hash (kept up to date by every move).
func (g *Game) Hash() uint64 { return g.hash }

func (g *Game) fullHash() uint64 {
	var h uint64
	for f := range NumFans {
		h ^= keysCard.Pile(g.fans[f][:g.n[f]], f*MaxDepth)
	}
	h ^= g.found.Key(keysFound)
	h ^= g.swapKey()
	return h
}

func (g *Game) swapKey() uint64 {
	switch g.swap {
	case SwapFirst:
		return keysSwap[0]
	case SwapSecond:
		return keysSwap[3+int(g.pick)]
	case SwapDone:
		return keysSwap[1]
	}
	return 0
}

// Clone returns an independent copy.
func (g *Game) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Game).
func (g *Game) CopyFrom(src env.Game) { *g = *src.(*Game) }
