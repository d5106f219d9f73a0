package env

// Table, Placement, Mark and Spot are the words in which a game describes
// its table for pictures (package render declares the Layouter interface a
// game implements with them, and draws any game that does): where each card
// a player sees lies, which are face down, the empty places and the game's
// own marks.

import "github.com/patience-gym/patience/env/cards"

// Spot names a place of a table, or one card of it.
type Spot struct {
	// Place is the name of a pile, cell or slot, as in the move names
	// ("7" for fan 7, "F" the foundations, "w" the waste, "r1c5", "N3").
	Place string
	// Pos is the position of one card in the place (0 the deepest or
	// first), or -1 for the place as a whole.
	Pos int
}

// Whole returns the spot of the place p as a whole.
func Whole(p string) Spot { return Spot{Place: p, Pos: -1} }

// NoSpot is the spot of an action with no card to click.
var NoSpot = Spot{Pos: -1}

// Matches reports whether the placement p is in the spot: the same place,
// and the same position unless the spot is the whole place.
func (s Spot) Matches(p *Placement) bool {
	return s.Place != "" && s.Place == p.Place && (s.Pos < 0 || s.Pos == p.Pos)
}

// Table is a picture of a game's table as placements and marks, in table
// units: a unit is one card plus the gap beside it, across and down, so a
// card at (X, Y) covers X..X+CardWidth and Y..Y+CardHeight. The renderer
// scales units to pixels.
type Table struct {
	// Width and Height are the size of the table in units, fixed per game.
	Width, Height float64
	// Cards are the placements in drawing order: a later one covers an
	// earlier one.
	Cards []Placement
	// Marks are the game's own marks (labels, frames, areas, lines), drawn
	// under the cards.
	Marks []Mark
}

// The size of a card in table units.
const (
	CardWidth  = 0.88
	CardHeight = 0.886
)

// Placement is one card, one pile drawn as its top card, or one empty slot.
type Placement struct {
	// X and Y are the card's top left corner in table units.
	X, Y float64
	// Card is the face shown: a card, cards.FaceDown for a back, or
	// cards.None for an empty slot (drawn as an outline) or a pile drawn
	// without a face.
	Card cards.Card
	// Count is the number of cards the placement stands for: 0 for an
	// empty slot, 1 for one card, more for a pile drawn as its top card (a
	// foundation, a face-down stock). Cards under a face-up top are never
	// hidden ones: a squared pile whose lower cards are hidden is drawn as a
	// face-down pile with its top on it.
	Count int
	// Place and Pos tie the placement to the places that moves name (see
	// Spot): clicking it means that place, or that card of it.
	Place string
	Pos   int
	// Label is a short word printed in an empty slot or beside a pile
	// ("stock", "p1").
	Label string
	// Peek says which edge stays visible when a later card covers this one,
	// so the renderer puts the card's index there.
	Peek Peek
	// Flags are the game's marks on this card.
	Flags Flags
}

// Peek is the edge of a card that stays visible under the next card.
type Peek uint8

// The edges.
const (
	// PeekTop: the next card lies lower (fans and columns).
	PeekTop Peek = iota
	// PeekLeft: the next card lies to the right.
	PeekLeft
	// PeekRight: the next card lies to the left.
	PeekRight
)

// Flags are a game's marks on one placement.
type Flags uint8

// The flags.
const (
	// Picked marks a card chosen by a move under way (the first card of
	// a move that picks two).
	Picked Flags = 1 << iota
	// Paired marks a card paired onto the card it lies on.
	Paired
	// Complete marks a finished pile: one that takes no more cards.
	Complete
	// Locked marks a card that may only go home.
	Locked
	// Dim marks a slot that is out of use now (a row not yet in play, for
	// example).
	Dim
)

// MarkKind says what a Mark draws.
type MarkKind uint8

// The kinds of marks.
const (
	// MarkText writes Text in the box X..X+W, Y..Y+H (H is the line
	// height), aligned by Align.
	MarkText MarkKind = iota
	// MarkFrame draws a rounded outline around the box, with Text as its
	// caption above the top left corner.
	MarkFrame
	// MarkArea fills the box faintly (an area of the table, such as an
	// empty place cards are dealt to).
	MarkArea
	// MarkLine draws a line from (X, Y) to (X+W, Y+H).
	MarkLine
)

// Align is the horizontal alignment of a MarkText.
type Align uint8

// The alignments.
const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// Mark is one of a game's own marks on the table.
type Mark struct {
	Kind       MarkKind
	X, Y, W, H float64
	Text       string
	Align      Align
	// Strong draws the mark emphasized (bold text, a brighter frame).
	Strong bool
}

// Reset empties t and sets its size, keeping its slices' storage.
func (t *Table) Reset(width, height float64) {
	t.Width, t.Height = width, height
	t.Cards = t.Cards[:0]
	t.Marks = t.Marks[:0]
}

// Card adds one face-up or face-down card at (x, y) in place at position
// pos and returns it for further settings.
func (t *Table) Card(x, y float64, c cards.Card, place string, pos int) *Placement {
	t.Cards = append(t.Cards, Placement{X: x, Y: y, Card: c, Count: 1, Place: place, Pos: pos})
	return &t.Cards[len(t.Cards)-1]
}

// Pile adds a pile of count cards drawn as top (cards.FaceDown for a
// face-down pile) in place, or an empty slot with label when count is 0.
func (t *Table) Pile(x, y float64, top cards.Card, count int, place string, pos int, label string) *Placement {
	if count == 0 {
		top = cards.None
	}
	t.Cards = append(t.Cards, Placement{X: x, Y: y, Card: top, Count: count, Place: place, Pos: pos, Label: label})
	return &t.Cards[len(t.Cards)-1]
}

// Slot adds an empty slot of place, outlined, with label printed in it.
func (t *Table) Slot(x, y float64, place string, pos int, label string) *Placement {
	return t.Pile(x, y, cards.None, 0, place, pos, label)
}

// Text adds a label in the box x..x+w, y..y+h.
func (t *Table) Text(x, y, w, h float64, text string, align Align, strong bool) {
	t.Marks = append(t.Marks, Mark{Kind: MarkText, X: x, Y: y, W: w, H: h, Text: text, Align: align, Strong: strong})
}

// Frame adds a rounded outline around the box with caption.
func (t *Table) Frame(x, y, w, h float64, caption string, strong bool) {
	t.Marks = append(t.Marks, Mark{Kind: MarkFrame, X: x, Y: y, W: w, H: h, Text: caption, Strong: strong})
}

// Area adds a faintly filled box, with text written in its middle.
func (t *Table) Area(x, y, w, h float64, text string) {
	t.Marks = append(t.Marks, Mark{Kind: MarkArea, X: x, Y: y, W: w, H: h, Text: text})
}

// Line adds a line from (x1, y1) to (x2, y2).
func (t *Table) Line(x1, y1, x2, y2 float64) {
	t.Marks = append(t.Marks, Mark{Kind: MarkLine, X: x1, Y: y1, W: x2 - x1, H: y2 - y1})
}

// Step returns the distance between overlapping cards of a pile of n cards
// that must fit in room units: want, or less when the pile would not fit
// (a card is size units long in that direction).
func Step(n int, room, size, want float64) float64 {
	if n <= 1 {
		return want
	}
	return min(want, (room-size)/float64(n-1))
}

// FoundationPos returns the index (0..7, in the observation's order) of the
// foundation of f that card c goes onto, or -1 when none takes it: for
// ActionSpots of the games with two ascending foundations per suit.
func FoundationPos(f *cards.Foundations, c cards.Card) int {
	if !c.Valid() {
		return -1
	}
	s, r := 2*int(c.Suit()), uint8(c.Rank())
	switch r - 1 {
	case f[s]:
		return s
	case f[s+1]:
		return s + 1
	}
	return -1
}

// Foundations adds the eight foundations of f as place "F" (positions 0..7
// in the observation's order), one card wide each, from (x, y) rightwards,
// an empty one labelled with its suit.
func (t *Table) Foundations(x, y float64, f *cards.Foundations) {
	for i := range 8 {
		t.Pile(x+float64(i), y, f.Top(i), int(f[i]), "F", i, SuitLabels[i/2])
	}
}

// Column adds a column of overlapping cards cs, the first at the top, in
// place, whose name is written above it: its top card at (x, y), the cards
// want apart, or closer so that the column fits in room units of height;
// an empty column is a slot with label. It returns the placements of the
// cards, in cs's order (their positions 0, 1, ...), for the caller to mark.
func (t *Table) Column(x, y, room, want float64, place string, cs []cards.Card, label string) []Placement {
	t.Text(x, y-0.3, CardWidth, 0.24, place, AlignCenter, false)
	if len(cs) == 0 {
		t.Slot(x, y, place, -1, label)
		return nil
	}
	first := len(t.Cards)
	step := Step(len(cs), room, CardHeight, want)
	for k, c := range cs {
		t.Card(x, y+float64(k)*step, c, place, k)
	}
	return t.Cards[first:]
}

// SuitLabels are the suit symbols, in suit order, for labels.
var SuitLabels = [cards.NumSuits]string{"♣", "♦", "♥", "♠"}

// PlaceNames holds "1".."32", the names of numbered places, so layouts name
// places without allocating: PlaceNames[i] is the name of place i+1.
var PlaceNames = func() (s [32]string) {
	for i := range s {
		s[i] = itoa(i + 1)
	}
	return
}()

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
