// Package fifteen implements The Fifteen (Lady Cadogan), a two-deck patience
// of perfect information (docs/rules/fifteen.md), as an env.Game registered as
// "fifteen".
//
// # Deal
//
// The 104 cards of cards.Deal(seed) are dealt row by row into 15 columns:
// card i goes to column i%15 at depth i/15. Depth 0 is the first-dealt card,
// the top of the picture; the last card of a column (the lowest in the
// picture) is its only available card. Columns 1..14 get 7 cards, column 15
// gets 6. Nothing happens automatically at the deal or later.
//
// # Foundations
//
// Each suit has an up pile (ace to king) and a down pile (king to ace). A
// card of rank r goes on its suit's up pile when the pile shows r-1 (an ace
// starts it) and on its down pile when the pile shows r+1 (a king starts
// it). A card can fit both piles at once (a 7 when the up pile shows 6 and
// the down pile 8); the two moves are two actions.
//
// # Actions (511)
//
//	ids        meaning                                       name
//	0..14      column c to its suit's up pile: id = c        "3>U"
//	15..29     column c to its suit's down pile: id = 15+c   "3>D"
//	30..254    column s onto column d: id = 30 + 15*s + d;   "3>7"
//	           a marriage when d holds a card, a lane when
//	           d is empty (s = d is never legal)
//	255..510   the emergency rule: id = 255 + 16*a + k,      "emergency A3 K7",
//	           a = the column giving its sixth card, an ace  "emergency A3",
//	           (1..15, 0 = none), k = the column giving its  "emergency K7"
//	           sixth card, a king (1..15, 0 = none); a = k
//	           (none and none included) is never legal
//
// Columns are numbered 1..15 in names, 0-based in ids. The emergency rule is
// one action because the rule is one move: the ace and the king leave
// together.
//
// # Choices where the rules are silent
//
//   - A card alone in its column is not offered a move into an empty lane:
//     it would only trade one empty column for another (the columns are
//     interchangeable), and such moves would make play loop for nothing.
//   - For the same reason, of several empty columns only the first (the
//     lowest-numbered) is offered as a lane: empty columns are alike, so a
//     choice among them changes nothing but numbers, and offering one keeps
//     the masks small and the search of agents quick.
//   - The emergency rule is legal while it is unused, no foundation has a
//     card and no column's available card is an ace or a king, whatever
//     marriages were made before; it takes the card at index 5 of a column
//     as the column lies at that moment (at least 6 cards), an ace, a king
//     or one of each from two columns, as the player chooses. The ace starts
//     its up pile, the king its down pile, and the cards that lay below each
//     move up one place. Being a legal move, it keeps a game from being lost.
//   - Nothing is automatic: an ace or king available at the deal waits for
//     the player's move (the old text lays them aside at once; the team's rules say
//     no move is automatic unless a rule says so).
//
// # Observation (474 cells)
//
//	columns      465  15 columns x 31 cells, card codes from the top of the
//	                  picture (first dealt) down to the available card, 0 after
//	                  the end of the column
//	foundations    8  per suit (clubs, diamonds, hearts, spades): the top card
//	                  of the up pile, then of the down pile (0 = empty). A
//	                  finished up pile shows its king, a finished down pile
//	                  its ace.
//	emergency      1  1 once the emergency rule has been used, else 0
//
// # Column height
//
// No column ever holds more than 31 cards. A column is always the dealt
// cards still in it (at most 7, at its top: cards leave only from the
// bottom, apart from the one card the emergency rule takes from index 5)
// followed by the cards moved onto it. Each moved card was married onto the
// card it lies on (same suit, one rank apart), except the first card of an
// emptied column. So, reading downwards from the last dealt card left (or
// from the first card of a lane, or from the card after the emergency gap),
// the cards form a walk through one suit in steps of one rank, each physical
// card used once. Ranks alternate odd and even along such a walk; a suit has
// 12 even cards (2..Q, twice) and 14 odd ones, so a walk holds at most 12
// even and 13 odd cards: 25. Hence a column without an emergency gap holds
// at most 6 dealt cards + a 25-card walk = 31; a lane at most 25; a column
// the emergency rule took its sixth card from at most 5 cards + a walk of 25
// = 30, since the rule is used once per game. The bound is met: six cards
// over an ace, then 2..K..2, A of its suit (TestMaxHeightReachable).
//
// # Search
//
// What a search knows of The Fifteen beyond these rules (its safe moves)
// lives beside the solver, in package solver/fifteen.
package fifteen

import (
	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
	"github.com/patience-gym/patience/env/zobrist"
)

// Layout constants.
const (
	NumCols      = 15 // columns
	DealRows     = 7  // rows of the deal (the seventh has 14 cards)
	MaxHeight    = 31 // the most cards a column can ever hold (see the package doc)
	EmergencyRow = 5  // the index of the sixth row, where the emergency rule takes cards
	Foundations  = 8  // two per suit: up (A→K) and down (K→A)

	ActUp        = 0
	ActDown      = ActUp + NumCols
	ActMove      = ActDown + NumCols
	ActEmergency = ActMove + NumCols*NumCols
	NumActions   = ActEmergency + (NumCols+1)*(NumCols+1)

	ObsColumns     = 0
	ObsFoundations = ObsColumns + NumCols*MaxHeight
	ObsEmergency   = ObsFoundations + Foundations
	ObsLen         = ObsEmergency + 1
)

// RulesVersion is the version of the rules this package implements.
const RulesVersion = 1

var spec = &env.Spec{
	Name:         "fifteen",
	Title:        "The Fifteen",
	Summary:      "15 open columns, aces build up and kings down in suit, marriages up or down, lanes, one emergency",
	RulesVersion: RulesVersion,
	Actions:      NumActions,
	ActionRanges: []env.ActionRange{
		{First: ActUp, Last: ActDown - 1, Meaning: "column c's available card to its suit's up pile (A→K): id = c"},
		{First: ActDown, Last: ActMove - 1, Meaning: "column c's available card to its suit's down pile (K→A): id = 15 + c"},
		{First: ActMove, Last: ActEmergency - 1, Meaning: "column s's available card onto column d (marriage, or into an empty lane): id = 30 + 15*s + d"},
		{First: ActEmergency, Last: NumActions - 1, Meaning: "emergency rule: id = 255 + 16*a + k sends home the ace in the sixth row of column a and the king in the sixth row of column k (columns 1-based, 0 = none; a = k never legal)"},
	},
	ObsLen: ObsLen,
	Segments: []env.Segment{
		{Name: "columns", Offset: ObsColumns, Len: NumCols * MaxHeight, Card: true, Max: 53, Doc: "15 columns x 31 cells, card codes from the first-dealt card down to the available one, 0 = empty"},
		{Name: "foundations", Offset: ObsFoundations, Len: Foundations, Card: true, Max: 53, Doc: "per suit (clubs, diamonds, hearts, spades): top card of the up pile, then of the down pile, 0 = empty"},
		{Name: "emergency", Offset: ObsEmergency, Len: 1, Max: 1, Doc: "1 once the emergency rule has been used, else 0"},
	},
	// Random play ends by itself (2000 random games: 19 steps on average,
	// 187 at most), but marriages let a searching agent shuffle cards for
	// long: a greedy agent that never repeats a state won 341 of 1000 deals
	// in 296 steps (median), 1141 (99th percentile) and 3585 (longest).
	// 2000 steps cut one of those wins; 1000 would have cut six.
	MaxSteps: 2000,
	Hidden:   false,
	Cards:    cards.DeckSize,
	Terms:    terms,
}

func init() { env.RegisterGame(spec, New) }

// Spec returns the game's description.
func Spec() *env.Spec { return spec }

// Game is a position of The Fifteen.
type Game struct {
	cols      [NumCols][MaxHeight]cards.Card
	n         [NumCols]uint8
	up        [cards.NumSuits]uint8 // top rank of each suit's up pile, 0 = empty
	down      [cards.NumSuits]uint8 // top rank of each suit's down pile, 0 = empty
	home      int
	emergency bool // the emergency rule has been used
	hash      uint64
}

var (
	keysCard  = zobrist.NewCardKeys(0xf15_0001, NumCols*MaxHeight)
	keysFound = zobrist.Table(0xf15_0002, Foundations*14)
	keyEmerg  = zobrist.Table(0xf15_0003, 1)[0]
)

func cardKey(c, k int, x cards.Card) uint64 { return keysCard.Key(c*MaxHeight+k, x) }

func upKey(s int, r uint8) uint64   { return keysFound[(2*s)*14+int(r)] }
func downKey(s int, r uint8) uint64 { return keysFound[(2*s+1)*14+int(r)] }

// upNext returns the rank the up pile showing top takes next (14 when the
// pile is finished).
func upNext(top uint8) uint8 { return top + 1 }

// downNext returns the rank the down pile showing top takes next: a king on
// an empty pile, 0 (no rank) when the pile is finished.
func downNext(top uint8) uint8 {
	if top == 0 {
		return uint8(cards.King)
	}
	return top - 1
}

// New returns an empty game; call Deal before playing.
func New() *Game { return &Game{} }

// Spec returns the game's description.
func (g *Game) Spec() *env.Spec { return spec }

// Deal sets up deal number seed.
func (g *Game) Deal(seed uint64) {
	d := cards.Deal(seed)
	g.Setup(func(c, k int) cards.Card {
		if i := k*NumCols + c; i < cards.DeckSize {
			return d[i]
		}
		return cards.None
	}, DealRows)
}

// Setup lays out a position directly (for tests and tools): column c gets
// the cards card(c, 0..depth-1) from the top of the picture down, while card
// returns a real card (at most MaxHeight); the foundations are empty and the
// emergency rule unused. Use SetFoundation and SetEmergencyUsed to complete
// the position.
func (g *Game) Setup(card func(c, k int) cards.Card, depth int) {
	*g = Game{}
	for c := range NumCols {
		for k := 0; k < depth && k < MaxHeight; k++ {
			x := card(c, k)
			if !x.Valid() {
				break
			}
			g.cols[c][k] = x
			g.n[c]++
		}
	}
	g.hash = g.fullHash()
}

// SetColumns lays out columns from lists of cards, first-dealt (top of the
// picture) first, for tests and tools. Columns not given are empty.
func (g *Game) SetColumns(cols ...[]cards.Card) {
	g.Setup(func(c, k int) cards.Card {
		if c < len(cols) && k < len(cols[c]) {
			return cols[c][k]
		}
		return cards.None
	}, MaxHeight)
}

// SetFoundation sets the piles of suit s, for tests and tools: up is the top
// rank of the up pile and down the top rank of the down pile, 0 for empty.
func (g *Game) SetFoundation(s cards.Suit, up, down cards.Rank) {
	g.home -= pileCards(g.up[s], g.down[s])
	g.up[s], g.down[s] = uint8(up), uint8(down)
	g.home += pileCards(g.up[s], g.down[s])
	g.hash = g.fullHash()
}

// SetEmergencyUsed marks the emergency rule used or unused, for tests and
// tools.
func (g *Game) SetEmergencyUsed(used bool) {
	g.emergency = used
	g.hash = g.fullHash()
}

// pileCards returns the number of cards on an up pile showing up and a down
// pile showing down.
func pileCards(up, down uint8) int {
	n := int(up)
	if down != 0 {
		n += 14 - int(down)
	}
	return n
}

// Column returns the cards of column c (0-based), first-dealt first, the
// available card last. The slice aliases the game.
func (g *Game) Column(c int) []cards.Card { return g.cols[c][:g.n[c]] }

// Up returns the top rank of suit s's up pile (0 = empty).
func (g *Game) Up(s cards.Suit) cards.Rank { return cards.Rank(g.up[s]) }

// Down returns the top rank of suit s's down pile (0 = empty).
func (g *Game) Down(s cards.Suit) cards.Rank { return cards.Rank(g.down[s]) }

// UpTakes returns the rank suit s's up pile takes next (14 once it is
// finished).
func (g *Game) UpTakes(s cards.Suit) cards.Rank { return cards.Rank(upNext(g.up[s])) }

// DownTakes returns the rank suit s's down pile takes next: a king while
// it is empty, 0 once it is finished.
func (g *Game) DownTakes(s cards.Suit) cards.Rank { return cards.Rank(downNext(g.down[s])) }

// EmergencyUsed reports whether the emergency rule has been used.
func (g *Game) EmergencyUsed() bool { return g.emergency }

// Progress returns the cards on foundations.
func (g *Game) Progress() int { return g.home }

// Won reports whether all cards are on foundations.
func (g *Game) Won() bool { return g.home == cards.DeckSize }

// Observe writes the observation into dst.
func (g *Game) Observe(dst []uint8) {
	for c := range NumCols {
		copy(dst[ObsColumns+c*MaxHeight:], cards.Bytes(g.cols[c][:]))
	}
	for s := range cards.NumSuits {
		dst[ObsFoundations+2*s] = pileTop(s, g.up[s])
		dst[ObsFoundations+2*s+1] = pileTop(s, g.down[s])
	}
	dst[ObsEmergency] = env.Flag(g.emergency)
}

// pileTop returns the card code of a pile of suit s showing rank r (0 for
// an empty pile).
func pileTop(s int, r uint8) uint8 {
	if r == 0 {
		return 0
	}
	return uint8(cards.New(cards.Suit(s), cards.Rank(r)))
}

// Inventory appends all 104 cards.
func (g *Game) Inventory(dst []cards.Card) []cards.Card {
	for c := range NumCols {
		dst = append(dst, g.cols[c][:g.n[c]]...)
	}
	for s := range cards.NumSuits {
		for r := uint8(1); r <= g.up[s]; r++ {
			dst = append(dst, cards.New(cards.Suit(s), cards.Rank(r)))
		}
		if g.down[s] != 0 {
			for r := g.down[s]; r <= uint8(cards.King); r++ {
				dst = append(dst, cards.New(cards.Suit(s), cards.Rank(r)))
			}
		}
	}
	return dst
}

// Hash returns the state's Zobrist hash (kept up to date by every move).
func (g *Game) Hash() uint64 { return g.hash }

func (g *Game) fullHash() uint64 {
	var h uint64
	for c := range NumCols {
		h ^= keysCard.Pile(g.cols[c][:g.n[c]], c*MaxHeight)
	}
	for s := range cards.NumSuits {
		h ^= upKey(s, g.up[s]) ^ downKey(s, g.down[s])
	}
	if g.emergency {
		h ^= keyEmerg
	}
	return h
}

// Clone returns an independent copy.
func (g *Game) Clone() env.Game { c := *g; return &c }

// CopyFrom makes g a copy of src (a *Game).
func (g *Game) CopyFrom(src env.Game) { *g = *src.(*Game) }
