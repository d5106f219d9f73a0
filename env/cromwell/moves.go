package cromwell

import (
	"errors"
	"math/bits"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/env/cards"
)

// layoutCounts returns the number of cards in the fans and how many of them
// have each code.
func (g *Game) layoutCounts() (total int, count [cards.NumCodes]uint8) {
	for f := range NumFans {
		for _, c := range g.fans[f][:g.n[f]] {
			count[c]++
		}
		total += int(g.n[f])
	}
	return total, count
}

// Legal writes the legal actions into m.
func (g *Game) Legal(m *env.Mask) {
	m.Clear()
	g.legal(m)
}

// AnyLegal reports whether any action is legal (env.AnyLegaler): at once
// while the swap is unused and the layout holds two different cards.
func (g *Game) AnyLegal() bool {
	if g.swappable() {
		return true // ActSwapBegin
	}
	if g.swap != SwapUnused && g.swap != SwapDone {
		return g.legal(nil) // picking the swap's cards
	}
	// One pass over the fans' top cards for the moves most positions
	// have; legal looks deeper into the runs.
	var onTop [cards.NumCodes + 1]bool
	for f := range NumFans {
		n := g.n[f]
		if n == 0 {
			continue
		}
		x := g.fans[f][n-1]
		if g.found.Fits(x) {
			return true // ActFoundation
		}
		if x.Rank() > cards.Ace && onTop[x-1] || x.Rank() < cards.King && onTop[x+1] {
			return true // a top card onto the next higher one of its suit
		}
		onTop[x] = true
	}
	return g.legal(nil)
}

// swappable reports whether the swap may begin: it is unused, and the
// layout holds two different cards.
func (g *Game) swappable() bool {
	return g.swap == SwapUnused && g.twoDifferent()
}

// twoDifferent reports whether the fans hold two different cards.
func (g *Game) twoDifferent() bool {
	var first cards.Card
	for f := range NumFans {
		for _, c := range g.fans[f][:g.n[f]] {
			if first == cards.None {
				first = c
			} else if c != first {
				return true
			}
		}
	}
	return false
}

// legal sets the legal actions in m, or, when m is nil, returns true as
// soon as it finds one (and false if there is none).
func (g *Game) legal(m *env.Mask) bool {
	switch g.swap {
	case SwapFirst:
		total, count := g.layoutCounts()
		for f := range NumFans {
			for k := 0; k < int(g.n[f]); k++ {
				if total-int(count[g.fans[f][k]]) > 0 {
					if m.Found(ActSwap + f*SwapDepth + k) {
						return true
					}
				}
			}
		}
		return false
	case SwapSecond:
		first := g.fans[g.pick/SwapDepth][g.pick%SwapDepth]
		for f := range NumFans {
			for k := 0; k < int(g.n[f]); k++ {
				if g.fans[f][k] != first {
					if m.Found(ActSwap + f*SwapDepth + k) {
						return true
					}
				}
			}
		}
		return false
	}
	// cover[suit][rank] holds the fans whose top run contains that card.
	var cover [cards.NumSuits][14]uint32
	for f := range NumFans {
		n := int(g.n[f])
		if n == 0 {
			continue
		}
		top := g.fans[f][n-1]
		if g.found.Fits(top) {
			if m.Found(ActFoundation + f) {
				return true
			}
		}
		s, r := top.Suit(), top.Rank()
		for k := g.run[f]; k > 0; k-- {
			cover[s][r] |= 1 << f
			r++
		}
	}
	for d := range NumFans {
		n := int(g.n[d])
		if n == 0 {
			continue
		}
		top := g.fans[d][n-1]
		srcs := cover[top.Suit()][top.Rank()-1] &^ (1 << d)
		for srcs != 0 {
			s := bits.TrailingZeros32(srcs)
			srcs &= srcs - 1
			if m.Found(ActMove + s*NumFans + d) {
				return true
			}
		}
	}
	if g.swappable() && m.Found(ActSwapBegin) {
		return true
	}
	return false
}

// decode splits an action id into its kind and operands.
func decode(a int) (kind, x, y int) {
	switch {
	case a < ActMove:
		return ActFoundation, a - ActFoundation, 0
	case a < ActSwapBegin:
		return ActMove, (a - ActMove) / NumFans, (a - ActMove) % NumFans
	case a == ActSwapBegin:
		return ActSwapBegin, 0, 0
	default:
		return ActSwap, (a - ActSwap) / SwapDepth, (a - ActSwap) % SwapDepth
	}
}

// Explain says why action a is illegal, or returns nil. It follows the rules
// of docs/rules/cromwell.md directly.
func (g *Game) Explain(a int) error {
	if a < 0 || a >= NumActions {
		return env.Reasonf("no such action (the ids are 0..%d)", NumActions-1)
	}
	kind, x, y := decode(a)
	switch {
	case g.noswap && (kind == ActSwap || kind == ActSwapBegin):
		return errors.New("this variant (noswap) has no swap")
	case (g.swap == SwapFirst || g.swap == SwapSecond) && kind != ActSwap:
		return errors.New("a swap is under way: pick its cards first")
	case kind == ActSwap && g.swap == SwapUnused:
		return errors.New("begin the swap first (the move \"swap\")")
	case kind == ActSwap && g.swap == SwapDone, kind == ActSwapBegin && g.swap != SwapUnused:
		return errors.New("the swap has been used")
	}
	switch kind {
	case ActFoundation:
		if g.n[x] == 0 {
			return env.Reasonf("fan %d is empty", x+1)
		}
		return g.found.Why(g.fans[x][g.n[x]-1])
	case ActMove:
		if x == y {
			return errors.New("a fan cannot move onto itself")
		}
		if g.n[x] == 0 {
			return env.Reasonf("fan %d is empty", x+1)
		}
		if g.n[y] == 0 {
			return env.Reasonf("fan %d is empty, and an emptied fan is never refilled", y+1)
		}
		target := g.fans[y][g.n[y]-1]
		if target.Rank() == cards.Ace {
			return env.Reasonf("nothing goes on %v", target)
		}
		// Walk the run at the top of x, from the top card down.
		for k := int(g.n[x]) - 1; k >= 0; k-- {
			c := g.fans[x][k]
			if c.Suit() == target.Suit() && c.Rank()+1 == target.Rank() {
				return nil
			}
			if k == 0 {
				break
			}
			below := g.fans[x][k-1]
			if below.Suit() != c.Suit() || below.Rank() != c.Rank()+1 {
				break
			}
		}
		return env.Reasonf("no card of the run on top of fan %d goes on %v (it needs the %v of %v)", x+1, target, cards.Rank(target.Rank()-1), target.Suit())
	case ActSwapBegin:
		if g.twoDifferent() {
			return nil
		}
		return errors.New("the fans hold no two different cards: a swap would change nothing")
	default:
		if y >= int(g.n[x]) {
			return env.Reasonf("fan %d has no card %d", x+1, y+1)
		}
		c := g.fans[x][y]
		if g.swap == SwapSecond {
			first := g.fans[g.pick/SwapDepth][g.pick%SwapDepth]
			if c == first {
				return env.Reasonf("%v is the same card as the first pick (%v): swapping them changes nothing", c, first)
			}
			return nil
		}
		// A first pick needs some other, different card to swap with.
		for f := range NumFans {
			for k := 0; k < int(g.n[f]); k++ {
				if g.fans[f][k] != c {
					return nil
				}
			}
		}
		return env.Reasonf("no other card differs from %v: a swap would change nothing", c)
	}
}

// Apply plays legal action a.
func (g *Game) Apply(a int) {
	kind, x, y := decode(a)
	switch kind {
	case ActFoundation:
		c := g.pop(x)
		g.toFoundation(c)
	case ActMove:
		target := g.fans[y][g.n[y]-1]
		top := g.fans[x][g.n[x]-1]
		g.moveCards(x, y, int(target.Rank())-int(top.Rank())) // x's run from the card one rank below target up
	case ActSwapBegin:
		g.setSwap(SwapFirst, -1)
	default:
		if g.swap == SwapFirst {
			g.setSwap(SwapSecond, int16(x*SwapDepth+y))
			return
		}
		f1, k1 := int(g.pick)/SwapDepth, int(g.pick)%SwapDepth
		c1, c2 := g.fans[f1][k1], g.fans[x][y]
		g.set(f1, k1, c2)
		g.set(x, y, c1)
		g.setSwap(SwapDone, -1)
	}
}

// setSwap moves the swap to a stage, keeping the hash.
func (g *Game) setSwap(stage SwapStage, pick int16) {
	g.hash ^= g.swapKey()
	g.swap, g.pick = stage, pick
	g.hash ^= g.swapKey()
}

func (g *Game) set(f, k int, c cards.Card) {
	g.hash ^= cardKey(f, k, g.fans[f][k]) ^ cardKey(f, k, c)
	kings, pairs := g.tally(f)
	g.fans[f][k] = c
	g.run[f] = uint8(g.runLen(f))
	nk, np := g.tally(f)
	g.kings += nk - kings
	g.pairs += np - pairs
}

// moveCards moves the top k cards of fan from onto fan to.
func (g *Game) moveCards(from, to, k int) {
	n := int(g.n[from])
	for i := n - k; i < n; i++ {
		g.push(to, g.fans[from][i])
	}
	for range k {
		g.pop(from)
	}
}

// push lays c on fan f, keeping the run on top and the hash.
func (g *Game) push(f int, c cards.Card) {
	if k := g.n[f]; k > 0 && g.fans[f][k-1] == c+1 && c.Rank() != cards.King {
		g.run[f]++ // c continues the run: same suit, one rank lower
	} else {
		g.run[f] = 1
	}
	g.kings, g.pairs = g.kings+kingDepth(c, int(g.n[f])), g.pairs+lowerBelow(&g.fans[f], int(g.n[f]), c)
	g.hash ^= keysCard.Push(g.fans[f][:], &g.n[f], f*MaxDepth, c)
}

// pop takes the top card off fan f, keeping the run on top and the hash.
func (g *Game) pop(f int) cards.Card {
	c, key := keysCard.Pop(g.fans[f][:], &g.n[f], f*MaxDepth)
	g.hash ^= key
	g.kings, g.pairs = g.kings-kingDepth(c, int(g.n[f])), g.pairs-lowerBelow(&g.fans[f], int(g.n[f]), c)
	if g.run[f] > 1 {
		g.run[f]--
	} else {
		g.run[f] = uint8(g.runLen(f))
	}
	return c
}

// toFoundation puts c on its foundation.
func (g *Game) toFoundation(c cards.Card) {
	g.hash ^= g.found.PutKey(c, keysFound)
	g.home++
}
