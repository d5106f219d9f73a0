package limited

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// foundDests sets the moves of source s to every column in the bit set
// cols; on a nil mask (AnyLegal) it only reports whether there is one.
func foundDests(m *env.Mask, s int, cols uint16) bool {
	if m == nil {
		return cols != 0
	}
	for cols != 0 {
		d := bits.TrailingZeros16(cols)
		cols &= cols - 1
		m.Set(ActMove + s*NumDests + DstColumn + d)
	}
	return false
}

// Legal writes the legal actions into m.
func (g *Game) Legal(m *env.Mask) {
	m.Clear()
	g.legal(m)
}

// AnyLegal reports whether any action is legal (env.AnyLegaler): at once
// while the stock or the waste can be turned or dealt (first deal) or a
// fifth card drawn (second deal).
func (g *Game) AnyLegal() bool {
	if !g.lost && g.fifth == cards.None && (g.np > 0 || !g.second && g.nw > 0) {
		return true // ActTurn or ActDeal; ActFifth unless a privileged card plays
	}
	return g.legal(nil)
}

// legal sets the legal actions in m, or, when m is nil, returns true as
// soon as it finds one (and false if there is none).
func (g *Game) legal(m *env.Mask) bool {
	if g.lost {
		return false
	}
	// accept[k] holds the columns whose exposed, unpaired card takes card k
	// as a pair; empty holds the spaces.
	var accept [cards.NumCodes]uint16
	var empty uint16
	for d := range NumCols {
		n := g.n[d]
		if n == 0 {
			empty |= 1 << d
			continue
		}
		if g.paired&(1<<d) != 0 {
			continue
		}
		if t := g.cols[d][n-1]; t.Rank() > cards.Ace {
			accept[t-1] |= 1 << d
		}
	}
	// reserve sets the moves of a reserve card (waste top, privileged,
	// fifth) and reports whether it has any.
	reserve := func(s int, k cards.Card) bool {
		any := false
		if g.found.Fits(k) {
			m.Found(ActMove + s*NumDests + DstFoundation)
			any = true
		}
		if to := accept[k] | empty; to != 0 {
			foundDests(m, s, to)
			any = true
		}
		return any
	}
	if g.fifth != cards.None {
		return reserve(SrcFifth, g.fifth)
	}
	for s := range NumCols {
		n := g.n[s]
		if n == 0 {
			continue
		}
		k := g.cols[s][n-1]
		if g.found.Fits(k) && m.Found(ActMove+s*NumDests+DstFoundation) {
			return true
		}
		if g.paired&(1<<s) != 0 {
			continue
		}
		to := accept[k]
		if n > 1 {
			to |= empty
		}
		if foundDests(m, s, to) {
			return true
		}
	}
	if !g.second {
		if g.nw > 0 && reserve(SrcWaste, g.waste[g.nw-1]) && m == nil {
			return true
		}
		if g.np > 0 {
			return m.Found(ActTurn)
		}
		return g.nw > 0 && m.Found(ActDeal)
	}
	playable := false
	for i, k := range g.priv {
		if k != cards.None && reserve(SrcPriv+i, k) {
			if m == nil {
				return true
			}
			playable = true
		}
	}
	return !playable && g.np > 0 && m.Found(ActFifth)
}

// decode splits a card-move id into its source and destination.
func decode(a int) (src, dst int) {
	return (a - ActMove) / NumDests, (a - ActMove) % NumDests
}

// sourceName names a source for messages.
func sourceName(s int) string {
	switch {
	case s < NumCols:
		return fmt.Sprintf("column %d", s+1)
	case s == SrcWaste:
		return "the waste"
	case s < SrcFifth:
		return fmt.Sprintf("privileged slot %d", s-SrcPriv+1)
	}
	return "the fifth card"
}

// Explain says why action a is illegal, or returns nil. It follows the rules
// of docs/rules/limited.md directly.
func (g *Game) Explain(a int) error {
	if a < 0 || a >= NumActions {
		return env.Reasonf("no such action (the ids are 0..%d)", NumActions-1)
	}
	if g.lost {
		return env.Reasonf("the game is lost: the fifth card %v could not be played", g.fifth)
	}
	if g.fifth != cards.None {
		if a < ActTurn {
			if s, _ := decode(a); s == SrcFifth {
				return g.explainMove(a)
			}
		}
		return env.Reasonf("the fifth card %v must be played first (rule 9)", g.fifth)
	}
	switch a {
	case ActTurn:
		if g.second {
			return errors.New("the second deal has begun: there is no stock to turn")
		}
		if g.np == 0 {
			return errors.New("the stock is empty and is gone through only once: start the second deal")
		}
		return nil
	case ActDeal:
		if g.second {
			return errors.New("the second deal has already begun")
		}
		if g.np > 0 {
			return env.Reasonf("the second deal starts only when the stock is empty (it still holds %d)", g.np)
		}
		if g.nw == 0 {
			return errors.New("the waste is empty: there is nothing to deal again")
		}
		return nil
	case ActFifth:
		if !g.second {
			return errors.New("the fifth card belongs to the second deal")
		}
		if g.np == 0 {
			return errors.New("the pile is empty: there is no fifth card")
		}
		for i, k := range g.priv {
			if k != cards.None && g.canPlay(k) {
				return env.Reasonf("privileged card %v (p%d) can still be played: the fifth card is turned only when none can", k, i+1)
			}
		}
		return nil
	}
	return g.explainMove(a)
}

// canPlay reports whether a reserve card k could go to a foundation, pair
// onto a column or fill a space.
func (g *Game) canPlay(k cards.Card) bool {
	if g.found.Fits(k) {
		return true
	}
	for d := range NumCols {
		if g.n[d] == 0 || g.pairsOn(k, d) {
			return true
		}
	}
	return false
}

// pairsOn reports whether k may be paired onto column d: its exposed card is
// not paired and is of k's suit, one rank higher.
func (g *Game) pairsOn(k cards.Card, d int) bool {
	if g.n[d] == 0 || g.paired&(1<<d) != 0 {
		return false
	}
	t := g.cols[d][g.n[d]-1]
	return t.Suit() == k.Suit() && t.Rank() == k.Rank()+1
}

// explainMove checks a card move (source to destination).
func (g *Game) explainMove(a int) error {
	s, d := decode(a)
	var k cards.Card
	paired := false
	switch {
	case s < NumCols:
		if g.n[s] == 0 {
			return env.Reasonf("column %d is empty", s+1)
		}
		k = g.cols[s][g.n[s]-1]
		paired = g.paired&(1<<s) != 0
	case s == SrcWaste:
		if g.second {
			return errors.New("the waste was dealt again: in the second deal play the privileged cards")
		}
		if g.nw == 0 {
			return errors.New("the waste is empty")
		}
		k = g.waste[g.nw-1]
	case s < SrcFifth:
		if !g.second {
			return errors.New("the privileged cards come with the second deal")
		}
		if k = g.priv[s-SrcPriv]; k == cards.None {
			return env.Reasonf("privileged slot %d is empty", s-SrcPriv+1)
		}
	default:
		if k = g.fifth; k == cards.None {
			return errors.New("no fifth card is turned")
		}
	}
	if d == DstFoundation {
		return g.found.Why(k)
	}
	c := d - DstColumn
	if paired {
		below := g.cols[s][g.n[s]-2]
		return env.Reasonf("%v is paired with %v in column %d: a pair's cards go only to a foundation", k, below, s+1)
	}
	if c == s {
		return errors.New("a card cannot move onto its own column")
	}
	if g.n[c] == 0 {
		if s < NumCols && g.n[s] == 1 {
			return env.Reasonf("%v is alone in column %d: moving it into a space would change nothing", k, s+1)
		}
		return nil
	}
	t := g.cols[c][g.n[c]-1]
	if g.paired&(1<<c) != 0 {
		return env.Reasonf("column %d ends in a pair (%v on %v): nothing goes on a pair", c+1, t, g.cols[c][g.n[c]-2])
	}
	if t.Suit() != k.Suit() || t.Rank() != k.Rank()+1 {
		if t.Rank() == cards.Ace {
			return env.Reasonf("%v does not pair with %v: nothing pairs onto an ace", k, t)
		}
		return env.Reasonf("%v does not pair with %v: it takes the %v of %v", k, t, t.Rank()-1, t.Suit())
	}
	return nil
}

// Apply plays legal action a.
func (g *Game) Apply(a int) {
	switch a {
	case ActTurn:
		g.pushWaste(g.popPack())
		return
	case ActDeal:
		g.secondDeal()
		return
	case ActFifth:
		g.fifth = g.popPack()
		g.hash ^= fifthKey(g.fifth)
		g.lost = !g.canPlay(g.fifth)
		return
	}
	s, d := decode(a)
	var k cards.Card
	switch {
	case s < NumCols:
		k = g.popCol(s)
	case s == SrcWaste:
		var key uint64
		k, key = keysWaste.Pop(g.waste[:], &g.nw, 0)
		g.hash ^= key
	case s < SrcFifth:
		i := s - SrcPriv
		k = g.priv[i]
		g.hash ^= privKey(i, k)
		g.priv[i] = cards.None
		if g.np > 0 { // rule 8: refill the row from the pile
			g.priv[i] = g.popPack()
			g.hash ^= privKey(i, g.priv[i])
		}
	default:
		k = g.fifth
		g.hash ^= fifthKey(k)
		g.fifth = cards.None
	}
	if d == DstFoundation {
		g.toFoundation(k)
		return
	}
	c := d - DstColumn
	if g.n[c] > 0 {
		g.paired |= 1 << c
		g.hash ^= keysPaired[c]
	}
	g.hash ^= keysCol.Push(g.cols[c][:], &g.n[c], c*Height, k)
}

// popCol takes the top card of column c; a pair's upper card leaving makes
// the lower one single again.
func (g *Game) popCol(c int) cards.Card {
	k, key := keysCol.Pop(g.cols[c][:], &g.n[c], c*Height)
	g.hash ^= key
	if g.paired&(1<<c) != 0 {
		g.paired &^= 1 << c
		g.hash ^= keysPaired[c]
	}
	return k
}

// popPack takes the pile's next card, keeping the hash.
func (g *Game) popPack() cards.Card {
	k, key := keysPack.Pop(g.pack[:], &g.np, 0)
	g.hash ^= key
	return k
}

// pushWaste lays k on the waste, keeping the hash.
func (g *Game) pushWaste(k cards.Card) {
	g.hash ^= keysWaste.Push(g.waste[:], &g.nw, 0, k)
}

// secondDeal turns the waste over into the pile, the first card that went
// onto the waste coming first, and lays out the privileged row (rule 7).
func (g *Game) secondDeal() {
	n := int(g.nw)
	for i := range n {
		g.pack[i] = g.waste[i]
		g.waste[i] = cards.None
	}
	// The next card is the last of the pack: reverse so waste[0] comes first.
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		g.pack[i], g.pack[j] = g.pack[j], g.pack[i]
	}
	g.np, g.nw = uint8(n), 0
	g.second = true
	for i := 0; i < Privileged && g.np > 0; i++ {
		g.np--
		g.priv[i] = g.pack[g.np]
		g.pack[g.np] = cards.None
	}
	g.hash = g.fullHash()
}

// toFoundation puts c on its foundation.
func (g *Game) toFoundation(c cards.Card) {
	g.hash ^= g.found.PutKey(c, keysFound)
	g.home++
}
