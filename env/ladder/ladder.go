// Package ladder implements Ladder («Лесенка»), a two-deck patience with
// hidden cards (docs/rules/ladder.md), as an env.Game registered as "ladder".
//
// # Deal
//
// The 104 cards of d = cards.Deal(seed) are dealt in this order:
//
//	d[0..28]    the ladder, 29 cards face down; d[28], the last, is turned
//	            face up. When it leaves, d[27] turns face up, and so on.
//	d[29..60]   the eight rows, four cards each: row r (0-based; rows 1-4
//	            lie left of the ladder, rows 5-8 right of it) gets
//	            d[29+4r .. 29+4r+3], dealt from the inner end (next to the
//	            ladder) outwards, so d[29+4r+3] is its outer, available card.
//	d[61..103]  the stock, face down, turned in deal order: d[61] first.
//
// # Rows
//
// A row is the sequence of its cards from the inner end to the outer end;
// only the outer card is available and cards are added at the outer end
// (rows grow outward). The run of a row is its longest outer stretch
// descending by one rank with alternating colours.
//
// Rows have at most 16 cards (MaxRow). Cards are only ever added at the outer
// end, each one rank below the card it lands on (a single card, or the inner
// card of a run, whose own cards already descend by one). So a row is a
// prefix of the four cards it was dealt (dealt cards leave only from the
// outer end), followed by cards descending by one from the last of them: at
// most 4 dealt cards, the fourth a king, then queen down to ace: 4+12 = 16.
// A row refilled after emptying starts with any card and descends from it:
// at most 13 cards. A run therefore has at most 13 cards (king to ace).
//
// Decisions where docs/rules/ladder.md leaves a choice:
//
//   - Rule 5: an empty row takes any tail of a row's run (1 card up to the
//     whole run), with the number of cards in the action id. A whole row
//     never moves into an empty row: that would change nothing but its
//     number (as Cromwell's rules do not offer a swap of identical cards),
//     and such moves would only feed endless shuffles.
//   - Rule 6: a king is locked when it lies at the inner end of a row. A card
//     reaches the inner end only by the deal or by filling an empty row, so
//     this is exactly "a king placed into an empty row, or lying at the inner
//     end from the deal", and it is visible in the observation (row cell 0 is
//     a king). A locked king goes only to its foundation: the whole run on a
//     locked king never moves into an empty row; tails above it still may.
//   - Rule 8: the stock is turned by an explicit action ("turn").
//   - Rule 9: the redeal is an explicit action ("redeal"), offered once, only
//     when the stock and the ladder are both empty and the waste is not. The
//     waste is turned over: the first card that went onto it is turned first.
//
// # Actions (924)
//
//	ids        meaning                                        name
//	0..7       row r's outer card to a foundation (id = r)    "3>F"
//	8          waste top to a foundation                      "W>F"
//	9          ladder card to a foundation                    "L>F"
//	10..73     row s onto row d, which has cards:             "3>5"
//	           id = 10 + 8*s + d; the part of s's run that
//	           fits d's outer card moves (s = d never legal)
//	74..905    the last k cards (1..13) of row s into the     "3>5:4"
//	           empty row d: id = 74 + 13*(8*s + d) + k-1
//	906..913   waste top onto row d (built on, or filling     "W>5"
//	           an empty row): id = 906 + d
//	914..921   ladder card into the empty row d: id = 914+d   "L>5"
//	922        turn the stock's top card onto the waste        "turn"
//	923        redeal: turn the waste over as the new stock    "redeal"
//
// Rows are numbered 1..8 in names and 0..7 in ids. Names are read in any
// letter case.
//
// # Observation (142 cells)
//
//	rows         128  8 rows x 16 cells, card codes from the inner end
//	                  outwards (0 empty); the last card is the outer one
//	ladder         1  the face-up ladder card (0 when the ladder is empty)
//	waste          1  the waste top (0 when the waste is empty)
//	foundations    8  top of each foundation, two per suit in suit order
//	                  (clubs, diamonds, hearts, spades), the higher first
//	ladder-down    1  face-down ladder cards, 0..28
//	piles          2  [stock cards, waste cards], each 0..43
//	redeal         1  1 once the redeal has been made
//
// Hidden: the face-down ladder cards, the stock and the waste below its top
// (the waste is a squared pile: only its top shows). Determinize shuffles
// all of them among those places, keeping each place's count. A player who
// remembers every turned card knows more (the waste's order, and after the
// redeal the stock's); the observation leaves that memory to the agent,
// and DeterminizeUnseen keeps it: it reshuffles only the cards never seen.
//
// # Search
//
// What a search knows of Ladder beyond these rules (its safe moves) lives
// beside the solver, in package solver/ladder.
package ladder

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/zobrist"
)

// Layout constants.
const (
	NumRows     = 8
	DealRow     = 4  // cards dealt to each row
	MaxRow      = 16 // the longest a row can grow (see the package doc)
	MaxRun      = 13 // the longest run: king down to ace
	LadderSize  = 29
	StockSize   = 43 // the stock and the waste together never hold more
	Foundations = 8

	ActRowHome    = 0
	ActWasteHome  = ActRowHome + NumRows
	ActLadderHome = ActWasteHome + 1
	ActBuild      = ActLadderHome + 1
	ActEmpty      = ActBuild + NumRows*NumRows
	ActWaste      = ActEmpty + NumRows*NumRows*MaxRun
	ActLadder     = ActWaste + NumRows
	ActTurn       = ActLadder + NumRows
	ActRedeal     = ActTurn + 1
	NumActions    = ActRedeal + 1

	ObsRows        = 0
	ObsLadder      = ObsRows + NumRows*MaxRow
	ObsWaste       = ObsLadder + 1
	ObsFoundations = ObsWaste + 1
	ObsLadderDown  = ObsFoundations + Foundations
	ObsPiles       = ObsLadderDown + 1
	ObsRedeal      = ObsPiles + 2
	ObsLen         = ObsRedeal + 1
)

// RulesVersion is the version of the rules this package implements.
const RulesVersion = 1

// DefaultMaxSteps is the default step limit. The moves that get somewhere
// are bounded: 104 foundation moves, at most 86 stock turns, 29 ladder
// cards, and a few row moves per card, about 500 in a long game. Moves that
// get nowhere are not: a card or run can shuttle between two fitting rows,
// or into an empty row and back, for ever, so random play seldom ends by
// itself (of 2000 random games, 95% reached this limit; the rest were lost
// earlier). 1000 leaves a thorough game twice the room it needs.
const DefaultMaxSteps = 1000

var spec = &env.Spec{
	Name:         "ladder",
	Title:        "Ladder",
	Summary:      "a face-down ladder of 29, eight rows of four built down in alternating colours, stock with one redeal",
	RulesVersion: RulesVersion,
	Actions:      NumActions,
	ActionRanges: []env.ActionRange{
		{First: ActRowHome, Last: ActWasteHome - 1, Meaning: "row r's outer card to a foundation: id = r"},
		{First: ActWasteHome, Last: ActWasteHome, Meaning: "waste top to a foundation"},
		{First: ActLadderHome, Last: ActLadderHome, Meaning: "ladder card to a foundation"},
		{First: ActBuild, Last: ActEmpty - 1, Meaning: "row s onto row d (d has cards): id = 10 + 8*s + d; the part of s's run that fits moves"},
		{First: ActEmpty, Last: ActWaste - 1, Meaning: "last k cards (1..13) of row s into the empty row d: id = 74 + 13*(8*s + d) + k-1"},
		{First: ActWaste, Last: ActLadder - 1, Meaning: "waste top onto row d (built on or filling it): id = 906 + d"},
		{First: ActLadder, Last: ActTurn - 1, Meaning: "ladder card into the empty row d: id = 914 + d"},
		{First: ActTurn, Last: ActTurn, Meaning: "turn the stock's top card onto the waste"},
		{First: ActRedeal, Last: ActRedeal, Meaning: "redeal: turn the waste over as the new stock (once)"},
	},
	ObsLen: ObsLen,
	Segments: []env.Segment{
		{Name: "rows", Offset: ObsRows, Len: NumRows * MaxRow, Card: true, Max: 53, Doc: "8 rows x 16 cells, card codes from the inner end outwards, 0 = empty; rows 1-4 left, 5-8 right"},
		{Name: "ladder", Offset: ObsLadder, Len: 1, Card: true, Max: 53, Doc: "the face-up ladder card, 0 when the ladder is empty"},
		{Name: "waste", Offset: ObsWaste, Len: 1, Card: true, Max: 53, Doc: "the waste top, 0 when the waste is empty"},
		{Name: "foundations", Offset: ObsFoundations, Len: Foundations, Card: true, Max: 53, Doc: "top card of the 8 foundations, two per suit (clubs, diamonds, hearts, spades), the higher first"},
		{Name: "ladder-down", Offset: ObsLadderDown, Len: 1, Max: LadderSize - 1, Doc: "number of face-down ladder cards, 0..28"},
		{Name: "piles", Offset: ObsPiles, Len: 2, Max: StockSize, Doc: "number of stock cards and of waste cards, 0..43"},
		{Name: "redeal", Offset: ObsRedeal, Len: 1, Max: 1, Doc: "1 once the redeal has been made"},
	},
	MaxSteps: DefaultMaxSteps,
	Hidden:   true,
	Cards:    cards.DeckSize,
}

func init() { env.RegisterGame(spec, New) }

// Spec returns the game's description.
func Spec() *env.Spec { return spec }

// Game is a Ladder position.
type Game struct {
	rows    [NumRows][MaxRow]cards.Card // inner end first
	rn      [NumRows]uint8
	run     [NumRows]uint8         // runLen of each row, kept as the rows change
	ladder  [LadderSize]cards.Card // ladder[ln-1] is the face-up card
	ln      uint8
	stock   [StockSize]cards.Card // stock[sn-1] is turned next
	sn      uint8
	waste   [StockSize]cards.Card // waste[wn-1] is the top
	wn      uint8
	found   cards.Foundations
	home    int
	redealt bool
	hash    uint64
}

var (
	keysRow    = zobrist.NewCardKeys(0x1add_0001, NumRows*MaxRow)
	keysLadder = zobrist.NewCardKeys(0x1add_0002, LadderSize)
	keysStock  = zobrist.NewCardKeys(0x1add_0003, StockSize)
	keysWaste  = zobrist.NewCardKeys(0x1add_0004, StockSize)
	keysFound  = zobrist.Table(0x1add_0005, Foundations*14)
	keyRedeal  = zobrist.Table(0x1add_0006, 1)[0]
)

func rowKey(r, i int, c cards.Card) uint64 { return keysRow.Key(r*MaxRow+i, c) }

// New returns an empty game; call Deal before playing.
func New() *Game { return &Game{} }

// Spec returns the game's description.
func (g *Game) Spec() *env.Spec { return spec }

// Deal sets up deal number seed (see the package doc for the order).
func (g *Game) Deal(seed uint64) {
	d := cards.Deal(seed)
	*g = Game{}
	copy(g.ladder[:], d[:LadderSize])
	g.ln = LadderSize
	for r := range NumRows {
		copy(g.rows[r][:], d[LadderSize+DealRow*r:LadderSize+DealRow*(r+1)])
		g.rn[r] = DealRow
		g.run[r] = uint8(g.runLen(r))
	}
	// The stock keeps its next card last: d[61] is turned first.
	for i := range StockSize {
		g.stock[i] = d[cards.DeckSize-1-i]
	}
	g.sn = StockSize
	g.hash = g.fullHash()
}

// SetRows resets the game to the given rows (for tests and tools), each
// listed from the inner end outwards; rows not given are empty, and the
// ladder, stock, waste and foundations are empty. Cards beyond MaxRow and
// any None or face-down code end a row. Complete the position with
// SetLadder, SetStock, SetWaste, SetFoundation and SetRedealUsed.
func (g *Game) SetRows(rows ...[]cards.Card) {
	*g = Game{}
	for r := 0; r < NumRows && r < len(rows); r++ {
		for _, c := range rows[r] {
			if !c.Valid() || g.rn[r] == MaxRow {
				break
			}
			g.rows[r][g.rn[r]] = c
			g.rn[r]++
		}
		g.run[r] = uint8(g.runLen(r))
	}
	g.hash = g.fullHash()
}

// fill copies the real cards of src into dst (up to its length) and returns
// how many it copied.
func fill(dst, src []cards.Card) uint8 {
	n := 0
	for _, c := range src {
		if !c.Valid() || n == len(dst) {
			break
		}
		dst[n] = c
		n++
	}
	clear(dst[n:])
	return uint8(n)
}

// SetLadder sets the ladder (for tests and tools), from the first card dealt
// to the last; the last is the face-up card. At most 29 cards are kept.
func (g *Game) SetLadder(cs []cards.Card) {
	g.ln = fill(g.ladder[:], cs)
	g.hash = g.fullHash()
}

// SetStock sets the stock (for tests and tools) in turning order: cs[0] is
// turned first. At most 43 cards are kept.
func (g *Game) SetStock(cs []cards.Card) {
	var tmp [StockSize]cards.Card
	n := int(fill(tmp[:], cs))
	for i := range n {
		g.stock[i] = tmp[n-1-i]
	}
	clear(g.stock[n:])
	g.sn = uint8(n)
	g.hash = g.fullHash()
}

// SetWaste sets the waste (for tests and tools) from the bottom up: the last
// card is the top. At most 43 cards are kept.
func (g *Game) SetWaste(cs []cards.Card) {
	g.wn = fill(g.waste[:], cs)
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

// SetRedealUsed marks the redeal made or not, for tests and tools.
func (g *Game) SetRedealUsed(used bool) {
	g.redealt = used
	g.hash = g.fullHash()
}

// Row returns the cards of row r (0-based) from the inner end outwards. The
// slice aliases the game.
func (g *Game) Row(r int) []cards.Card { return g.rows[r][:g.rn[r]] }

// Ladder returns the ladder cards, the face-up card last. The slice aliases
// the game.
func (g *Game) Ladder() []cards.Card { return g.ladder[:g.ln] }

// Stock returns the stock cards, the next to be turned last. The slice
// aliases the game.
func (g *Game) Stock() []cards.Card { return g.stock[:g.sn] }

// Waste returns the waste cards from the bottom up, the top last. The slice
// aliases the game.
func (g *Game) Waste() []cards.Card { return g.waste[:g.wn] }

// RedealUsed reports whether the redeal has been made.
func (g *Game) RedealUsed() bool { return g.redealt }

// Foundations returns the foundations.
func (g *Game) Foundations() cards.Foundations { return g.found }

// Progress returns the cards on foundations.
func (g *Game) Progress() int { return g.home }

// Won reports whether all cards are on foundations.
func (g *Game) Won() bool { return g.home == cards.DeckSize }

// Class returns "redeal-used" once the redeal has been made, else "".
func (g *Game) Class() string {
	if g.redealt {
		return "redeal-used"
	}
	return ""
}

// Observe writes the observation into dst (see the package doc).
func (g *Game) Observe(dst []uint8) {
	for r := range NumRows {
		copy(dst[ObsRows+r*MaxRow:ObsRows+(r+1)*MaxRow], cards.Bytes(g.rows[r][:]))
	}
	dst[ObsLadder], dst[ObsLadderDown] = 0, 0
	if g.ln > 0 {
		dst[ObsLadder] = uint8(g.ladder[g.ln-1])
		dst[ObsLadderDown] = g.ln - 1
	}
	dst[ObsWaste] = uint8(topOf(g.waste[:g.wn]))
	g.found.Observe(dst[ObsFoundations:])
	dst[ObsPiles], dst[ObsPiles+1] = g.sn, g.wn
	dst[ObsRedeal] = env.Flag(g.redealt)
}

// Inventory appends all cards of the state, hidden ones with their real
// faces.
func (g *Game) Inventory(dst []cards.Card) []cards.Card {
	for r := range NumRows {
		dst = append(dst, g.rows[r][:g.rn[r]]...)
	}
	dst = append(dst, g.ladder[:g.ln]...)
	dst = append(dst, g.stock[:g.sn]...)
	dst = append(dst, g.waste[:g.wn]...)
	dst = g.found.AppendCards(dst)
	return dst
}

// Hash returns the state's Zobrist hash (kept up to date by every move).
func (g *Game) Hash() uint64 { return g.hash }

func (g *Game) fullHash() uint64 {
	h := g.RowsHash()
	h ^= keysLadder.Pile(g.ladder[:g.ln], 0)
	h ^= keysStock.Pile(g.stock[:g.sn], 0)
	h ^= keysWaste.Pile(g.waste[:g.wn], 0)
	h ^= g.found.Key(keysFound)
	if g.redealt {
		h ^= keyRedeal
	}
	return h
}

// RowsHash returns the part of Hash that the rows' cards give: Hash is
// RowsHash xor the keys of the ladder, the stock, the waste, the
// foundations and the redeal. A search that keys positions by the rows'
// contents regardless of their order replaces this part (for search and
// tools).
func (g *Game) RowsHash() uint64 {
	var h uint64
	for r := range NumRows {
		h ^= keysRow.Pile(g.rows[r][:g.rn[r]], r*MaxRow)
	}
	return h
}

// Clone returns an independent copy.
func (g *Game) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Game).
func (g *Game) CopyFrom(src env.Game) { *g = *src.(*Game) }

// Determinize shuffles the hidden cards — the face-down ladder cards, the
// stock and the waste below its top — among those places, keeping each
// place's count. The cards are sorted first, so the result depends only on
// which cards are hidden and on rng.
func (g *Game) Determinize(rng *cards.Rand) {
	var buf [cards.DeckSize]cards.Card
	nl := max(int(g.ln)-1, 0) // the face-up ladder card stays
	nw := max(int(g.wn)-1, 0) // the waste top stays
	n := copy(buf[:], g.ladder[:nl])
	n += copy(buf[n:], g.stock[:g.sn])
	n += copy(buf[n:], g.waste[:nw])
	hidden := buf[:n]
	rng.Reshuffle(hidden)
	k := copy(g.ladder[:nl], hidden)
	k += copy(g.stock[:g.sn], hidden[k:])
	copy(g.waste[:nw], hidden[k:])
	g.hash = g.fullHash()
}

// DeterminizeUnseen reshuffles only the cards a player who remembers every
// card turned has never seen: the face-down ladder cards and, before the
// redeal, the stock, among those places, keeping each place's count. The
// waste holds only cards seen as they were turned, in that order, and the
// stock after the redeal is that waste turned over, so they keep their
// order. Determinize, which the observation alone justifies, reshuffles
// the waste too; the fair search agents, which may remember, sample their
// worlds with this. The cards are sorted first, so the result depends only
// on which cards are hidden and on rng; the observation and the legal
// actions do not change.
func (g *Game) DeterminizeUnseen(rng *cards.Rand) {
	var buf [LadderSize + StockSize]cards.Card
	nl := max(int(g.ln)-1, 0) // the face-up ladder card stays
	n := copy(buf[:], g.ladder[:nl])
	if !g.redealt { // after it the stock is the waste turned over
		n += copy(buf[n:], g.stock[:g.sn])
	}
	hidden := buf[:n]
	rng.Reshuffle(hidden)
	k := copy(g.ladder[:nl], hidden)
	copy(g.stock[:n-k], hidden[k:])
	g.hash = g.fullHash()
}

// topOf returns the last card of s, or None.
func topOf(s []cards.Card) cards.Card {
	if len(s) == 0 {
		return cards.None
	}
	return s[len(s)-1]
}
