// Package limited implements Limited («Ограниченный», an improved Napoleon at
// St Helena), a two-deck patience with a face-down stock (docs/rules/limited.md), as an
// env.Game registered as "limited".
//
// # Deal
//
// The first 36 cards of cards.Deal(seed) are dealt face up row by row into
// twelve columns of three: card i goes to column i%12 at depth i/12, so the
// cards 24..35 form the exposed third row. The other 68 cards (deal[36:104])
// are the face-down stock, turned in deal order: deal[36] is the first card
// turned onto the waste, deal[103] the last.
//
// # Columns
//
// A column holds its dealt cards (at most 3) or, once it has been emptied,
// at most one card put into the space; on top of that, at most one card
// paired onto its exposed card. Nothing goes on a pair, so a column never
// holds more than 3 + 1 = 4 cards. A flag per column says whether its top
// two cards form a pair: a pair's upper card may go only to a foundation and
// its lower card is not available until the upper one has gone.
//
// # Phases
//
// First deal: "turn" moves the next stock card onto the waste, whose top is
// available. One pass. Once the stock is empty the player may start the
// second deal ("deal", the [chosen] explicit move of rule 7): the waste is
// turned over without shuffling into the face-down pile (the first card that
// went onto the waste comes first) and its first four cards are laid face up
// as the privileged row, slots p1..p4. When a privileged card is used, its
// slot is refilled from the pile at once (rule 8). When no privileged card
// has any move, "fifth" turns the next pile card face up (rule 9): if it has
// a move, its moves are the only legal actions until it is played; if it has
// none the game is lost at once (the mask is empty and Class reports
// "fifth-card"), the card staying face up in view. Column moves stay legal in
// both deals except while a fifth card waits to be played.
//
// Choices where the rules are silent: the stock is turned in deal order (see
// above); a refilled privileged card takes the slot that was emptied; the
// second deal is not offered while the waste is empty (there would be nothing
// to deal); a card alone in its column is not offered a move to a space (the
// columns are interchangeable, so the move would change nothing but its
// number, and it would let play loop forever); a played fifth card does not
// refill the privileged row (no privileged card was used).
//
// # Actions (237)
//
//	ids        meaning                                        name
//	0..233     source s to destination d: id = 13*s + d       "3>F", "w>7"
//	           s: 0..11 column 1..12, 12 waste top,            "p2>F", "5th>4"
//	           13..16 privileged slot 1..4, 17 the fifth card
//	           d: 0 a foundation, 1..12 column 1..12 (a pair
//	           if the column shows an unpaired card, a fill
//	           if it is empty)
//	234        turn the next stock card onto the waste        "turn"
//	235        start the second deal                          "deal"
//	236        turn the fifth card of the pile                "fifth"
//
// # Observation (78 cells)
//
//	columns       48  12 columns x 4 cells, card codes from the deepest card
//	                  up (0 = empty)
//	paired        12  1 if a column's top two cards form a pair
//	foundations    8  top card of each foundation, two per suit in suit order
//	                  (clubs, diamonds, hearts, spades), the higher first
//	waste          1  the waste top in the first deal (0 = none)
//	privileged     4  the privileged row p1..p4 (0 = empty slot)
//	fifth          1  the turned fifth card (0 = none)
//	stock          1  cards left in the stock, 0..68
//	wastecount     1  cards in the waste, 0..68
//	pile           1  face-down cards left in the pile, 0..64 (the second
//	                  deal lays at least four of at most 68 cards face up,
//	                  unless it has fewer)
//	phase          1  0 first deal, 1 second deal
//
// Hidden: the order of the stock, the waste below its top and the pile.
// Determinize shuffles those cards among those places. A player who
// remembers what was turned knows the waste and the pile (the waste turned
// over): DeterminizeUnseen reshuffles the stock alone, the only cards never
// seen.
//
// # Step limit
//
// Play cannot loop: a card that has been paired goes only to a foundation,
// a card put into a space is alone in its column and may not move to another
// space, and every reserve card leaves the reserve once. Every card moves at
// most three times (into a space, into a pair, home), dealt cards of the top
// row at most twice, and there are at most 68 turns, one second deal and 64
// fifth cards: at most 68*3 + 24*3 + 12*2 + 68 + 1 + 64 = 433 steps. The
// default limit, 500, is never reached.
//
// # Solver
//
// What a search knows of Limited beyond these rules lives beside the
// solver, in package solver/limited. It declares no safe moves: rule 9 (the
// fifth card may be turned only when no privileged card has a move) makes a
// move that looks harmless, such as a card home that uncovers another, or
// a card put into a space, change which moves are legal later, so no simple
// dominance holds. The solver sees the stock and the pile: its verdicts are
// upper bounds on what a player can do.
package limited

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/zobrist"
)

// Layout constants.
const (
	NumCols     = 12 // columns
	DealtRows   = 3  // cards dealt into each column
	Height      = 4  // the most cards a column can hold (3 dealt + 1 paired)
	Dealt       = NumCols * DealtRows
	StockSize   = cards.DeckSize - Dealt // 68
	PileMax     = StockSize - Privileged // 64
	Privileged  = 4
	Foundations = 8

	// Sources of card moves.
	SrcWaste   = NumCols
	SrcPriv    = SrcWaste + 1
	SrcFifth   = SrcPriv + Privileged
	NumSources = SrcFifth + 1
	// Destinations: DstFoundation, then column c at DstColumn + c.
	DstFoundation = 0
	DstColumn     = 1
	NumDests      = DstColumn + NumCols

	ActMove    = 0
	ActTurn    = ActMove + NumSources*NumDests
	ActDeal    = ActTurn + 1
	ActFifth   = ActDeal + 1
	NumActions = ActFifth + 1

	ObsColumns     = 0
	ObsPaired      = ObsColumns + NumCols*Height
	ObsFoundations = ObsPaired + NumCols
	ObsWaste       = ObsFoundations + Foundations
	ObsPrivileged  = ObsWaste + 1
	ObsFifth       = ObsPrivileged + Privileged
	ObsStock       = ObsFifth + 1
	ObsWasteCount  = ObsStock + 1
	ObsPile        = ObsWasteCount + 1
	ObsPhase       = ObsPile + 1
	ObsLen         = ObsPhase + 1
)

// ClassFifthCard is Class's word for a game lost by rule 9: the fifth card
// was turned and could not be played.
const ClassFifthCard = "fifth-card"

// RulesVersion is the version of the rules this package implements.
const RulesVersion = 1

var spec = &env.Spec{
	Name:         "limited",
	Title:        "Limited",
	Summary:      "12 columns of 3, pair a card onto the next higher of its suit, one pass, then a second deal of four privileged cards",
	RulesVersion: RulesVersion,
	Actions:      NumActions,
	ActionRanges: []env.ActionRange{
		{First: ActMove, Last: ActTurn - 1, Meaning: "source s to destination d: id = 13*s + d; s 0..11 column, 12 waste top, 13..16 privileged slot, 17 fifth card; d 0 foundation, 1..12 column (pair onto its card, or fill it when empty)"},
		{First: ActTurn, Last: ActTurn, Meaning: "turn the next stock card onto the waste"},
		{First: ActDeal, Last: ActDeal, Meaning: "start the second deal (stock empty): the waste turned over becomes the pile, its first four cards the privileged row"},
		{First: ActFifth, Last: ActFifth, Meaning: "turn the fifth card of the pile (no privileged card can be played)"},
	},
	ObsLen: ObsLen,
	Segments: []env.Segment{
		{Name: "columns", Offset: ObsColumns, Len: NumCols * Height, Card: true, Max: 53, Doc: "12 columns x 4 cells, card codes from the deepest card up, 0 = empty"},
		{Name: "paired", Offset: ObsPaired, Len: NumCols, Max: 1, Doc: "1 if the column's top two cards form a pair"},
		{Name: "foundations", Offset: ObsFoundations, Len: Foundations, Card: true, Max: 53, Doc: "top card of the 8 foundations, two per suit (clubs, diamonds, hearts, spades), the higher first"},
		{Name: "waste", Offset: ObsWaste, Len: 1, Card: true, Max: 53, Doc: "the waste top in the first deal, 0 = none"},
		{Name: "privileged", Offset: ObsPrivileged, Len: Privileged, Card: true, Max: 53, Doc: "the privileged row p1..p4 in the second deal, 0 = empty slot"},
		{Name: "fifth", Offset: ObsFifth, Len: 1, Card: true, Max: 53, Doc: "the turned fifth card, 0 = none"},
		{Name: "stock", Offset: ObsStock, Len: 1, Max: StockSize, Doc: "cards left in the stock"},
		{Name: "wastecount", Offset: ObsWasteCount, Len: 1, Max: StockSize, Doc: "cards in the waste"},
		{Name: "pile", Offset: ObsPile, Len: 1, Max: PileMax, Doc: "face-down cards left in the pile of the second deal"},
		{Name: "phase", Offset: ObsPhase, Len: 1, Max: 1, Doc: "0 first deal, 1 second deal"},
	},
	MaxSteps: 500,
	Hidden:   true,
	Cards:    cards.DeckSize,
}

func init() { env.RegisterGame(spec, New) }

// Spec returns the game's description.
func Spec() *env.Spec { return spec }

// Game is a Limited position.
type Game struct {
	cols   [NumCols][Height]cards.Card
	n      [NumCols]uint8
	paired uint16 // bit c: the top two cards of column c form a pair
	found  cards.Foundations
	home   int
	// pack is the face-down stock in the first deal and the face-down pile
	// in the second; the next card to come is the last, pack[np-1].
	pack  [StockSize]cards.Card
	np    uint8
	waste [StockSize]cards.Card // the first card turned first, the top last
	nw    uint8
	priv  [Privileged]cards.Card
	fifth cards.Card
	// second is set once the second deal has begun.
	second bool
	// lost is set when a turned fifth card had no move (rule 9).
	lost bool
	hash uint64
}

var (
	keysCol    = zobrist.NewCardKeys(0x11a1_0001, NumCols*Height)
	keysPaired = zobrist.Table(0x11a1_0002, NumCols)
	keysFound  = zobrist.Table(0x11a1_0003, Foundations*14)
	keysPack   = zobrist.NewCardKeys(0x11a1_0004, StockSize)
	keysWaste  = zobrist.NewCardKeys(0x11a1_0005, StockSize)
	keysPriv   = zobrist.NewCardKeys(0x11a1_0006, Privileged)
	keysFifth  = zobrist.NewCardKeys(0x11a1_0007, 1)
	keysPhase  = zobrist.Table(0x11a1_0008, 1)
)

func privKey(i int, k cards.Card) uint64 {
	if k == cards.None {
		return 0
	}
	return keysPriv.Key(i, k)
}

func fifthKey(k cards.Card) uint64 {
	if k == cards.None {
		return 0
	}
	return keysFifth.Key(0, k)
}

// New returns an empty game; call Deal before playing.
func New() *Game { return &Game{} }

// Spec returns the game's description.
func (g *Game) Spec() *env.Spec { return spec }

// Deal sets up deal number seed.
func (g *Game) Deal(seed uint64) {
	d := cards.Deal(seed)
	*g = Game{}
	for i := range Dealt {
		c, k := i%NumCols, i/NumCols
		g.cols[c][k] = d[i]
		g.n[c]++
	}
	// deal[36] is turned first, so it lies on top of the pack.
	for i := range StockSize {
		g.pack[i] = d[cards.DeckSize-1-i]
	}
	g.np = StockSize
	g.hash = g.fullHash()
}

// SetColumns lays out a first-deal position directly (for tests and tools):
// column c (0-based) gets the cards cols[c] from the deepest up, at most 4
// cards; columns not given are empty. The stock, the waste and the
// foundations are empty and no column holds a pair; use SetPaired,
// SetFoundation, SetStock, SetWaste and SetSecondDeal to complete the
// position.
func (g *Game) SetColumns(cols ...[]cards.Card) {
	*g = Game{}
	for c := 0; c < len(cols) && c < NumCols; c++ {
		for _, k := range cols[c] {
			if !k.Valid() || g.n[c] == Height {
				break
			}
			g.cols[c][g.n[c]] = k
			g.n[c]++
		}
	}
	g.hash = g.fullHash()
}

// SetPaired marks whether the top two cards of column c (0-based) form a
// pair, for tests and tools. A column of fewer than two cards holds no pair.
func (g *Game) SetPaired(c int, paired bool) {
	g.paired &^= 1 << c
	if paired && g.n[c] >= 2 {
		g.paired |= 1 << c
	}
	g.hash = g.fullHash()
}

// SetFoundation sets the two foundations of suit s to the given top ranks (0
// for empty), for tests and tools.
func (g *Game) SetFoundation(s cards.Suit, a, b cards.Rank) {
	g.home -= g.found.Count()
	g.found.Set(s, a, b)
	g.home += g.found.Count()
	g.hash = g.fullHash()
}

// SetStock sets the face-down stock of the first deal, for tests and tools:
// stock[0] is the next card turned. At most 68 cards are kept.
func (g *Game) SetStock(stock []cards.Card) {
	g.np = 0
	for i := len(stock) - 1; i >= 0; i-- {
		if int(g.np) < StockSize && stock[i].Valid() {
			g.pack[g.np] = stock[i]
			g.np++
		}
	}
	clear(g.pack[g.np:])
	g.hash = g.fullHash()
}

// SetWaste sets the waste of the first deal, for tests and tools: waste[0]
// is the first card that went onto it, the last card is its top. At most 68
// cards are kept.
func (g *Game) SetWaste(waste []cards.Card) {
	g.nw = 0
	for _, k := range waste {
		if int(g.nw) < StockSize && k.Valid() {
			g.waste[g.nw] = k
			g.nw++
		}
	}
	clear(g.waste[g.nw:])
	g.hash = g.fullHash()
}

// SetSecondDeal puts the position in the second deal, for tests and tools:
// the privileged row holds priv (slots p1.. in order, cards.None for an
// empty slot, at most four) and the face-down pile holds pile, pile[0] the
// next card to come. The stock and the waste are emptied and no fifth card
// is turned.
func (g *Game) SetSecondDeal(priv []cards.Card, pile []cards.Card) {
	g.nw = 0
	clear(g.waste[:])
	g.priv = [Privileged]cards.Card{}
	copy(g.priv[:], priv)
	g.fifth, g.lost = cards.None, false
	g.second = true
	g.SetStock(pile)
}

// Column returns the cards of column c (0-based), deepest first. The slice
// aliases the game.
func (g *Game) Column(c int) []cards.Card { return g.cols[c][:g.n[c]] }

// Paired reports whether the top two cards of column c (0-based) form a
// pair.
func (g *Game) Paired(c int) bool { return g.paired&(1<<c) != 0 }

// SecondDeal reports whether the second deal has begun.
func (g *Game) SecondDeal() bool { return g.second }

// StockCount returns the cards left in the stock (0 in the second deal).
func (g *Game) StockCount() int {
	if g.second {
		return 0
	}
	return int(g.np)
}

// PileCount returns the face-down cards left in the pile of the second deal
// (0 in the first deal).
func (g *Game) PileCount() int {
	if !g.second {
		return 0
	}
	return int(g.np)
}

// WasteCount returns the cards in the waste.
func (g *Game) WasteCount() int { return int(g.nw) }

// WasteTop returns the waste's top card, or cards.None.
func (g *Game) WasteTop() cards.Card {
	if g.nw == 0 {
		return cards.None
	}
	return g.waste[g.nw-1]
}

// PrivilegedRow returns the privileged row, cards.None for an empty slot.
func (g *Game) PrivilegedRow() [Privileged]cards.Card { return g.priv }

// Fifth returns the turned fifth card, or cards.None.
func (g *Game) Fifth() cards.Card { return g.fifth }

// Pack returns the face-down cards (hidden information, for search and
// tools): the stock in the first deal, the pile in the second, the next
// card to come last. The slice aliases the game.
func (g *Game) Pack() []cards.Card { return g.pack[:g.np] }

// Waste returns the waste of the first deal, the first card turned first
// and its top last (hidden below the top; for search and tools). The
// slice aliases the game.
func (g *Game) Waste() []cards.Card { return g.waste[:g.nw] }

// Foundations returns the eight foundations.
func (g *Game) Foundations() cards.Foundations { return g.found }

// Progress returns the cards on foundations.
func (g *Game) Progress() int { return g.home }

// Won reports whether all cards are on foundations.
func (g *Game) Won() bool { return g.home == cards.DeckSize }

// Class returns "fifth-card" when the game was lost by rule 9 (a turned
// fifth card could not be played), else "".
func (g *Game) Class() string {
	if g.lost {
		return ClassFifthCard
	}
	return ""
}

// Observe writes the observation into dst.
func (g *Game) Observe(dst []uint8) {
	for c := range NumCols {
		copy(dst[ObsColumns+c*Height:ObsColumns+(c+1)*Height], cards.Bytes(g.cols[c][:]))
		dst[ObsPaired+c] = uint8(g.paired>>c) & 1
	}
	g.found.Observe(dst[ObsFoundations:])
	dst[ObsWaste] = uint8(g.WasteTop())
	copy(dst[ObsPrivileged:ObsPrivileged+Privileged], cards.Bytes(g.priv[:]))
	dst[ObsFifth] = uint8(g.fifth)
	dst[ObsStock] = uint8(g.StockCount())
	dst[ObsWasteCount] = g.nw
	dst[ObsPile] = uint8(g.PileCount())
	dst[ObsPhase] = env.Flag(g.second)
}

// Inventory appends all 104 cards.
func (g *Game) Inventory(dst []cards.Card) []cards.Card {
	for c := range NumCols {
		dst = append(dst, g.cols[c][:g.n[c]]...)
	}
	dst = g.found.AppendCards(dst)
	dst = append(dst, g.pack[:g.np]...)
	dst = append(dst, g.waste[:g.nw]...)
	for _, k := range g.priv {
		if k != cards.None {
			dst = append(dst, k)
		}
	}
	if g.fifth != cards.None {
		dst = append(dst, g.fifth)
	}
	return dst
}

// Hash returns the state's Zobrist hash (kept up to date by every move).
func (g *Game) Hash() uint64 { return g.hash }

func (g *Game) fullHash() uint64 {
	h := g.TableHash()
	h ^= g.found.Key(keysFound)
	h ^= keysPack.Pile(g.pack[:g.np], 0)
	h ^= keysWaste.Pile(g.waste[:g.nw], 0)
	h ^= fifthKey(g.fifth)
	if g.second {
		h ^= keysPhase[0]
	}
	return h
}

// TableHash returns the part of Hash that the columns (their cards and
// pairs) and the privileged row give: Hash is TableHash xor the keys of the
// foundations, the stock or pile, the waste, the fifth card and the phase.
// A search that keys positions by the columns' and the privileged cards'
// contents regardless of their order replaces this part (for search and
// tools).
func (g *Game) TableHash() uint64 {
	var h uint64
	for c := range NumCols {
		h ^= keysCol.Pile(g.cols[c][:g.n[c]], c*Height)
		if g.paired&(1<<c) != 0 {
			h ^= keysPaired[c]
		}
	}
	for i, k := range g.priv {
		h ^= privKey(i, k)
	}
	return h
}

// Clone returns an independent copy.
func (g *Game) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Game).
func (g *Game) CopyFrom(src env.Game) { *g = *src.(*Game) }

// Determinize reshuffles the hidden cards: the stock and the waste below its
// top in the first deal, the pile in the second. They are sorted first, so
// the result depends only on which cards are hidden and on rng.
func (g *Game) Determinize(rng *cards.Rand) {
	var buf [2 * StockSize]cards.Card
	n := copy(buf[:], g.pack[:g.np])
	below := 0
	if !g.second && g.nw > 1 {
		below = int(g.nw) - 1
		n += copy(buf[n:], g.waste[:below])
	}
	hidden := buf[:n]
	rng.Reshuffle(hidden)
	m := copy(g.pack[:g.np], hidden)
	copy(g.waste[:below], hidden[m:])
	g.hash = g.fullHash()
}

// DeterminizeUnseen reshuffles only the cards a player who remembers every
// card turned has never seen: the stock of the first deal. Each card of
// the waste was seen as it was turned, in that order, and the pile of the
// second deal is that waste turned over, so they keep their order (in the
// second deal nothing is hidden from such a player). Determinize, which
// the observation alone justifies, reshuffles them too; the fair search
// agents, which may remember, sample their worlds with this. The stock is
// sorted first, so the result depends only on which cards it holds and on
// rng; the observation and the legal actions do not change.
func (g *Game) DeterminizeUnseen(rng *cards.Rand) {
	if g.second {
		return
	}
	rng.Reshuffle(g.pack[:g.np])
	g.hash = g.fullHash()
}
