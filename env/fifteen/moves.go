package fifteen

import (
	"errors"
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// rankOf and suitOf look up a card code's rank and suit (the hot path avoids
// the division).
var rankOf, suitOf [cards.NumCodes]uint8

func init() {
	for x := cards.Card(1); x <= 52; x++ {
		rankOf[x], suitOf[x] = uint8(x.Rank()), uint8(x.Suit())
	}
}

// Legal writes the legal actions into m.
func (g *Game) Legal(m *env.Mask) {
	m.Clear()
	g.legal(m)
}

// AnyLegal reports whether any action is legal (env.AnyLegaler). It looks
// in one pass over the available cards for the moves nearly every position
// has (a card that goes home, two cards that marry, a card that may go to
// an empty lane), and otherwise asks legal, which also finds the emergency
// moves.
func (g *Game) AnyLegal() bool {
	var onTop [cards.NumCodes + 1]bool
	empty, deep := false, false
	for c := range NumCols {
		n := g.n[c]
		if n == 0 {
			empty = true
			continue
		}
		deep = deep || n > 1
		x := g.cols[c][n-1]
		s, r := suitOf[x], rankOf[x]
		if r == upNext(g.up[s]) || r == downNext(g.down[s]) {
			return true // ActUp or ActDown
		}
		if r > uint8(cards.Ace) && onTop[x-1] || r < uint8(cards.King) && onTop[x+1] {
			return true // a marriage with an earlier column's card
		}
		onTop[x] = true
	}
	if empty && deep {
		return true // a card to the first empty lane
	}
	return g.legal(nil)
}

// legal sets the legal actions in m, or, when m is nil, returns true as
// soon as it finds one (and false if there is none).
func (g *Game) legal(m *env.Mask) bool {
	// onTop[code] holds the columns whose available card has that code.
	var onTop [cards.NumCodes + 1]uint16
	var tops [NumCols]cards.Card
	var empty uint16
	startable := false // an ace or a king is available
	for c := range NumCols {
		n := g.n[c]
		if n == 0 {
			empty |= 1 << c
			continue
		}
		x := g.cols[c][n-1]
		tops[c] = x
		onTop[x] |= 1 << c
		s, r := suitOf[x], rankOf[x]
		if r == upNext(g.up[s]) {
			if m.Found(ActUp + c) {
				return true
			}
		}
		if r == downNext(g.down[s]) {
			if m.Found(ActDown + c) {
				return true
			}
		}
		if r == uint8(cards.Ace) || r == uint8(cards.King) {
			startable = true
		}
	}
	for c, x := range tops {
		if x == cards.None {
			continue
		}
		var to uint16
		r := rankOf[x]
		if r > uint8(cards.Ace) {
			to |= onTop[x-1]
		}
		if r < uint8(cards.King) {
			to |= onTop[x+1]
		}
		if g.n[c] > 1 {
			to |= empty & -empty // the first empty lane: lanes are alike
		}
		for to != 0 {
			d := bits.TrailingZeros16(to)
			to &= to - 1
			if m.Found(ActMove + c*NumCols + d) {
				return true
			}
		}
	}
	if g.emergency || g.home != 0 || startable {
		return false
	}
	aces, kings := uint32(1), uint32(1) // bit i+1: column i; bit 0: none
	for c := range NumCols {
		if g.n[c] > EmergencyRow {
			switch g.cols[c][EmergencyRow].Rank() {
			case cards.Ace:
				aces |= 2 << c
			case cards.King:
				kings |= 2 << c
			}
		}
	}
	for as := aces; as != 0; as &= as - 1 {
		a := bits.TrailingZeros32(as)
		ks := kings
		if a == 0 {
			ks &^= 1
		}
		for ; ks != 0; ks &= ks - 1 {
			if m.Found(ActEmergency + 16*a + bits.TrailingZeros32(ks)) {
				return true
			}
		}
	}
	return false
}

// decode splits an action id into its kind and operands: the column for the
// foundation moves, source and destination columns for a column move, and
// the ace and king columns (1-based, 0 = none) for the emergency rule.
func decode(a int) (kind, x, y int) {
	switch {
	case a < ActDown:
		return ActUp, a - ActUp, 0
	case a < ActMove:
		return ActDown, a - ActDown, 0
	case a < ActEmergency:
		return ActMove, (a - ActMove) / NumCols, (a - ActMove) % NumCols
	default:
		return ActEmergency, (a - ActEmergency) / 16, (a - ActEmergency) % 16
	}
}

// Explain says why action a is illegal, or returns nil. It follows the rules
// of docs/rules/fifteen.md directly.
func (g *Game) Explain(a int) error {
	if a < 0 || a >= NumActions {
		return env.Reasonf("no such action (the ids are 0..%d)", NumActions-1)
	}
	kind, x, y := decode(a)
	switch kind {
	case ActUp, ActDown:
		if g.n[x] == 0 {
			return env.Reasonf("column %d is empty", x+1)
		}
		c := g.cols[x][g.n[x]-1] // rule 2: only the lowest card is available
		s := c.Suit()
		if kind == ActUp {
			top := cards.Rank(g.up[s])
			switch {
			case top == cards.King:
				return env.Reasonf("the %v up pile is finished", s)
			case top == 0 && c.Rank() != cards.Ace:
				return env.Reasonf("%v cannot start the %v up pile: only an ace can", c, s)
			case top != 0 && c.Rank() != top+1:
				return env.Reasonf("%v does not go on the %v up pile: it shows %v and takes the %v next", c, s, cards.New(s, top), cards.New(s, top+1))
			}
			return nil
		}
		top := cards.Rank(g.down[s])
		switch {
		case top == cards.Ace:
			return env.Reasonf("the %v down pile is finished", s)
		case top == 0 && c.Rank() != cards.King:
			return env.Reasonf("%v cannot start the %v down pile: only a king can", c, s)
		case top != 0 && c.Rank()+1 != top:
			return env.Reasonf("%v does not go on the %v down pile: it shows %v and takes the %v next", c, s, cards.New(s, top), cards.New(s, top-1))
		}
		return nil
	case ActMove:
		if x == y {
			return errors.New("a column cannot move onto itself")
		}
		if g.n[x] == 0 {
			return env.Reasonf("column %d is empty", x+1)
		}
		c := g.cols[x][g.n[x]-1]
		if g.n[y] == 0 {
			// Rule 5: an emptied column takes any available card.
			if g.n[x] == 1 {
				return env.Reasonf("%v is alone in column %d: moving it to the empty column %d would only trade one lane for another", c, x+1, y+1)
			}
			for z := range y {
				if g.n[z] == 0 {
					return env.Reasonf("empty columns are alike: a card goes into the first of them, column %d, not column %d", z+1, y+1)
				}
			}
			return nil
		}
		t := g.cols[y][g.n[y]-1]
		if c.Suit() != t.Suit() {
			return env.Reasonf("%v does not go on %v: a marriage needs the same suit", c, t)
		}
		if c.Rank()+1 != t.Rank() && t.Rank()+1 != c.Rank() {
			return env.Reasonf("%v does not go on %v: a marriage needs a rank one higher or one lower", c, t)
		}
		return nil
	}
	// The emergency rule (rule 6).
	switch {
	case x == 0 && y == 0:
		return errors.New("the emergency rule takes an ace, a king or both: name a column for at least one")
	case x == y:
		return env.Reasonf("column %d cannot give both the ace and the king: they come from two columns", x)
	case g.emergency:
		return errors.New("the emergency rule has been used: it is allowed once per game")
	}
	for s := range cards.NumSuits {
		if g.up[s] != 0 || g.down[s] != 0 {
			return errors.New("a foundation has been begun: the emergency rule is only for a game that cannot start")
		}
	}
	for c := range NumCols {
		if g.n[c] == 0 {
			continue
		}
		if r := g.cols[c][g.n[c]-1].Rank(); r == cards.Ace || r == cards.King {
			return env.Reasonf("%v is available in column %d: the emergency rule is only for a game that cannot start", g.cols[c][g.n[c]-1], c+1)
		}
	}
	if err := g.sixthCard(x, cards.Ace, "an ace"); err != nil {
		return err
	}
	return g.sixthCard(y, cards.King, "a king")
}

// sixthCard checks that 1-based column col (0 = none asked for) has a card
// of rank want in the sixth row.
func (g *Game) sixthCard(col int, want cards.Rank, what string) error {
	if col == 0 {
		return nil
	}
	c := col - 1
	if int(g.n[c]) <= EmergencyRow {
		return env.Reasonf("column %d has no card in the sixth row", col)
	}
	if x := g.cols[c][EmergencyRow]; x.Rank() != want {
		return env.Reasonf("the sixth card of column %d is %v, not %s", col, x, what)
	}
	return nil
}

// Apply plays legal action a.
func (g *Game) Apply(a int) {
	kind, x, y := decode(a)
	switch kind {
	case ActUp:
		g.toUp(g.pop(x))
	case ActDown:
		g.toDown(g.pop(x))
	case ActMove:
		g.push(y, g.pop(x))
	default:
		if x != 0 {
			g.toUp(g.removeAt(x-1, EmergencyRow))
		}
		if y != 0 {
			g.toDown(g.removeAt(y-1, EmergencyRow))
		}
		g.emergency = true
		g.hash ^= keyEmerg
	}
}

func (g *Game) toUp(c cards.Card) {
	s := int(c.Suit())
	g.hash ^= upKey(s, g.up[s])
	g.up[s] = uint8(c.Rank())
	g.hash ^= upKey(s, g.up[s])
	g.home++
}

func (g *Game) toDown(c cards.Card) {
	s := int(c.Suit())
	g.hash ^= downKey(s, g.down[s])
	g.down[s] = uint8(c.Rank())
	g.hash ^= downKey(s, g.down[s])
	g.home++
}

// push lays x on column c, keeping the hash.
func (g *Game) push(c int, x cards.Card) {
	g.hash ^= keysCard.Push(g.cols[c][:], &g.n[c], c*MaxHeight, x)
}

// pop takes the top card off column c, keeping the hash.
func (g *Game) pop(c int) cards.Card {
	x, key := keysCard.Pop(g.cols[c][:], &g.n[c], c*MaxHeight)
	g.hash ^= key
	return x
}

// removeAt takes the card at depth k out of column c; the cards below it
// move up one place.
func (g *Game) removeAt(c, k int) cards.Card {
	n := int(g.n[c])
	x := g.cols[c][k]
	for i := k; i < n; i++ {
		g.hash ^= cardKey(c, i, g.cols[c][i])
	}
	copy(g.cols[c][k:n-1], g.cols[c][k+1:n])
	g.cols[c][n-1] = cards.None
	g.n[c]--
	for i := k; i < n-1; i++ {
		g.hash ^= cardKey(c, i, g.cols[c][i])
	}
	return x
}
